// `ahs lock ...`: leased locks on an environment, a channel or a collection
// in an environment (cli.md, "Change control"; the design is at the top of
// src/rules/change-control.ts).
import { arg, command, defineCommand, flag, group, SERVICE } from '../define.js';

const scopeArg = () => arg.required('SCOPE', 'an environment (prod), a channel (ASSET/PLATFORM/ENV) or a collection in an environment (COLLECTION@ENV)');

export const acquireSpec = defineCommand({
  name: 'acquire',
  uses: [...SERVICE, 'user'],
  summary: 'take the lock of a scope for this job (a lease: it ends at --ttl unless renewed); prints its lock id',
  description:
    'Mutually exclusive between any number of runs at once: a compare-and-set in the service. The holder is the acting user, the command and the CI run; --reason says why. A lock already held by another run is exit 12 naming its holder, unless --lock-timeout waits for it. Given --lock-id (or AHS_LOCK_ID) of the lock it holds, it renews the lease. Later steps of the same job pass the lock id (--lock-id, AHS_LOCK_ID; under GitHub Actions the step output lock-id) so their writes go through it.',
  args: { scope: scopeArg() },
  flags: { ttl: flag.text('duration', 'the lease: the lock ends by itself this long after it was taken or last renewed (default 15m)') },
  examples: [
    'ahs lock acquire prod --ttl 30m --reason "release 1.4.2"',
    '# in CI: keep the id for the later steps',
    'export AHS_LOCK_ID=$(ahs lock acquire prod --reason "$GITHUB_WORKFLOW" --query lockId)',
  ],
  notes: 'JSON: {scope, lockId, holder, since, leaseEnd, renewed}.',
});

export const releaseSpec = defineCommand({
  name: 'release',
  uses: [...SERVICE, 'user'],
  summary: 'release a lock this run holds (--lock-id or AHS_LOCK_ID)',
  args: { scope: scopeArg() },
  examples: ['ahs lock release prod --lock-id "$AHS_LOCK_ID"'],
  notes: 'A lock held by another run is exit 12 naming it (ahs lock break takes it away); a free lock is exit 0.\nJSON: {scope, released, lockId}.',
});

export const statusSpec = defineCommand({
  name: 'status',
  uses: [...SERVICE, 'env'],
  summary: 'who holds the lock of a scope, since when, why, and when its lease ends; without SCOPE, every lock held now',
  args: { scope: arg.optional('SCOPE', 'an environment, ASSET/PLATFORM/ENV or COLLECTION@ENV (default: every lock held, in the --env environment when set)') },
  examples: ['ahs lock status prod', 'ahs lock status my-bundle/ios/prod --json', 'ahs lock status'],
  notes: 'JSON: {scope, held, lockId, holder, command, ci, reason, since, leaseEnd, expired, versionId}; without SCOPE, a list envelope of those, one per lock held.',
});

export const breakSpec = defineCommand({
  name: 'break',
  uses: [...SERVICE, 'user'],
  summary: 'end another run\'s lock (needs --reason; recorded in the journal)',
  args: { scope: scopeArg() },
  examples: ['ahs lock break prod --reason "the job was cancelled"'],
  notes: 'A killed job needs no break: its lease ends by itself. JSON: {scope, broken, lockId, holder}.',
});

export const lock = group('lock', 'leased locks: one apply or rollout on a scope at a time', [
  command(acquireSpec, () => import('./acquire.js')),
  command(releaseSpec, () => import('./release.js')),
  command(statusSpec, () => import('./status.js')),
  command(breakSpec, () => import('./break.js')),
]);
