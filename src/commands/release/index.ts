// `ahs release`: the whole release of one file on one channel.
import { arg, command, defineCommand, flag, SERVICE } from '../define.js';

export const releaseSpec = defineCommand({
  name: 'release',
  uses: [...SERVICE, 'platform', 'env', 'user'],
  summary: 'upload a file as a version, deploy it LIVE and promote it to Default on one channel (asset, --platform, --env)',
  description:
    'Each stage is printed as it completes. A re-run is safe: a version of the same --name on that platform is reused when its file name is FILE\'s and its size agrees with FILE\'s (and, when it can be downloaded, being LIVE or DEFAULT somewhere, its content: SHA-256 of what the delivery network serves against FILE\'s; the output says how it was matched), and the stages already done are skipped, so a re-run of a finished release sends no write and exits 0. A version of that name with another file, size or content is a conflict (exit 5, nothing written, naming both digests). The promotion follows the promote-default rules: a race is retried with a fresh read, --expect-current makes it a compare-and-set.',
  args: {
    assetId: arg.optional('ASSET_ID', 'asset id (picked from a list in a terminal)'),
    file: arg.optional('FILE', 'the file to release'),
  },
  flags: {
    name: flag.text('versionName', 'version name (max 64 characters); the key that makes a re-run resume'),
    state: flag.choiceOr('state', ['LIVE', 'DEFAULT'], 'DEFAULT', 'where the release ends: LIVE, or DEFAULT (promoted)'),
    expectCurrent: flag.text('versionId', 'compare-and-set: promote only if the current Default is this version (none: no Default yet); otherwise exit 5 before anything is written'),
  },
  notes: 'JSON: {version, assetVersion, previousDefault, stages: [{stage: upload|deploy|promote, changed}]}; the upload stage of a version already there also has matched: "content" (its SHA-256 compared) or "name and size" (it cannot be downloaded).',
  examples: [
    'ahs release my-bundle ./dist/app.zip --platform ios --env prod --name 1.4.0',
    '# in CI: safe to re-run; the version id for later steps',
    'version_id=$(ahs release my-bundle app.zip --platform android --env staging --name "$GITHUB_SHA" --query version.versionId)',
    '# LIVE only, no promotion',
    'ahs release my-bundle app.zip --platform ios --env prod --name 1.4.0 --state LIVE',
  ],
});

export const release = command(releaseSpec, () => import('./release.js'));
