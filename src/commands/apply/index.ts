// `ahs apply`: make the service hold the desired-state file (or send a saved plan).
import { arg, command, defineCommand, flag, SERVICE } from '../define.js';

export const applySpec = defineCommand({
  name: 'apply',
  summary: 'make the service hold the desired-state file (ahs.yaml), or send a plan saved by ahs plan --out',
  description:
    'Plans (as ahs plan), shows the plan, asks in a terminal (elsewhere it needs --yes), then sends the requests in order, printing each as it is done. A run stopped half-way (a failure, Ctrl-C, a lost runner) is finished by running it again: the next plan holds only what is left. With PLAN, everything the plan read is read again and every file it uploads hashed again first: if anything moved, nothing is sent (exit 5, naming what moved).',
  args: { plan: arg.optional('PLAN', 'a plan saved by ahs plan --out (instead of -f FILE)') },
  flags: {
    file: flag.text('file', 'the desired-state file, YAML or JSON (default ahs.yaml)', { short: '-f' }),
    checksum: flag.bool('compare items by content (SHA-256 of what a Live item serves), as compare: checksum in items: and item sync --checksum'),
    target: flag.list('selector', 'apply only these resources of the file: asset.ID, collection.ID (or an id of either)'),
  },
  uses: [...SERVICE, 'user'],
  notes: 'Output: each request on stderr as it is done; on stdout, every request with its outcome (done, failed, not sent), then "Apply complete: N added, M changed, K removed (R request(s) sent)." (or "Apply incomplete: ..." after a failure).\nJSON: {changed: n, steps: [{resource, action, request, outcome: done|failed|not sent}], failed: [{resource, step, error}], notes: [...]} (resource: the address of the change); any failure is exit 1.',
  examples: ['ahs apply', '# in CI, on merge', 'ahs apply -f deploy/ahs.yaml --yes', '# exactly what was reviewed', 'ahs plan --out release.plan && ahs apply release.plan --yes'],
});

export const apply = command(applySpec, () => import('./apply.js'));
