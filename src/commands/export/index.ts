// `ahs export`: the service's current state as a desired-state file.
import { command, defineCommand, flag, SERVICE } from '../define.js';

export const exportSpec = defineCommand({
  name: 'export',
  summary: 'print the current state of assets and collections as a desired-state file that ahs plan shows as unchanged',
  description:
    'Assets with their fields and channels (versions by name, pinned by id where a name is ambiguous), collections with their fields, their items listed by name and their deployments. Without --asset or --collection: every asset and every collection not deleted. Versions and items are listed, not downloaded: add versions: and items.dir to upload from files.',
  flags: {
    asset: flag.list('id', 'export these assets (repeatable)'),
    collection: flag.list('id', 'export these collections (repeatable)'),
    platform: flag.repeatable('code', "export only these platforms' channels (repeatable)"),
    env: flag.repeatable('id', "export only these environments' channels (repeatable)"),
  },
  uses: [...SERVICE, 'platform', 'env'],
  notes: '--platform and --env, given as flags, narrow the channels exported (from the environment or a profile they are not used).\nJSON (--json): the same document as JSON.',
  examples: [
    'ahs export > ahs.yaml',
    'ahs export --asset my-bundle --env prod > prod.yaml',
    '# the channels of two platforms in two environments',
    'ahs export --platform ios --platform android --env staging --env prod > mobile.yaml',
    'ahs export --collection launch-pack --json',
  ],
});

export const exportState = command(exportSpec, () => import('./export.js'));
