// `ahs freeze ENV ...`, `ahs freeze list`, `ahs unfreeze ENV` (cli.md, "Change control").
import { arg, command, defineCommand, flag, group, SERVICE } from '../define.js';

export const setSpec = defineCommand({
  name: 'set',
  uses: [...SERVICE, 'user'],
  summary: 'freeze an environment: every write to it is refused (exit 12) except rollback, rollout abort and version unblock',
  description:
    'The freeze holds --until a time, --for a duration from now (the service\'s clock), or every week in a --weekly window (in UTC, or in --zone). A write given --break-glass --reason R goes through, and is recorded as such. `ahs freeze ENV ...` is short for `ahs freeze set ENV ...`.',
  args: { env: arg.required('ENV', 'the environment to freeze') },
  flags: {
    until: flag.text('time', 'the freeze ends at this time (ISO 8601, e.g. 2026-12-27T08:00:00Z)', { conflicts: ['for', 'weekly'] }),
    for: flag.text('duration', 'the freeze ends this long from now (on the service\'s clock): 2h, 3d', { conflicts: ['until', 'weekly'] }),
    weekly: flag.text('window', "every week in this window: 'Fri 16:00-Mon 08:00'", { conflicts: ['until', 'for'] }),
    zone: flag.text('zone', 'the time zone of --weekly (default UTC), e.g. Europe/Berlin'),
  },
  examples: [
    'ahs freeze prod --for 3d --reason "holiday"',
    "ahs freeze prod --weekly 'Fri 16:00-Mon 08:00' --zone Europe/Berlin --reason 'no weekend deploys'",
  ],
  notes: 'Needs --reason. JSON: {env, window, until, versionId}.',
});

export const listSpec = defineCommand({
  name: 'list',
  uses: SERVICE,
  summary: 'the freezes of every environment, and whether each holds now',
  examples: ['ahs freeze list', 'ahs freeze list --json'],
  notes: 'JSON: a list envelope of {env, window, active, until, actor, createdAt, reason, versionId}.',
});

export const unfreezeSpec = defineCommand({
  name: 'unfreeze',
  uses: [...SERVICE, 'user'],
  summary: 'lift every freeze of an environment',
  args: { env: arg.required('ENV', 'the environment') },
  examples: ['ahs unfreeze prod --reason "launch moved"'],
  notes: 'JSON: {env, removed: [versionId]}.',
});

export const freeze = group('freeze', 'freeze an environment (no writes but the ways out of an incident), list freezes', [command(setSpec, () => import('./set.js')), command(listSpec, () => import('./list.js'))], {
  defaultCommand: 'set',
});

export const unfreeze = command(unfreezeSpec, () => import('./unfreeze.js'));
