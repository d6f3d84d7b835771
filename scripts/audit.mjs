// `npm run audit`: the shipped dependencies checked against the registry's
// advisories (issue 47). Every package dist/ bundles is a devDependency, so
// `npm audit --omit=dev` checks nothing; this checks the versions the build
// took in (dist/sbom.cdx.json, scripts/sbom.mjs) with npm audit itself, so
// with its semantics: a lockfile of just those packages, as dependencies, in
// a temporary folder, `npm audit --package-lock-only --json` against the
// registry of the npm configuration (or --registry URL).
//
// Exit 0: no advisory; 1: advisories (each named); 2: not checked (the
// registry's advisories could not be read, or no build): said plainly, never
// taken for "no advisory".
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { root } from './bundle.mjs';
import { SBOM, nameOf } from './sbom.mjs';

const args = process.argv.slice(2);
const registryAt = args.indexOf('--registry');
const registry = registryAt >= 0 ? args[registryAt + 1] : undefined;

if (!existsSync(join(root, SBOM))) {
  console.error(`npm run audit: ${SBOM} is missing: run npm run build first (it lists the packages dist/ bundles)`);
  process.exit(2);
}
const bom = JSON.parse(await readFile(join(root, SBOM), 'utf8'));
const lock = JSON.parse(await readFile(join(root, 'package-lock.json'), 'utf8'));
const paths = bom.components.map((component) => component.properties.find((property) => property.name === 'npm:package-lock-path').value);

// The shipped packages as a project's own: each lockfile entry as it is, not dev; the top-level ones its dependencies.
const packages = { '': { name: 'ahs-cli-shipped', version: '0.0.0', dependencies: {} } };
for (const path of paths) {
  const { dev, devOptional, optional, peer, ...entry } = lock.packages[path];
  packages[path] = entry;
  if (!path.slice('node_modules/'.length).includes('node_modules/')) packages[''].dependencies[nameOf(path)] = entry.version;
}
const work = await mkdtemp(join(tmpdir(), 'ahs-audit-'));
let report;
let failure;
try {
  await writeFile(join(work, 'package.json'), JSON.stringify({ name: 'ahs-cli-shipped', version: '0.0.0', private: true, dependencies: packages[''].dependencies }));
  await writeFile(join(work, 'package-lock.json'), JSON.stringify({ name: 'ahs-cli-shipped', version: '0.0.0', lockfileVersion: 3, requires: true, packages }));
  const npmArgs = ['audit', '--package-lock-only', '--json', ...(registry ? ['--registry', registry] : [])];
  const out = await new Promise((resolve) => {
    execFile('npm', npmArgs, { cwd: work, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false' } }, (error, stdout, stderr) => resolve({ code: error?.code ?? 0, stdout, stderr }));
  });
  try {
    report = JSON.parse(out.stdout);
  } catch {
    failure = out.stderr.trim().split('\n').find((line) => /error|warn/.test(line)) ?? `npm audit exited ${out.code}`;
  }
  if (report?.error || report?.message) failure = report.message ?? report.error?.summary ?? 'npm audit failed';
} finally {
  await rm(work, { recursive: true, force: true });
}

const checked = `${paths.length} shipped packages (${SBOM})`;
if (failure || !report?.metadata) {
  console.error(`npm run audit: the registry's advisories could not be read (${String(failure ?? 'no report').replace(/^npm (warn|error) (audit )?/, '')}): the ${checked} were NOT checked`);
  process.exit(2);
}
const found = Object.values(report.vulnerabilities ?? {});
for (const vulnerability of found.sort((a, b) => a.name.localeCompare(b.name))) {
  const advisories = vulnerability.via.filter((via) => typeof via === 'object');
  const through = vulnerability.via.filter((via) => typeof via === 'string');
  const what = advisories.length ? advisories.map((via) => `${via.title} (${via.url}; affects ${via.range})`).join('; ') : `through ${through.join(', ')}`;
  const versions = bom.components.filter((component) => component.name === vulnerability.name).map((component) => component.version);
  console.log(`${vulnerability.name}@${[...new Set(versions)].join(',')} (${vulnerability.severity}): ${what}`);
}
console.log(found.length ? `npm run audit: ${found.length} of the ${checked} have advisories` : `npm run audit: no advisory for the ${checked}`);
process.exit(found.length ? 1 : 0);
