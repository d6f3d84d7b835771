// The package held to the ecosystem's conventions by the tools a user's CI
// runs on it (issue 47), on the tarball `npm pack` makes of this build:
// attw (`attw --pack .` is `npm pack`, then this check of the tarball) and
// publint; `import ahs from 'ahs-cli'` (there is no default export) refused
// at compile time in every module setting a strict project uses, named
// imports compiled and run from both ESM and CommonJS; and the README's
// size line against the tarball and the installed package.
import { execa } from 'execa';
import { mkdir, mkdtemp, readFile, readdir, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, assertFreshBuild } from './helpers.js';
import { NPM_ENV } from '../support/local-release.js';

/** TypeScript's own lib files, parsed once for every project below (they are the same files each time). */
const LIB_DIR = join(ROOT, 'node_modules', 'typescript', 'lib');
const libFiles = new Map<string, ts.SourceFile | undefined>();

/**
 * `tsc -p DIR --pretty false` as TypeScript's API runs it in this process: the project's tsconfig.json, its
 * diagnostics as tsc prints them (relative to DIR) and its exit status (0, or 1/2 with diagnostics), the output
 * written. The compiler's start-up and the lib files' parse were most of each tsc process's CPU (issue 46).
 */
function tscProject(dir: string): { exitCode: number; stdout: string } {
  const parsed = ts.getParsedCommandLineOfConfigFile(join(dir, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => undefined });
  if (!parsed) throw new Error(`${dir}/tsconfig.json: not read`);
  const host = ts.createCompilerHost(parsed.options);
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, language, onError, shouldCreate) => {
    if (!fileName.startsWith(LIB_DIR)) return read(fileName, language, onError, shouldCreate);
    const key = `${fileName}\0${JSON.stringify(language)}`;
    if (!libFiles.has(key)) libFiles.set(key, read(fileName, language, onError, shouldCreate));
    return libFiles.get(key);
  };
  const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options, host, configFileParsingDiagnostics: ts.getConfigFileParsingDiagnostics(parsed) });
  const emitted = program.emit();
  const diagnostics = ts.sortAndDeduplicateDiagnostics([...ts.getPreEmitDiagnostics(program), ...emitted.diagnostics]);
  const stdout = ts.formatDiagnostics(diagnostics, { getCanonicalFileName: (name) => name, getCurrentDirectory: () => dir, getNewLine: () => '\n' }).trimEnd();
  return { exitCode: diagnostics.length === 0 ? 0 : emitted.emitSkipped ? 1 : 2, stdout };
}
let work: string;
let tarball: string;
let installed: string;

beforeAll(async () => {
  assertFreshBuild();
  work = await mkdtemp(join(tmpdir(), 'ahs-package-'));
  // The build is this checkout's (assertFreshBuild): no prepack build.
  const packed = await execa('npm', ['pack', '--ignore-scripts', '--silent', '--pack-destination', work], { cwd: ROOT, env: { ...process.env, ...NPM_ENV } });
  tarball = join(work, packed.stdout.trim().split('\n').at(-1)!);
  const project = join(work, 'project');
  await mkdir(project);
  await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'project', version: '1.0.0', private: true }));
  await execa('npm', ['install', '--silent', '--no-save', tarball], { cwd: project, env: { ...process.env, ...NPM_ENV } });
  installed = join(project, 'node_modules', 'ahs-cli');
}, 120_000);
afterAll(async () => {
  libFiles.clear();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('attw and publint on the packed tarball', () => {
  it('attw: no problem in any resolver (node10, node16 from CommonJS and from ESM, bundler)', async () => {
    const attw = await execa(join(ROOT, 'node_modules', '.bin', 'attw'), [tarball, '--format', 'json'], { reject: false });
    const report = JSON.parse(attw.stdout) as { analysis: { problems: unknown[]; entrypoints: Record<string, { resolutions: Record<string, { resolution?: { fileName: string } }> }> } };
    expect(report.analysis.problems).toEqual([]);
    expect(attw.exitCode, attw.stderr).toBe(0);
    // Each resolver finds the declarations of the module system of the file it runs: .d.cts for dist/lib.cjs,
    // .d.ts in dist/types/'s "type": "module" scope for dist/lib.mjs.
    const found = Object.fromEntries(Object.entries(report.analysis.entrypoints['.']!.resolutions).map(([resolver, { resolution }]) => [resolver, resolution?.fileName]));
    expect(found).toEqual({
      node10: '/node_modules/ahs-cli/dist/types/library/index.d.cts',
      'node16-cjs': '/node_modules/ahs-cli/dist/types/library/index.d.cts',
      'node16-esm': '/node_modules/ahs-cli/dist/types/library/index.d.ts',
      bundler: '/node_modules/ahs-cli/dist/types/library/index.d.ts',
    });
    expect(JSON.parse(await readFile(join(installed, 'dist', 'types', 'package.json'), 'utf8'))).toEqual({ type: 'module' });
  });

  it('publint --strict: all good', async () => {
    const publint = await execa(join(ROOT, 'node_modules', '.bin', 'publint'), ['run', tarball, '--strict'], { reject: false });
    expect(publint.exitCode, publint.stdout + publint.stderr).toBe(0);
    expect(publint.stdout).toContain('All good!');
  });
});

describe('a strict TypeScript project that installed the tarball', () => {
  const cases = [
    { name: 'NodeNext, an ES module', type: 'module', compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext' } },
    { name: 'NodeNext, CommonJS', type: 'commonjs', compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', esModuleInterop: true } },
    { name: 'bundler', type: 'module', compilerOptions: { module: 'ESNext', moduleResolution: 'Bundler' } },
    { name: 'node10 (CommonJS)', type: 'commonjs', compilerOptions: { module: 'CommonJS', moduleResolution: 'Node10', esModuleInterop: true, ignoreDeprecations: '6.0' } },
  ];

  /**
   * skipLibCheck off only where the package's own declarations are the point; TypeScript's own lib files are not
   * checked even then (skipDefaultLibCheck: checking them was ~8 s a project, and they are not the package's).
   */
  async function project(name: string, type: string, compilerOptions: object, source: string, checkDeclarations = false): Promise<{ dir: string; tsc: { exitCode: number | undefined; stdout: string } }> {
    const dir = join(work, name.replace(/\W+/g, '-'));
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'package.json'), JSON.stringify({ name: 'p', private: true, type }));
    await writeFile(join(dir, 'main.ts'), source);
    await writeFile(
      join(dir, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { target: 'ES2022', strict: true, skipLibCheck: !checkDeclarations, skipDefaultLibCheck: true, types: [], typeRoots: [join(ROOT, 'node_modules', '@types')], outDir: 'out', ...compilerOptions }, files: ['main.ts'] }),
    );
    // The package installed once; each project sees it as its own node_modules would.
    await rm(join(dir, 'node_modules'), { recursive: true, force: true });
    await mkdir(join(dir, 'node_modules'));
    await execa('ln', ['-s', installed, join(dir, 'node_modules', 'ahs-cli')]);
    return { dir, tsc: tscProject(dir) };
  }

  // ESM (NodeNext, bundler): no default export, a compile-time error. CommonJS with esModuleInterop: TypeScript's
  // synthetic default is the module's exports, and so is require('ahs-cli') of dist/lib.cjs at run time.
  it.each(cases)('$name: `import ahs from "ahs-cli"` fails to compile (no default export), or compiles and runs', async ({ name, type, compilerOptions }) => {
    const { dir, tsc: result } = await project(`default-${name}`, type, compilerOptions, "import ahs from 'ahs-cli';\nconsole.log(typeof ahs.createClient);\n");
    if (type === 'module') {
      expect(result.exitCode).not.toBe(0);
      expect(result.stdout).toMatch(/main\.ts\(1,8\): error TS1192: Module '"[^"]+"' has no default export\./);
      return;
    }
    expect(result.exitCode, result.stdout).toBe(0);
    const ran = await execa(process.execPath, [join(dir, 'out', 'main.js')], { cwd: dir, reject: false });
    expect({ exitCode: ran.exitCode, stdout: ran.stdout, stderr: ran.stderr }).toEqual({ exitCode: 0, stdout: 'function', stderr: '' });
  });

  it.each(cases.filter(({ name }) => !name.startsWith('bundler')))('$name: the named imports compile strict and run', async ({ name, type, compilerOptions }) => {
    const { dir, tsc: result } = await project(`named-${name}`, type, compilerOptions, "import { createClient, ConflictError } from 'ahs-cli';\nconsole.log(typeof createClient, typeof ConflictError);\n", true);
    expect(result.exitCode, result.stdout).toBe(0);
    const ran = await execa(process.execPath, [join(dir, 'out', 'main.js')], { cwd: dir, reject: false });
    expect({ exitCode: ran.exitCode, stdout: ran.stdout, stderr: ran.stderr }).toEqual({ exitCode: 0, stdout: 'function function', stderr: '' });
  });
});

describe('the SBOM in the package', () => {
  it('dist/sbom.cdx.json is installed with the package, naming what dist/ bundles', async () => {
    const bom = JSON.parse(await readFile(join(installed, 'dist', 'sbom.cdx.json'), 'utf8')) as { bomFormat: string; components: Array<{ name: string }> };
    expect(bom.bomFormat).toBe('CycloneDX');
    expect(bom.components.map((component) => component.name)).toEqual(expect.arrayContaining(['commander', 'undici', 'zod', 'yaml']));
  });
});

describe("the README's size line", () => {
  it('names the tarball and the installed package as measured, in MB rounded', async () => {
    const readme = await readFile(join(ROOT, 'README.md'), 'utf8');
    const line = /about (\d+) MB to download and (\d+) MB installed/.exec(readme.replace(/\s+/g, ' '));
    expect(line, 'README: "about N MB to download and M MB installed"').not.toBeNull();
    const size = async (folder: string): Promise<number> => {
      let total = 0;
      for (const entry of await readdir(folder, { withFileTypes: true, recursive: true })) if (entry.isFile()) total += (await stat(join(entry.parentPath, entry.name))).size;
      return total;
    };
    const mb = (bytes: number) => Math.round(bytes / 1e6);
    expect({ packed: mb((await stat(tarball)).size), installed: mb(await size(installed)) }).toEqual({ packed: Number(line![1]), installed: Number(line![2]) });
  });
});
