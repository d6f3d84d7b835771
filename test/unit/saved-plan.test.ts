// Saved plans (issue 18.4): a plan written with JSON.stringify and read back
// runs exactly like the one built in memory; a saved plan whose reads or
// files moved is refused (exit 5) before anything is sent.
import { afterEach, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bufferIO } from './helpers.js';
import { startEmulator, DEMO_API_KEY, DEMO_USER, type RunningEmulator } from '../../src/emulator/index.js';
import { ApiClient } from '../../src/http/client.js';
import { Output } from '../../src/io/output.js';
import { executePlan, type ExecutorContext } from '../../src/plan/execute.js';
import { createMultiProgress } from '../../src/io/progress.js';
import { plan, ref, type Step } from '../../src/plan/plan.js';
import { steps } from '../../src/plan/steps.js';
import { checkStale, plannedFiles, readSavedPlan, recordReads, toSavedPlan } from '../../src/plan/saved.js';
import { fileSha256 as sha256File } from '../../src/transfer/digest.js';
import { readChannel } from '../../src/service/assets.js';
import { ExitCode } from '../../src/errors.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function emulator(): Promise<{ emu: RunningEmulator; api: ApiClient; writes: string[] }> {
  const writes: string[] = [];
  const emu = await startEmulator({ port: 0, log: (line) => (line.startsWith('GET ') ? undefined : writes.push(line.replace(/ \d+ms$/, ''))) });
  const api = new ApiClient({ baseUrl: emu.baseUrl, domainId: 'demo', apiKey: DEMO_API_KEY, timeoutMs: 5000, retries: 0 });
  cleanups.push(() => emu.close(), () => api.destroy());
  return { emu, api, writes };
}

async function context(api: ApiClient): Promise<ExecutorContext> {
  const io = bufferIO();
  const output = await Output.create(io, { format: 'json', quiet: true });
  return {
    api: async () => api,
    output: async () => output,
    signal: new AbortController().signal,
    globals: { quiet: true } as ExecutorContext['globals'],
    confirm: async () => undefined,
    progress: async () => ({ update() {}, done() {}, stop() {} }),
    multiProgress: async (options) => createMultiProgress(io, options),
    io,
  };
}

async function folder(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'ahs-saved-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

/** A release as steps: create the asset, upload, deploy LIVE, promote (refs between them). */
async function releaseSteps(path: string): Promise<Step[]> {
  const size = (await import('node:fs')).statSync(path).size;
  const create = steps.assetCreate({ body: { assetId: 'app', assetName: 'App', assetType: '1001', createdBy: DEMO_USER } });
  const upload = steps.versionUpload({ assetId: 'app', platform: 'ios', fields: { versionName: '1.0.0', createdBy: DEMO_USER }, file: { path, name: 'app.zip', size, sha256: await sha256File(path) } });
  const body = { envId: 'prod', intent: 'LIVE' as const, createdBy: DEMO_USER, updatedBy: DEMO_USER };
  const empty = { records: {}, formerDefaults: [], midDeployment: false };
  const live = steps.versionDeploy({ assetId: 'app', versionId: ref(upload, 'versionId'), platform: 'ios', body, channel: empty, versionIsNew: true });
  const promote = steps.versionPromote({ assetId: 'app', platform: 'ios', envId: 'prod', versionId: ref(upload, 'versionId'), user: DEMO_USER, channel: empty, expected: null, afterLive: body, versionIsNew: true });
  return [create, upload, live, promote];
}

describe('saved plans', () => {
  it('a plan written with JSON.stringify and read back sends the same requests as the one built in memory', async () => {
    const dir = await folder();
    const file = join(dir, 'app.zip');
    await writeFile(file, 'zip bytes');
    const built = await releaseSteps(file);
    const [first, second] = [await emulator(), await emulator()];

    await executePlan(plan(built, () => undefined), await context(first.api));
    const saved = toSavedPlan({ baseUrl: second.emu.baseUrl, domainId: 'demo', files: await plannedFiles(built), reads: [], steps: built });
    const text = JSON.stringify(saved);
    expect(text).not.toContain(DEMO_API_KEY);
    const readBack = readSavedPlan(text, 'plan.json');
    await executePlan(plan(readBack.steps, () => undefined), await context(second.api));

    expect(first.writes.length).toBe(4);
    expect(second.writes).toEqual(first.writes);
    expect((await readChannel(second.api, 'app', 'ios', 'prod')).channel.records).toEqual({ IOS1: 'DEFAULT' });
  });

  it('a saved plan is stale after a promotion made outside it, and after a change to a file it would upload: exit 5, naming what moved', async () => {
    const dir = await folder();
    const file = join(dir, 'app.zip');
    await writeFile(file, 'zip bytes');
    const { api, writes } = await emulator();
    await executePlan(plan(await releaseSteps(file), () => undefined), await context(api));
    const second = steps.versionUpload({ assetId: 'app', platform: 'ios', fields: { versionName: '1.0.1', createdBy: DEMO_USER }, file: { path: file, name: 'app.zip', size: 9, sha256: await sha256File(file) } });
    const uploaded = await api.json<{ versionId: string }>({ method: 'POST', path: api.path('va', 'app', 'versions'), query: { targetPlatformId: 'ios' }, stream: await (await import('../../src/transfer/upload.js')).prepareMultipart({ fields: { versionName: '1.0.1', createdBy: DEMO_USER }, file: { field: 'assetFile', path: file, fileName: 'app.zip' } }) });
    await api.post(api.path('va', 'app', 'versions', uploaded.versionId, 'deploy'), { envId: 'prod', intent: 'LIVE', createdBy: DEMO_USER, updatedBy: DEMO_USER }, { targetPlatformId: 'ios' });

    const recorder = recordReads(api);
    await readChannel(api, 'app', 'ios', 'prod');
    recorder.stop();
    const saved = readSavedPlan(JSON.stringify(toSavedPlan({ baseUrl: 'x', domainId: 'demo', files: await plannedFiles([second]), reads: recorder.reads(), steps: [second] })), 'p');
    expect(saved.reads.length).toBeGreaterThan(0);
    await checkStale(saved, api);

    // Another writer promotes IOS2 between plan and apply.
    await api.post(api.path('va', 'app', 'versions', uploaded.versionId, 'deploy'), { envId: 'prod', intent: 'DEFAULT', currentVersionId: 'IOS1', currentAssetIntent: 'LIVE', createdBy: DEMO_USER, updatedBy: DEMO_USER }, { targetPlatformId: 'ios' });
    const sentBefore = writes.length;
    const stale = await checkStale(saved, api).catch((error: unknown) => error as Error & { exitCode: number });
    expect(stale?.exitCode).toBe(ExitCode.conflict);
    expect(stale?.message).toMatch(/^the plan is stale: GET \/va\/app\/asset-urls\?targetPlatform=ios&envId=prod: was 2 result\(s\): IOS1@ios\/prod=DEFAULT IOS2@ios\/prod=LIVE, now 2 result\(s\): IOS1@ios\/prod=LIVE IOS2@ios\/prod=DEFAULT; nothing was sent; run ahs plan again$/);
    expect(writes.length).toBe(sentBefore);

    // A file it would upload changed: stale too, named by its path.
    const fresh = { ...saved, reads: [] };
    await writeFile(file, 'other bytes');
    await expect(checkStale(fresh, api)).rejects.toThrow(`the plan is stale: ${file} changed since the plan`);
  });

  it('a file changed after the plan is never stored: hashed as its upload reads it, the request cut before its end', async () => {
    const dir = await folder();
    const file = join(dir, 'app.zip');
    await writeFile(file, 'zip bytes');
    const { api, writes } = await emulator();
    const [create, upload] = await releaseSteps(file);
    await writeFile(file, 'zip byteZ');
    const failure = await executePlan(plan([create!, upload!], () => undefined), await context(api)).catch((error: unknown) => error as Error & { exitCode: number });
    expect(failure?.exitCode).toBe(ExitCode.conflict);
    expect(failure?.message).toContain(`${file} changed since it was planned`);
    expect(writes).toEqual(['POST /api/v2/demo/va 201']);
  });

  it('a file that is not a saved plan is a usage error naming the field', () => {
    expect(() => readSavedPlan('not json', 'p.json')).toThrow(/^p\.json is not a saved plan: not JSON/);
    expect(() => readSavedPlan(JSON.stringify({ formatVersion: 9 }), 'p.json')).toThrow('p.json: formatVersion 9 is not one this ahs reads (2); plan again with this ahs');
    const base = { formatVersion: 2, baseUrl: 'http://x', domainId: 'demo', files: [], reads: [] };
    expect(() => readSavedPlan(JSON.stringify({ ...base, steps: [{ id: 'a', kind: 'asset.explode', params: {} }] }), 'p.json')).toThrow(/^p\.json is not a saved plan of ahs: steps\.0\.kind: /);
    expect(() => readSavedPlan(JSON.stringify({ ...base, steps: [{ id: 'a', kind: 'version.deploy', params: { versionId: { $ref: 'b', field: 'versionId' } } }] }), 'p.json')).toThrow(
      'p.json: steps.0.params refers to step b, which is not an earlier step of the plan',
    );
  });
});
