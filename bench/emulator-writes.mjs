#!/usr/bin/env node
// The emulator's write latency with --data-dir.
//
// By default, as its state grows (issue 14, last row): the median time of
// one asset create at 1,000 assets and at 10,000, and their ratio (target:
// at most 1.5x).
//
//   npm run build && node bench/emulator-writes.mjs [--small 1000] [--large 10000] [--samples 300]
//
// With --uploads, what an upload of a small file costs (issue 21: item sync
// of new files waits on each answer): the median time of one item upload
// (4 KiB) sent alone, and of one in a wave of 8 sent at once (item sync's
// requests in flight), over --samples uploads alone and --samples / 8 waves,
// and the emulator's CPU per upload in each (user + system time of all its
// threads, from /proc/PID/task/*/schedstat, read before and after each
// sample: the other emulator is idle meanwhile).
// --baseline OTHER/bin/ahs.js runs a second emulator from another build
// beside this one, the samples alternated between the two (a busy machine
// then weighs on both alike), and prints the ratio of this build's to it.
//
//   npm run build && node bench/emulator-writes.mjs --uploads [--samples 200] [--baseline ../main/bin/ahs.js]
//
// Runs the built binary (`bin/ahs.js emulator start --data-dir ...`) and
// talks to it over loopback HTTP; the fill between the two measures goes 16
// requests at a time, each measured write goes alone.
import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values: flags } = parseArgs({
  options: {
    small: { type: 'string', default: '1000' },
    large: { type: 'string', default: '10000' },
    samples: { type: 'string' },
    uploads: { type: 'boolean', default: false },
    baseline: { type: 'string' },
  },
});
const small = Number(flags.small);
const large = Number(flags.large);
const samples = Number(flags.samples ?? (flags.uploads ? 200 : 300));
const TARGET = 1.5;
const bin = fileURLToPath(new URL('../bin/ahs.js', import.meta.url));
const USER = 'owner@demo.test';
const WAVE = 8;
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** An emulator of the build at `binPath`, with a temporary --data-dir of its own. */
async function startEmulator(binPath) {
  const dataDir = await mkdtemp(join(tmpdir(), 'ahs-bench-writes-'));
  const child = spawn(process.execPath, [binPath, 'emulator', 'start', '--port', '0', '--json', '--data-dir', dataDir], { stdio: ['ignore', 'pipe', 'ignore'] });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGTERM');
      await exited;
    }
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    const line = await Promise.race([
      new Promise((done) => createInterface({ input: child.stdout }).once('line', done)),
      new Promise((_, reject) => child.once('exit', (code) => reject(new Error(`the emulator of ${binPath} exited ${code}`)))),
    ]);
    return { baseUrl: JSON.parse(line).baseUrl, pid: child.pid, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** CPU time (ms) the process has run so far, all its threads (Linux; 0 elsewhere). */
async function cpuMs(pid) {
  try {
    const tasks = await readdir(`/proc/${pid}/task`);
    const times = await Promise.all(tasks.map((task) => readFile(`/proc/${pid}/task/${task}/schedstat`, 'utf8').then((text) => Number(text.split(' ')[0]), () => 0)));
    return times.reduce((sum, ns) => sum + ns, 0) / 1e6;
  } catch {
    return 0;
  }
}

/** A write to the demo domain that must answer 201. */
async function post(baseUrl, path, body) {
  const json = !(body instanceof FormData);
  const response = await fetch(`${baseUrl}/api/v2/demo${path}`, {
    method: 'POST',
    headers: { apikey: 'demo-key', ...(json ? { 'content-type': 'application/json' } : {}) },
    body: json ? JSON.stringify(body) : body,
  });
  if (response.status !== 201) throw new Error(`POST ${path}: HTTP ${response.status} ${await response.text()}`);
  await response.arrayBuffer();
}

/** Asset creates at `small` assets and at `large` (issue 14). */
async function measureGrowth() {
  const emulator = await startEmulator(bin);
  try {
    let created = 0;
    const create = () => {
      const id = `bench-${created++}`;
      return post(emulator.baseUrl, '/va', { assetId: id, assetName: `Bench asset ${id}`, assetType: '1001', createdBy: USER, description: 'x'.repeat(200) });
    };
    const fillTo = async (count) => {
      const workers = Array.from({ length: 16 }, async () => {
        while (created < count) await create();
      });
      await Promise.all(workers);
    };
    const measure = async () => {
      const times = [];
      for (let i = 0; i < samples; i++) {
        const started = performance.now();
        await create();
        times.push(performance.now() - started);
      }
      return median(times);
    };

    await fillTo(small);
    const atSmall = await measure();
    await fillTo(large);
    const atLarge = await measure();
    const ratio = atLarge / atSmall;
    console.log(`emulator write (--data-dir), median of ${samples}: ${atSmall.toFixed(2)} ms at ${small} assets, ${atLarge.toFixed(2)} ms at ${large}`);
    console.log(`ratio ${large}/${small}: ${ratio.toFixed(2)}x (target at most ${TARGET}x) ${ratio <= TARGET ? 'met' : 'NOT met'}`);
  } finally {
    await emulator.stop();
  }
}

/** --uploads: item uploads alone and in waves of WAVE, alternated between this build and --baseline's. */
async function measureUploads() {
  const builds = [{ name: 'this build', bin }];
  if (flags.baseline) builds.push({ name: `baseline ${flags.baseline}`, bin: resolve(flags.baseline) });
  const emulators = [];
  try {
    for (const build of builds) emulators.push({ ...build, ...(await startEmulator(build.bin)), uploaded: 0, alone: [], inWave: [], cpuAlone: 0, cpuInWave: 0 });
    const payload = 'x'.repeat(4096);
    const upload = async (emulator) => {
      const n = emulator.uploaded++;
      // A collection per 1,000 items: it holds at most maxAssets.
      const collection = `bench-${Math.floor(n / 1000)}`;
      if (n % 1000 === 0) await post(emulator.baseUrl, '/vc', { collectionId: collection, collectionName: collection, allowedAssetTypes: ['1001'], maxAssets: 1000, createdBy: USER });
      const form = new FormData();
      form.set('assetItemName', `item-${n}`);
      form.set('assetType', '1001');
      form.set('createdBy', USER);
      form.set('assetFile', new Blob([payload]), `item-${n}.json`);
      const started = performance.now();
      await post(emulator.baseUrl, `/vc/${collection}/items`, form);
      return performance.now() - started;
    };
    const wave = (emulator) => Promise.all(Array.from({ length: WAVE }, () => upload(emulator)));
    /** Runs `work` on `emulator`, adding the CPU it spent meanwhile to `emulator[field]`. */
    const costed = async (emulator, field, work) => {
      const before = await cpuMs(emulator.pid);
      const result = await work(emulator);
      emulator[field] += (await cpuMs(emulator.pid)) - before;
      return result;
    };
    // Warmed up first (connections, JIT), then one sample of each in turn.
    for (const emulator of emulators) await wave(emulator);
    for (let i = 0; i < samples; i++) for (const emulator of emulators) emulator.alone.push(await costed(emulator, 'cpuAlone', upload));
    for (let i = 0; i < Math.ceil(samples / WAVE); i++) for (const emulator of emulators) emulator.inWave.push(...(await costed(emulator, 'cpuInWave', wave)));
    const perUpload = (cpu, uploads) => cpu / uploads.length;
    for (const { name, alone, inWave, cpuAlone, cpuInWave } of emulators) {
      console.log(`${name}: item upload of 4 KiB (--data-dir), median ${median(alone).toFixed(2)} ms alone (${alone.length}), ${median(inWave).toFixed(2)} ms in waves of ${WAVE} (${inWave.length})`);
      console.log(`${name}: emulator CPU per upload ${perUpload(cpuAlone, alone).toFixed(3)} ms alone, ${perUpload(cpuInWave, inWave).toFixed(3)} ms in waves of ${WAVE}`);
    }
    if (emulators.length === 2) {
      const [mine, base] = emulators;
      console.log(`this build / baseline: ${(median(mine.alone) / median(base.alone)).toFixed(2)}x alone, ${(median(mine.inWave) / median(base.inWave)).toFixed(2)}x in waves of ${WAVE}`);
      console.log(
        `this build / baseline, emulator CPU per upload: ${(mine.cpuAlone / mine.alone.length / (base.cpuAlone / base.alone.length)).toFixed(2)}x alone, ${(mine.cpuInWave / mine.inWave.length / (base.cpuInWave / base.inWave.length)).toFixed(2)}x in waves of ${WAVE}`,
      );
    }
  } finally {
    for (const emulator of emulators) await emulator.stop();
  }
}

if (flags.uploads) await measureUploads();
else await measureGrowth();
