// `ahs deploy`: one version LIVE or OFFLINE on one channel.
import { arg, command, defineCommand, flag, SERVICE } from '../define.js';

export const deploySpec = defineCommand({
  name: 'deploy',
  uses: [...SERVICE, 'platform', 'env', 'user'],
  summary: 'deploy a version LIVE or OFFLINE on one channel (asset, --platform, --env)',
  args: {
    assetId: arg.optional('ASSET_ID', 'asset id (picked from a list in a terminal)'),
    versionId: arg.optional('VERSION_ID', 'version id, e.g. IOS3 (picked from a list in a terminal)'),
  },
  flags: {
    state: flag.choiceOr('state', ['LIVE', 'OFFLINE'], 'LIVE', 'target state', {
      hints: { DEFAULT: 'the Default is set with ahs promote-default ASSET_ID VERSION_ID (add --make-live when the version is not LIVE yet)' },
    }),
    idempotent: flag.bool('already in the target state: say so, send nothing, exit 0'),
  },
  examples: [
    'ahs deploy my-bundle IOS3 --platform ios --env staging',
    '# take a version off the channel, and succeed on a CI re-run',
    'ahs deploy my-bundle IOS2 --platform ios --env prod --state OFFLINE --idempotent',
  ],
});

export const deploy = command(deploySpec, () => import('./deploy.js'));
