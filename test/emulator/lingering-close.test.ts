// An answer sent before a request's body was read (no key: 403; a missing
// collection: 400) reaches every ordinary client: the emulator reads and drops
// the rest of the body (a lingering close, bounded in time and bytes) instead
// of closing under a client still sending, which most clients report as
// EPIPE or ECONNRESET, not as the answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request, type IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import { finished, pipeline } from 'node:stream/promises';
import { connect } from 'node:net';
import { execa } from 'execa';
import type { RequestLimits, RunningEmulator } from '../../src/emulator/index.js';
import { DEMO_API_KEY, withEmulator } from './helpers.js';

const UPLOADS = 40;
const PIECE = 64 * 1024;
const BODY = Buffer.alloc(2 * 1024 * 1024, 7);
const UPLOAD_PATH = '/api/v2/demo/va/A1/versions?targetPlatformId=ios';

let emu: RunningEmulator;
beforeAll(async () => {
  ({ emu } = await withEmulator());
});
afterAll(() => emu.close());

/**
 * One 2 MB upload with node:http as a client streaming a file sends it (a
 * pipeline of 64 KB pieces, then the answer): the answer's status, or the
 * error the client got instead.
 */
async function nodeUpload(baseUrl: string, path: string, headers: Record<string, string> = {}): Promise<number | string> {
  const req = request(`${baseUrl}${path}`, { method: 'POST', agent: false, headers: { 'content-type': 'application/octet-stream', 'content-length': String(BODY.length), ...headers } });
  const answered = new Promise<IncomingMessage>((resolve) => req.once('response', resolve));
  try {
    await pipeline(Readable.from(pieces()), req);
    const res = await answered;
    res.resume();
    await finished(res);
    return res.statusCode ?? 0;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? String(error);
  }
}

function* pieces() {
  for (let at = 0; at < BODY.length; at += PIECE) yield BODY.subarray(at, at + PIECE);
}

const PYTHON = `
import http.client, sys
host, port, path, key, count = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], int(sys.argv[5])
body = bytes(2 * 1024 * 1024)
def pieces():
    for at in range(0, len(body), 65536):
        yield body[at:at + 65536]
for _ in range(count):
    conn = http.client.HTTPConnection(host, port, timeout=30)
    headers = {'content-type': 'application/octet-stream', 'content-length': str(len(body))}
    if key: headers['apikey'] = key
    try:
        conn.request('POST', path, body=pieces(), headers=headers)
        response = conn.getresponse()
        response.read()
        print(response.status)
    except Exception as error:
        print(type(error).__name__)
    finally:
        conn.close()
`;

async function pythonUploads(baseUrl: string, path: string, key = ''): Promise<string[]> {
  const { hostname, port } = new URL(baseUrl);
  const run = await execa('python3', ['-c', PYTHON, hostname, port, path, key, String(UPLOADS)]);
  return run.stdout.split('\n');
}

describe('an answer sent before the body was read', () => {
  it('reaches node:http in every one of 40 uploads of 2 MB without a key (403)', async () => {
    const outcomes: Array<number | string> = [];
    for (let i = 0; i < UPLOADS; i++) outcomes.push(await nodeUpload(emu.baseUrl, UPLOAD_PATH));
    expect(outcomes).toEqual(Array(UPLOADS).fill(403));
  });

  it("reaches Python's http.client in every one of 40 uploads of 2 MB without a key (403)", async () => {
    expect(await pythonUploads(emu.baseUrl, UPLOAD_PATH)).toEqual(Array(UPLOADS).fill('403'));
  });

  it('reaches both for an item upload into a collection that does not exist (400)', async () => {
    const path = '/api/v2/demo/vc/no-such-collection/items';
    const outcomes: Array<number | string> = [];
    for (let i = 0; i < 10; i++) outcomes.push(await nodeUpload(emu.baseUrl, path, { apikey: DEMO_API_KEY }));
    expect(outcomes).toEqual(Array(10).fill(400));
    const python = await pythonUploads(emu.baseUrl, path, DEMO_API_KEY);
    expect(python).toEqual(Array(UPLOADS).fill('400'));
  });
});

describe('the lingering close is bounded', () => {
  const lingering: RunningEmulator[] = [];
  afterAll(async () => {
    for (const running of lingering) await running.close();
  });

  /** A raw upload declaring `declared` bytes, sending `sent` of them, then waiting: what it read, and whether the server closed. */
  async function rawUpload(limits: Partial<RequestLimits>, declared: number, sent: number) {
    const { emu: bounded } = await withEmulator({ limits });
    lingering.push(bounded);
    const { hostname, port } = new URL(bounded.baseUrl);
    const socket = connect(Number(port), hostname);
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString('latin1')));
    socket.on('error', () => undefined);
    const started = Date.now();
    const closed = new Promise<number>((resolve) => socket.on('close', () => resolve(Date.now() - started)));
    socket.write(`POST ${UPLOAD_PATH} HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\nContent-Length: ${declared}\r\n\r\n`);
    socket.write(Buffer.alloc(sent, 1));
    const after = await closed;
    return { received, after };
  }

  it('cuts a client that stops sending after lingerMs', async () => {
    const { received, after } = await rawUpload({ lingerMs: 300 }, 10 * 1024 * 1024, 64 * 1024);
    expect(received).toMatch(/^HTTP\/1\.1 403 /);
    expect(after).toBeGreaterThanOrEqual(250);
    expect(after).toBeLessThan(5_000);
  });

  it('cuts a client that sends more than lingerBytes', async () => {
    // Long before the time bound: the bytes cut it.
    const { received, after } = await rawUpload({ lingerBytes: 256 * 1024, lingerMs: 60_000 }, 100 * 1024 * 1024, 4 * 1024 * 1024);
    expect(received).toMatch(/^HTTP\/1\.1 403 /);
    expect(after).toBeLessThan(10_000);
  });
});
