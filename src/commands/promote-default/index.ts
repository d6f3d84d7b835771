import type { RegisterGroup } from '../legacy.js';

export const registerPromoteDefault: RegisterGroup = (program, action) => {
  program
    .command('promote-default')
    .description('make a version the Default of its channel (asset, --platform, --env), demoting the previous Default to LIVE; in a terminal, missing values are picked from lists')
    .argument('[ASSET_ID]', 'asset id (asked for in a terminal)')
    .argument('[VERSION_ID]', 'version id (picked from a list in a terminal)')
    .option('--make-live', 'deploy the version LIVE first when it is OFFLINE or not deployed on the channel')
    .option('--expect-current <versionId>', 'compare-and-set: promote only if the current Default is this version (none: no Default yet); otherwise exit 5')
    .option('--idempotent', 'already the Default: say so, send nothing, exit 0')
    .action(action(() => import('./promote.js')));
};

export const promoteDefault = { kind: 'legacy', register: registerPromoteDefault } as const;
