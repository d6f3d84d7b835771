// The packed package.json carries no `prepare` script (issue 24): npm 11
// warns about install scripts of a tarball it installs ("not yet covered by
// allowScripts"), though a tarball holds its dist/ already and nothing needs
// to run. `prepare` stays in the repository, where `npm ci` and a git install
// build with it. prepack builds and takes it out of package.json; postpack
// puts package.json back byte for byte (as husky's pinst does for postinstall).
//
//   node scripts/pack-manifest.mjs strip | restore
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const manifest = join(root, 'package.json');
const kept = join(root, '.package.json.prepack');

const step = process.argv[2];
if (step === 'strip') {
  execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { stdio: 'inherit' });
  const text = readFileSync(manifest, 'utf8');
  // A run that failed before postpack left the original aside: that one is the original.
  if (!existsSync(kept)) writeFileSync(kept, text);
  const pkg = JSON.parse(readFileSync(kept, 'utf8'));
  delete pkg.scripts.prepare;
  writeFileSync(manifest, `${JSON.stringify(pkg, null, 2)}\n`);
} else if (step === 'restore') {
  if (existsSync(kept)) renameSync(kept, manifest);
} else {
  console.error('usage: node scripts/pack-manifest.mjs strip|restore');
  process.exit(2);
}
