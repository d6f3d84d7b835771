// `ahs version ...`: the versions of a virtual asset.
import { arg, command, defineCommand, flag, group, pagingFlags, SERVICE } from '../define.js';

const assetIdPicked = () => arg.optional('ASSET_ID', 'asset id (picked from a list in a terminal)');
const versionIdPicked = () => arg.optional('VERSION_ID', 'version id, e.g. IOS3 (picked from a list in a terminal)');

export const uploadSpec = defineCommand({
  name: 'upload',
  uses: [...SERVICE, 'platform', 'user'],
  summary: 'upload a file as a new version for one target platform (--platform), streamed with progress',
  args: { assetId: assetIdPicked(), file: arg.optional('FILE', 'file to upload') },
  flags: { name: flag.text('versionName', 'version name (max 64 characters)') },
  examples: [
    'ahs version upload my-bundle ./dist/app.zip --platform ios --name 1.4.0',
    '# in CI: keep the new version id for the deploy step',
    'version_id=$(ahs version upload my-bundle app.zip --platform android --name "$GITHUB_SHA" --query versionId)',
  ],
  notes: [
    'The file is sent as it was when the upload began; changed in place meanwhile (a build still writing it), the upload',
    'is cut before its end, nothing is stored, and the command says so (exit 2).',
    '',
    'JSON output: the version object of the service (versionId, version, versionName, targetPlatform, size, ...).',
  ].join('\n'),
});

export const getSpec = defineCommand({
  name: 'get',
  uses: SERVICE,
  summary: 'show a version',
  args: { assetId: assetIdPicked(), versionId: versionIdPicked() },
  examples: ['ahs version get my-bundle IOS3', 'ahs version get my-bundle IOS3 --json'],
});

export const listSpec = defineCommand({
  name: 'list',
  uses: [...SERVICE, 'platform'],
  summary: 'list the versions of an asset',
  args: { assetId: assetIdPicked() },
  flags: pagingFlags,
  examples: [
    'ahs version list my-bundle',
    '# every version, one JSON list',
    'ahs version list my-bundle --all --json',
    '# the newest android version',
    "ahs version list my-bundle --platform android --query 'results[-1].versionId'",
  ],
  notes:
    '--platform lists that platform\'s versions only. The service cannot filter versions by platform, so ahs reads every\n' +
    'page and filters them: the JSON envelope then has "filter": {"targetPlatform": P}, and totalResults counts the\n' +
    'filtered list (--page and --page-size page through it).',
});

export const deleteSpec = defineCommand({
  name: 'delete',
  uses: SERVICE,
  summary: 'delete a version (it must not be LIVE or DEFAULT anywhere)',
  args: { assetId: assetIdPicked(), versionId: versionIdPicked() },
  examples: ['ahs version delete my-bundle IOS1', '# in CI: no prompt, a JSON result', 'ahs version delete my-bundle IOS1 --yes --json'],
  notes:
    'A version LIVE or DEFAULT in some environment is refused before any question\n' +
    '(exit 1, the service\'s error, nothing sent): deploy it --state OFFLINE there first.\n' +
    'JSON output: {"deleted": true, "assetId": "<id>", "versionId": "<id>"}.',
});

export const urlsSpec = defineCommand({
  name: 'urls',
  uses: [...SERVICE, 'env'],
  summary: 'the deployed URL of a version in one environment (--env)',
  args: { assetId: assetIdPicked(), versionId: versionIdPicked() },
  examples: ['ahs version urls my-bundle IOS3 --env prod', '# just the URL', "ahs version urls my-bundle IOS3 --env prod --query 'results[0].downloadUrl'"],
});

export const downloadSpec = defineCommand({
  name: 'download',
  uses: [...SERVICE, 'env', 'deliveryUrl'],
  summary: "download a version's file from where it is deployed (LIVE or DEFAULT), streamed and atomic",
  args: { assetId: assetIdPicked(), versionId: versionIdPicked() },
  flags: {
    out: flag.text('file', "where to write the file (default: the version's file name, in the current folder); an existing file is replaced", { short: '-O' }),
  },
  examples: [
    'ahs version download my-bundle IOS3',
    '# from one environment, to a chosen path',
    'ahs version download my-bundle IOS3 --env prod -O build/app.zip',
  ],
  notes: [
    "The file comes through the version's deployed URL (asset-urls downloadUrl): from the environment of --env (or AHS_ENV,",
    'or the profile), else from the first environment where the version is LIVE or DEFAULT. A version deployed nowhere has',
    'no URL: that is exit 4, naming the deploy that would give it one. The file is written to a hidden partial file and',
    'renamed when complete (never half a file at the path); Ctrl-C removes the partial file.',
    '-O, not -o: -o is --output (table|json) for every command.',
    '',
    'JSON output: {"assetId", "versionId", "envId", "targetPlatform", "downloadUrl", "path", "bytes"}.',
  ].join('\n'),
});

export const blockSpec = defineCommand({
  name: 'block',
  uses: [...SERVICE, 'env', 'user'],
  summary: 'block a version: deploy, promote-default, release, rollout and apply refuse it (exit 12) until unblocked',
  description: 'Nothing is deleted: a blocked version stays downloadable where it is deployed. The block names who set it, when and why (--reason, needed). `ahs rollback --block` blocks the version it moves away from.',
  args: { assetId: arg.required('ASSET_ID', 'asset id'), versionId: arg.required('VERSION_ID', 'version id, e.g. IOS3') },
  examples: ['ahs version block my-bundle IOS7 --reason "crash on start (INC-42)"'],
  notes: 'JSON: {assetId, versionId, blocked: true, existed, blockVersionId}.',
});

export const unblockSpec = defineCommand({
  name: 'unblock',
  uses: [...SERVICE, 'user'],
  summary: 'lift the block of a version (allowed during a freeze)',
  args: { assetId: arg.required('ASSET_ID', 'asset id'), versionId: arg.required('VERSION_ID', 'version id') },
  examples: ['ahs version unblock my-bundle IOS7 --reason "fixed in the CDN config"'],
  notes: 'JSON: {assetId, versionId, unblocked}.',
});

export const version = group('version', 'versions of a virtual asset: upload, read, list, delete, deployed URLs, download', [
  command(uploadSpec, () => import('./upload.js')),
  command(getSpec, () => import('./get.js')),
  command(listSpec, () => import('./list.js')),
  command(deleteSpec, () => import('./delete.js')),
  command(urlsSpec, () => import('./urls.js')),
  command(downloadSpec, () => import('./download.js')),
  command(blockSpec, () => import('./block.js')),
  command(unblockSpec, () => import('./unblock.js')),
]);
