// ahs version download: the version's file through its deployed URL, written
// atomically (issue 24); a version deployed nowhere is a clear exit 4.
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_USER, harness, uid, type Harness } from './helpers.js';
import { startFaultProxy } from '../support/fault-proxy.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h?.close());

/** An asset with one ios version of `content` named app.zip; its id and the version id. */
async function versionOf(content: string): Promise<{ id: string; v: string }> {
  const id = uid('dl');
  await h.createAsset(id);
  const form = new FormData();
  form.set('versionName', '1.0');
  form.set('createdBy', DEMO_USER);
  form.set('assetFile', new Blob([content]), 'app.zip');
  const r = await h.call('POST', `/va/${id}/versions?targetPlatformId=ios`, form);
  expect(r.status).toBe(201);
  return { id, v: r.body.versionId };
}

describe('ahs version download', () => {
  it('writes the file of a deployed version, replacing one at the path; JSON names where it came from', async () => {
    const content = 'the bytes of version one '.repeat(1000);
    const { id, v } = await versionOf(content);
    expect((await h.deploy(id, v, 'ios', 'staging', 'LIVE')).status).toBe(201);
    const target = join(h.dir, `${id}.zip`);
    await writeFile(target, 'old content');
    const r = await h.ahs(['version', 'download', id, v, '-O', target, '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(await readFile(target, 'utf8')).toBe(content);
    expect(r.json()).toEqual({ assetId: id, versionId: v, envId: 'staging', targetPlatform: 'ios', downloadUrl: expect.stringContaining(`/${id}/`), path: target, bytes: content.length });
    expect((await readdir(h.dir)).filter((name) => name.includes('.ahs-partial-'))).toEqual([]);

    // Table mode: the path on stdout, the line for a person on stderr.
    const table = await h.ahs(['version', 'download', id, v, '--env', 'staging', '-O', target]);
    expect(table.exitCode, table.stderr).toBe(0);
    expect(table.stdout).toBe(target);
    expect(table.stderr).toContain(`${v} (`);
  });

  it('a version deployed nowhere, or not in --env: exit 4 naming the deploy; nothing written', async () => {
    const { id, v } = await versionOf('never deployed');
    const target = join(h.dir, `${id}-none.zip`);
    const nowhere = await h.ahs(['version', 'download', id, v, '-O', target]);
    expect(nowhere.exitCode).toBe(4);
    expect(nowhere.stderr.trim()).toBe(
      `error: ${v} of ${id} has no download URL anywhere (it is LIVE or DEFAULT in no environment): only a deployed version can be downloaded; deploy it first (ahs deploy ${id} ${v} --platform ios --env ENV)`,
    );
    expect((await h.deploy(id, v, 'ios', 'dev', 'OFFLINE')).status).toBe(201);
    const offline = await h.ahs(['version', 'download', id, v, '--env', 'dev', '-O', target, '--json']);
    expect(offline.exitCode).toBe(4);
    expect(offline.errJson().title).toContain('has no download URL in dev (it is OFFLINE there)');
    await expect(readFile(target)).rejects.toThrow(/ENOENT/);
  });

  it('a transfer cut half-way: exit 6, no file and no partial file left', async () => {
    const { id, v } = await versionOf('x'.repeat(200_000));
    expect((await h.deploy(id, v, 'ios', 'prod', 'LIVE')).status).toBe(201);
    const proxy = await startFaultProxy(h.emu.baseUrl);
    try {
      proxy.inject({ kind: 'cut-body' }, { method: 'GET', path: /\/app\.zip$/, times: 10 });
      const target = join(h.dir, `${id}-cut.zip`);
      const r = await h.ahs(['version', 'download', id, v, '-O', target, '--retries', '0'], { env: { AHS_BASE_URL: proxy.url, AHS_DELIVERY_URL: proxy.url } });
      expect(r.exitCode, r.stderr).toBe(6);
      expect(proxy.log.some((entry) => entry.fault === 'cut-body')).toBe(true);
      await expect(readFile(target)).rejects.toThrow(/ENOENT/);
      expect((await readdir(h.dir)).filter((name) => name.includes('.ahs-partial-'))).toEqual([]);
    } finally {
      await proxy.close();
    }
  });
});
