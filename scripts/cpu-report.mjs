// The lines test/support/cpu-probe.ts wrote (AHS_TEST_CPU_LOG=FILE npm test),
// as a table, the most CPU first: `node scripts/cpu-report.mjs FILE [N]`.
import { readFileSync } from 'node:fs';

const [file, count = '40'] = process.argv.slice(2);
if (!file) {
  console.error('usage: node scripts/cpu-report.mjs FILE [N]   (FILE: what AHS_TEST_CPU_LOG=FILE npm test wrote)');
  process.exit(2);
}
const rows = readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line));
const cpu = (row) => (row.selfMs + row.childrenMs) / 1000;
rows.sort((a, b) => cpu(b) - cpu(a));
const total = rows.reduce((sum, row) => sum + cpu(row), 0);
const s = (ms) => (ms / 1000).toFixed(1).padStart(6);
console.log(`${rows.length} files, ${total.toFixed(1)} s of CPU (workers and the children they waited for), ${rows.reduce((sum, row) => sum + row.started, 0)} processes started`);
console.log('   cpu   self  child   wall procs file');
for (const row of rows.slice(0, Number(count))) {
  const kinds = Object.entries(row.kinds).sort(([, a], [, b]) => b - a).map(([kind, n]) => `${kind} ${n}`).join(', ');
  console.log(`${cpu(row).toFixed(1).padStart(6)} ${s(row.selfMs)} ${s(row.childrenMs)} ${s(row.wallMs)} ${String(row.started).padStart(5)} ${row.file}${kinds ? ` (${kinds})` : ''}`);
}
