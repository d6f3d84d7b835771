// `ahs rollback`: the channel's previous Default becomes the Default again.
import { arg, command, defineCommand, flag, SERVICE } from '../define.js';

export const rollbackSpec = defineCommand({
  name: 'rollback',
  uses: [...SERVICE, 'platform', 'env', 'user'],
  summary: 'make the previous Default of a channel (asset, --platform, --env) the Default again',
  description:
    'The target is --to; or else, with a journal (ahs journal init), the version its last change of the channel\'s Default replaced, provided that change\'s result is the current Default (otherwise the channel moved outside ahs: it says so and asks for --to); or else the version the channel\'s own records prove was the Default before (a LIVE record demoted by the current Default\'s promotion, when the service\'s records carry the time of each change); the service keeps no history, so ahs never guesses from version numbers: otherwise a terminal offers the LIVE versions to pick from, and elsewhere it exits 2 listing them and asking for --to. The output says which was picked and why. It is a compare-and-set on the Default read: if another writer moves it meanwhile, nothing is written and the exit code is 5.',
  args: {
    assetId: arg.optional('ASSET_ID', 'asset id (picked from a list in a terminal)'),
  },
  flags: {
    to: flag.text('versionId', 'the version to make the Default again (it must be LIVE on the channel)'),
    block: flag.bool('also block the version it moves away from (ahs version block), so no re-run or job promotes it again; --reason says why'),
  },
  notes: 'JSON: as promote-default, {assetVersion, message, previousDefault, attempts}.',
  examples: [
    'ahs rollback my-bundle --platform ios --env prod',
    '# back to a named version, without prompts',
    'ahs rollback my-bundle --platform ios --env prod --to IOS7 --json',
    '# an incident: back, and the bad version kept out',
    'ahs rollback my-bundle --platform ios --env prod --block --reason "INC-42: crash on start"',
  ],
});

export const rollback = command(rollbackSpec, () => import('./rollback.js'));
