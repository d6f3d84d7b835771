import { Option } from 'commander';
import type { RegisterGroup } from '../lazy.js';

export const registerDeploy: RegisterGroup = (program, action) => {
  program
    .command('deploy')
    .description('deploy a version LIVE or OFFLINE on one channel (asset, --platform, --env)')
    .argument('[ASSET_ID]', 'asset id (picked from a list in a terminal)')
    .argument('[VERSION_ID]', 'version id, e.g. IOS3 (picked from a list in a terminal)')
    .addOption(new Option('--state <state>', 'target state').choices(['LIVE', 'OFFLINE']).default('LIVE'))
    .option('--idempotent', 'already in the target state: say so, send nothing, exit 0')
    .action(action(() => import('./deploy.js')));
};
