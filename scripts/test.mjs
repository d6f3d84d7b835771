// `npm test`: the layers' check, the build, the type check and the suite.
// The type check (tsc --noEmit, 4 to 16 s) runs beside the build and the
// suite instead of before them (issue 34: it was a tenth of the run's wall
// time, and the suite leaves a core idle while its tests wait on timers).
// Every step runs whatever another one says; the exit code is the first
// failure's, and tsc's errors are printed after the suite's report.
// Arguments go to vitest (`npm test -- test/e2e/journal.test.ts`).
import { spawn } from 'node:child_process';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const bin = (pkg, file) => join(root, 'node_modules', pkg, file);

/** Runs node FILE ARGS; resolves with its exit code and, when `capture`, what it printed. */
function run(file, args, capture = false) {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [file, ...args], { cwd: root, stdio: capture ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
    let output = '';
    if (capture) for (const stream of [child.stdout, child.stderr]) stream.on('data', (chunk) => (output += chunk));
    child.on('error', (error) => resolve({ code: 1, output: `${output}${error.message}\n` }));
    child.on('close', (code, signal) => resolve({ code: code ?? (signal ? 1 : 0), output }));
  });
}

const typecheck = run(bin('typescript', 'bin/tsc'), ['--noEmit'], true);
const steps = [];
steps.push(['check-imports', await run(join(root, 'scripts', 'check-imports.mjs'), [])]);
steps.push(['build', await run(join(root, 'scripts', 'build.mjs'), [])]);
// The suite needs the build (the binary's tests refuse an old one).
if (steps.every(([, step]) => step.code === 0)) steps.push(['vitest', await run(bin('vitest', 'vitest.mjs'), ['run', ...process.argv.slice(2)])]);
const checked = await typecheck;
if (checked.output) process.stdout.write(checked.output);
steps.push(['tsc --noEmit', checked]);

const failed = steps.filter(([, step]) => step.code !== 0);
for (const [name, step] of failed) console.error(`npm test: ${name} failed (exit ${step.code})`);
process.exitCode = failed[0]?.[1].code ?? 0;
