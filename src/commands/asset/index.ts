import { Option } from 'commander';
import type { RegisterGroup } from '../legacy.js';
import { pagingOptions } from '../legacy.js';

export const registerAsset: RegisterGroup = (program, action) => {
  const asset = program.command('asset').description('virtual assets: create, read, update, delete, deployment status, undeploy');
  asset
    .command('create')
    .description('create a virtual asset')
    .argument('[ASSET_ID]', 'asset id (max 64 characters)')
    .option('--name <name>', 'asset name (max 64 characters)')
    .option('--type <code>', 'asset type code')
    .option('--description <text>', 'description (max 400 characters)')
    .option('--no-secured', 'deliver without an API key (default: secured)')
    .option('--local-cache-control', 'let clients cache the asset locally')
    .option('--local-cache-max-age <n>', 'local cache max age, 1 to 525600', numberish)
    .action(action(() => import('./create.js')));
  asset.command('get').description('show a virtual asset').argument('[ASSET_ID]', 'asset id (picked from a list in a terminal)').action(action(() => import('./get.js')));
  pagingOptions(asset.command('list').description('list virtual assets')).action(action(() => import('./list.js')));
  pagingOptions(asset.command('search').description('search virtual assets by id, name and description').argument('[TEXT]', 'free text'), { all: false }).action(
    action(() => import('./search.js')),
  );
  asset
    .command('update')
    .description('update a virtual asset (the current asset type is sent when --type is not given)')
    .argument('[ASSET_ID]', 'asset id (picked from a list in a terminal)')
    .option('--name <name>', 'new asset name')
    .option('--description <text>', 'new description')
    .option('--type <code>', 'asset type code (the service requires it; it cannot actually change)')
    .option('--local-cache-control', 'enable local caching')
    .option('--no-local-cache-control', 'disable local caching')
    .option('--local-cache-max-age <n>', 'local cache max age, 1 to 525600', numberish)
    .addOption(new Option('--active', 'mark the asset active').conflicts('inactive'))
    .addOption(new Option('--inactive', 'mark the asset inactive').conflicts('active'))
    .action(action(() => import('./update.js')));
  asset
    .command('delete')
    .description('delete a virtual asset (it must have no versions)')
    .argument('[ASSET_ID]', 'asset id (picked from a list in a terminal)')
    .action(action(() => import('./delete.js')));
  asset
    .command('status')
    .description('every deployment record of the asset (OFFLINE included): a platform x environment matrix')
    .argument('[ASSET_ID]', 'asset id (picked from a list in a terminal)')
    .addOption(new Option('--state <state>', 'only records in this state').choices(['LIVE', 'OFFLINE', 'DEFAULT']))
    .action(action(() => import('./status.js')));
  asset
    .command('undeploy')
    .description('remove every version\'s deployment record for the given platforms in one environment (--env, --platform P[,P...])')
    .argument('[ASSET_ID]', 'asset id (picked from a list in a terminal)')
    .action(action(() => import('./undeploy.js')));
  asset
    .command('version-count')
    .description('count the asset\'s versions')
    .argument('[ASSET_ID]', 'asset id (picked from a list in a terminal)')
    .addOption(new Option('--active', 'only active versions').conflicts('inactive'))
    .addOption(new Option('--inactive', 'only inactive versions').conflicts('active'))
    .action(action(() => import('./version-count.js')));
};

/** Numbers stay numbers; anything else is kept so validation can say what was given. */
function numberish(value: string): number | string {
  return /^-?\d+(\.\d+)?$/.test(value.trim()) ? Number(value) : value;
}

export const asset = { kind: 'legacy', register: registerAsset } as const;
