// Checks the module structure of src/ (issue 9): no file under
// src/commands/<a>/ imports from src/commands/<b>/, and no import cycle.
// Type-only imports count (issue 34: a 26-file type cycle ran through
// program.ts while they were ignored): a type edge is a dependency of the
// code's meaning, if not of its load order. Dynamic import() (lazy loading)
// is not an edge. Run by `npm test`.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src');

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
console.log(`imports ok: ${graph.size} modules, no command folder imports another, no cycle`);
