// `ahs promote-default`: make a version the Default of its channel.
import { arg, command, defineCommand, flag, SERVICE } from '../define.js';

export const promoteDefaultSpec = defineCommand({
  name: 'promote-default',
  uses: [...SERVICE, 'platform', 'env', 'user'],
  summary: 'make a version the Default of its channel (asset, --platform, --env), demoting the previous Default to LIVE',
  description:
    'In a terminal, missing values are picked from lists. A race with another promotion (409) is retried with a fresh read; --expect-current makes it a compare-and-set instead.',
  args: {
    assetId: arg.optional('ASSET_ID', 'asset id (asked for in a terminal)'),
    versionId: arg.optional('VERSION_ID', 'version id (picked from a list in a terminal; not with --from-env)'),
  },
  flags: {
    fromEnv: flag.text('sourceEnv', 'promote the version that is the Default of the same asset and platform in this environment (no re-upload)'),
    makeLive: flag.bool('deploy the version LIVE first when it is OFFLINE or not deployed on the channel'),
    expectCurrent: flag.text('versionId', 'compare-and-set: promote only if the current Default is this version (none: no Default yet); otherwise exit 5'),
    idempotent: flag.bool('already the Default: say so, send nothing, exit 0'),
  },
  examples: [
    'ahs promote-default my-bundle IOS4 --platform ios --env prod --expect-current IOS3',
    '# deploy it LIVE first when needed, and succeed on a CI re-run',
    'ahs promote-default my-bundle IOS4 --platform ios --env prod --make-live --idempotent',
    '# what is Default in staging becomes Default in prod',
    'ahs promote-default my-bundle --from-env staging --platform ios --env prod',
  ],
});

export const promoteDefault = command(promoteDefaultSpec, () => import('./promote.js'));
