// `ahs collection ...`: flags only; each verb's logic loads when it runs.
import { Option } from 'commander';
import type { RegisterGroup } from '../legacy.js';
import { pagingOptions, parseCount, parsePositiveInt } from '../legacy.js';

export const registerCollection: RegisterGroup = (program, action) => {
  const group = program
    .command('collection')
    .description('virtual collections: bundles of items deployed as one unit');

  group
    .command('create')
    .description('create a collection (empty; add files with `ahs item upload`)')
    .argument('[COLLECTION_ID]', 'collection id: letters, digits, _ and -, at most 50')
    .option('--name <name>', 'collection name (at most 50 characters)')
    .option('--allowed-types <codes>', 'asset type codes items may have, comma-separated (9999 = Other is always allowed)')
    .option('--description <text>', 'description (at most 400 characters)')
    .option('--max-assets <n>', 'item limit (default: the service ceiling)', parsePositiveInt('--max-assets'))
    .option('--no-editable', 'items cannot be added or removed')
    .option('--no-deployable', 'the collection cannot be deployed')
    .option('--anchor <itemId>', 'the anchor (default) item')
    .option('--no-secured', 'delivery without an API key')
    .option('--local-cache-control', 'let clients cache the files locally')
    .option('--local-cache-max-age <n>', 'local cache max age, 1 to 525600', parseCount('--local-cache-max-age'))
    .addHelpText('after', '\nThe target platform comes from --platform (default on the service: generic).')
    .action(action(() => import('./create.js')));

  group
    .command('get')
    .description('show a collection')
    .argument('[COLLECTION_ID]')
    .action(action(() => import('./get.js')));

  pagingOptions(group.command('list').description('list collections (soft-deleted ones are marked)'))
    .option('--deleted', 'only soft-deleted collections')
    .option('--no-deleted', 'only collections that are not deleted')
    .action(action(() => import('./list.js')));

  group
    .command('update')
    .description('change a collection\'s updatable fields')
    .argument('[COLLECTION_ID]')
    .option('--name <name>', 'collection name')
    .option('--description <text>', 'description')
    .option('--max-assets <n>', 'item limit (not below the current item count)', parsePositiveInt('--max-assets'))
    .option('--editable', 'items can be added and removed')
    .option('--no-editable', 'items cannot be added or removed')
    .option('--deployable', 'the collection can be deployed')
    .option('--no-deployable', 'the collection cannot be deployed')
    .option('--anchor <itemId>', 'the anchor (default) item')
    .option('--local-cache-control', 'let clients cache the files locally')
    .option('--no-local-cache-control', 'no local caching')
    .option('--local-cache-max-age <n>', 'local cache max age, 1 to 525600', parseCount('--local-cache-max-age'))
    .option('--from-json <file>', 'read the fields to change from a JSON object (- for stdin); flags win')
    .addOption(new Option('--allowed-types <codes>', 'refused: permanent after create').hideHelp())
    .addOption(new Option('--secured', 'refused: permanent after create').hideHelp())
    .addOption(new Option('--no-secured', 'refused: permanent after create').hideHelp())
    .addHelpText('after', '\ncollectionId, allowedAssetTypes, targetPlatform and secured are permanent; items change through `ahs item`;\ndeleted through `collection delete|restore`.')
    .action(action(() => import('./update.js')));

  group
    .command('delete')
    .description('soft-delete a collection (it must not be Live anywhere); restore or purge it later')
    .argument('[COLLECTION_ID]')
    .action(action(() => import('./delete.js')));

  group
    .command('restore')
    .description('restore a soft-deleted collection')
    .argument('[COLLECTION_ID]')
    .action(action(() => import('./restore.js')));

  group
    .command('purge')
    .description('remove a deleted collection for good, with its deployments and the items only it held')
    .argument('[COLLECTION_ID]')
    .action(action(() => import('./purge.js')));

  group
    .command('status')
    .description('per environment: live, offline and undeployed items')
    .argument('[COLLECTION_ID]')
    .action(action(() => import('./status.js')));

  group
    .command('url')
    .description('the deployed URL of a collection in an environment (from --env)')
    .argument('[COLLECTION_ID]')
    .action(action(() => import('./url.js')));

  group
    .command('undeploy')
    .description('remove a collection\'s Live deployment in an environment (from --env)')
    .argument('[COLLECTION_ID]')
    .action(action(() => import('./undeploy.js')));
};

export const collection = { kind: 'legacy', register: registerCollection } as const;
