// Time limits of a request (short ones here: startEmulator's `limits`) and
// requests Node cannot parse: each answered with the usual error body on a
// raw socket, then the connection closes; close() cuts what is left.
import { afterEach, describe, expect, it } from 'vitest';
import { connect, type Socket } from 'node:net';
import type { RequestLimits, RunningEmulator } from '../../src/emulator/index.js';
import { DEMO_API_KEY, DEMO_USER, ERROR_TYPE, parseRaw, withEmulator } from './helpers.js';

const running: RunningEmulator[] = [];
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  for (const emu of running.splice(0)) await emu.close();
});

async function emulator(limits: Partial<RequestLimits>) {
  const started = await withEmulator({ limits });
  running.push(started.emu);
  return started;
}

/** Sends `text` on a raw connection and resolves with everything the server wrote before it closed. */
function exchange(baseUrl: string, text: string): { socket: Socket; reply: Promise<string> } {
  const { hostname, port } = new URL(baseUrl);
  const socket = connect(Number(port), hostname);
  sockets.push(socket);
  let received = '';
  const reply = new Promise<string>((resolve) => {
    socket.on('data', (chunk) => (received += chunk.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(received));
  });
  socket.write(text);
  return { socket, reply };
}

function expectProblem(raw: string, status: number, title: RegExp): void {
  const answer = parseRaw(raw);
  expect(answer.status).toBe(status);
  expect(answer.head).toContain('connection: close');
  expect(answer.head).toContain('content-type: application/json');
  expect(answer.body).toEqual({ type: ERROR_TYPE, title: expect.stringMatching(title), status, detail: answer.body.title });
}

describe('request time limits', () => {
  it('headers that stop halfway: 408 with the error body once headersTimeoutMs passes', async () => {
    const { emu } = await emulator({ headersTimeoutMs: 200 });
    const { reply } = exchange(emu.baseUrl, `GET /api/v2/demo/va HTTP/1.1\r\nHost: emulator\r\napike`);
    expectProblem(await reply, 408, /not received in time/);
  });

  it('an upload that trickles: 408 once requestTimeoutMs passes, and nothing is stored', async () => {
    const { emu, client } = await emulator({ headersTimeoutMs: 300, requestTimeoutMs: 300 });
    await client.createAsset('slow');
    const boundary = 'limit-boundary';
    const { socket, reply } = exchange(
      emu.baseUrl,
      `POST /api/v2/demo/va/slow/versions?targetPlatformId=ios HTTP/1.1\r\nHost: emulator\r\napikey: ${DEMO_API_KEY}\r\n` +
        `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: 100000\r\n\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="versionName"\r\n\r\nv1\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="createdBy"\r\n\r\n${DEMO_USER}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="assetFile"; filename="slow.zip"\r\n\r\n`,
    );
    const trickle = setInterval(() => socket.write('x'), 20);
    try {
      expectProblem(await reply, 408, /not received in time/);
    } finally {
      clearInterval(trickle);
    }
    expect((await client.get('/va/slow/versions')).body.totalResults).toBe(0);
  });

  it('close() cuts a connection still busy after shutdownGraceMs', async () => {
    const { emu } = await withEmulator({ limits: { shutdownGraceMs: 100 } });
    const { reply } = exchange(emu.baseUrl, `GET /api/v2/demo/va HTTP/1.1\r\nHost: emulator\r\napike`);
    // An answered request first proves the server holds the connection.
    const warm = exchange(emu.baseUrl, `GET /healthz HTTP/1.1\r\nHost: emulator\r\nConnection: close\r\n\r\n`);
    expect(parseRaw(await warm.reply).status).toBe(200);
    await emu.close();
    expect(await reply).toBe('');
  });
});

describe('requests Node cannot parse', () => {
  it.each([
    ['a control byte in a header value', `GET /api/v2/demo/va HTTP/1.1\r\nHost: emulator\r\napikey: demo\x01key\r\n\r\n`],
    ['a space in the path', `GET /api/v2/demo/va /x HTTP/1.1\r\nHost: emulator\r\n\r\n`],
    ['a bad Content-Length', `POST /api/v2/demo/va HTTP/1.1\r\nHost: emulator\r\nContent-Length: ten\r\n\r\n`],
    ['a header name with a bracket', `GET /api/v2/demo/va HTTP/1.1\r\nHost: emulator\r\nap[i]key: x\r\n\r\n`],
  ])('%s: 400 with the error body, the connection closed', async (_name, request) => {
    const { emu } = await emulator({});
    const { reply } = exchange(emu.baseUrl, request);
    expectProblem(await reply, 400, /^Malformed HTTP request: /);
  });

  it('headers larger than Node takes: 431 with the error body', async () => {
    const { emu } = await emulator({});
    const { reply } = exchange(emu.baseUrl, `GET /api/v2/demo/va HTTP/1.1\r\nHost: emulator\r\nx-big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expectProblem(await reply, 431, /too large/);
  });
});
