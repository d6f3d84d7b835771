// The item planner (src/plan/items-plan.ts), table-driven: which files are
// unchanged, replaced or new against a collection's items (by size, or by
// the SHA-256 of what a Live item serves), and the steps of a sync: their
// order, batches, predictions and the lines a person sees.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { compare, ITEM_CONCURRENCY, planSync, servedContent, type Comparison, type LocalFile, type SyncInputs } from '../../src/plan/items-plan.js';
import { bufferIO } from '../unit/helpers.js';
import { DEMO_USER, harness, uid, type Harness } from '../e2e/helpers.js';
import { createContext } from '../../src/context.js';
import { listItems, readSnapshot } from '../../src/service/collections.js';
import { byAnother, isByAnother } from '../../src/plan/answers.js';
import type { Item } from '../../src/rules/schemas.js';
import type { CollectionView } from '../../src/service/collections.js';
import type { Results, Step } from '../../src/plan/plan.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ahs-items-plan-'));
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

async function file(name: string, content: string): Promise<LocalFile> {
  const path = join(dir, `${name}-${Math.random().toString(36).slice(2)}`);
  await writeFile(path, content);
  return { name, path, size: Buffer.byteLength(content) };
}

function item(id: string, name: string, size: number, createdAt = '2026-01-01T00:00:00Z', extra: Partial<Item> = {}): Item {
  return { assetItemId: id, assetItemName: name, size, createdAt, ...extra } as Item;
}

describe('compare: each file against the items of its name', () => {
  it('by size: the same size is unchanged, another size replaced (the newest item), no item of its name uploaded, the rest orphans by name', async () => {
    const a = await file('a.txt', 'aaa');
    const b = await file('b.txt', 'bbbb');
    const c = await file('c.txt', 'c');
    const items = [item('I1', 'a.txt', 3), item('I2', 'b.txt', 9, '2026-01-01T00:00:00Z'), item('I3', 'b.txt', 8, '2026-01-02T00:00:00Z'), item('I5', 'z.txt', 1), item('I4', 'y.txt', 1)];
    const result = await compare([a, b, c], items);
    expect(result.unchanged).toEqual([{ file: a, item: items[0] }]);
    expect(result.replacements).toEqual([{ file: b, old: items[2] }]);
    expect(result.uploads).toEqual([c]);
    expect(result.orphans.map((i) => i.assetItemId)).toEqual(['I2', 'I4', 'I5']);
    expect(result.compared).toEqual({ content: 0, size: 2, checksum: false });
    expect([...result.rules]).toEqual([['a.txt', 'size'], ['b.txt', 'size']]);
  });

  it('of several items of a file\'s name, the one of the same size is the file\'s, even when older', async () => {
    const a = await file('a.txt', 'aaa');
    const items = [item('OLD', 'a.txt', 3, '2026-01-01T00:00:00Z'), item('NEW', 'a.txt', 5, '2026-01-03T00:00:00Z')];
    const result = await compare([a], items);
    expect(result.unchanged.map((u) => u.item.assetItemId)).toEqual(['OLD']);
    expect(result.orphans.map((i) => i.assetItemId)).toEqual(['NEW']);
  });

  it('by content (--checksum): a Live item serving the same SHA-256 is unchanged, another digest replaced; only same-size items are asked for', async () => {
    const a = await file('a.txt', 'aaa');
    const b = await file('b.txt', 'bbb');
    const c = await file('c.txt', 'ccc');
    const d = await file('d.txt', 'ddd');
    const items = [item('IA', 'a.txt', 3), item('IB', 'b.txt', 3), item('IC', 'c.txt', 7), item('ID', 'd.txt', 3)];
    const asked: string[][] = [];
    const content = async (wanted: Item[]) => {
      asked.push(wanted.map((i) => i.assetItemId));
      // IA serves a.txt's bytes, IB other bytes, IC is Live with another size, ID is Live nowhere.
      return { live: new Set(['IA', 'IB', 'IC']), digests: new Map([['IA', sha('aaa')], ['IB', sha('xxx')]]) };
    };
    const result = await compare([a, b, c, d], items, content);
    expect(asked).toEqual([['IA', 'IB', 'ID']]);
    expect(result.unchanged.map((u) => u.item.assetItemId)).toEqual(['IA', 'ID']);
    expect(result.replacements.map((r) => r.old.assetItemId)).toEqual(['IB', 'IC']);
    expect(result.compared).toEqual({ content: 3, size: 1, checksum: true });
    expect(Object.fromEntries(result.rules)).toEqual({ 'a.txt': 'content', 'b.txt': 'content', 'c.txt': 'content', 'd.txt': 'size' });
  });

  it('by content, of two items of the same size the one serving the file\'s bytes is the file\'s; a Live item whose download failed is compared by size', async () => {
    const a = await file('a.txt', 'aaa');
    const b = await file('b.txt', 'bbb');
    const items = [item('NEWER', 'a.txt', 3, '2026-01-03T00:00:00Z'), item('OLDER', 'a.txt', 3, '2026-01-01T00:00:00Z'), item('IB', 'b.txt', 3)];
    const content = async () => ({ live: new Set(['NEWER', 'OLDER', 'IB']), digests: new Map([['NEWER', sha('zzz')], ['OLDER', sha('aaa')]]) });
    const result = await compare([a, b], items, content);
    expect(result.unchanged.map((u) => u.item.assetItemId)).toEqual(['OLDER', 'IB']);
    expect(result.orphans.map((i) => i.assetItemId)).toEqual(['NEWER']);
    expect(Object.fromEntries(result.rules)).toEqual({ 'a.txt': 'content', 'b.txt': 'size' });
    expect(result.compared).toEqual({ content: 1, size: 1, checksum: true });
  });

  it('by content, of two items of the same size the one whose served bytes prove it is the file\'s, though a newer one is Live nowhere', async () => {
    const a = await file('a.txt', 'aaa');
    const items = [item('NEWER', 'a.txt', 3, '2026-01-03T00:00:00Z'), item('PROVEN', 'a.txt', 3, '2026-01-01T00:00:00Z')];
    const result = await compare([a], items, async () => ({ live: new Set(['PROVEN']), digests: new Map([['PROVEN', sha('aaa')]]) }));
    expect(result.unchanged.map((u) => u.item.assetItemId)).toEqual(['PROVEN']);
    expect(result.orphans.map((i) => i.assetItemId)).toEqual(['NEWER']);
    expect(Object.fromEntries(result.rules)).toEqual({ 'a.txt': 'content' });
  });

  it('a file whose only item serves other bytes is a replacement of it, by content', async () => {
    const a = await file('a.txt', 'aaa');
    const items = [item('IA', 'a.txt', 3)];
    const result = await compare([a], items, async () => ({ live: new Set(['IA']), digests: new Map([['IA', sha('bbb')]]) }));
    expect(result.replacements).toEqual([{ file: a, old: items[0] }]);
    expect(result.unchanged).toEqual([]);
  });

  it('the items are not reordered in place', async () => {
    const items = [item('I1', 'a', 1, '2026-01-01T00:00:00Z'), item('I2', 'a', 1, '2026-01-02T00:00:00Z')];
    await compare([], items);
    expect(items.map((i) => i.assetItemId)).toEqual(['I1', 'I2']);
  });
});

/** A collection as the rules see it, and the inputs of a sync over it. */
function inputs(comparison: Comparison, options: { itemCount: number; maxAssets: number; removals?: Item[]; prefix?: string; allowed?: string[] | undefined; checksum?: boolean; assetType?: string }): SyncInputs {
  const snapshot = { collectionId: 'C', deleted: false, deployable: true, editable: true, itemCount: options.itemCount, maxAssets: options.maxAssets, deployments: { prod: 'LIVE' } } as never;
  const view: CollectionView = { collection: { collectionId: 'C', allowedAssetTypes: options.allowed } as never, status: undefined, snapshot };
  const files = [...comparison.uploads, ...comparison.replacements.map((r) => r.file)];
  const uploads = new Map(files.map((f) => [f, { collectionId: 'C', fields: { assetItemName: f.name, assetType: '9999', createdBy: 'u@x.y' }, file: { path: f.path, name: f.name, size: f.size } }]));
  const removals = options.removals ?? [];
  return {
    view,
    itemCount: options.itemCount,
    comparison: { ...comparison, compared: { ...comparison.compared, checksum: options.checksum ?? false } },
    removals,
    uploads,
    room: options.maxAssets - (options.itemCount - removals.length),
    user: 'u@x.y',
    assetType: options.assetType ?? '9999',
    refuse: { hint: 'h' },
    ...(options.prefix !== undefined ? { groupPrefix: options.prefix } : {}),
  };
}

function comparisonOf(uploads: LocalFile[], replacements: Array<{ file: LocalFile; old: Item }>): Comparison {
  return { orphans: [], replacements, uploads, unchanged: [], compared: { content: 0, size: 0, checksum: false }, rules: new Map() };
}

const local = (name: string, size = 10): LocalFile => ({ name, path: `/tmp/${name}`, size });
const shape = (steps: Step[]) => steps.map((s) => `${s.kind}:${s.batch?.group}/${s.batch?.concurrency}${s.batch?.bounds ? `/${s.batch.bounds}` : ''}${s.after?.length ? ` after ${s.after.length}` : ''}`);

describe('planSync: the steps of a sync', () => {
  it('over a view whose collection was not read (no allowed types known): an Other upload is predicted to go through', () => {
    const base = inputs(comparisonOf([local('n1.txt')], []), { itemCount: 0, maxAssets: 10 });
    const sync = planSync({ ...base, view: { ...base.view, collection: undefined } });
    expect(sync.uploads[0]!.step.prediction?.decision).toMatchObject({ ok: true, next: { itemCount: 1 } });
    expect(sync.itemCount).toBe(1);
  });

  it('with room for everything: removals first, then one batch of uploads (replacements upload first), bounded by requests, and the settling last', () => {
    const r1 = { file: local('r1.txt'), old: item('OLD1', 'r1.txt', 3) };
    const sync = planSync(inputs(comparisonOf([local('n1.txt'), local('n2.txt')], [r1]), { itemCount: 3, maxAssets: 10, removals: [item('GONE', 'g.txt', 1)] }));
    expect(shape(sync.all)).toEqual([
      'item.remove:remove/8',
      'item.upload:write/8/requests',
      'item.remove:write/8/requests after 1',
      'item.upload:write/8/requests',
      'item.upload:write/8/requests',
      'item.converge:write/8/requests',
    ]);
    expect(sync.replacements[0]!.removeFirst).toBe(false);
    expect(sync.replacements[0]!.remove.after).toEqual([sync.replacements[0]!.upload.id]);
    expect(sync.converge!.params).toMatchObject({ collectionId: 'C', user: 'u@x.y', replacing: ['OLD1'] });
    expect((sync.converge!.params as { uploaded: Array<{ name: string; size: number; itemId: unknown }> }).uploaded).toEqual([
      { name: 'r1.txt', size: 10, itemId: { $ref: sync.replacements[0]!.upload.id, field: 'assetItemId', optional: true } },
      { name: 'n1.txt', size: 10, itemId: { $ref: sync.uploads[0]!.step.id, field: 'assetItemId', optional: true } },
      { name: 'n2.txt', size: 10, itemId: { $ref: sync.uploads[1]!.step.id, field: 'assetItemId', optional: true } },
    ]);
    // 3 items, one removed, 3 uploaded, one replaced: 4.
    expect(sync.itemCount).toBe(4);
    expect(sync.removals[0]!.step.params).toMatchObject({ collectionId: 'C', itemId: 'GONE', name: 'g.txt', user: 'u@x.y', converge: true });
  });

  it('with a prefix, two collections\' batches are their own', () => {
    const sync = planSync(inputs(comparisonOf([local('n1.txt')], []), { itemCount: 0, maxAssets: 10, removals: [item('G', 'g', 1)], prefix: 'C:' }));
    expect(shape(sync.all)).toEqual(['item.remove:C:remove/8', 'item.upload:C:write/8/requests', 'item.converge:C:write/8/requests']);
  });

  it('without room for all at once: a batch each; the replacements hold their places, at most the room of them', () => {
    const reps = [1, 2, 3].map((n) => ({ file: local(`r${n}.txt`), old: item(`OLD${n}`, `r${n}.txt`, 3) }));
    const sync = planSync(inputs(comparisonOf([local('n1.txt')], reps), { itemCount: 8, maxAssets: 10 }));
    expect(shape(sync.all)).toEqual([
      'item.upload:replace/2',
      'item.remove:replace/2 after 1',
      'item.upload:replace/2',
      'item.remove:replace/2 after 1',
      'item.upload:replace/2',
      'item.remove:replace/2 after 1',
      'item.upload:upload/8',
      'item.converge:upload/8',
    ]);
  });

  it('the replacements\' room is at most the batch\'s concurrency', () => {
    const reps = Array.from({ length: 12 }, (_, n) => ({ file: local(`r${n}.txt`), old: item(`OLD${n}`, `r${n}.txt`, 3) }));
    const sync = planSync(inputs(comparisonOf([], reps), { itemCount: 12, maxAssets: 23 }));
    expect(sync.replacements[0]!.upload.batch).toEqual({ group: 'replace', concurrency: ITEM_CONCURRENCY });
    const one = planSync(inputs(comparisonOf([], reps.slice(0, 2)), { itemCount: 9, maxAssets: 10 }));
    expect(one.replacements[0]!.upload.batch).toEqual({ group: 'replace', concurrency: 1 });
  });

  it('with no room: each replacement removes first; the new uploads after, in their own batch unless none is needed', () => {
    const reps = [1, 2].map((n) => ({ file: local(`r${n}.txt`), old: item(`OLD${n}`, `r${n}.txt`, 3) }));
    const sync = planSync(inputs(comparisonOf([], reps), { itemCount: 10, maxAssets: 10 }));
    // No new upload: the replacements alone fit (each frees its place first): one batch, bounded by chains.
    expect(shape(sync.all)).toEqual(['item.remove:write/8', 'item.upload:write/8 after 1', 'item.remove:write/8', 'item.upload:write/8 after 1', 'item.converge:write/8']);
    expect(sync.replacements.map((r) => r.removeFirst)).toEqual([true, true]);
    expect(sync.replacements[0]!.upload.after).toEqual([sync.replacements[0]!.remove.id]);
    const withNew = planSync(inputs(comparisonOf([local('n.txt')], reps), { itemCount: 10, maxAssets: 10 }));
    expect(shape(withNew.all)).toEqual(['item.remove:replace/8', 'item.upload:replace/8 after 1', 'item.remove:replace/8', 'item.upload:replace/8 after 1', 'item.upload:upload/8', 'item.converge:upload/8']);
  });

  it('nothing to upload: no settling step', () => {
    const sync = planSync(inputs(comparisonOf([], []), { itemCount: 2, maxAssets: 10, removals: [item('G', 'g', 1)] }));
    expect(sync.converge).toBeUndefined();
    expect(shape(sync.all)).toEqual(['item.remove:remove/8']);
    expect(sync.itemCount).toBe(1);
  });

  it('the predictions follow the item count from step to step; one that no longer fits is refused by the rules', () => {
    const sync = planSync(inputs(comparisonOf([local('a'), local('b'), local('c')], []), { itemCount: 8, maxAssets: 10, removals: [] }));
    const decisions = sync.uploads.map((u) => u.step.prediction!.decision);
    expect(decisions.map((d) => d.ok)).toEqual([true, true, false]);
    expect(sync.itemCount).toBe(10);
    expect(sync.uploads[0]!.step.prediction!.current).toEqual({ deleted: false, deployable: true, editable: true, itemCount: 8, maxAssets: 10, deployments: { prod: 'LIVE' } });
    expect(sync.uploads[0]!.step.refuse).toEqual({ hint: 'h' });
    expect(sync.uploads[0]!.step.prediction!.notes).toEqual(['the file type (extension) is checked by the service', "a changed file is one whose byte size differs from its item's"]);
    const checksum = planSync(inputs(comparisonOf([local('a')], []), { itemCount: 0, maxAssets: 10, checksum: true }));
    expect(checksum.uploads[0]!.step.prediction!.notes![1]).toBe("a changed file is one whose SHA-256 differs from what its Live item serves (an item Live nowhere: whose byte size differs from its item's)");
    const removal = planSync(inputs(comparisonOf([], []), { itemCount: 1, maxAssets: 10, removals: [item('G', 'g', 1, undefined, { parentCollections: ['C', 'D'] } as never)] }));
    expect(removal.removals[0]!.step.prediction!.decision.ok).toBe(true);
    expect(removal.removals[0]!.step.prediction!.notes).toEqual([]);
  });

  it('an asset type the collection does not allow is refused by the prediction; with no list, only Other is allowed', () => {
    const decision = (allowed: string[] | undefined, assetType: string) => planSync(inputs(comparisonOf([local('a')], []), { itemCount: 0, maxAssets: 10, allowed, assetType })).uploads[0]!.step.prediction!.decision.ok;
    expect(decision(['1001'], '1001')).toBe(true);
    expect(decision(['1001'], '1002')).toBe(false);
    expect(decision(undefined, '1002')).toBe(false);
    expect(decision(undefined, '9999')).toBe(true);
  });

  it('the lines a person sees: a removal, a new upload, a replacement once both its writes are done', () => {
    const reps = [{ file: local('r.txt', 2048), old: item('OLD', 'r.txt', 3) }];
    const sync = planSync(inputs(comparisonOf([local('n.txt', 10)], reps), { itemCount: 3, maxAssets: 10, removals: [item('GONE', 'g.txt', 1)] }));
    const answers = new Map<string, unknown>([
      [sync.uploads[0]!.step.id, { assetItemId: 'NEW1' }],
      [sync.replacements[0]!.upload.id, { assetItemId: 'NEW2' }],
    ]);
    const results = { of: (s: Step) => answers.get(s.id), has: (s: Step) => answers.has(s.id), failureOf: () => undefined } as unknown as Results;
    expect(sync.describe(sync.removals[0]!.step, results)).toBe('removed GONE (g.txt): no file of that name');
    expect(sync.describe(sync.uploads[0]!.step, results)).toBe('n.txt → NEW1 (10 B)');
    expect(sync.describe(sync.replacements[0]!.remove, results)).toBe('r.txt → NEW2 (2.0 KB), replacing OLD');
    expect(sync.describe(sync.replacements[0]!.upload, results)).toBeUndefined();
    expect(sync.describe(sync.converge!, results)).toBeUndefined();
    const full = planSync(inputs(comparisonOf([], reps), { itemCount: 10, maxAssets: 10 }));
    answers.set(full.replacements[0]!.upload.id, { assetItemId: 'NEW3' });
    expect(full.describe(full.replacements[0]!.upload, results)).toBe('r.txt → NEW3 (2.0 KB), replacing OLD, removed first: the collection is at maxAssets');
    expect(full.describe(full.replacements[0]!.remove, results)).toBeUndefined();
  });
});

describe('servedContent (--checksum\'s reads), against the emulator', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await harness();
  });
  afterAll(async () => h?.close());

  async function upload(collectionId: string, name: string, content: string): Promise<string> {
    const form = new FormData();
    form.set('assetItemName', name);
    form.set('assetType', '9999');
    form.set('createdBy', DEMO_USER);
    form.set('assetFile', new Blob([content]), name);
    const answer = await h.call('POST', `/vc/${collectionId}/items`, form);
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    return answer.body.assetItemId as string;
  }

  it('the items Live in a LIVE environment, and the SHA-256 of what is served for those asked about; others compared by size', async () => {
    const id = uid('sc');
    expect((await h.call('POST', '/vc', { collectionId: id, collectionName: id, allowedAssetTypes: ['9999'], createdBy: DEMO_USER, updatedBy: DEMO_USER })).status).toBe(201);
    const a = await upload(id, 'a.txt', 'aaa');
    const b = await upload(id, 'b.txt', 'bbbb');
    expect((await h.call('POST', `/vc/${id}/deployments`, { state: 'LIVE', createdBy: DEMO_USER, envId: 'prod' })).status).toBeLessThan(300);
    const io = bufferIO({ env: { ...h.env, AHS_CONFIG_DIR: dir, AHS_JOURNAL: '' } });
    const ctx = await createContext({}, { io, signal: new AbortController().signal });
    try {
      const api = await ctx.api();
      const view = await readSnapshot(api, id);
      const items = await listItems(api, id);
      const read = servedContent(ctx, view);
      const one = await read(items.filter((i) => i.assetItemId === a));
      expect([...one.live].sort()).toEqual([a, b].sort());
      expect([...one.digests]).toEqual([[a, sha('aaa')]]);
      const both = await read(items);
      expect(Object.fromEntries(both.digests)).toEqual({ [a]: sha('aaa'), [b]: sha('bbbb') });
      const none = await read([]);
      expect(none.digests.size).toBe(0);
      expect(none.live.size).toBe(2);
      // A view whose environments are not LIVE (read before a deployment) has nothing Live.
      const offline = servedContent(ctx, { ...view, snapshot: { ...view.snapshot!, deployments: {} } });
      expect((await offline(items)).live.size).toBe(0);
      // An item the delivery document does not list is not downloaded.
      const ghost = await read([{ ...items[0]!, assetItemId: 'not-there' }]);
      expect(ghost.digests.size).toBe(0);
      // Compared by content, end to end: the same bytes unchanged, other bytes replaced.
      const same = await file('a.txt', 'aaa');
      const changed = await file('b.txt', 'bbbx');
      const comparison = await compare([same, changed], items, read);
      expect(comparison.unchanged.map((u) => u.item.assetItemId)).toEqual([a]);
      expect(comparison.replacements.map((r) => r.old.assetItemId)).toEqual([b]);
      expect(Object.fromEntries(comparison.rules)).toEqual({ 'a.txt': 'content', 'b.txt': 'content' });
      expect(io.err.text).not.toContain('could not download');
      // A view read without the deployment status: nothing is Live, nothing downloaded.
      const unread = await servedContent(ctx, { ...view, status: undefined })(items);
      expect(unread.live.size).toBe(0);
      expect(unread.digests.size).toBe(0);
    } finally {
      await ctx.dispose();
    }
  });

  it('a download that fails leaves its item to be compared by size, and says so', async () => {
    const id = uid('sc');
    expect((await h.call('POST', '/vc', { collectionId: id, collectionName: id, allowedAssetTypes: ['9999'], createdBy: DEMO_USER, updatedBy: DEMO_USER })).status).toBe(201);
    const a = await upload(id, 'a.txt', 'aaa');
    const b = await upload(id, 'b.txt', 'bbbb');
    expect((await h.call('POST', `/vc/${id}/deployments`, { state: 'LIVE', createdBy: DEMO_USER, envId: 'prod' })).status).toBeLessThan(300);
    // The delivery network behind a proxy that answers 404 for a.txt's bytes.
    const proxy = createServer((req, res) => {
      if (req.url?.endsWith('/a.txt')) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('gone');
      const upstream = new URL(req.url ?? '/', h.emu.deliveryUrl);
      const out = httpRequest(upstream, { method: req.method, headers: { ...req.headers, host: upstream.host } }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      out.on('error', () => res.writeHead(502).end());
      req.pipe(out);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const io = bufferIO({ env: { ...h.env, AHS_CONFIG_DIR: dir, AHS_JOURNAL: '', AHS_DELIVERY_URL: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}` } });
    const ctx = await createContext({}, { io, signal: new AbortController().signal });
    try {
      const api = await ctx.api();
      const view = await readSnapshot(api, id);
      const items = await listItems(api, id);
      const read = await servedContent(ctx, view)(items);
      expect([...read.live].sort()).toEqual([a, b].sort());
      expect([...read.digests]).toEqual([[b, sha('bbbb')]]);
      expect(io.err.text).toContain(`could not download a.txt (${a}): compared by size`);
    } finally {
      await ctx.dispose();
      proxy.closeAllConnections();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    }
  });
});

describe('an answer marked as another writer\'s change', () => {
  it('is told apart from any other value, null and undefined included', () => {
    expect(isByAnother(byAnother({ x: 1 }))).toBe(true);
    expect(isByAnother({ x: 1 })).toBe(false);
    expect(isByAnother(null)).toBe(false);
    expect(isByAnother(undefined)).toBe(false);
    expect(isByAnother('made')).toBe(false);
    expect(isByAnother({ [Symbol.for('ahs.madeByAnother')]: 'yes' })).toBe(false);
  });
});
