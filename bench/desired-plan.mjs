#!/usr/bin/env node
// `ahs plan` of a desired-state file of 50 channels and 3 collections of 200
// items (issue 20's figure: under 2 s at 50 ms of latency each way), through
// bench/latency-proxy.mjs against the built binary and the emulator. The
// file is written by `ahs export`, so the plan finds nothing to change
// (exit 0 with --detailed-exitcode): what is measured is the reading.
//
//   npm run build && node bench/desired-plan.mjs [--delay 50] [--runs 3]
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { longestChain, startLatencyProxy } from './latency-proxy.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'bin', 'ahs.js');
const { values: flags } = parseArgs({ options: { delay: { type: 'string', default: '50' }, runs: { type: 'string', default: '3' } } });
const DELAY = Number(flags.delay);
const RUNS = Number(flags.runs);
const KEY = 'demo-key';
const USER = 'owner@demo.test';
const ASSETS = 10;
const ENVS = ['dev', 'prod', 'qa', 'stage', 'beta'];
const COLLECTIONS = 3;
const ITEMS = 200;
const TARGET_MS = 2000;
const log = (text) => process.stderr.write(`${text}\n`);
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

function startEmulator(dataDir, config) {
  const child = spawn(process.execPath, [bin, 'emulator', 'start', '--port', '0', '--json', '--data-dir', dataDir, '--config', config], { stdio: ['ignore', 'pipe', 'ignore'] });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the emulator exited ${code}`)));
    createInterface({ input: child.stdout }).once('line', (line) =>
      resolve({ ...JSON.parse(line), stop: () => new Promise((done) => (child.exitCode !== null ? done() : (child.once('exit', done), child.kill('SIGTERM'))))}),
    );
  });
}

async function limited(items, width, work) {
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < items.length) await work(items[next++]);
  }));
}

function run(args, env) {
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(process.execPath, [bin, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.stdout.resume();
    child.on('exit', (code) => resolve({ code, ms: performance.now() - started, stderr }));
  });
}

const dir = await mkdtemp(join(tmpdir(), 'ahs-bench-desired-'));
const config = join(dir, 'fixture.json');
await writeFile(
  config,
  JSON.stringify({
    domains: [
      {
        domainId: 'demo',
        users: [{ email: USER, role: 'owner', active: true }],
        apiKeys: [{ key: KEY }],
        environments: ENVS,
        targetPlatforms: ['ios', 'generic'],
        assetTypes: [{ code: '1001', name: 'Bundle', active: true }],
      },
    ],
  }),
);
const emulator = await startEmulator(join(dir, 'data'), config);
const call = async (method, path, body) => {
  const headers = { apikey: KEY };
  let payload = body;
  if (body !== undefined && !(body instanceof FormData)) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const response = await fetch(`${emulator.baseUrl}/api/v2/demo${path}`, { method, headers, body: payload });
  if (response.status >= 300) throw new Error(`seed ${method} ${path}: ${response.status} ${await response.text()}`);
  const text = await response.text();
  return text ? JSON.parse(text) : undefined;
};

try {
  log(`seeding ${ASSETS} assets x ${ENVS.length} environments (${ASSETS * ENVS.length} channels) and ${COLLECTIONS} collections of ${ITEMS} items`);
  const assets = Array.from({ length: ASSETS }, (_, i) => `bundle-${i}`);
  await limited(assets, 4, async (assetId) => {
    await call('POST', '/va', { assetId, assetName: assetId, assetType: '1001', createdBy: USER });
    const versions = [];
    for (const name of ['1.0', '1.1']) {
      const form = new FormData();
      form.set('versionName', name);
      form.set('createdBy', USER);
      form.set('assetFile', new Blob([`${assetId} ${name}`]), `${assetId}.zip`);
      versions.push((await call('POST', `/va/${assetId}/versions?targetPlatformId=ios`, form)).versionId);
    }
    for (const envId of ENVS) {
      for (const versionId of versions) await call('POST', `/va/${assetId}/versions/${versionId}/deploy?targetPlatformId=ios`, { envId, intent: 'LIVE', createdBy: USER, updatedBy: USER });
      await call('POST', `/va/${assetId}/versions/${versions[1]}/deploy?targetPlatformId=ios`, { envId, intent: 'DEFAULT', currentVersionId: undefined, createdBy: USER, updatedBy: USER });
    }
  });
  for (let c = 0; c < COLLECTIONS; c++) {
    const collectionId = `pack-${c}`;
    await call('POST', '/vc', { collectionId, collectionName: collectionId, allowedAssetTypes: ['1001'], maxAssets: 500, createdBy: USER });
    const files = Array.from({ length: ITEMS }, (_, i) => `item-${String(i).padStart(3, '0')}.zip`);
    await limited(files, 8, async (name) => {
      const form = new FormData();
      form.set('assetItemName', name);
      form.set('assetType', '1001');
      form.set('createdBy', USER);
      form.set('assetFile', new Blob([name]), name);
      await call('POST', `/vc/${collectionId}/items`, form);
    });
    await call('POST', `/vc/${collectionId}/deployments`, { state: 'LIVE', envId: 'prod', createdBy: USER, updatedBy: USER });
  }

  const proxy = await startLatencyProxy(emulator.baseUrl, { delayMs: 0 });
  const env = { ...process.env, AHS_BASE_URL: proxy.url, AHS_DOMAIN: 'demo', AHS_API_KEY: KEY, AHS_USER: USER, AHS_CONFIG_DIR: join(dir, 'config'), CI: '1', NO_COLOR: '1' };
  const file = join(dir, 'ahs.yaml');
  const exportArgs = ['export', ...assets.flatMap((a) => ['--asset', a]), ...Array.from({ length: COLLECTIONS }, (_, c) => ['--collection', `pack-${c}`]).flat()];
  const exported = await new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...exportArgs], { env, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('exit', (code) => resolve({ code, out }));
  });
  if (exported.code !== 0) throw new Error(`ahs export exited ${exported.code}`);
  await writeFile(file, exported.out);

  const rows = [];
  for (const delay of [0, DELAY]) {
    proxy.delayMs = delay;
    const walls = [];
    let requests = 0;
    let chain = 0;
    for (let i = 0; i < RUNS; i++) {
      proxy.reset();
      const result = await run(['plan', '-f', file, '--detailed-exitcode'], env);
      if (result.code !== 0) throw new Error(`ahs plan exited ${result.code}: ${result.stderr.slice(0, 400)}`);
      walls.push(result.ms);
      requests = proxy.log.length;
      chain = longestChain(proxy.log);
    }
    rows.push({ delay, wall: median(walls), requests, chain });
  }
  await proxy.close();
  const at = rows.find((r) => r.delay === DELAY);
  console.log(`\n| plan of ${ASSETS * ENVS.length} channels, ${COLLECTIONS} collections x ${ITEMS} items | requests | longest chain | wall at 0 ms | wall at ${DELAY} ms | target |`);
  console.log('|---|---|---|---|---|---|');
  console.log(`| ahs plan --detailed-exitcode (nothing to change) | ${at.requests} | ${at.chain} | ${Math.round(rows[0].wall)} ms | ${Math.round(at.wall)} ms | < ${TARGET_MS} ms: ${at.wall < TARGET_MS ? 'met' : 'missed'} |`);
} finally {
  await emulator.stop();
  await rm(dir, { recursive: true, force: true });
}
