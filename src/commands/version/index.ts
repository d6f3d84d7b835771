import type { RegisterGroup } from '../legacy.js';
import { pagingOptions } from '../legacy.js';

export const registerVersion: RegisterGroup = (program, action) => {
  const version = program.command('version').description('versions of a virtual asset: upload, read, list, delete, deployed URLs');
  version
    .command('upload')
    .description('upload a file as a new version for one target platform (--platform), streamed with progress')
    .argument('[ASSET_ID]', 'asset id (picked from a list in a terminal)')
    .argument('[FILE]', 'file to upload')
    .option('--name <versionName>', 'version name (max 64 characters)')
    .action(action(() => import('./upload.js')));
  version.command('get').description('show a version').argument('[ASSET_ID]', 'asset id (picked from a list in a terminal)').argument('[VERSION_ID]', 'version id, e.g. IOS3 (picked from a list in a terminal)').action(action(() => import('./get.js')));
  pagingOptions(version.command('list').description('list the versions of an asset').argument('[ASSET_ID]', 'asset id (picked from a list in a terminal)')).action(
    action(() => import('./list.js')),
  );
  version
    .command('delete')
    .description('delete a version (it must not be LIVE or DEFAULT anywhere)')
    .argument('[ASSET_ID]', 'asset id (picked from a list in a terminal)')
    .argument('[VERSION_ID]', 'version id, e.g. IOS3 (picked from a list in a terminal)')
    .action(action(() => import('./delete.js')));
  version
    .command('urls')
    .description('the deployed URL of a version in one environment (--env)')
    .argument('[ASSET_ID]', 'asset id (picked from a list in a terminal)')
    .argument('[VERSION_ID]', 'version id, e.g. IOS3 (picked from a list in a terminal)')
    .action(action(() => import('./urls.js')));
};

export const version = { kind: 'legacy', register: registerVersion } as const;
