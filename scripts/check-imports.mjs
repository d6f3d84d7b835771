// Checks the module structure of src/ (issues 9 and 34): no file under
// src/commands/<a>/ imports from src/commands/<b>/, no import cycle, and no
// import from a lower layer up into a higher one (LAYERS below).
// Type-only imports count (issue 34: a 26-file type cycle ran through
// program.ts while they were ignored): a type edge is a dependency of the
// code's meaning, if not of its load order. Dynamic import() (lazy loading)
// is not an edge. Run by `npm test`.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

// `node scripts/check-imports.mjs [dir]`: dir (default src/) is the tree to check;
// the unit test runs it on fixture trees.
const root = process.argv[2] ? resolve(process.argv[2], '..') : resolve(dirname(fileURLToPath(import.meta.url)), '..');
const src = process.argv[2] ? resolve(process.argv[2]) : join(root, 'src');

// Layers, lowest first (issue 34): a file may import its own layer or one below,
// never one above. A layer names folders (`rules/`) and files at the top of src/.
// Within a folder anything goes (only cycles are refused).
const LAYERS = [
  ['util/', 'errors.ts', 'order.ts', 'options.ts', 'signals.ts'],
  ['rules/'],
  ['http/', 'transfer/', 'config/'],
  // The API as typed functions (reads, writes, the journal's storage and format),
  // below the steps, the executor and the record of what it did (issue 46).
  ['service/'],
  ['plan/'],
  // A capability with typed options and results (issue 34): the commands print it, the library returns it.
  ['operations/'],
  ['io/'],
  ['desired/'],
  ['pickers/'],
  ['context.ts'],
  ['commands/', 'library/', 'docs/', 'program.ts'],
  ['main.ts', 'sea.ts'],
];
// The emulator stands apart: it may import only these; only the given layer and above may import it.
const EMULATOR = { part: 'emulator/', imports: ['rules/', 'util/'], importedFrom: 'commands/' };

const partOf = (file) => {
  const path = relative(src, file).split(/[\\/]/);
  return path.length > 1 ? `${path[0]}/` : path[0];
};
const rankOf = (part) => LAYERS.findIndex((layer) => layer.includes(part));
function layerProblem(file, target) {
  const from = partOf(file);
  const to = partOf(target);
  if (from === to) return undefined;
  if (from === EMULATOR.part) {
    return EMULATOR.imports.includes(to) ? undefined : `the emulator stands apart: it imports only ${EMULATOR.imports.map((p) => `src/${p}`).join(' and ')}`;
  }
  if (to === EMULATOR.part) {
    return rankOf(from) >= rankOf(EMULATOR.importedFrom) ? undefined : `only src/${EMULATOR.importedFrom} and above may use the emulator`;
  }
  const fromRank = rankOf(from);
  const toRank = rankOf(to);
  if (fromRank < 0) return `src/${from} is in no layer: add it to LAYERS in scripts/check-imports.mjs`;
  if (toRank < 0) return `src/${to} is in no layer: add it to LAYERS in scripts/check-imports.mjs`;
  if (toRank > fromRank) return `an upward import (src/${from} is below src/${to}); declare what the lower layer needs in it and let the higher one implement it`;
  return undefined;
}

function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** Static imports and re-exports of a file (type-only ones included), resolved to .ts paths under src/. */
function edges(file) {
  const text = readFileSync(file, 'utf8');
  const found = [];
  const pattern = /^\s*(import|export)\s+(?:type\s+)?([^'";]*?\bfrom\s+)?['"](\.[^'"]+)['"]/gm;
  for (const match of text.matchAll(pattern)) {
    if (match[1] === 'export' && !match[2]) continue;
    found.push(resolve(dirname(file), match[3].replace(/\.js$/, '.ts')));
  }
  return found;
}

const all = files(src);
const graph = new Map(all.map((file) => [file, edges(file)]));
const problems = [];

const commandFolder = (file) => /^commands\/([^/]+)\//.exec(relative(src, file))?.[1];
for (const [file, targets] of graph) {
  const from = commandFolder(file);
  for (const target of targets) {
    const to = commandFolder(target);
    if (from && to && from !== to) problems.push(`${relative(root, file)} imports ${relative(root, target)}: a command folder is its own; move what both use to src/service or src/io`);
    if (!graph.has(target)) continue;
    const rule = layerProblem(file, target);
    if (rule) problems.push(`${relative(root, file)} imports ${relative(root, target)}: ${rule}`);
  }
}

// A command parses and renders (issue 46): whether a write is only predicted is the executor's and
// the operations' to decide (--dry-run prints the executor's prediction), so no command reads the flag.
// A document's own dryRun field (which renderer draws it) is rendering, and allowed.
for (const file of all) {
  if (partOf(file) !== 'commands/') continue;
  const text = readFileSync(file, 'utf8');
  const at = text.search(/globals\s*\.\s*dryRun|\{[^}]*\bdryRun\b[^}]*\}\s*=\s*[\w.]*globals\b/);
  if (at >= 0) {
    const line = text.slice(0, at).split('\n').length;
    problems.push(`${relative(root, file)}:${line} reads --dry-run: a command parses and renders; the operation plans and the executor predicts (src/plan/execute.ts)`);
  }
}

// Tables are drawn only by src/io (issue 34): no other folder loads cli-table3.
for (const file of all) {
  if (partOf(file) === 'io/') continue;
  if (/(?:from\s+|import\s*\(\s*)['"]cli-table3['"]/.test(readFileSync(file, 'utf8'))) {
    problems.push(`${relative(root, file)} imports cli-table3: tables are drawn only by src/io (a Column list and output.list or kit.table)`);
  }
}

// Tarjan's strongly connected components: every component of more than one file is a cycle.
let index = 0;
const stack = [];
const meta = new Map();
function visit(file) {
  meta.set(file, { index, low: index, onStack: true });
  index++;
  stack.push(file);
  for (const target of graph.get(file) ?? []) {
    if (!graph.has(target)) continue;
    if (!meta.has(target)) {
      visit(target);
      meta.get(file).low = Math.min(meta.get(file).low, meta.get(target).low);
    } else if (meta.get(target).onStack) {
      meta.get(file).low = Math.min(meta.get(file).low, meta.get(target).index);
    }
  }
  if (meta.get(file).low === meta.get(file).index) {
    const component = [];
    let member;
    do {
      member = stack.pop();
      meta.get(member).onStack = false;
      component.push(member);
    } while (member !== file);
    if (component.length > 1) problems.push(`import cycle: ${component.map((f) => relative(root, f)).join(' -> ')}`);
  }
}
for (const file of graph.keys()) if (!meta.has(file)) visit(file);

if (problems.length) {
  console.error(problems.join('\n'));
  process.exit(1);
}
console.log(`imports ok: ${graph.size} modules, no command folder imports another, no upward import, no cycle`);
