// Ctrl-C (SIGINT) while a write is in flight, with a journal in use (cli.md
// "Memory": an interrupted write whose outcome is reported unknown leaves an
// entry saying so): the built binary, interrupted once the write has reached
// the service (an upload the service never reads, held in front of the
// emulator; a deploy the emulator holds in progress), exits 130 saying the
// write may have been applied, and `history` then lists the entry, outcome
// unknown, naming the step that was cut.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execa } from 'execa';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { BIN, assertFreshBuild, harness, uid, type Harness } from './helpers.js';

assertFreshBuild();

let h: Harness;
let journal: string;
let stall: Server;
let stallUrl: string;
let uploadSeen: () => void = () => undefined;

beforeAll(async () => {
  h = await harness();
  journal = uid('ji');
  const init = await h.ahs(['journal', 'init', journal, '--env', 'prod']);
  expect(init.exitCode, init.stderr).toBe(0);
  // In front of the emulator: every request passes through but a version upload, which is never read nor answered.
  stall = createServer((req, res) => {
    if (req.method === 'POST' && /\/va\/[^/]+\/versions(\?|$)/.test(req.url ?? '')) {
      req.pause();
      uploadSeen();
      return;
    }
    const upstream = new URL(req.url ?? '/', h.emu.baseUrl);
    const forward = httpRequest(upstream, { method: req.method, headers: { ...req.headers, host: upstream.host } }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => stall.listen(0, '127.0.0.1', resolve));
  stallUrl = `http://127.0.0.1:${(stall.address() as AddressInfo).port}`;
});

afterAll(async () => {
  stall?.closeAllConnections();
  await new Promise((resolve) => stall?.close(resolve));
  await h?.close();
});

interface Entry {
  command: string;
  arguments: string[];
  outcome: string;
  exitCode: number;
  changes: Array<{ address: string; before: unknown; after: unknown; unknownAfter?: string[] }>;
}

/** The journal's entries, newest first (history --json), and its text for a person. */
async function history(args: string[] = []): Promise<{ entries: Entry[]; text: string }> {
  const json = await h.ahs(['history', ...args, '--json'], { env: { AHS_JOURNAL: journal } });
  expect(json.exitCode, json.stderr).toBe(0);
  const text = await h.ahs(['history', ...args], { env: { AHS_JOURNAL: journal } });
  expect(text.exitCode, text.stderr).toBe(0);
  return { entries: json.json().results as Entry[], text: text.stdout };
}

describe('Ctrl-C during a write leaves an entry whose outcome is unknown', () => {
  it('an upload the service has not answered: exit 130, "may have been applied", and history lists the upload, outcome unknown, exit 130, its version id unknown', async () => {
    const id = uid('jia');
    await h.createAsset(id);
    const file = await h.file(`${id}.zip`, Buffer.alloc(4 * 1024 * 1024, 7));
    const seen = new Promise<void>((resolve) => (uploadSeen = resolve));
    const child = execa('node', [BIN, 'version', 'upload', id, file, '--platform', 'ios', '--name', '1.0.0'], {
      reject: false,
      env: { ...h.env, AHS_BASE_URL: stallUrl, AHS_JOURNAL: journal },
      stdin: 'ignore',
    });
    await seen;
    child.kill('SIGINT');
    const result = await child;
    expect(result.exitCode).toBe(130);
    expect(String(result.stderr)).toMatch(/^error: interrupted: the write may have been applied: check with `ahs version list .* --all`$/m);
    expect(String(result.stderr)).not.toContain('did not record');
    const { entries, text } = await history([id]);
    expect(entries).toHaveLength(1);
    const [entry] = entries;
    expect(entry).toMatchObject({ command: 'version upload', outcome: 'unknown', exitCode: 130 });
    expect(entry!.arguments).toEqual(expect.arrayContaining([id, '--name', '1.0.0']));
    expect(entry!.changes).toEqual([
      { address: `version.${id}.(known after apply)`, before: null, after: { versionId: null, versionName: '1.0.0', platform: 'ios', fileName: `${id}.zip`, size: 4 * 1024 * 1024 }, unknownAfter: ['versionId'] },
    ]);
    expect(text).toContain('version upload');
    expect(text).toMatch(/unknown/);
  });

  it('a deploy the service holds in progress: exit 130, "may have been applied", and history lists the deploy of that channel, outcome unknown', async () => {
    const id = uid('jid');
    await h.createAsset(id);
    const v1 = await h.uploadVersion(id, 'ios', '1.0');
    const hold = h.emu.holdDeployments();
    try {
      const child = execa('node', [BIN, 'deploy', id, v1, '--platform', 'ios', '--env', 'prod', '--state', 'LIVE'], {
        reject: false,
        env: { ...h.env, AHS_JOURNAL: journal },
        stdin: 'ignore',
      });
      // The deploy has reached the emulator and waits there.
      await hold.held();
      child.kill('SIGINT');
      const result = await child;
      expect(result.exitCode, String(result.stderr)).toBe(130);
      expect(String(result.stderr)).toMatch(/^error: interrupted: the write may have been applied: check with `ahs /m);
      expect(String(result.stderr)).not.toContain('did not record');
    } finally {
      hold.release();
    }
    const { entries, text } = await history([id]);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ command: 'deploy', outcome: 'unknown', exitCode: 130 });
    expect(entries[0]!.changes).toEqual([expect.objectContaining({ address: `channel.${id}.ios.prod`, unknownAfter: ['state'] })]);
    expect(text).toContain(`channel.${id}.ios.prod`);
    expect(text).toMatch(/unknown/);
  });
});
