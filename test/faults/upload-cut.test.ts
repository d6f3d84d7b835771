// A lost upload whose body was never all sent (issue 45): the service never
// had the whole of it, so one read settles what can be settled, and the
// outcome is said at once (unknown, naming the check), not after --timeout.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { harness, uid, type Harness } from '../e2e/helpers.js';

let h: Harness;
let front: { url: string; log: string[]; close(): Promise<void> };

/** Passes everything to the emulator, except an upload (POST .../versions): reset once 64 KiB of its body arrived. */
async function cuttingFront(target: string): Promise<typeof front> {
  const log: string[] = [];
  const server: Server = createServer((req, res) => {
    log.push(`${req.method} ${(req.url ?? '/').split('?')[0]}`);
    if (req.method === 'POST' && /\/versions$/.test((req.url ?? '').split('?')[0]!)) {
      let seen = 0;
      req.on('data', (chunk: Buffer) => {
        seen += chunk.length;
        if (seen >= 64 * 1024) req.socket.resetAndDestroy();
      });
      return;
    }
    const url = new URL(req.url ?? '/', target);
    const upstream = httpRequest(url, { method: req.method, headers: { ...req.headers, host: url.host } }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    log,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

beforeAll(async () => {
  h = await harness();
  front = await cuttingFront(h.emu.baseUrl);
});
afterAll(async () => {
  await front?.close();
  await h?.close();
});

describe('an upload cut before its body was all sent', () => {
  it('one settling read, then unknown at once naming the check (exit 6), never a wait to the end of --timeout', async () => {
    const id = uid('cut');
    await h.createAsset(id);
    const file = await h.file(`${id}.bin`, 'x'.repeat(32 * 1024 * 1024));
    const run = await h.ahs(['version', 'upload', id, file, '--platform', 'ios', '--name', '1.0', '--timeout', '20'], { env: { AHS_BASE_URL: front.url } });
    expect(run.exitCode).toBe(6);
    expect(run.stderr).toMatch(/its body was not all sent \(\d+ of \d+ bytes\)/);
    expect(run.stderr).toContain(`check with \`ahs version list ${id} --all\``);
    expect(run.stderr).not.toMatch(/safe to retry|read \d+ times within --timeout/);
    // The reads before the upload, the upload, and one read that settles it.
    expect(front.log.filter((line) => line === `POST /api/v2/demo/va/${id}/versions`)).toHaveLength(1);
    const settling = front.log.slice(front.log.indexOf(`POST /api/v2/demo/va/${id}/versions`) + 1);
    expect(settling).toEqual([`GET /api/v2/demo/va/${id}/versions`]);
    expect((await h.call('GET', `/va/${id}/versions`)).body.totalResults).toBe(0);
  });
});
