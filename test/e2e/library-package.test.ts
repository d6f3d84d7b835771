// The library as a script's author takes it (issue 35): resolved by its
// package name through package.json's "exports" (node_modules/ahs-cli
// links to this checkout, built), `require()`d from CommonJS, and bundled
// into one file by esbuild that runs with no node_modules beside it. Each
// script lists the assets of a live emulator. The packed tarball is tested
// in packaging.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, mkdir, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { execa } from 'execa';
import { build } from 'esbuild';
import { ROOT, assertFreshBuild, harness, uid, DEMO_API_KEY, type Harness } from './helpers.js';

let h: Harness;
let work: string;
let assetId: string;
beforeAll(async () => {
  assertFreshBuild();
  h = await harness();
  assetId = uid('lib-pkg');
  await h.createAsset(assetId);
  work = await mkdtemp(join(tmpdir(), 'ahs-lib-pkg-'));
  await mkdir(join(work, 'project', 'node_modules'), { recursive: true });
  await symlink(ROOT, join(work, 'project', 'node_modules', 'ahs-cli'), 'dir');
});
afterAll(async () => {
  await h?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

const options = () => JSON.stringify({ baseUrl: h.emu.baseUrl, domainId: 'demo', apiKey: DEMO_API_KEY });

describe('the library as a package', () => {
  it('require() from CommonJS gives createClient, and its reads work', async () => {
    const script = join(work, 'project', 'list.cjs');
    await writeFile(
      script,
      `const { createClient, NotFoundError } = require('ahs-cli');
       (async () => {
         const client = createClient(${options()});
         const ids = [];
         for await (const asset of client.assets.list()) ids.push(asset.assetId);
         const missing = await client.assets.get('no-such-asset-here').catch((e) => e);
         await client.close();
         console.log(JSON.stringify({ ids, notFound: missing instanceof NotFoundError, name: missing.name, status: missing.status }));
       })();`,
    );
    const run = await execa(process.execPath, ['--no-warnings', script], { cwd: join(work, 'project'), reject: false });
    expect(run.stderr).toBe('');
    expect(run.exitCode).toBe(0);
    const out = JSON.parse(run.stdout);
    expect(out.ids).toContain(assetId);
    expect(out.notFound).toBe(true);
    // The class's own name in a caller's logs, not the bundler's (_ApiError).
    expect(out).toMatchObject({ name: 'ApiError', status: 404 });
  });

  it('bundles with esbuild into one file that runs with no node_modules beside it', async () => {
    const entry = join(work, 'project', 'bundle-me.mjs');
    await writeFile(
      entry,
      `import { createClient } from 'ahs-cli';
       const client = createClient(${options()});
       const ids = [];
       for await (const asset of client.assets.list()) ids.push(asset.assetId);
       await client.close();
       console.log(JSON.stringify(ids));`,
    );
    const outDir = join(work, 'bundled');
    await build({ entryPoints: [entry], bundle: true, platform: 'node', format: 'esm', outfile: join(outDir, 'script.mjs'), logLevel: 'silent', absWorkingDir: join(work, 'project') });
    const run = await execa(process.execPath, [join(outDir, 'script.mjs')], { cwd: outDir, reject: false });
    expect(run.stderr).toBe('');
    expect(run.exitCode).toBe(0);
    expect(JSON.parse(run.stdout)).toContain(assetId);
  });

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
