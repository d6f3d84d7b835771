// `ahs asset ...`: virtual assets and their deployment records.
import { arg, command, defineCommand, flag, group, numberish, pagingFlags, SERVICE } from '../define.js';

const assetIdPicked = () => arg.optional('ASSET_ID', 'asset id (picked from a list in a terminal)');
const localCacheMaxAge = () => flag.parsed('n', 'local cache max age, 1 to 525600', numberish);
/** A description may be empty (`--description ''` clears it): no non-empty check. */
const description = (help: string) => flag.parsed('text', help, (raw) => raw);

export const createSpec = defineCommand({
  name: 'create',
  uses: [...SERVICE, 'user'],
  summary: 'create a virtual asset',
  args: { assetId: arg.optional('ASSET_ID', 'asset id (max 64 characters)') },
  flags: {
    name: flag.text('name', 'asset name (max 64 characters)'),
    type: flag.text('code', 'asset type code'),
    description: description('description (max 400 characters)'),
    secured: flag.no('deliver without an API key (default: secured)'),
    localCacheControl: flag.bool('let clients cache the asset locally'),
    localCacheMaxAge: localCacheMaxAge(),
  },
  examples: [
    'ahs asset create my-bundle --name "My bundle" --type 1001',
    '# public (no API key needed to download), cached by clients for an hour',
    'ahs asset create site-assets --name "Site" --type 1001 --no-secured --local-cache-control --local-cache-max-age 60',
  ],
});

export const getSpec = defineCommand({
  name: 'get',
  uses: SERVICE,
  summary: 'show a virtual asset',
  args: { assetId: assetIdPicked() },
  examples: ['ahs asset get my-bundle', 'ahs asset get my-bundle --json'],
});

export const listSpec = defineCommand({
  name: 'list',
  uses: SERVICE,
  summary: 'list virtual assets',
  flags: pagingFlags,
  examples: ['ahs asset list', '# every asset, one JSON list', 'ahs asset list --all --json'],
});

export const searchSpec = defineCommand({
  name: 'search',
  uses: SERVICE,
  summary: 'search virtual assets by id, name and description',
  args: { text: arg.optional('TEXT', 'free text') },
  flags: { page: pagingFlags.page, pageSize: pagingFlags.pageSize },
  examples: ['ahs asset search bundle', 'ahs asset search "release candidate" --page 2 --page-size 20'],
});

export const updateSpec = defineCommand({
  name: 'update',
  uses: [...SERVICE, 'user'],
  summary: 'update a virtual asset (the current asset type is sent when --type is not given)',
  args: { assetId: assetIdPicked() },
  flags: {
    name: flag.text('name', 'new asset name'),
    description: description('new description'),
    type: flag.text('code', 'asset type code (the service requires it; it cannot actually change)'),
    localCacheControl: flag.toggle('enable local caching', 'disable local caching'),
    localCacheMaxAge: localCacheMaxAge(),
    active: flag.bool('mark the asset active', { conflicts: ['inactive'] }),
    inactive: flag.bool('mark the asset inactive', { conflicts: ['active'] }),
  },
  examples: [
    'ahs asset update my-bundle --name "My bundle v2"',
    '# stop client-side caching and retire the asset',
    'ahs asset update my-bundle --no-local-cache-control --inactive',
  ],
});

export const deleteSpec = defineCommand({
  name: 'delete',
  uses: [...SERVICE, 'user'],
  summary: 'delete a virtual asset (it must have no versions)',
  args: { assetId: assetIdPicked() },
  examples: ['ahs asset delete my-bundle', '# in CI: no prompt, a JSON result', 'ahs asset delete my-bundle --yes --json'],
  notes: 'JSON output: {"deleted": true, "assetId": "<id>"}.',
});

export const statusSpec = defineCommand({
  name: 'status',
  uses: [...SERVICE, 'platform', 'env'],
  summary: 'every deployment record of the asset (OFFLINE included): a platform x environment matrix',
  args: { assetId: assetIdPicked() },
  flags: { state: flag.choice('state', ['LIVE', 'OFFLINE', 'DEFAULT'], 'only records in this state') },
  examples: ['ahs asset status my-bundle', '# only what is LIVE on iOS', 'ahs asset status my-bundle --platform ios --state LIVE'],
});

export const undeploySpec = defineCommand({
  name: 'undeploy',
  uses: [...SERVICE, 'env', 'platform'],
  summary: "remove every version's deployment record for the given platforms in one environment (--env, --platform P[,P...])",
  args: { assetId: assetIdPicked() },
  examples: [
    'ahs asset undeploy my-bundle --env staging --platform ios',
    '# several platforms, no prompt',
    'ahs asset undeploy my-bundle --env staging --platform ios,android --yes',
  ],
  notes:
    'The confirmation lists the records that will be removed (e.g. IOS3 LIVE, IOS2 OFFLINE).\n' +
    'JSON output: the service\'s answer {"message": "...", "totalUndeployedVersions": <n>}.',
});

export const versionCountSpec = defineCommand({
  name: 'version-count',
  uses: SERVICE,
  summary: "count the asset's versions",
  args: { assetId: assetIdPicked() },
  flags: {
    active: flag.bool('only active versions', { conflicts: ['inactive'] }),
    inactive: flag.bool('only inactive versions', { conflicts: ['active'] }),
  },
  examples: ['ahs asset version-count my-bundle', 'ahs asset version-count my-bundle --active'],
});

export const asset = group('asset', 'virtual assets: create, read, update, delete, deployment status, undeploy', [
  command(createSpec, () => import('./create.js')),
  command(getSpec, () => import('./get.js')),
  command(listSpec, () => import('./list.js')),
  command(searchSpec, () => import('./search.js')),
  command(updateSpec, () => import('./update.js')),
  command(deleteSpec, () => import('./delete.js')),
  command(statusSpec, () => import('./status.js')),
  command(undeploySpec, () => import('./undeploy.js')),
  command(versionCountSpec, () => import('./version-count.js')),
]);
