// `ahs emulator start`: parsing (argv -> options) and behaviour (ready line,
// human block, clean stop on the abort signal).
import { describe, expect, it } from 'vitest';
import { PassThrough } from 'node:stream';
import { main } from '../../src/main.js';
import { run } from '../../src/commands/emulator/start.js';
import type { Context } from '../../src/context.js';
import type { IO } from '../../src/io/streams.js';
import { UsageError } from '../../src/errors.js';

function fakeIO() {
  const out = new PassThrough();
  const err = new PassThrough();
  let outText = '';
  let errText = '';
  out.on('data', (chunk) => (outText += chunk));
  err.on('data', (chunk) => (errText += chunk));
  /** Resolves once stdout holds what `check` looks for (on each write, no polling). */
  const outUntil = (check: (text: string) => boolean) =>
    new Promise<void>((resolve) => {
      if (check(outText)) return resolve();
      const onData = () => {
        if (!check(outText)) return;
        out.off('data', onData);
        resolve();
      };
      out.on('data', onData);
    });
  const io = { out, err, in: new PassThrough(), outIsTTY: false, errIsTTY: false, inIsTTY: false, color: false, errColor: false, canPrompt: false, ci: true, env: {} } as IO;
  return { io, out: () => outText, err: () => errText, outUntil };
}

function context(io: IO, signal: AbortSignal, format: 'json' | 'table' = 'table'): Context {
  return { io, signal, format, globals: { input: false, color: false } } as Context;
}

describe('ahs emulator start', () => {
  it('parses its flags', async () => {
    let seen: Record<string, unknown> = {};
    const parse = (argv: string[]) =>
      main(argv, {
        io: fakeIO().io,
        runner: async (_leaf, options) => {
          seen = options;
        },
      });
    expect(await parse(['emulator', 'start', '--port', '8123', '--host', '0.0.0.0', '--config', 'f.json', '--data-dir', 'd', '--json'])).toBe(0);
    expect(seen).toMatchObject({ port: 8123, host: '0.0.0.0', config: 'f.json', dataDir: 'd' });
    expect(await parse(['emulator', 'start'])).toBe(0);
    expect(seen).toMatchObject({ port: 0, host: '127.0.0.1' });
    expect(await parse(['emulator', 'start', '--port', '70000'])).toBe(2);
  });

  it('--json: the ready line is the first stdout line; stops cleanly on abort', async () => {
    const { io, out, err, outUntil } = fakeIO();
    const stop = new AbortController();
    const running = run({ host: '127.0.0.1', port: 0, config: undefined, dataDir: undefined }, context(io, stop.signal, 'json'));
    await outUntil((text) => text.includes('\n'));
    const ready = JSON.parse(out().split('\n')[0]!);
    expect(Object.keys(ready)).toEqual(['baseUrl', 'deliveryUrl']);
    const res = await fetch(`${ready.baseUrl}/api/v2/demo/va`, { headers: { apikey: 'demo-key' } });
    expect(res.status).toBe(200);
    await res.text();
    stop.abort();
    await running;
    expect(err()).toMatch(/GET \/api\/v2\/demo\/va 200/);
    await expect(fetch(`${ready.baseUrl}/api/v2/demo/va`)).rejects.toThrow();
  });

  it('without --json prints the URLs, the demo key and user', async () => {
    const { io, out, outUntil } = fakeIO();
    const stop = new AbortController();
    const running = run({ host: '127.0.0.1', port: 0, config: undefined, dataDir: undefined }, context(io, stop.signal));
    await outUntil((text) => text.includes('Ctrl-C'));
    expect(out()).toMatch(/http:\/\/127\.0\.0\.1:\d+/);
    expect(out()).toContain('demo-key');
    expect(out()).toContain('owner@demo.test');
    stop.abort();
    await running;
  });

  it('a --data-dir that cannot be used is a usage error naming it, at once', async () => {
    const { io } = fakeIO();
    for (const dataDir of ['/proc/self/nope', '/proc/nope/x', process.execPath]) {
      const started = Date.now();
      const running = run({ host: '127.0.0.1', port: 0, config: undefined, dataDir }, context(io, new AbortController().signal));
      await expect(running).rejects.toBeInstanceOf(UsageError);
      await expect(running).rejects.toThrow(/--data-dir/);
      expect(Date.now() - started).toBeLessThan(1000);
    }
  });

  it('a bad fixture is a usage error', async () => {
    const { io } = fakeIO();
    await expect(run({ host: '127.0.0.1', port: 0, config: '/nonexistent/fixture.json', dataDir: undefined }, context(io, new AbortController().signal))).rejects.toBeInstanceOf(UsageError);
  });
});
