// Servers that obey HTTP loosely or not at all, met by the CLI (main(); the
// built binary where what Node itself prints, or the bundle's choice of
// transport, is the point) and by the download reader: a close right after each answer without
// `Connection: close`, thousands of headers, control characters in header
// values and bodies, a status outside 100-599 (issue 30). And the transport
// each request takes: every request to the API goes through undici, only
// delivery downloads through the hand-written reader (lean.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { readFile } from 'node:fs/promises';
import { harness, stubServer, uid, DEMO_USER, type Harness } from '../e2e/helpers.js';
import { answerBytes, rawServer, type RawServer } from '../support/raw-server.js';
import { leanTransport } from '../../src/http/lean.js';
import { AnswerParser, MAX_HEADER_LINES } from '../../src/http/http1.js';
import { ApiClient } from '../../src/http/client.js';
import { UnexpectedAnswerError } from '../../src/http/errors.js';

let h: Harness;
let asset: Record<string, unknown>;
const ESC = '\u001b';
const BEL = '\u0007';

beforeAll(async () => {
  h = await harness();
  await h.createAsset('a1');
  asset = (await h.call('GET', '/va/a1')).body;
});
afterAll(async () => h?.close());

const json = (body: unknown, status = '200 OK', headers: Array<[string, string]> = []) => answerBytes(status, [['content-type', 'application/json'], ...headers], JSON.stringify(body));

async function withServer<T>(server: Promise<RawServer>, use: (server: RawServer) => Promise<T>): Promise<T> {
  const running = await server;
  try {
    return await use(running);
  } finally {
    await running.close();
  }
}

function signal(): AbortSignal {
  return new AbortController().signal;
}

describe('a server that closes the connection after each answer, without Connection: close', () => {
  it('asset update (a read, then a write): exit 0, each request on a connection of its own', async () => {
    await withServer(rawServer(() => json(asset), { closeAfter: true }), async (server) => {
      // --no-journal: the domain journal's check (a read beside the write) is not this test's point.
      const r = await h.ahs(['asset', 'update', 'a1', '--name', 'm', '--json', '--no-journal'], { env: { AHS_BASE_URL: server.url } });
      expect(r.exitCode, r.stderr).toBe(0);
      expect(server.requests.map((request) => request.method)).toEqual(['GET', 'PUT']);
      expect(server.requests.map((request) => request.onConnection)).toEqual([1, 1]);
      expect(r.stderr).not.toMatch(/lost|may have been applied/);
    });
  });

  it('a download after a download, the second sent the moment the first is whole: both arrive', async () => {
    await withServer(rawServer((request) => answerBytes('200 OK', [], `file ${request.path}`), { closeAfter: true }), async (server) => {
      const transport = leanTransport(1);
      try {
        for (const name of ['/one', '/two', '/three']) {
          const answer = await transport.request(`${server.url}${name}`, { method: 'GET', headers: {}, signal: signal(), timeoutMs: 5000 });
          expect(await answer.body.text()).toBe(`file ${name}`);
        }
        expect(server.requests.map((request) => request.onConnection)).toEqual([1, 1, 1]);
        expect(server.connections).toBe(3);
      } finally {
        await transport.destroy();
      }
    });
  });
});

describe('an answer with thousands of header lines', () => {
  const head = (count: number) => Buffer.from(`HTTP/1.1 200 OK\r\n${'a:\r\n'.repeat(count)}content-length: 2\r\n\r\nok`, 'latin1');

  it(`the download reader refuses 16,300 repeated "a:" headers (over its cap of ${MAX_HEADER_LINES}) at once, fed in one read or byte by byte`, () => {
    const bytes = head(16_300);
    for (const step of [bytes.length, 1]) {
      const started = performance.now();
      const parser = new AnswerParser();
      expect(() => {
        for (let at = 0; at < bytes.length && !parser.head; at += step) parser.readHead(bytes, at, Math.min(bytes.length, at + step));
      }).toThrow(`more than ${MAX_HEADER_LINES} header lines`);
      // A bound only a quadratic reader passes (seconds per thousand lines), never a loaded machine's
      // linear one (it took 1.03 s byte by byte at load 15): a guard against the blow-up, not a timing.
      expect(performance.now() - started).toBeLessThan(10_000);
    }
  });

  it('the download reader takes repeats up to its cap in linear time, each value kept', () => {
    const started = performance.now();
    const parser = new AnswerParser();
    const bytes = head(MAX_HEADER_LINES - 1);
    expect(parser.readHead(bytes, 0, bytes.length)).toBe(bytes.length - 2);
    expect(parser.head!.headers.a).toHaveLength(MAX_HEADER_LINES - 1);
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it('a read through undici: 16,300 repeated headers are answered (exit 0) in well under a second of the CLI\'s own time', async () => {
    const body = JSON.stringify(asset);
    await withServer(rawServer(() => Buffer.from(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n${'a:\r\n'.repeat(16_300)}content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`, 'latin1')), async (server) => {
      const api = new ApiClient({ baseUrl: server.url, domainId: 'demo', apiKey: 'k', timeoutMs: 5000, retries: 0, env: {} });
      try {
        const started = performance.now();
        await expect(api.get(api.path('va', 'a1'))).resolves.toMatchObject({ assetId: 'a1' });
        expect(performance.now() - started).toBeLessThan(10_000);
      } finally {
        await api.destroy();
      }
    });
  });
});

describe('control characters in header values', () => {
  it.each([
    ['CR', '\r'],
    ['NUL', '\u0000'],
    ['ESC', ESC],
    ['BEL', BEL],
    ['DEL', '\u007f'],
    ['VT', '\u000b'],
  ])('the download reader refuses a value holding %s', (_name, char) => {
    const bytes = Buffer.from(`HTTP/1.1 200 OK\r\nx-title: a${char}]0;pwned${BEL}b\r\ncontent-length: 0\r\n\r\n`, 'latin1');
    expect(() => new AnswerParser().readHead(bytes, 0, bytes.length)).toThrow('a control character in the value of the header "x-title"');
  });

  it('takes tabs, blanks and obs-text (latin1 bytes) inside a value', () => {
    const bytes = Buffer.from('HTTP/1.1 200 OK\r\nx: a\tb c\xe9\r\ncontent-length: 0\r\n\r\n', 'latin1');
    const parser = new AnswerParser();
    parser.readHead(bytes, 0, bytes.length);
    expect(parser.head!.headers.x).toBe('a\tb c\xe9');
  });

  it('asset get against a server whose header holds ESC: refused, and nothing raw reaches the terminal', async () => {
    await withServer(rawServer(() => json(asset, '200 OK', [['x-title', `${ESC}]0;pwned${BEL}`]])), async (server) => {
      const r = await h.ahs(['asset', 'get', 'a1', '-v', '--retries', '0'], { binary: true, env: { AHS_BASE_URL: server.url } });
      expect(r.exitCode).not.toBe(0);
      expect(r.stdout + r.stderr).not.toMatch(/[\u0007\u001b]/);
    });
  });
});

describe('a status outside 100-599', () => {
  it.each(['000 OK', '099 Odd', '600 Odd', '999 Odd'])('asset create answered "%s": exit 1, urn:ahs:unexpected-answer, never "Created"', async (status) => {
    await withServer(rawServer((request) => (request.method === 'GET' ? json({ type: 'about:blank', title: 'Not Found', status: 404 }, '404 Not Found') : json(asset, status))), async (server) => {
      const r = await h.ahs(['asset', 'create', 'a1', '--name', 'n', '--type', '1001', '--json'], { env: { AHS_BASE_URL: server.url } });
      expect(r.exitCode, r.stderr).toBe(1);
      expect(r.errJson()).toMatchObject({ type: 'urn:ahs:unexpected-answer' });
      expect(r.stdout).toBe('');
      expect(r.stderr).not.toContain('Created');
      const table = await h.ahs(['asset', 'create', 'a1', '--name', 'n', '--type', '1001'], { env: { AHS_BASE_URL: server.url } });
      expect(table.exitCode).toBe(1);
      expect(table.stderr).not.toContain('✓');
    });
  });

  it('a download answered with status 000 is an unexpected answer, not a file', async () => {
    await withServer(rawServer(() => answerBytes('000 OK', [], 'bytes')), async (server) => {
      const api = new ApiClient({ baseUrl: server.url, timeoutMs: 5000, retries: 0, env: {} });
      try {
        await expect(api.send({ method: 'GET', path: `${server.url}/file.zip`, headers: { accept: '*/*' } })).rejects.toBeInstanceOf(UnexpectedAnswerError);
      } finally {
        await api.destroy();
      }
    });
  });
});

describe('--verbose and what a server sends', () => {
  it('escapes ESC, BEL and CR of header values (obs-text C1 included) and of bodies, success and error alike', async () => {
    const hostile = `${ESC}]0;title${BEL}${ESC}[2J\r< 200 forged`;
    await withServer(
      rawServer((request) =>
        request.method === 'GET'
          ? answerBytes('200 OK', [['content-type', 'application/json'], ['x-csi', '\x9b2J\x9b31m']], `{"assetId":"a1","x":"${hostile}"}`)
          : answerBytes('500 Internal Server Error', [['content-type', 'text/plain']], hostile),
      ),
      async (server) => {
        const read = await h.ahs(['asset', 'get', 'a1', '-v', '--retries', '0'], { env: { AHS_BASE_URL: server.url } });
        expect(read.stderr).toContain('\\e]0;title\\x07\\e[2J\\r< 200 forged');
        expect(read.stderr).toContain('x-csi: \\x9b2J\\x9b31m');
        const write = await h.ahs(['asset', 'update', 'a1', '--name', 'm', '--type', '1001', '-v', '--retries', '0'], { env: { AHS_BASE_URL: server.url } });
        expect(write.stderr).toContain('\\e]0;title\\x07');
        for (const r of [read, write]) {
          expect(r.stderr).not.toMatch(/[\u0007\u001b\u009b]/);
          expect(r.stderr.split('\n').filter((line) => line.includes('forged')).every((line) => !line.startsWith('< 200'))).toBe(true);
        }
      },
    );
  });
});

describe('which transport carries which request', () => {
  it('every request to the API goes through undici; only the delivery download through the download reader', async () => {
    // The download reader asks for the bytes as stored (accept-encoding: identity); API requests (undici) for gzip and br.
    const spy = await stubServer(() => false, h.emu.baseUrl);
    try {
      const env = { AHS_BASE_URL: spy.url, AHS_DELIVERY_URL: spy.url };
      const id = uid('tr');
      const file = await h.file(`${id}.zip`, 'the bytes of a small version');
      for (const args of [
        ['asset', 'create', id, '--name', 'n', '--type', '1001'],
        ['asset', 'update', id, '--name', 'm'],
        ['version', 'upload', id, file, '--platform', 'ios', '--name', '1.0', '--json'],
      ]) {
        const r = await h.ahs(args, { binary: true, env });
        expect(r.exitCode, r.stderr).toBe(0);
      }
      const versionId = (await h.call('GET', `/va/${id}/versions?targetPlatformId=ios`)).body.results[0].versionId as string;
      expect((await h.deploy(id, versionId, 'ios', 'prod', 'LIVE')).status).toBe(201);
      const target = join(h.dir, `${id}-down.zip`);
      const down = await h.ahs(['version', 'download', id, versionId, '--env', 'prod', '-O', target], { binary: true, env });
      expect(down.exitCode, down.stderr).toBe(0);
      expect(await readFile(target, 'utf8')).toBe('the bytes of a small version');
      const lean = spy.requests.filter((request) => request.headers['accept-encoding'] === 'identity');
      const writes = spy.requests.filter((request) => request.method !== 'GET');
      expect(writes.map((request) => request.method).sort()).toEqual(['POST', 'POST', 'PUT']);
      expect(lean.length).toBeGreaterThan(0);
      expect(lean.every((request) => request.method === 'GET' && request.url.endsWith('.zip'))).toBe(true);
      expect(spy.requests.filter((request) => request.url.startsWith('/api/v2/')).every((request) => request.headers['accept-encoding'] === 'gzip, br')).toBe(true);
    } finally {
      await spy.close();
    }
    expect(DEMO_USER).toBeTruthy();
  });
});
