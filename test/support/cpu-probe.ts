// Where the suite's CPU goes, per file (issue 46): with AHS_TEST_CPU_LOG=FILE
// (vitest.config.ts adds this setup file then), each test file appends one
// JSON line to FILE: its worker's CPU over the file (user + sys, from
// /proc/self/stat, in ms), that of the child processes it started and
// waited for (cutime + cstime: the built binary, shells, npm, tsc...), its
// wall time (and its start and end, epoch ms: the suite's timeline), and the processes it started through node:child_process by
// kind ("ahs" for the built binary). On a shared machine CPU is the figure
// to compare, not wall. A child still running when the file ends (a
// long-lived esbuild service) is counted where it is reaped, or not at all.
// Linux only (/proc).
import { appendFileSync, readFileSync } from 'node:fs';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import { afterAll, expect } from 'vitest';

const require = createRequire(import.meta.url);
const childProcess = require('node:child_process') as Record<string, unknown>;
const PROMISIFIED = Symbol.for('nodejs.util.promisify.custom');
const state = ((globalThis as { __ahsCpuProbe?: { started: string[] } }).__ahsCpuProbe ??= { started: [] });

/** utime + stime and cutime + cstime of this process, in clock ticks (1/100 s on Linux). */
function ticks(): { self: number; children: number } {
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { self: Number(fields[11]) + Number(fields[12]), children: Number(fields[13]) + Number(fields[14]) };
}

function kindOf(file: unknown, args: unknown): string {
  const line = [String(file), ...(Array.isArray(args) ? args.slice(0, 1).map(String) : [])].join(' ');
  if (/(dist\/main\.js|bin\/ahs(\.js)?)\b/.test(line)) return 'ahs';
  const [command, first] = line.split(' ');
  const name = command!.replace(/.*\//, '');
  return /^node(js)?$/.test(name) && first ? first.replace(/.*\//, '') : name;
}

// Once per worker (isolate: false runs every file of a worker in one process).
if (!(childProcess.spawn as { probed?: boolean }).probed) {
  for (const name of ['spawn', 'spawnSync', 'execFile', 'execFileSync', 'exec', 'execSync', 'fork']) {
    const original = childProcess[name] as (...args: unknown[]) => unknown;
    const probed = Object.assign(function (this: unknown, ...args: unknown[]) {
      state.started.push(kindOf(args[0], args[1]));
      return original.apply(this, args);
    }, { probed: true });
    const promisified = (original as unknown as Record<symbol, (...args: unknown[]) => unknown>)[PROMISIFIED];
    if (promisified) {
      Object.defineProperty(probed, PROMISIFIED, {
        value(this: unknown, ...args: unknown[]) {
          state.started.push(kindOf(args[0], args[1]));
          return promisified.apply(this, args);
        },
      });
    }
    childProcess[name] = probed;
  }
  syncBuiltinESMExports();
}

const start = ticks();
const startedAt = Date.now();
state.started = [];
afterAll(() => {
  const end = ticks();
  const kinds: Record<string, number> = {};
  for (const kind of state.started) kinds[kind] = (kinds[kind] ?? 0) + 1;
  const file = (expect.getState().testPath ?? '?').replace(/^.*?\/test\//, 'test/');
  const endedAt = Date.now();
  const line = { file, pid: process.pid, startedAt, endedAt, wallMs: endedAt - startedAt, selfMs: (end.self - start.self) * 10, childrenMs: (end.children - start.children) * 10, started: state.started.length, kinds };
  appendFileSync(process.env.AHS_TEST_CPU_LOG!, `${JSON.stringify(line)}\n`);
});
