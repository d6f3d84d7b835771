// `ahs plan`: what apply would change to make the service hold the desired-state file.
import { command, defineCommand, flag, SERVICE } from '../define.js';

export const planSpec = defineCommand({
  name: 'plan',
  summary: 'show what ahs apply would change to make the service hold the desired-state file (ahs.yaml)',
  description:
    'Reads what the file names (in parallel) and prints the changes apply would make, each with its address, action and fields (+ create or upload, ~ change: field: before -> after, - remove; an id the service assigns is (known after apply)) and the request that makes it with the outcome the service\'s rules predict. Versions that exist are compared with their files by content where they can be downloaded; items as item sync compares them (--checksum, or compare: checksum in items:). Nothing is sent. What the service cannot do (change an asset\'s type, a collection\'s allowed types or platform, a version\'s platform, clear a Default) is an error naming the line of the file.',
  flags: {
    file: flag.text('file', 'the desired-state file, YAML or JSON (default ahs.yaml); its paths are relative to its folder', { short: '-f' }),
    out: flag.text('plan', 'save the plan to PLAN: ahs apply PLAN sends it (after checking that nothing moved), ahs show PLAN prints it'),
    detailedExitcode: flag.bool('exit 0 when nothing would change, 10 when changes are pending'),
    checksum: flag.bool('compare items by content (SHA-256 of what a Live item serves), as compare: checksum in items: and item sync --checksum'),
    target: flag.list('selector', 'plan only these resources of the file: asset.ID, collection.ID (or an id of either)'),
  },
  uses: [...SERVICE, 'user'],
  notes: 'JSON: the plan document (formatVersion, baseUrl, domainId, file, files, reads, steps, changes, notes), as --out writes it; each change is {address, action, before, after, unknownAfter?, request, prediction, step} (ahs schema --plan prints its JSON Schema).\nExit codes: as cli.md; with --detailed-exitcode 0 (no changes) or 10 (changes pending).',
  examples: ['ahs plan', '# in CI: is there drift? (exit 10 when there is)', 'ahs plan -f deploy/ahs.yaml --detailed-exitcode', '# review now, apply later exactly this', 'ahs plan --out release.plan && ahs apply release.plan'],
});

export const plan = command(planSpec, () => import('./plan.js'));
