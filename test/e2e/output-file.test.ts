// AHS_OUTPUT_FILE=PATH (cli.md, "In CI, and from code"): one JSON line per
// finished command, {command, argv, exitCode, result}, written when the
// command fails too, and whole lines when several runs append at once.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_USER, harness, uid, type Harness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h?.close());

async function lines(path: string): Promise<any[]> {
  const text = await readFile(path, 'utf8');
  expect(text.endsWith('\n')).toBe(true);
  return text.slice(0, -1).split('\n').map((line) => JSON.parse(line));
}

describe('AHS_OUTPUT_FILE', () => {
  it('holds one valid JSON line per command after ten runs of the binary started together, lines far over PIPE_BUF included', async () => {
    // 100 assets with long names: a listing's line is about 40 KB, ten times PIPE_BUF.
    const prefix = uid('of');
    const seeded = await Promise.all(
      Array.from({ length: 100 }, (_, i) => h.call('POST', '/va', { assetId: `${prefix}-${i}`, assetName: `${i}`.padEnd(64, 'x'), assetType: '1001', createdBy: DEMO_USER })),
    );
    expect(seeded.every((answer) => answer.status === 201)).toBe(true);
    const path = join(h.dir, `${prefix}.jsonl`);
    const commands = [
      ...Array.from({ length: 6 }, () => ['asset', 'list', '--all', '--page-size', '100', '--json']),
      ['asset', 'list', '--all', '--page-size', '100'],
      ['asset', 'list', '--all', '--page-size', '100', '--query', 'totalResults'],
      ['asset', 'get', `${prefix}-missing`],
      ['--version'],
    ];
    const runs = await Promise.all(commands.map((args) => h.ahs(args, { binary: true, env: { AHS_OUTPUT_FILE: path } })));

    const written = await lines(path);
    expect(written).toHaveLength(10);
    const byArgv = new Map(written.map((line) => [JSON.stringify(line.argv), line]));
    expect(byArgv.size).toBe(new Set(commands.map((args) => JSON.stringify(args))).size);
    for (const [index, args] of commands.entries()) {
      const line = byArgv.get(JSON.stringify(args))!;
      expect(Object.keys(line).sort(), args.join(' ')).toEqual(['argv', 'command', 'exitCode', 'result']);
      expect(line.exitCode).toBe(runs[index]!.exitCode);
    }
    const listing = byArgv.get(JSON.stringify(commands[0]))!;
    expect(JSON.stringify(listing).length).toBeGreaterThan(7 * 4096);
    expect(listing).toMatchObject({ command: 'asset list', exitCode: 0 });
    // The document --json prints, also for a table on stdout and before --query.
    expect(listing.result).toEqual(runs[0]!.json());
    expect(byArgv.get(JSON.stringify(commands[6]))!.result).toEqual(listing.result);
    expect(byArgv.get(JSON.stringify(commands[7]))!.result).toEqual(listing.result);
    // A failure: its JSON error, as json mode prints it on stderr.
    expect(runs[8]!.exitCode).toBe(4);
    expect(byArgv.get(JSON.stringify(commands[8]))).toMatchObject({ command: 'asset get', exitCode: 4, result: { status: 404, title: expect.stringContaining('not found') } });
    expect(byArgv.get(JSON.stringify(commands[9]))).toEqual({ command: null, argv: ['--version'], exitCode: 0, result: null });
  });

  it('records a usage error (nothing sent) with its JSON error, and a file it cannot write is one warning, not a failure', async () => {
    const path = join(h.dir, `${uid('of')}.jsonl`);
    const usage = await h.ahs(['deploy', 'a', 'b', '--platform', 'ios', '--env', 'prod', '--state', 'SIDEWAYS'], { env: { AHS_OUTPUT_FILE: path } });
    expect(usage.exitCode).toBe(2);
    const [line] = await lines(path);
    expect(line).toEqual({
      command: 'deploy',
      argv: ['deploy', 'a', 'b', '--platform', 'ios', '--env', 'prod', '--state', 'SIDEWAYS'],
      exitCode: 2,
      result: { type: 'urn:ahs:usage', status: null, title: expect.stringContaining('LIVE or OFFLINE'), detail: expect.any(String) },
    });

    const nowhere = join(h.dir, 'no-such-folder', 'results.jsonl');
    const run = await h.ahs(['asset', 'list'], { env: { AHS_OUTPUT_FILE: nowhere } });
    expect(run.exitCode).toBe(0);
    expect(run.stderr).toContain(`warning: cannot append to AHS_OUTPUT_FILE (${nowhere}): ENOENT`);
  });
});
