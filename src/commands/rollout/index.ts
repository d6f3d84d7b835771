// `ahs rollout`: one version through environments in waves (cli.md,
// "Rollouts across environments"). `ahs rollout ASSET ...` is `ahs rollout
// start ASSET ...`; status and abort take the same arguments, so the same
// command line (with another word) asks where it stands or puts it back.
import { arg, command, defineCommand, flag, group, SERVICE, type Parser } from '../define.js';

/** ENV,ENV,...: each named once. */
const waveList: Parser<string[]> = (raw) => {
  const envs = raw.split(',').map((env) => env.trim());
  if (envs.some((env) => env === '')) throw new Error(`--waves takes environments separated by commas, e.g. dev,staging,prod (got ${raw})`);
  const twice = envs.find((env, index) => envs.indexOf(env) !== index);
  if (twice !== undefined) throw new Error(`--waves names ${twice} twice (got ${raw}); each environment is one wave`);
  return envs;
};

const args = {
  assetId: arg.required('ASSET_ID', 'the asset'),
  versionId: arg.optional('VERSION_ID', 'the version to roll out (or --name)'),
};

const flags = {
  name: flag.text('versionName', 'the version by its name on --platform, instead of VERSION_ID'),
  waves: flag.parsed('envs', 'the environments, in order, separated by commas: dev,staging,prod', waveList),
  soak: flag.repeatable('env=duration', 'after that wave is promoted, wait this long before the next (30m, 2h, 1h30m; repeatable), measured on the service\'s clock from the journal; needs a journal'),
  check: flag.text('command', 'a shell command run before and after each promotion, with AHS_ROLLOUT_ENV, AHS_ROLLOUT_WAVE and AHS_ROLLOUT_URL set: exit 0 passes, 1 fails (the rollout halts, exit 1), anything else is inconclusive (exit 11)'),
  approve: flag.repeatable('env', 'this wave is promoted only by a run given --approved ENV (repeatable)'),
  approved: flag.repeatable('env', 'this run may promote that --approve wave (repeatable): give it in the job behind a protected environment'),
  file: flag.text('file', 'the desired-state file whose assets.ASSET_ID.rollout gives the defaults of --waves, --soak, --check and --approve (default ahs.yaml, when it is there); flags given override it'),
  wait: flag.bool('wait for a soak time to pass (within --timeout) instead of exiting 11: a countdown in a terminal, a line a minute in CI'),
};

const startFlags = {
  ...flags,
  resume: flag.bool('go on after a check failed (the rollout halted): run that check again, and go on when it passes'),
  supersede: flag.bool("another version's rollout in flight on this asset and platform ends here (on the record: its status says superseded) instead of refusing this one (exit 12)"),
};

const abortFlags = {
  ...flags,
  to: flag.repeatable('env=version', "the Default that wave gets back when the journal does not prove it (abort names such a wave with the --to that would; repeatable)"),
};

const uses = [...SERVICE, 'platform', 'user', 'deliveryUrl'] as const;

const notes = [
  'A wave is done when the version is the Default of its channel. Each run reads the channels and the journal and',
  'continues from where the rollout stands: nothing is kept locally or passed between CI jobs, and a complete rollout',
  'run again sends nothing.',
  '',
  'Any number of runs of the same command line at once move each wave once: a run that finds a write made by another',
  'reports the rollout as it finds it, and only the run that made a change records it. A run killed at any moment',
  'leaves what the next run recognises: a promotion without its journal entry is recorded then (its soak starts there).',
  '',
  'Exit codes: 0 complete (status: read, the rollout going on); 1 a check failed (the rollout halts, status too,',
  'until abort or a run with --resume) or the served bytes differ; 5 a wave\'s channel was moved by someone else or the',
  'rollout was aborted; 11 waiting for a soak time, an approval, an inconclusive check or another run\'s record (the',
  'message says what for and until when; run the same command again later); 12 blocked by another version\'s rollout',
  'in flight (--supersede ends it) or superseded by one.',
  '',
  'JSON (rollout, status, --dry-run): {"asset", "version", "platform", "waves": [{"env", "state", "gate", "since",',
  '"until", "previousDefault"}], "next", "promoted": [env]}; state is done, soaking, unrecorded, next,',
  'waiting-approval, pending, moved, halted or aborted; next.action is promote, record, wait (for soak, entry or',
  'approval), halt (reason check: halt {env, at, by, check, phase, exitCode}), blocked, superseded, aborted or',
  'complete; since and until are the service\'s times (ISO).',
].join('\n');

export const rolloutSpec = defineCommand({
  name: 'start',
  uses,
  summary: 'move a version through environments in waves (ahs rollout ASSET ...), each gated by a soak time, a check or an approval',
  description:
    'Each wave: the version deployed LIVE, --check run against its own URL there, the promotion to Default as a compare-and-set on the Default read, the served bytes verified, --check run again, one journal entry (with the wave). A run promotes every wave whose gates hold, then exits 11 naming what it waits for (a soak: until when), or 0 when the rollout is complete.',
  args,
  flags: startFlags,
  notes,
  examples: [
    'ahs rollout my-bundle WEB7 --platform web --waves dev,staging,prod --soak staging=30m --approve prod',
    '# the prod job, behind a protected environment',
    'ahs rollout my-bundle WEB7 --platform web --waves dev,staging,prod --soak staging=30m --approve prod --approved prod',
    '# wait out the soak in the same job (within --timeout)',
    'ahs rollout my-bundle --name 2.4.0 --platform web --waves dev,prod --soak dev=10m --wait --timeout 900',
  ],
});

export const rolloutStatusSpec = defineCommand({
  name: 'status',
  uses,
  summary: 'where a rollout stands: each wave done, soaking until T, waiting for approval, halted, superseded, blocked or pending (same arguments)',
  description: 'Reads only; --json prints the rollout document. Exit 0 while the rollout goes on or is complete; 1 halted by a failed check (which check, when, its exit code, who ran it), 5 a wave moved by someone else, 12 blocked by or superseded by another version\'s rollout.',
  args,
  flags,
  notes,
  examples: ['ahs rollout status my-bundle WEB7 --platform web --waves dev,staging,prod --soak staging=30m'],
});

export const rolloutAbortSpec = defineCommand({
  name: 'abort',
  uses,
  summary: "put back each wave's previous Default (from the journal), newest wave first (same arguments)",
  description:
    "Each wave this rollout promoted gets back the Default it had before (the journal's entry of that promotion, or of the intent written before it), as a compare-and-set on the rollout's version: a channel someone else moved since is left alone and named (exit 5), and so is a wave whose previous Default nothing proves, with the --to that would. Nothing is deleted: the version stays LIVE where it was promoted (the output names the command that takes it offline). Needs the journal (or --to for every wave).",
  args,
  flags: abortFlags,
  notes,
  examples: ['ahs rollout abort my-bundle WEB7 --platform web --waves dev,staging,prod'],
});

export const rollout = group(
  'rollout',
  'move a version through environments in waves (dev, staging, prod), gated by soak times, checks and approvals',
  [command(rolloutSpec, () => import('./start.js')), command(rolloutStatusSpec, () => import('./status.js')), command(rolloutAbortSpec, () => import('./abort.js'))],
  { defaultCommand: 'start' },
);
