// `ahs verify`: is what the delivery network serves byte for byte the local files?
import { arg, command, defineCommand, flag, wholeNumber, SERVICE } from '../define.js';

export const verifySpec = defineCommand({
  name: 'verify',
  uses: [...SERVICE, 'env', 'platform', 'deliveryUrl'],
  summary: 'check that what is Live is byte for byte the local files (SHA-256 of what the delivery network serves): a collection against a folder, a channel\'s Default against a file',
  description: [
    'ahs verify COLLECTION_ID DIR [--env E]: each item the collection serves in the environment is downloaded through the delivery network (in parallel, streamed and hashed, never written to disk) and compared with the file of its name at the top of DIR (the name fetch gives it); items without a file and files without an item are listed.',
    'ahs verify ASSET_ID FILE --platform P --env E [--version ID]: the channel\'s Default (or that version, LIVE or DEFAULT there) is downloaded through its asset-urls downloadUrl and compared with FILE.',
    'With --sums SHA256SUMS instead of DIR or FILE, each digest is compared with the sums file\'s line of that name, as sha256sum -c reads it; without DIR or FILE the ID names an asset when --platform or --version is given on the command line, otherwise a collection.',
  ].join('\n\n'),
  args: {
    id: arg.optional('ID', 'COLLECTION_ID (with DIR) or ASSET_ID (with FILE and --platform)'),
    path: arg.optional('PATH', 'DIR (a collection) or FILE (an asset) to compare with; not given with --sums'),
  },
  flags: {
    sums: flag.text('SHA256SUMS', 'compare with a sums file, read as sha256sum -c reads it ("<hex>  <name>", "<hex> *<name>" or --tag\'s "SHA256 (<name>) = <hex>" lines), instead of local files'),
    version: flag.text('versionId', 'asset: check this version (LIVE or DEFAULT in --env) rather than the Default'),
    concurrency: flag.parsed('n', 'files downloaded at the same time (default 8)', wholeNumber('--concurrency', 1)),
    followLinks: flag.bool('follow symbolic links in DIR (as item sync --follow-links does; without it a link is skipped and named, with it one that leads to no file is)'),
  },
  examples: [
    '# after a sync: is the published collection exactly the folder?',
    'ahs verify launch-pack dist/ --env prod',
    'ahs verify my-bundle build/app.zip --platform ios --env prod',
    '# against the sums file of a build',
    'ahs verify launch-pack --env prod --sums dist/SHA256SUMS',
  ],
  notes: [
    'Exit 0 when every item matches; 1 naming each difference (content, an item without a file, a file without an',
    'item); a download that failed is exit 1 too (6 when every failure was the network\'s).',
    '',
    'Sums files: an asset\'s version is looked up by its file name (the version record\'s). A line naming a folder',
    '(sha256sum dist/* writes "dist/a.txt", and sha256sum -c run beside dist/ checks that file) is the line of the file of',
    'its base name (a.txt), as the items have no folder; the output says which lines were matched so. Two lines of one',
    'base name in two folders stand for neither (a warning names them): list one folder\'s files from inside it',
    '(cd dist && sha256sum * > SHA256SUMS).',
    '',
    'JSON: {"matched": [name], "differ": [{"name", "expected", "actual"}], "missing": [name], "extra": [name],',
    '"failed": [{"name", "error"}]} (expected: the local or listed SHA-256; actual: the served one; missing: items',
    'without a file or line; extra: files or lines without an item).',
  ].join('\n'),
});

export const verify = command(verifySpec, () => import('./verify.js'));
