// The library and the journal: a library write is recorded like the CLI's
// (it goes through the executor), and client.history() iterates the entries,
// newest first. The built library (dist/lib.mjs) against the emulator.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { assertBuiltFromSources, harness, uid, DEMO_API_KEY, DEMO_USER, ROOT, type Harness } from './helpers.js';
import type * as Library from '../../src/library/index.js';

let h: Harness;
let lib: typeof Library;
beforeAll(async () => {
  assertBuiltFromSources(join(ROOT, 'dist', 'lib.mjs'), 'npm run build', 'npm test');
  lib = (await import(pathToFileURL(join(ROOT, 'dist', 'lib.mjs')).href)) as typeof Library;
  h = await harness();
});
afterAll(async () => h?.close());

describe('client.history()', () => {
  it('a library release and rollback are recorded, and history() yields them newest first; without a journal it rejects saying how to start one', async () => {
    const journal = uid('jl');
    const init = await h.ahs(['journal', 'init', journal, '--env', 'prod']);
    expect(init.exitCode, init.stderr).toBe(0);
    const client = lib.createClient({ baseUrl: h.emu.baseUrl, domainId: 'demo', apiKey: DEMO_API_KEY, user: DEMO_USER, journal });
    try {
      const id = uid('jl');
      await h.createAsset(id);
      for (const [name, content] of [['1.0', 'one'], ['1.1', 'two']] as const) {
        const write = await client.release({ assetId: id, file: await h.file(`${id}-${name}.zip`, content), name, platform: 'ios', envId: 'prod' });
        await write.apply();
      }
      const back = await client.rollback({ assetId: id, platform: 'ios', envId: 'prod' });
      const rolled = (await back.apply()) as Library.PromotionResult;
      const seen: Library.JournalEntry[] = [];
      for await (const entry of client.history({ id, envId: 'prod' })) seen.push(entry);
      expect(seen.map((e) => e.command)).toEqual(['rollback', 'release', 'release']);
      expect(seen[0]!.changes).toEqual([{ address: `channel.${id}.ios.prod`, before: { default: rolled.previousDefault }, after: { default: rolled.assetVersion.versionId } }]);
      expect(seen.every((e) => e.createdBy === DEMO_USER && e.arguments.length === 0)).toBe(true);
      // Stopping early: the newest only.
      for await (const entry of client.history({ limit: 1 })) expect(entry.command).toBe('rollback');
    } finally {
      await client.close();
    }
    const without = lib.createClient({ baseUrl: h.emu.baseUrl, domainId: 'demo', apiKey: DEMO_API_KEY, user: DEMO_USER });
    await expect(async () => {
      for await (const _ of without.history()) void _;
    }).rejects.toThrow("history() needs a journal, and none is set: start one with `ahs journal init --env ENV` and give its id as createClient's journal option (or its profile's, with profile or fromEnvironment)");
  });

  it('a library rollout\'s waves are journalled under the call\'s name (rollout), as every other library write, not as an unnamed write', async () => {
    const journal = uid('jr');
    const init = await h.ahs(['journal', 'init', journal, '--env', 'prod']);
    expect(init.exitCode, init.stderr).toBe(0);
    const client = lib.createClient({ baseUrl: h.emu.baseUrl, domainId: 'demo', apiKey: DEMO_API_KEY, user: DEMO_USER, journal });
    try {
      const id = uid('jr');
      await h.createAsset(id);
      const versionId = await h.uploadVersion(id, 'web', '1.0');
      const params = { assetId: id, versionId, platform: 'web', waves: ['dev', 'staging'] };
      expect(await client.rollout(params)).toMatchObject({ next: { action: 'complete' } });
      const seen: Library.JournalEntry[] = [];
      for await (const entry of client.history({ id })) seen.push(entry);
      // Under the CLI's command names, as `ahs rollout` records them.
      expect(seen.map((e) => e.command)).toEqual(['rollout start', 'rollout start']);
      expect(seen.map((e) => e.rollout?.wave)).toEqual(['staging', 'dev']);
    } finally {
      await client.close();
    }
  });

  it('reading more entries at once than Node\'s 10 listeners of a signal prints no MaxListenersExceededWarning on the caller\'s stderr', async () => {
    const journal = uid('jw');
    const init = await h.ahs(['journal', 'init', journal, '--env', 'prod']);
    expect(init.exitCode, init.stderr).toBe(0);
    const warnings: string[] = [];
    const heard = (warning: Error) => warnings.push(`${warning.name}: ${warning.message}`);
    process.on('warning', heard);
    const client = lib.createClient({ baseUrl: h.emu.baseUrl, domainId: 'demo', apiKey: DEMO_API_KEY, user: DEMO_USER, journal });
    try {
      const id = uid('jw');
      await (await client.assets.create({ assetId: id, name: 'w0', type: '1001' })).apply();
      for (let i = 1; i <= 12; i += 1) await (await client.assets.update({ assetId: id, name: `w${i}` })).apply();
      const seen: string[] = [];
      for await (const entry of client.history({ id })) seen.push(entry.command);
      expect(seen).toHaveLength(13);
      // The CLI's command names (`ahs asset create`), not the library's calls (assets.create).
      expect([...new Set(seen)]).toEqual(['asset update', 'asset create']);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((w) => w.startsWith('MaxListenersExceededWarning'))).toEqual([]);
    } finally {
      process.off('warning', heard);
      await client.close();
    }
  });

  it('client.journal.init() starts a journal (marked, first entry, LIVE), run again changes nothing; a library write is then recorded in it, and a malformed entry is a warning, not an entry', async () => {
    const journal = uid('jli');
    const warnings: string[] = [];
    const client = lib.createClient({ baseUrl: h.emu.baseUrl, domainId: 'demo', apiKey: DEMO_API_KEY, user: DEMO_USER, journal, onMessage: (line: string) => warnings.push(line) });
    try {
      const started = await client.journal.init({ collectionId: journal, envId: 'prod' });
      expect(started).toMatchObject({ journal, envId: 'prod', created: true, deployed: true, wrote: true, raced: false });
      expect(await client.journal.init({ collectionId: journal, envId: 'prod' })).toMatchObject({ created: false, deployed: false, wrote: false });
      const collection = (await h.call('GET', `/vc/${journal}`)).body;
      expect(collection.description).toBe('ahs journal; env=prod');
      const id = uid('jla');
      await (await client.assets.create({ assetId: id, name: id, type: '1001' })).apply();
      const form = new FormData();
      form.set('assetItemName', 'planted');
      form.set('assetType', '9999');
      form.set('createdBy', DEMO_USER);
      form.set('assetFile', new Blob([JSON.stringify({ apiVersion: 'ahs/journal/v1', changes: [null] })]), 'entry.json');
      const planted = (await h.call('POST', `/vc/${journal}/items`, form)).body.assetItemId as string;
      const seen: Library.JournalEntry[] = [];
      for await (const entry of client.history()) seen.push(entry);
      // The library call's name as the journal gives it (assets.create, or the CLI's words).
      expect(seen.map((e) => e.command)).toEqual([expect.stringMatching(/^assets?[. ]create$/), 'journal init']);
      expect(seen[1]!.apiVersion).toBe('ahs/journal/v2');
      expect(JSON.stringify(warnings)).toContain(`unreadable entry ${planted}`);
    } finally {
      await client.close();
    }
  });
});
