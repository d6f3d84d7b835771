// `ahs collection ...`: declarations only; each verb's logic loads when it runs.
import { arg, command, defineCommand, flag, group, pagingFlags, wholeNumber, SERVICE } from '../define.js';

const collectionId = arg.optional('COLLECTION_ID', 'collection id (picked from a list in a terminal)');
const localCacheMaxAge = flag.parsed('n', 'local cache max age, 1 to 525600', wholeNumber('--local-cache-max-age', 0));

export const createSpec = defineCommand({
  name: 'create',
  uses: [...SERVICE, 'platform', 'user'],
  summary: 'create a collection (empty; add files with `ahs item upload`)',
  args: {
    collectionId: arg.optional('COLLECTION_ID', 'collection id: letters, digits, _ and -, at most 50'),
  },
  flags: {
    name: flag.text('name', 'collection name (at most 50 characters)'),
    allowedTypes: flag.text('codes', 'asset type codes items may have, comma-separated (9999 = Other is always allowed)'),
    description: flag.text('text', 'description (at most 400 characters)'),
    maxAssets: flag.parsed('n', 'item limit (default: the service ceiling)', wholeNumber('--max-assets', 1)),
    editable: flag.no('items cannot be added or removed'),
    deployable: flag.no('the collection cannot be deployed'),
    anchor: flag.text('itemId', 'the anchor (default) item'),
    secured: flag.no('delivery without an API key'),
    localCacheControl: flag.bool('let clients cache the files locally'),
    localCacheMaxAge,
  },
  examples: [
    'ahs collection create launch-pack --name "Launch pack" --allowed-types 1001,1002',
    '# at most 10 items, delivered without an API key',
    'ahs collection create public-pack --name "Public pack" --allowed-types 1001 --max-assets 10 --no-secured',
  ],
  notes: 'The target platform comes from --platform (default on the service: generic).',
});

export const getSpec = defineCommand({
  name: 'get',
  uses: SERVICE,
  summary: 'show a collection',
  args: { collectionId },
  examples: ['ahs collection get launch-pack', 'ahs collection get launch-pack --json'],
});

export const listSpec = defineCommand({
  name: 'list',
  uses: SERVICE,
  summary: 'list collections (soft-deleted ones are marked)',
  flags: {
    ...pagingFlags,
    deleted: flag.toggle('only soft-deleted collections', 'only collections that are not deleted'),
  },
  examples: ['ahs collection list', '# every page, soft-deleted collections only', 'ahs collection list --all --deleted'],
});

export const updateSpec = defineCommand({
  name: 'update',
  uses: [...SERVICE, 'platform', 'user'],
  summary: "change a collection's updatable fields",
  args: { collectionId },
  flags: {
    name: flag.text('name', 'collection name'),
    description: flag.text('text', 'description'),
    maxAssets: flag.parsed('n', 'item limit (not below the current item count)', wholeNumber('--max-assets', 1)),
    editable: flag.toggle('items can be added and removed', 'items cannot be added or removed'),
    deployable: flag.toggle('the collection can be deployed', 'the collection cannot be deployed'),
    anchor: flag.text('itemId', 'the anchor (default) item'),
    localCacheControl: flag.toggle('let clients cache the files locally', 'no local caching'),
    localCacheMaxAge,
    fromJson: flag.text('file', 'read the fields to change from a JSON object (- for stdin); flags win'),
    allowedTypes: flag.text('codes', 'refused: permanent after create', { hidden: true }),
    secured: flag.toggle('refused: permanent after create', 'refused: permanent after create', { hidden: true }),
  },
  examples: [
    'ahs collection update launch-pack --name "Launch pack v2" --max-assets 20',
    '# the fields of a JSON object, from stdin',
    'echo \'{"description": "assets for the launch"}\' | ahs collection update launch-pack --from-json -',
  ],
  notes:
    'collectionId, allowedAssetTypes, targetPlatform and secured are permanent; items change through `ahs item`;\ndeleted through `collection delete|restore`.',
});

export const deleteSpec = defineCommand({
  name: 'delete',
  uses: [...SERVICE, 'user'],
  summary: 'soft-delete a collection (it must not be Live anywhere); restore or purge it later',
  args: { collectionId },
  examples: ['ahs collection delete launch-pack', '# in CI: no prompt', 'ahs collection delete launch-pack --yes'],
});

export const restoreSpec = defineCommand({
  name: 'restore',
  uses: [...SERVICE, 'user'],
  summary: 'restore a soft-deleted collection',
  args: { collectionId },
  examples: ['ahs collection restore launch-pack', 'ahs collection restore launch-pack --dry-run'],
});

export const purgeSpec = defineCommand({
  name: 'purge',
  uses: [...SERVICE, 'user'],
  summary: 'remove a deleted collection for good, with its deployments and the items only it held',
  args: { collectionId },
  examples: ['# what would go, without sending anything', 'ahs collection purge launch-pack --dry-run', 'ahs collection purge launch-pack --yes'],
});

export const statusSpec = defineCommand({
  name: 'status',
  uses: SERVICE,
  summary: 'per environment: live, offline and undeployed items',
  args: { collectionId },
  flags: { wide: flag.bool('list every item id (in a terminal, a list of more than 2 ids is shown as its count)') },
  examples: ['ahs collection status launch-pack', '# every item id', 'ahs collection status launch-pack --wide', 'ahs collection status launch-pack --json'],
});

export const urlSpec = defineCommand({
  name: 'url',
  uses: [...SERVICE, 'env'],
  summary: 'the deployed URL of a collection in an environment (from --env)',
  args: { collectionId },
  examples: ['ahs collection url launch-pack --env prod', '# in a script: the URL alone on stdout', 'url=$(ahs collection url launch-pack --env prod)'],
});

export const undeploySpec = defineCommand({
  name: 'undeploy',
  uses: [...SERVICE, 'env', 'user'],
  summary: "remove a collection's Live deployment in an environment (from --env)",
  args: { collectionId },
  examples: ['ahs collection undeploy launch-pack --env staging', '# in CI: no prompt', 'ahs collection undeploy launch-pack --env staging --yes'],
});

export const collection = group('collection', 'virtual collections: bundles of items deployed as one unit', [
  command(createSpec, () => import('./create.js')),
  command(getSpec, () => import('./get.js')),
  command(listSpec, () => import('./list.js')),
  command(updateSpec, () => import('./update.js')),
  command(deleteSpec, () => import('./delete.js')),
  command(restoreSpec, () => import('./restore.js')),
  command(purgeSpec, () => import('./purge.js')),
  command(statusSpec, () => import('./status.js')),
  command(urlSpec, () => import('./url.js')),
  command(undeploySpec, () => import('./undeploy.js')),
]);
