// The workflows the real-intermediaries tier runs through each intermediary
// (issue 45): release (journalled), item sync, collection-deploy, fetch and
// history, each exit 0, with what the service holds after each checked.
import { expect } from 'vitest';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DEMO_USER, uid, type Harness } from '../e2e/helpers.js';

export type Runner = (args: string[], extra?: Record<string, string>) => Promise<{ exitCode: number; stderr: string; stdout: string }>;

/** Runs the four workflows with `run` (a command against the service behind the intermediary); `dir` holds their files. */
export async function workflows(h: Harness, dir: string, run: Runner): Promise<{ asset: string; collection: string }> {
  const asset = uid('px');
  await h.createAsset(asset);
  const file = await h.file(`${asset}.bin`, `release of ${asset}`);
  const journal = uid('pxj');
  const init = await run(['journal', 'init', journal, '--env', 'dev']);
  expect(init.exitCode, init.stderr).toBe(0);
  const release = await run(['release', asset, file, '--name', 'r1', '--platform', 'ios', '--env', 'dev'], { AHS_JOURNAL: journal });
  expect(release.exitCode, release.stderr).toBe(0);
  expect((await h.call('GET', `/va/${asset}/versions`)).body.totalResults).toBe(1);

  const collection = uid('pxc');
  expect((await h.call('POST', '/vc', { collectionId: collection, collectionName: collection, allowedAssetTypes: ['1001'], createdBy: DEMO_USER })).status).toBe(201);
  const folder = join(dir, collection);
  await mkdir(folder, { recursive: true });
  await writeFile(join(folder, 'a.txt'), 'alpha');
  await writeFile(join(folder, 'b.txt'), 'beta');
  const sync = await run(['item', 'sync', collection, folder, '--type', '1001']);
  expect(sync.exitCode, sync.stderr).toBe(0);
  const deploy = await run(['collection-deploy', collection, '--env', 'dev']);
  expect(deploy.exitCode, deploy.stderr).toBe(0);
  const out = join(dir, `${collection}-out`);
  const fetched = await run(['fetch', collection, '--env', 'dev', '--dir', out]);
  expect(fetched.exitCode, fetched.stderr).toBe(0);
  expect(await readFile(join(out, 'a.txt'), 'utf8')).toBe('alpha');
  expect(await readFile(join(out, 'b.txt'), 'utf8')).toBe('beta');

  const history = await run(['history', asset, '--json'], { AHS_JOURNAL: journal });
  expect(history.exitCode, history.stderr).toBe(0);
  expect(history.stdout).toContain('release');
  return { asset, collection };
}
