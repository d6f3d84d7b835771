// Saved plans (src/plan/saved.ts), by table: the canonical JSON and the
// fingerprints reads are compared by, the summaries that say what moved,
// reading a saved plan back (each bad document a usage error naming the
// field), recording reads, and the staleness check.
import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { ApiError, ConflictError, UsageError } from '../../src/errors.js';
import type { ApiClient, ObservedRead } from '../../src/http/client.js';
import { canonicalJson, checkStale, fingerprintOf, plannedFiles, readSavedPlan, recordReads, savedPlanJsonSchema, summaryOf, toSavedPlan, type SavedPlan } from '../../src/plan/saved.js';
import { fileSha256 as sha256File } from '../../src/transfer/digest.js';
import { steps } from '../../src/plan/steps.js';
import { tempDirs } from '../support/temp-dir.js';

/** The test's temporary folders, removed after the file. */
const temp = tempDirs();

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

describe('canonicalJson', () => {
  const rows: Array<[unknown, string]> = [
    [{ b: 1, a: [2, { d: 3, c: null }] }, '{"a":[2,{"c":null,"d":3}],"b":1}'],
    [{ a: undefined, b: 'x' }, '{"b":"x"}'],
    [{ B: 1, a: 2, _: 3 }, '{"B":1,"_":3,"a":2}'],
    [Object.fromEntries(['m', 'c', 'x', 'a', 'q', 'b', 'z', 'd', 'k', 'e'].map((key) => [key, 0])), '{"a":0,"b":0,"c":0,"d":0,"e":0,"k":0,"m":0,"q":0,"x":0,"z":0}'],
    [undefined, 'null'],
    ['s', '"s"'],
    [[], '[]'],
    [{}, '{}'],
  ];
  for (const [value, text] of rows) {
    it(`${text}`, () => expect(canonicalJson(value)).toBe(text));
  }
});

describe('fingerprints and summaries', () => {
  const list = (results: unknown[], extra: Record<string, unknown> = {}) => ({ totalResults: results.length, pageNumber: 1, pageSize: 50, results, ...extra });

  it('a list is fingerprinted by its results only; an answer by its canonical JSON; a failure by its status', () => {
    expect(fingerprintOf(200, list([{ a: 1 }]))).toBe(sha('[{"a":1}]'));
    expect(fingerprintOf(200, list([{ a: 1 }], { pageSize: 10 }))).toBe(fingerprintOf(200, list([{ a: 1 }])));
    expect(fingerprintOf(200, { b: 1, a: 2 })).toBe(sha('{"a":2,"b":1}'));
    expect(fingerprintOf(200, { results: [1] })).toBe(sha('{"results":[1]}'));
    expect(fingerprintOf(404, { anything: 1 })).toBe(sha('{"status":404}'));
    expect(fingerprintOf(200, null)).toBe(sha('null'));
  });

  const rows: Array<[string, number, unknown, string]> = [
    ['a failure', 404, undefined, 'answered 404'],
    ['an empty list', 200, list([]), '0 result(s): (none)'],
    ['records of a list: id, where and state', 200, list([{ versionId: 'IOS1', targetPlatform: 'ios', envId: 'prod', state: 'DEFAULT', updatedAt: 't' }]), '1 result(s): IOS1@ios/prod=DEFAULT'],
    ['a list row with no platform', 200, list([{ assetItemId: 'i1', envId: 'prod' }]), '1 result(s): i1@/prod'],
    ['versions of a list', 200, list([{ versionId: 'IOS1', state: 'x' }, { assetItemId: 'i2' }]), '2 result(s): IOS1=x i2'],
    ['one record: id, state, updated by', 200, { assetId: 'A', state: 'LIVE', updatedAt: 't', updatedBy: 'u' }, 'A=LIVE (updated t by u)'],
    ['one record updated, no one named', 200, { collectionId: 'C', updatedAt: 't' }, 'C (updated t)'],
    ['a record without an id', 200, { x: 1 }, '?'],
    ['a bare value', 200, 7, '7'],
    ['a list row that is a bare value', 200, list(['x']), '1 result(s): x'],
    ['list rows are told without their update', 200, list([{ versionId: 'V', updatedAt: 't' }, { assetItemId: 'i', updatedAt: 't' }, { collectionId: 'C', envId: 'prod', updatedAt: 't' }, { assetId: 'A', updatedAt: 't' }]), '4 result(s): V i C@/prod A (updated t)'],
    ['a long list: 12 ids and how many more', 200, list(Array.from({ length: 14 }, (_, i) => ({ versionId: `V${i}` }))), `14 result(s): ${Array.from({ length: 12 }, (_, i) => `V${i}`).join(' ')} and 2 more`],
    ['exactly 12', 200, list(Array.from({ length: 12 }, (_, i) => ({ versionId: `V${i}` }))), `12 result(s): ${Array.from({ length: 12 }, (_, i) => `V${i}`).join(' ')}`],
  ];
  for (const [name, status, body, summary] of rows) {
    it(`summary of ${name}`, () => expect(summaryOf(status, body)).toBe(summary));
  }
});

describe('reading a saved plan back', () => {
  const base = { formatVersion: 2, baseUrl: 'http://x', domainId: 'demo', files: [], reads: [], steps: [] };
  const digest = 'a'.repeat(64);
  const read = { method: 'GET', path: '/va/A', query: {}, status: 200, fingerprint: digest, summary: 's' };
  const rows: Array<[string, unknown, string | RegExp]> = [
    ['not JSON', 'nope', /^p\.json is not a saved plan: not JSON \(.+\); write one with ahs plan --out p\.json$/],
    ['another format version', { ...base, formatVersion: 1 }, 'p.json: formatVersion 1 is not one this ahs reads (2); plan again with this ahs'],
    ['a format version that is text', { ...base, formatVersion: '2' }, 'p.json: formatVersion "2" is not one this ahs reads (2); plan again with this ahs'],
    ['no format version', { ...base, formatVersion: undefined }, /^p\.json is not a saved plan of ahs: formatVersion: .*; write one with ahs plan --out p\.json$/],
    ['not an object', 7, /^p\.json is not a saved plan of ahs: \(the document\): /],
    ['null', null, /^p\.json is not a saved plan of ahs: \(the document\): /],
    ['an unknown field', { ...base, extra: 1 }, /^p\.json is not a saved plan of ahs: \(the document\): /],
    ['an empty base URL', { ...base, baseUrl: '' }, /: baseUrl: /],
    ['an empty domain', { ...base, domainId: '' }, /: domainId: /],
    ['a file without a digest', { ...base, files: [{ path: 'a', size: 1, sha256: 'x' }] }, /: files\.0\.sha256: /],
    ['a file of negative size', { ...base, files: [{ path: 'a', size: -1, sha256: digest }] }, /: files\.0\.size: /],
    ['a file of an empty path', { ...base, files: [{ path: '', size: 1, sha256: digest }] }, /: files\.0\.path: /],
    ['a plan file with a bad digest', { ...base, file: { path: 'd.yaml', sha256: 'x' } }, /: file\.sha256: /],
    ['a plan file with a digest and more after it', { ...base, file: { path: 'd.yaml', sha256: `${digest}0` } }, /: file\.sha256: /],
    ['a file with something before its digest', { ...base, files: [{ path: 'a', size: 1, sha256: `z${digest}` }] }, /: files\.0\.sha256: /],
    ['a file with something after its digest', { ...base, files: [{ path: 'a', size: 1, sha256: `${digest}z` }] }, /: files\.0\.sha256: /],
    ['a read with something before its fingerprint', { ...base, reads: [{ ...read, fingerprint: `z${digest}` }] }, /: reads\.0\.fingerprint: /],
    ['a read with something after its fingerprint', { ...base, reads: [{ ...read, fingerprint: `${digest}z` }] }, /: reads\.0\.fingerprint: /],
    ['a plan file with no path', { ...base, file: { path: '', sha256: digest } }, /: file\.path: /],
    ['a read that is not a GET', { ...base, reads: [{ ...read, method: 'POST' }] }, /: reads\.0\.method: /],
    ['a read of a relative path', { ...base, reads: [{ ...read, path: 'va/A' }] }, /: reads\.0\.path: /],
    ['a read with a bad fingerprint', { ...base, reads: [{ ...read, fingerprint: 'x' }] }, /: reads\.0\.fingerprint: /],
    ['a read with a status that is no integer', { ...base, reads: [{ ...read, status: 200.5 }] }, /: reads\.0\.status: /],
    ['a step with no id', { ...base, steps: [{ id: '', kind: 'asset.create', params: {} }] }, /: steps\.0\.id: /],
    ['a step of an unknown kind', { ...base, steps: [{ id: 'a', kind: 'asset.explode', params: {} }] }, /: steps\.0\.kind: /],
    ['a step with an unknown field', { ...base, steps: [{ id: 'a', kind: 'asset.create', params: {}, extra: 1 }] }, /: steps\.0: /],
    ['a batch of no concurrency', { ...base, steps: [{ id: 'a', kind: 'asset.create', params: {}, batch: { group: 'g', concurrency: 0 } }] }, /: steps\.0\.batch\.concurrency: /],
    ['a batch of no group', { ...base, steps: [{ id: 'a', kind: 'asset.create', params: {}, batch: { group: '', concurrency: 1 } }] }, /: steps\.0\.batch\.group: /],
    ['a batch bounding something else', { ...base, steps: [{ id: 'a', kind: 'asset.create', params: {}, batch: { group: 'g', concurrency: 1, bounds: 'bytes' } }] }, /: steps\.0\.batch\.bounds: /],
    ['a change of an unknown action', { ...base, changes: [{ address: 'asset.a', action: 'explode', before: null, after: null, step: 'a' }] }, /: changes\.0\.action: /],
    ['a ref to a later step', { ...base, steps: [{ id: 'a', kind: 'version.deploy', params: { v: [{ w: { $ref: 'b', field: 'versionId' } }] } }, { id: 'b', kind: 'version.upload', params: {} }] }, 'p.json: steps.0.params refers to step b, which is not an earlier step of the plan'],
    ['a ref to itself', { ...base, steps: [{ id: 'a', kind: 'version.deploy', params: { v: { $ref: 'a', field: 'versionId' } } }] }, 'p.json: steps.0.params refers to step a, which is not an earlier step of the plan'],
  ];
  for (const [name, document, message] of rows) {
    it(`${name}: a usage error`, () => {
      const text = typeof document === 'string' ? document : JSON.stringify(document);
      let thrown: unknown;
      try {
        readSavedPlan(text, 'p.json');
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(UsageError);
      if (typeof message === 'string') expect((thrown as Error).message).toBe(message);
      else expect((thrown as Error).message).toMatch(message);
    });
  }

  it('a whole plan reads back as it was written', () => {
    const saved: SavedPlan = {
      ...toSavedPlan({ baseUrl: 'http://x', domainId: 'demo', file: { path: 'd.yaml', sha256: digest }, files: [{ path: 'a.zip', size: 0, sha256: digest }], reads: [read as never], steps: [], notes: ['n'] }),
      steps: [
        { id: 'u', kind: 'version.upload', params: {}, prediction: { current: null, decision: { ok: true, status: 201 } as never, unchanged: null, notes: ['x'] }, refuse: { hint: 'h', byKind: { conflict: 'c' } }, batch: { group: 'g', concurrency: 1, bounds: 'requests' }, after: [] },
        { id: 'd', kind: 'version.deploy', params: { versionId: { $ref: 'u', field: 'versionId' } } },
      ],
      changes: [
        { address: 'version.app.(known after apply)', action: 'upload', before: null, after: { versionId: null, size: 3 }, unknownAfter: ['versionId'], name: '1.0', request: { method: 'POST', path: '/api/v2/d/va/app/versions', query: {}, body: null }, prediction: { ok: true, status: 201 }, step: 'u', notes: ['n'] },
        { address: 'channel.app.ios.prod', action: 'promote', before: { default: 'IOS1' }, after: { default: null }, unknownAfter: ['default'], prediction: null, step: 'd' },
      ],
    };
    expect(saved.formatVersion).toBe(2);
    expect(readSavedPlan(JSON.stringify(saved), 'p.json')).toEqual(saved);
  });
});

/** A client whose GETs answer from `answers` (an ApiError for a status), and that tells its reads to listeners. */
function readingClient(answers: Record<string, unknown>) {
  const listeners = new Set<(read: ObservedRead) => void>();
  const api = {
    onRead: (listener: (read: ObservedRead) => void) => (listeners.add(listener), () => listeners.delete(listener)),
    get: async (path: string, query: Record<string, unknown> = {}) => {
      const answer = answers[path];
      if (answer instanceof Error) throw answer;
      if (typeof answer === 'number') {
        for (const listener of listeners) listener({ path, query: query as never, status: answer, body: undefined });
        throw new ApiError(answer, { type: 't', title: 'x', status: answer, detail: 'x' });
      }
      for (const listener of listeners) listener({ path, query: query as never, status: 200, body: answer });
      return answer;
    },
    url: (path: string) => `http://x/api/v2/d${path}`,
    describe: (method: string, url: string) => `${method} ${new URL(url).pathname.replace('/api/v2/d', '')}`,
  };
  return api as unknown as ApiClient;
}

describe('recording reads and checking them again', () => {
  it('each request once (its first answer), queries as strings, until stopped', async () => {
    const answers: Record<string, unknown> = { '/va/A': { assetId: 'A', state: 'LIVE' }, '/va/B': 404 };
    const api = readingClient(answers);
    const recorder = recordReads(api);
    await api.get('/va/A', { b: 2, a: 'x', none: undefined, nil: null });
    answers['/va/A'] = { assetId: 'A', state: 'OFFLINE' };
    await api.get('/va/A', { a: 'x', b: 2 });
    await api.get('/va/B').catch(() => undefined);
    recorder.stop();
    await api.get('/va/C').catch(() => undefined);
    expect(recorder.reads()).toEqual([
      { method: 'GET', path: '/va/A', query: { b: '2', a: 'x' }, status: 200, fingerprint: fingerprintOf(200, { assetId: 'A', state: 'LIVE' }), summary: 'A=LIVE' },
      { method: 'GET', path: '/va/B', query: {}, status: 404, fingerprint: fingerprintOf(404, undefined), summary: 'answered 404' },
    ]);
  });

  const planOf = (reads: SavedPlan['reads'], extra: Partial<SavedPlan> = {}): SavedPlan => toSavedPlan({ baseUrl: 'x', domainId: 'd', files: [], reads, steps: [], ...extra });
  const readOf = (path: string, status: number, body: unknown, query: Record<string, string> = {}) => ({ method: 'GET' as const, path, query, status, fingerprint: fingerprintOf(status, body), summary: summaryOf(status, body) });

  it('nothing moved: no error', async () => {
    const api = readingClient({ '/va/A': { assetId: 'A' }, '/va/B': 404 });
    await expect(checkStale(planOf([readOf('/va/A', 200, { assetId: 'A' }), readOf('/va/B', 404, undefined)]), api)).resolves.toBeUndefined();
  });

  const rows: Array<[string, Record<string, unknown>, SavedPlan['reads'], string]> = [
    ['a record changed', { '/va/A': { assetId: 'A', state: 'OFFLINE' } }, [readOf('/va/A', 200, { assetId: 'A', state: 'LIVE' })], 'GET /va/A: was A=LIVE, now A=OFFLINE'],
    ['a record gone', { '/va/A': 404 }, [readOf('/va/A', 200, { assetId: 'A' })], 'GET /va/A: was A, now answered 404'],
    ['a record made', { '/va/A': { assetId: 'A' } }, [readOf('/va/A', 404, undefined)], 'GET /va/A: was answered 404, now A'],
    ['a page of a list, its query kept, paging left out', { '/va/A/asset-urls': { totalResults: 0, results: [] } }, [readOf('/va/A/asset-urls', 200, { totalResults: 1, results: [{ versionId: 'V' }] }, { envId: 'prod', pageNumber: '2', pageSize: '50' })], 'GET /va/A/asset-urls?envId=prod (page 2): was 1 result(s): V, now 0 result(s): (none)'],
    ['the first page: not said', { '/va/L': { totalResults: 0, results: [] } }, [readOf('/va/L', 200, { totalResults: 1, results: [{ versionId: 'V' }] }, { pageNumber: '1' })], 'GET /va/L: was 1 result(s): V, now 0 result(s): (none)'],
  ];
  for (const [name, answers, reads, moved] of rows) {
    it(`${name}: stale, exit 5, naming what moved`, async () => {
      const error = await checkStale(planOf(reads), readingClient(answers)).catch((e: Error) => e);
      expect(error).toBeInstanceOf(ConflictError);
      expect((error as Error).message).toBe(`the plan is stale: ${moved}; nothing was sent; run ahs plan again`);
    });
  }

  describe('a read scoped to the channels the plan names', () => {
    const record = (platform: string, env: string, versionId: string, state: string) => ({ targetPlatform: platform, envId: env, versionId, state });
    const listOf = (...results: unknown[]) => ({ totalResults: results.length, pageNumber: 1, pageSize: 50, results });
    const ours = record('ios', 'prod', 'V1', 'DEFAULT');
    const theirs = record('android', 'dev', 'A1', 'LIVE');
    const scopedRead = (scope: string[], body: unknown) => ({ ...readOf('/va/A/asset-urls', 200, body), scope });

    it('its fingerprint and summary cover that channel\'s records only; an answer that is no list is taken whole', async () => {
      const api = readingClient({ '/va/A/asset-urls': listOf(ours, theirs), '/va/A': { assetId: 'A' } });
      const recorder = recordReads(api, (path) => (path.endsWith('asset-urls') ? ['ios/prod'] : undefined));
      await api.get('/va/A/asset-urls');
      await api.get('/va/A');
      recorder.stop();
      expect(recorder.reads()).toEqual([
        { method: 'GET', path: '/va/A/asset-urls', query: {}, status: 200, fingerprint: fingerprintOf(200, listOf(ours)), summary: summaryOf(200, listOf(ours)), scope: ['ios/prod'] },
        { method: 'GET', path: '/va/A', query: {}, status: 200, fingerprint: fingerprintOf(200, { assetId: 'A' }), summary: 'A' },
      ]);
      // The scope may be given once the plan is made; an answer that is no list is not cut.
      expect(recorder.reads(() => ['ios/prod'])[1]).toMatchObject({ fingerprint: fingerprintOf(200, { assetId: 'A' }), scope: ['ios/prod'] });
    });

    it('another channel moving is not stale', async () => {
      const api = readingClient({ '/va/A/asset-urls': listOf(ours, record('android', 'dev', 'A2', 'LIVE')) });
      await expect(checkStale(planOf([scopedRead(['ios/prod'], listOf(ours))]), api)).resolves.toBeUndefined();
    });

    const moves: Array<[string, string[], string]> = [
      ['one channel', ['ios/prod'], '(channel ios/prod)'],
      ['two channels', ['ios/prod', 'android/dev'], '(channels ios/prod, android/dev)'],
    ];
    for (const [name, scope, said] of moves) {
      it(`its own channel moving is stale, naming ${name}`, async () => {
        const before = listOf(...[ours, theirs].filter((r) => scope.includes(`${r.targetPlatform}/${r.envId}`)));
        const api = readingClient({ '/va/A/asset-urls': listOf(record('ios', 'prod', 'V2', 'DEFAULT'), theirs) });
        const error = await checkStale(planOf([scopedRead(scope, before)]), api).catch((e: Error) => e);
        expect(error).toBeInstanceOf(ConflictError);
        expect((error as Error).message).toContain(`GET /va/A/asset-urls ${said}: was `);
      });
    }
  });

  it('the plan document\'s JSON Schema describes it, as ahs schema --plan prints it', () => {
    const schema = savedPlanJsonSchema() as { description?: string; type?: string; properties?: Record<string, unknown>; required?: string[] };
    expect(schema.description).toBe('ahs plan document (plan --json, plan --out, show --json)');
    expect(schema.type).toBe('object');
    expect(Object.keys(schema.properties ?? {})).toEqual(expect.arrayContaining(['formatVersion', 'reads', 'steps', 'changes']));
  });

  it('a read that fails without a status (the network) is that error, not "stale"', async () => {
    const failure = new Error('connection refused');
    await expect(checkStale(planOf([readOf('/va/A', 200, {})]), readingClient({ '/va/A': failure }))).rejects.toBe(failure);
  });

  it('every read checked, at most 8 at once, and every move named', async () => {
    let inFlight = 0;
    let most = 0;
    const api = {
      get: async () => {
        inFlight++;
        most = Math.max(most, inFlight);
        await new Promise((resolve) => setImmediate(resolve));
        inFlight--;
        return { assetId: 'new' };
      },
      url: (path: string) => `http://x${path}`,
      describe: (method: string, url: string) => `${method} ${new URL(url).pathname}`,
    } as unknown as ApiClient;
    const reads = Array.from({ length: 20 }, (_, i) => readOf(`/va/A${i}`, 200, { assetId: 'old' }));
    const error = await checkStale(planOf(reads), api).catch((e: Error) => e);
    expect(most).toBe(8);
    expect((error as Error).message.match(/was old, now new/g)).toHaveLength(20);
  });

  it('the files: the plan\'s own file and each file it uploads, hashed again', async () => {
    const dir = await temp('ahs-stale-');
    const [doc, zip] = [join(dir, 'd.yaml'), join(dir, 'a.zip')];
    await writeFile(doc, 'desired');
    await writeFile(zip, 'zip');
    const files = { file: { path: doc, sha256: sha('desired') }, files: [{ path: zip, size: 3, sha256: sha('zip') }] };
    await expect(checkStale(planOf([], files), readingClient({}))).resolves.toBeUndefined();
    await writeFile(doc, 'changed');
    const missing = join(dir, 'gone.zip');
    const error = await checkStale(planOf([], { ...files, files: [...files.files, { path: missing, size: 1, sha256: sha('x') }] }), readingClient({})).catch((e: Error) => e);
    expect((error as Error).message).toBe(
      `the plan is stale: ${doc} changed since the plan (SHA-256 ${sha('changed').slice(0, 12)}…, planned ${sha('desired').slice(0, 12)}…); ${missing} cannot be read now (planned SHA-256 ${sha('x').slice(0, 12)}…); nothing was sent; run ahs plan again`,
    );
  });

  it('the planned files: each upload\'s file with its digest, given or hashed', async () => {
    const dir = await temp('ahs-planned-');
    const path = join(dir, 'a.zip');
    await writeFile(path, 'zip');
    expect(await sha256File(path)).toBe(sha('zip'));
    const upload = (sha256?: string) => steps.versionUpload({ assetId: 'A', platform: 'ios', fields: { versionName: '1', createdBy: 'u' }, file: { path, name: 'a.zip', size: 3, sha256 } });
    expect(await plannedFiles([upload(), steps.versionDelete({ assetId: 'A', versionId: 'V', records: [] }), upload('f'.repeat(64))])).toEqual([
      { path, size: 3, sha256: sha('zip') },
      { path, size: 3, sha256: 'f'.repeat(64) },
    ]);
  });
});
