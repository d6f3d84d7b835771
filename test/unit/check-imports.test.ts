// scripts/check-imports.mjs on fixture trees (issue 34): an upward import,
// type-only included, fails with the file, the import and the rule named.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const script = join(__dirname, '../../scripts/check-imports.mjs');
let dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs = [];
});

function check(tree: Record<string, string>): { status: number | null; out: string; err: string } {
  const root = mkdtempSync(join(tmpdir(), 'ahs-imports-'));
  dirs.push(root);
  for (const [path, text] of Object.entries(tree)) {
    mkdirSync(dirname(join(root, 'src', path)), { recursive: true });
    writeFileSync(join(root, 'src', path), text);
  }
  const run = spawnSync(process.execPath, [script, join(root, 'src')], { encoding: 'utf8' });
  return { status: run.status, out: run.stdout, err: run.stderr };
}

describe('check-imports', () => {
  it('passes imports that go down or stay in a folder', () => {
    const run = check({
      'rules/a.ts': "import { x } from '../util/x.js';\nimport { b } from './b.js';\n",
      'rules/b.ts': 'export const b = 1;\n',
      'util/x.ts': 'export const x = 1;\n',
      'io/view.ts': "import type { Plan } from '../plan/plan.js';\n",
      'plan/plan.ts': "import { a } from '../rules/a.js';\n",
      'emulator/server.ts': "import { a } from '../rules/a.js';\n",
      'commands/emulator/run.ts': "import { start } from '../../emulator/server.js';\n",
    });
    expect(run.err).toBe('');
    expect(run.status).toBe(0);
    expect(run.out).toContain('no upward import');
  });

  it('fails on an upward type-only import, naming the file, the import and the rule', () => {
    const run = check({
      'plan/execute.ts': "import type { Output } from '../io/output.js';\n",
      'io/output.ts': 'export interface Output { x: 1 }\n',
    });
    expect(run.status).toBe(1);
    expect(run.err.trim()).toBe(
      `src/plan/execute.ts imports src/io/output.ts: an upward import (src/plan/ is below src/io/); declare what the lower layer needs in it and let the higher one implement it`,
    );
  });

  it('keeps service/ below plan/: the API never imports the executor or its steps (issue 46)', () => {
    const run = check({
      'service/journal.ts': "import type { Plan } from '../plan/plan.js';\n",
      'plan/plan.ts': "import { read } from '../service/assets.js';\nexport interface Plan { x: 1 }\n",
      'service/assets.ts': 'export const read = 1;\n',
    });
    expect(run.status).toBe(1);
    expect(run.err.trim()).toBe(
      `src/service/journal.ts imports src/plan/plan.ts: an upward import (src/service/ is below src/plan/); declare what the lower layer needs in it and let the higher one implement it`,
    );
  });

  it('fails on a leaf module importing a folder above it', () => {
    const run = check({ 'errors.ts': "export { a } from './rules/a.js';\n", 'rules/a.ts': 'export const a = 1;\n' });
    expect(run.status).toBe(1);
    expect(run.err).toContain('src/errors.ts imports src/rules/a.ts: an upward import');
  });

  it('keeps the emulator apart', () => {
    const run = check({
      'emulator/server.ts': "import { get } from '../http/client.js';\n",
      'http/client.ts': "import { s } from '../emulator/state.js';\n",
      'emulator/state.ts': 'export const s = 1;\n',
    });
    expect(run.status).toBe(1);
    expect(run.err).toContain('src/emulator/server.ts imports src/http/client.ts: the emulator stands apart: it imports only src/rules/ and src/util/');
    expect(run.err).toContain('src/http/client.ts imports src/emulator/state.ts: only src/commands/ and above may use the emulator');
  });

  it('names a folder that is in no layer', () => {
    const run = check({ 'extra/a.ts': "import { b } from '../rules/b.js';\n", 'rules/b.ts': 'export const b = 1;\n' });
    expect(run.status).toBe(1);
    expect(run.err).toContain('src/extra/ is in no layer');
  });

  it('still fails on a cycle', () => {
    const run = check({ 'rules/a.ts': "import { b } from './b.js';\nexport const a = 1;\n", 'rules/b.ts': "import type { a } from './a.js';\nexport const b = 1;\n" });
    expect(run.status).toBe(1);
    expect(run.err).toContain('import cycle');
  });
});

describe('check-imports: commands parse and render', () => {
  it('refuses a command that reads --dry-run (the executor predicts); a document\'s dryRun field choosing its renderer passes', () => {
    const run = check({
      'commands/api/api.ts': "export const run = (o, ctx) => {\n  if (ctx.globals.dryRun) return print();\n};\n",
      'commands/rollout/start.ts': 'export const run = (doc, out) => out.print(doc, doc.dryRun ? a : b);\n',
    });
    expect(run.status).toBe(1);
    expect(run.err.trim()).toBe('src/commands/api/api.ts:2 reads --dry-run: a command parses and renders; the operation plans and the executor predicts (src/plan/execute.ts)');
  });
});

describe('check-imports: tables', () => {
  it('refuses cli-table3 outside src/io', () => {
    const run = check({
      'io/output.ts': "const Table = (await import('cli-table3')).default;\n",
      'commands/asset/status.ts': "import Table from 'cli-table3';\n",
    });
    expect(run.status).toBe(1);
    expect(run.err.trim()).toBe('src/commands/asset/status.ts imports cli-table3: tables are drawn only by src/io (a Column list and output.list or kit.table)');
  });
});
