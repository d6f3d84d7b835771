#!/usr/bin/env node
// The emulator's write latency with --data-dir, as its state grows (issue 14,
// last row): the median time of one asset create at 1,000 assets and at
// 10,000, and their ratio (target: at most 1.5x).
//
//   npm run build && node bench/emulator-writes.mjs [--small 1000] [--large 10000] [--samples 300]
//
// Runs the built binary (`bin/ahs.js emulator start --data-dir ...`) and
// talks to it over loopback HTTP; the fill between the two measures goes 16
// requests at a time, each measured write goes alone.
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values: flags } = parseArgs({
  options: {
    small: { type: 'string', default: '1000' },
    large: { type: 'string', default: '10000' },
    samples: { type: 'string', default: '300' },
  },
});
const small = Number(flags.small);
const large = Number(flags.large);
const samples = Number(flags.samples);
const TARGET = 1.5;
const bin = fileURLToPath(new URL('../bin/ahs.js', import.meta.url));
const USER = 'owner@demo.test';

const dataDir = await mkdtemp(join(tmpdir(), 'ahs-bench-writes-'));
const child = spawn(process.execPath, [bin, 'emulator', 'start', '--port', '0', '--json', '--data-dir', dataDir], { stdio: ['ignore', 'pipe', 'ignore'] });
try {
  const [line] = await Promise.race([
    new Promise((resolve) => createInterface({ input: child.stdout }).once('line', (text) => resolve([text]))),
    new Promise((_, reject) => child.once('exit', (code) => reject(new Error(`the emulator exited ${code}`)))),
  ]);
  const { baseUrl } = JSON.parse(line);
  let created = 0;
  const create = async () => {
    const id = `bench-${created++}`;
    const response = await fetch(`${baseUrl}/api/v2/demo/va`, {
      method: 'POST',
      headers: { apikey: 'demo-key', 'content-type': 'application/json' },
      body: JSON.stringify({ assetId: id, assetName: `Bench asset ${id}`, assetType: '1001', createdBy: USER, description: 'x'.repeat(200) }),
    });
    if (response.status !== 201) throw new Error(`create ${id}: HTTP ${response.status} ${await response.text()}`);
    await response.arrayBuffer();
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
    times.sort((a, b) => a - b);
    return times[Math.floor(times.length / 2)];
  };

  await fillTo(small);
  const atSmall = await measure();
  await fillTo(large);
  const atLarge = await measure();
  const ratio = atLarge / atSmall;
  console.log(`emulator write (--data-dir), median of ${samples}: ${atSmall.toFixed(2)} ms at ${small} assets, ${atLarge.toFixed(2)} ms at ${large}`);
  console.log(`ratio ${large}/${small}: ${ratio.toFixed(2)}x (target at most ${TARGET}x) ${ratio <= TARGET ? 'met' : 'NOT met'}`);
} finally {
  child.kill('SIGTERM');
  await new Promise((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', resolve)));
  await rm(dataDir, { recursive: true, force: true });
}
