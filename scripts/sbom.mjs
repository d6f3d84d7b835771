// The shipped dependencies (issue 47): every package dist/ bundles is a
// devDependency (the package installs none), so `npm audit --omit=dev`
// checks nothing. The build writes what its bundles took in, from esbuild's
// inputs and the lockfile, as a CycloneDX 1.5 SBOM, dist/sbom.cdx.json,
// shipped in the package; `npm run audit` (scripts/audit.mjs) checks those
// versions against the registry's advisories. Deterministic: no timestamp,
// no serial number, components sorted.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { root, version } from './bundle.mjs';

export const SBOM = join('dist', 'sbom.cdx.json');

/** The lockfile path (node_modules/a/node_modules/@b/c) of the package a bundle input belongs to, or undefined for our own sources. */
export function packageOf(input) {
  const match = /^(?:.*?[\\/])?(node_modules[\\/](?:.*[\\/]node_modules[\\/])?(?:@[^\\/]+[\\/])?[^\\/]+)[\\/]/.exec(input);
  return match ? match[1].replace(/\\/g, '/') : undefined;
}

/** The package's name from its lockfile path: the part after the last node_modules/. */
export function nameOf(lockPath) {
  return lockPath.slice(lockPath.lastIndexOf('node_modules/') + 'node_modules/'.length);
}

const purl = (name, v) => `pkg:npm/${name.replace(/^@/, '%40')}@${v}`;

/** { lockPath: lockfile entry } of every package the metafiles' inputs come from. */
export async function shippedPackages(metafiles) {
  const lock = JSON.parse(await readFile(join(root, 'package-lock.json'), 'utf8'));
  const paths = new Set(metafiles.flatMap((metafile) => Object.keys(metafile.inputs)).map(packageOf).filter(Boolean));
  const found = {};
  for (const path of [...paths].sort()) {
    const entry = lock.packages[path];
    if (!entry) throw new Error(`the bundles take in ${path}, which package-lock.json does not list: run npm install`);
    found[path] = entry;
  }
  return found;
}

export async function writeSbom(metafiles) {
  const packages = await shippedPackages(metafiles);
  const components = Object.entries(packages)
    .map(([path, entry]) => {
      const name = nameOf(path);
      const [alg, base64] = (entry.integrity ?? '').split('-');
      return {
        type: 'library',
        'bom-ref': `${purl(name, entry.version)}#${path}`,
        name,
        version: entry.version,
        purl: purl(name, entry.version),
        ...(entry.license ? { licenses: [{ expression: entry.license }] } : {}),
        ...(alg === 'sha512' && base64 ? { hashes: [{ alg: 'SHA-512', content: Buffer.from(base64, 'base64').toString('hex') }] } : {}),
        properties: [{ name: 'npm:package-lock-path', value: path }],
      };
    })
    .sort((a, b) => a['bom-ref'].localeCompare(b['bom-ref']));
  const bom = {
    bomFormat: 'CycloneDX',
    specVersion: '1.5',
    version: 1,
    metadata: {
      component: { type: 'application', 'bom-ref': purl('ahs-cli', version), name: 'ahs-cli', version, purl: purl('ahs-cli', version), description: 'the packages bundled into dist/ (the package installs no dependency)' },
    },
    components,
  };
  await writeFile(join(root, SBOM), `${JSON.stringify(bom, null, 2)}\n`);
}
