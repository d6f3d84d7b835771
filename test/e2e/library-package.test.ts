// The library as a package (issue 35): what importing the built dist/lib.mjs
// evaluates. `require()` from CommonJS, a script bundled by esbuild and
// scripts compiled strict run from the installed release in packaging.test.ts.
import { beforeAll, describe, expect, it } from 'vitest';
import { readFile, readdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { ROOT, assertFreshBuild } from './helpers.js';

beforeAll(() => assertFreshBuild());

describe('the library as a package', () => {
  it('importing it evaluates neither zod nor undici: they are chunks that a call loads with import() when it needs them', async () => {
    // The files an import evaluates: the entry and its static imports, transitively (esbuild marks each
    // bundled file with a "// node_modules/..." comment in unminified output).
    const seen = new Set<string>();
    const visit = async (file: string): Promise<void> => {
      if (seen.has(file)) return;
      seen.add(file);
      const text = await readFile(file, 'utf8');
      for (const [, spec] of text.matchAll(/^import\s[^'"]*['"](\.{1,2}\/[^'"]+)['"]/gm)) await visit(join(dirname(file), spec!));
    };
    await visit(join(ROOT, 'dist', 'lib.mjs'));
    const eager = await Promise.all([...seen].map((file) => readFile(file, 'utf8')));
    expect(eager.join('\n')).not.toMatch(/\/\/ node_modules\/(zod|undici)\//);
    const all = await Promise.all((await readdir(join(ROOT, 'dist', 'lib-chunks'))).filter((name) => name.endsWith('.mjs')).map((name) => readFile(join(ROOT, 'dist', 'lib-chunks', name), 'utf8')));
    expect(all.join('\n')).toMatch(/\/\/ node_modules\/zod\//);
    expect(all.join('\n')).toMatch(/\/\/ node_modules\/undici\//);
  });
});

// The @examples of the shipped declarations (each method of Client, PagedList, the options: the
// JSDoc a user's editor shows) compile strict against dist/types alone, as a user's code would: an
// example that names a field a result lost, or a parameter renamed, fails here (issue 46).
describe("the library's declarations as shipped", () => {
  it('every @example compiles strict (exactOptionalPropertyTypes) against dist/types, with nothing but @types/node', async () => {
    const types = join(ROOT, 'dist', 'types', 'library');
    // Client's methods are declared beside createClient (client.d.ts), the types they take and give in types.d.ts.
    const text = (await Promise.all(['client.d.ts', 'types.d.ts'].map((name) => readFile(join(types, name), 'utf8')))).join('\n');
    const examples = [...text.matchAll(/@example\n((?:\s*\* (?!@).*\n)+)/g)].map(([, body]) => body!.split('\n').map((line) => line.replace(/^\s*\* ?/, '')).join('\n').trim());
    expect(examples.length).toBeGreaterThan(40);
    const names = [...text.matchAll(/^export (?:interface|type) (\w+)/gm)].map(([, name]) => name!);
    const file = join(types, 'examples.check.ts');
    const source = [
      `import { createClient, type ${names.join(', type ')} } from './index.js';`,
      "import { writeFile } from 'node:fs/promises';",
      'declare const client: Client;',
      'declare const settings: ClientOptions;',
      'declare const bar: { update(done: number, total?: number): void };',
      'void createClient; void writeFile; void settings; void bar;',
      // `try { ... }`: the body is the reader's.
      ...examples.map((code, i) => `export async function example${i}(): Promise<void> {\n${code.replaceAll('{ ... }', '{ /* ... */ }')}\n}`),
    ].join('\n');
    const { default: ts } = await import('typescript');
    const { writeFile: write, rm } = await import('node:fs/promises');
    await write(file, source);
    try {
      const program = ts.createProgram([file], { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, strict: true, exactOptionalPropertyTypes: true, noUnusedLocals: false, noEmit: true, skipLibCheck: true, types: ['node'], typeRoots: [join(ROOT, 'node_modules', '@types')] });
      const errors = ts.getPreEmitDiagnostics(program).map((d) => `${d.file ? `${d.file.fileName.slice(types.length + 1)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}: ` : ''}${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
      expect(errors, source).toEqual([]);
    } finally {
      await rm(file, { force: true });
    }
    // TypeScript and @types/node loaded and checked: 20 to 60 s on a loaded 2-core machine.
  }, 180_000);

  it("keep every field of the library's type test (test/types/library-fields.ts, compiled against dist/types instead of src/)", async () => {
    // The written-out declarations (scripts/library-declarations.mjs) must not lose, add or make required a field of what src/ declares.
    const types = join(ROOT, 'dist', 'types', 'library');
    const fixture = await readFile(join(ROOT, 'test', 'types', 'library-fields.ts'), 'utf8');
    const from = "from '../../src/library/types.js';";
    expect(fixture).toContain(from);
    const file = join(types, 'fields.check.ts');
    const { default: ts } = await import('typescript');
    const { writeFile: write, rm } = await import('node:fs/promises');
    await write(file, fixture.replace(from, "from './index.js';"));
    try {
      const program = ts.createProgram([file], { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, strict: true, exactOptionalPropertyTypes: true, noEmit: true, skipLibCheck: true, types: ['node'], typeRoots: [join(ROOT, 'node_modules', '@types')] });
      const errors = ts.getPreEmitDiagnostics(program).map((d) => `${d.file ? `${d.file.fileName.slice(types.length + 1)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}: ` : ''}${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`);
      expect(errors).toEqual([]);
    } finally {
      await rm(file, { force: true });
    }
  }, 180_000);
});
