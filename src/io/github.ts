// GitHub Actions, with no flag (cli.md, "In CI, and from code"): under
// GITHUB_ACTIONS=true a run also speaks the runner's language.
// - The key values of a command go to $GITHUB_OUTPUT (OUTPUTS below) in the
//   runner's file format, the heredoc form @actions/core's setOutput writes
//   (`name<<DELIMITER`, the value, `DELIMITER`), which carries a multi-line
//   value and never lets a value end the entry early.
// - release, rollback, promote-default, item sync and fetch append a short
//   Markdown table of what they did (or would do with --dry-run) to
//   $GITHUB_STEP_SUMMARY (SUMMARIES below).
// - A failure is also one `::error title=...::message` workflow command.
// - A key read from a profile file is announced with `::add-mask::` before
//   anything else is printed (AHS_API_KEY comes from the job's secrets, which
//   the runner masks already).
// Workflow commands go to stderr: the runner reads them from both streams
// (actions/runner ScriptHandler: one OutputManager per stream), and stdout
// is the data a step captures with `id=$(ahs ... --query ...)`, where a
// command would be swallowed, and a key left unmasked.
// Everything is derived from the command's path and the JSON document it
// printed (./record.ts): the document a script gets with --json.
import { appendFileSync } from 'node:fs';
import { EOL } from 'node:os';
import type { Redactor } from '../http/redact.js';
import { rawStream, type IO } from './streams.js';
import type { RunRecord } from './record.js';
import { comparedLine } from './views/collections.js';
import { workflowCommand } from '../util/workflow-command.js';
import { changeText, planSummaryLine, symbolOf, tally } from './views/plan.js';
import type { PlannedChange } from '../plan/saved.js';

/** A JSON document as printed: read with optional chaining, every derivation tolerates another shape. */
type Doc = any;
/** An output's value: undefined is not written, null is written empty, an array is one line per entry. */
type Derive = (doc: Doc) => unknown;

interface CommandOutputs {
  /** A write: `changed` says whether it changed anything (false for a no-op and a dry run). */
  write: boolean;
  outputs: Record<string, Derive>;
}

const write = (outputs: Record<string, Derive>): CommandOutputs => ({ write: true, outputs });
const read = (outputs: Record<string, Derive>): CommandOutputs => ({ write: false, outputs });
const count = (list: unknown): number | undefined => (Array.isArray(list) ? list.length : undefined);
const message = write({ message: (d) => d.message });

const promotion = write({
  'version-id': (d) => d.assetVersion?.versionId,
  'version-name': (d) => d.assetVersion?.versionName,
  state: (d) => d.assetVersion?.state,
  'previous-default': (d) => d.previousDefault,
});

/**
 * The outputs of each command, by command path (documented in the README,
 * "GitHub Actions outputs"). Every command listed also gets `exit-code`;
 * a write gets `changed`, and with --dry-run `dry-run`, `predicted-status`
 * and `predicted-state` instead of its own.
 */
export const OUTPUTS: Record<string, CommandOutputs> = {
  release: write({
    'version-id': (d) => d.version?.versionId,
    'version-name': (d) => d.version?.versionName,
    'version-number': (d) => d.version?.version,
    state: (d) => d.assetVersion?.state,
    'previous-default': (d) => d.previousDefault,
    changed: (d) => (Array.isArray(d.stages) ? d.stages.some((stage: Doc) => stage?.changed === true) : undefined),
  }),
  'promote-default': promotion,
  rollback: promotion,
  deploy: write({
    'version-id': (d) => d.assetVersion?.versionId,
    'version-name': (d) => d.assetVersion?.versionName,
    state: (d) => d.assetVersion?.state,
  }),
  'version upload': write({
    'version-id': (d) => d.versionId,
    'version-name': (d) => d.versionName,
    'version-number': (d) => d.version,
  }),
  'version delete': write({ 'version-id': (d) => d.versionId }),
  'version urls': read({
    'download-url': (d) => d.results?.[0]?.downloadUrl,
    'download-urls': (d) => d.results?.map((r: Doc) => r?.downloadUrl),
  }),
  'asset create': write({ 'asset-id': (d) => d.assetId }),
  'asset update': write({ 'asset-id': (d) => d.assetId }),
  'asset delete': write({ 'asset-id': (d) => d.assetId }),
  'asset undeploy': write({ message: (d) => d.message, undeployed: (d) => d.totalUndeployedVersions }),
  'collection create': write({ 'collection-id': (d) => d.collectionId }),
  'collection update': write({ 'collection-id': (d) => d.collectionId }),
  'collection delete': message,
  'collection restore': message,
  'collection purge': message,
  'collection undeploy': message,
  'collection url': read({ 'download-url': (d) => d.downloadUrl }),
  'collection-deploy': write({ 'download-url': (d) => d.downloadUrl, message: (d) => d.message }),
  'journal init': write({
    journal: (d) => d.journal,
    'env-id': (d) => d.envId,
    created: (d) => d.created,
    deployed: (d) => d.deployed,
    changed: (d) => (typeof d.created === 'boolean' ? d.created || d.deployed : undefined),
  }),
  'item upload': write({
    'item-ids': (d) => d.uploaded?.map((i: Doc) => i?.assetItemId),
    uploaded: (d) => count(d.uploaded),
    failed: (d) => count(d.failed),
    changed: (d) => (Array.isArray(d.uploaded) ? d.uploaded.length > 0 : undefined),
  }),
  'item remove': message,
  'item sync': write({
    uploaded: (d) => count(d.uploaded),
    replaced: (d) => count(d.replaced),
    removed: (d) => count(d.removed),
    unchanged: (d) => count(d.unchanged),
    failed: (d) => count(d.failed),
    'item-ids': (d) => [...(d.uploaded ?? []).map((i: Doc) => i?.assetItemId), ...(d.replaced ?? []).map((r: Doc) => r?.new?.assetItemId)],
    changed: (d) => [d.uploaded, d.replaced, d.removed].some((list) => Array.isArray(list) && list.length > 0),
  }),
  plan: read({
    'to-create': (d) => planTally(d)?.create,
    'to-change': (d) => planTally(d)?.change,
    'to-remove': (d) => planTally(d)?.remove,
    requests: (d) => count(d.steps),
    'has-changes': (d) => (Array.isArray(d.steps) ? d.steps.length > 0 : undefined),
  }),
  apply: write({
    sent: (d) => d.changed,
    failed: (d) => count(d.failed),
  }),
  'lock acquire': write({ 'lock-id': (d) => d.lockId, 'lease-end': (d) => d.leaseEnd }),
  'lock release': write({ 'lock-id': (d) => d.lockId }),
  'lock break': write({ 'lock-id': (d) => d.lockId }),
  'lock status': read({ held: (d) => d.held, holder: (d) => d.holder, 'lock-id': (d) => d.lockId, 'lease-end': (d) => d.leaseEnd }),
  'freeze set': write({ env: (d) => d.env, until: (d) => d.until }),
  'version block': write({ 'version-id': (d) => d.versionId }),
  'version unblock': write({ 'version-id': (d) => d.versionId }),
  'rollout start': rolloutOutputs(true),
  'rollout status': rolloutOutputs(false),
  'rollout abort': write({ restored: (d) => d.restored, changed: (d) => (Array.isArray(d.restored) ? d.restored.length > 0 : undefined) }),
  fetch: read({
    dir: (d) => d.dir,
    downloaded: (d) => count(d.downloaded),
    skipped: (d) => count(d.skipped),
    failed: (d) => count(d.failed),
    // In name order: the downloads end in any order, a step's output must not.
    files: (d) => d.downloaded?.map((f: Doc) => f?.path).sort(),
  }),
};

/**
 * A rollout's next wave, what it waits for (soak, approval) and until when:
 * the next job of a pipeline reads them (cli.md "Rollouts across environments").
 */
function rolloutOutputs(isWrite: boolean): CommandOutputs {
  const next = (d: Doc) => d.next ?? {};
  const outputs: Record<string, Derive> = {
    'next-wave': (d) => (d.waves ? (next(d).env ?? null) : undefined),
    'waiting-for': (d) => (d.waves ? (next(d).action === 'wait' ? next(d).for : null) : undefined),
    'resume-after': (d) => (d.waves ? (next(d).until ?? null) : undefined),
    state: (d) => (d.waves ? next(d).action : undefined),
    // A halt by a failed check: the wave, the check, its exit code, when and who; a supersede or a block: the other version.
    'halted-wave': (d) => (d.waves ? (next(d).halt?.env ?? null) : undefined),
    'halt-check': (d) => (d.waves ? (next(d).halt?.check ?? null) : undefined),
    'halt-exit-code': (d) => (d.waves ? (next(d).halt?.exitCode ?? null) : undefined),
    'halted-at': (d) => (d.waves ? (next(d).halt?.at ?? null) : undefined),
    'halted-by': (d) => (d.waves ? (next(d).halt?.by ?? null) : undefined),
    'superseded-by': (d) => (d.waves ? (next(d).action === 'superseded' ? next(d).version : null) : undefined),
    // Not `blocked-by`: that one names the cause of an exit 12 (lock, freeze, version, rollout), set for every write.
    'in-flight': (d) => (d.waves ? (next(d).action === 'blocked' ? (next(d).by?.version ?? null) : null) : undefined),
    promoted: (d) => d.promoted,
  };
  if (isWrite) outputs.changed = (d) => (Array.isArray(d.promoted) ? d.promoted.length > 0 : undefined);
  return isWrite ? write(outputs) : read(outputs);
}

/** The waves of a rollout as a table, and what comes next. */
const rolloutSummary: Summarise = (d) => [
  ...table(
    ['wave', 'state', 'gate', 'since', 'until', 'previous Default'],
    (d.waves ?? []).map((w: Doc) => [w?.env, w?.state, w?.gate, w?.since, w?.until, w?.previousDefault]),
  ),
  '',
  `next: ${nextText(d.next ?? {})}${Array.isArray(d.promoted) && d.promoted.length > 0 ? `; promoted by this run: ${d.promoted.join(', ')}` : ''}`,
];

function nextText(next: Doc): string {
  if (next.action === 'promote') return `promote ${next.env}`;
  if (next.action === 'wait' && next.for === 'soak') return `${next.soaking} soaks until ${next.until}${next.env ? `, then ${next.env}` : ''}`;
  if (next.action === 'wait' && next.for === 'entry') return `${next.recording} was promoted by another run, which records it by ${next.until}${next.env ? `, then ${next.env}` : ''}`;
  if (next.action === 'wait') return `${next.env} waits for approval (a run with --approved ${next.env})`;
  if (next.action === 'record') return `record ${next.env}'s promotion (made without its journal entry); its soak starts then`;
  if (next.action === 'halt' && next.reason === 'check') return `halted: the check failed ${next.halt?.phase} promoting ${next.halt?.env} (exit ${next.halt?.exitCode}) at ${next.halt?.at}, run by ${next.halt?.by}`;
  if (next.action === 'halt') return `halted: ${next.env} was moved by someone else`;
  if (next.action === 'blocked') return `blocked by the rollout of ${next.by?.version} in flight (${next.by?.state})`;
  if (next.action === 'superseded') return `superseded by the rollout of ${next.version}, started by ${next.by} at ${next.at}`;
  return String(next.action ?? '');
}

/** The Markdown lines of what a command did, from its document (a dry run and a no-op are summarised alike for all). */
type Summarise = (doc: Doc) => string[];

const promotionSummary: Summarise = (d) =>
  table(
    ['', ''],
    [
      ['version', versionText(d.assetVersion)],
      ['now', channelText(d.assetVersion)],
      ['previous Default', d.previousDefault ? `${d.previousDefault} (now LIVE)` : 'none'],
      ['attempts', d.attempts],
    ],
  );

const ACTION_SYMBOL: Record<string, string> = { create: '+ create', update: '~ change', delete: '- remove' };

/** The changes of a desired-state plan document counted as its summary line counts them. */
function planTally(d: Doc): { create: number; change: number; remove: number } | undefined {
  return Array.isArray(d.changes) ? tally(d.changes.filter((c: Doc) => c && typeof c.action === 'string')) : undefined;
}

/** The commands whose step summary says what they did: adding `plan` or `apply` is one row. */
export const SUMMARIES: Record<string, Summarise> = {
  // Rendered from the changes' values (src/io/views/plan.ts), as the text view is.
  plan: (d) => {
    const changes: PlannedChange[] = Array.isArray(d.changes) ? d.changes.filter((c: Doc) => c && typeof c.address === 'string') : [];
    return [
      planSummaryLine(count(d.steps) ?? 0, changes),
      '',
      ...table(
        ['', 'address', 'action', 'what'],
        changes.slice(0, 50).map((c) => [symbolOf(c), c.address, c.name ? `${c.action} ${c.name}` : c.action, changeText(c)]),
      ),
    ];
  },
  apply: (d) =>
    table(
      ['resource', 'action', 'outcome'],
      (d.steps ?? []).slice(0, 50).map((step: Doc) => [step?.resource, ACTION_SYMBOL[step?.action] ?? step?.action, step?.outcome]),
    ),
  release: (d) =>
    table(
      ['', ''],
      [
        ['version', versionText(d.version)],
        ['now', channelText(d.assetVersion)],
        ['previous Default', d.previousDefault ?? 'none'],
        ...(Array.isArray(d.stages) ? d.stages.map((s: Doc) => [s?.stage, `${s?.changed ? 'sent' : 'already done, nothing sent'}${s?.matched ? ` (matched by ${s.matched})` : ''}`]) : []),
      ],
    ),
  rollback: promotionSummary,
  'promote-default': promotionSummary,
  'rollout start': rolloutSummary,
  'rollout status': rolloutSummary,
  'rollout abort': rolloutSummary,
  'item sync': (d) => [
    ...table(
      ['result', 'count', 'items'],
      [
        ['uploaded', count(d.uploaded), names((d.uploaded ?? []).map((i: Doc) => `${i?.assetItemName} (${i?.assetItemId})`))],
        ['replaced', count(d.replaced), names((d.replaced ?? []).map((r: Doc) => `${r?.new?.assetItemName} (${r?.old} → ${r?.new?.assetItemId})`))],
        ['removed', count(d.removed), names(d.removed ?? [])],
        ['unchanged', count(d.unchanged), names(d.unchanged ?? [])],
        ['failed', count(d.failed), names((d.failed ?? []).map((f: Doc) => `${f?.file ?? 'reconcile'}: ${f?.error?.title}`))],
      ],
    ),
    ...comparedRule(d.compared),
  ],
  fetch: (d) => [
    `${d.collectionId} (${d.envId}) → ${cell(d.dir)}`,
    '',
    ...table(
      ['result', 'count', 'files'],
      [
        ['downloaded', count(d.downloaded), names((d.downloaded ?? []).map((f: Doc) => f?.name).sort())],
        ['skipped', count(d.skipped), names((d.skipped ?? []).map((f: Doc) => `${f?.name} (${f?.reason})`))],
        ['failed', count(d.failed), names((d.failed ?? []).map((f: Doc) => `${f?.name}: ${f?.error}`))],
      ],
    ),
  ],
};

/** Which rule decided for how many files of a sync (the line item sync prints on stderr); nothing when none was compared. */
function comparedRule(compared: Doc): string[] {
  const content = Number(compared?.content ?? 0);
  const size = Number(compared?.size ?? 0);
  return content + size === 0 ? [] : ['', comparedLine({ content, size, checksum: compared?.checksum === true })];
}

/** Exit 11: a rollout waiting for a soak time or an approval (cli.md): not an error. */
const WAITING = 11;

/** Runs the GitHub Actions side of ahs; `undefined` outside GitHub Actions. */
export function gitHubActions(io: IO, redactor: Redactor): GitHubActions | undefined {
  return io.env.GITHUB_ACTIONS === 'true' ? new GitHubActions(io, redactor) : undefined;
}

export class GitHubActions {
  private readonly masked = new Set<string>();

  constructor(
    private readonly io: IO,
    private readonly redactor: Redactor,
  ) {}

  /** `::add-mask::` for a key read from a profile file, once per key. */
  mask(secret: string): void {
    if (secret === '' || this.masked.has(secret)) return;
    this.masked.add(secret);
    // Past the redactor: through it the line would read *** and mask nothing.
    rawStream(this.io.err).write(workflowCommand('add-mask', {}, secret));
  }

  /** At the exit site: the ::error line of a failure, the outputs and the step summary. */
  finish(run: RunRecord): void {
    const doc: unknown = this.redactor.redactDeep(run.document);
    if (run.exitCode === WAITING && run.error) {
      // A rollout that waits is not a failure: a notice, no ::error.
      this.io.err.write(workflowCommand('notice', { title: `ahs ${run.command} waits (exit 11)` }, this.redactor.redactDeep(run.error).title));
    } else if (run.exitCode !== 0 && run.error && !(run.exitCode === 10 && run.command === 'plan')) {
      // 10 is `plan --detailed-exitcode` saying changes are pending: not a failure, no ::error.
      const { title, status } = this.redactor.redactDeep(run.error);
      const what = `ahs${run.command ? ` ${run.command}` : ''} failed (exit ${run.exitCode}${status ? `, HTTP ${status}` : ''})`;
      this.io.err.write(workflowCommand('error', { title: what }, title));
    }
    const outputs = OUTPUTS[run.command];
    if (outputs) this.append('GITHUB_OUTPUT', outputEntries(outputs, doc, run.exitCode));
    // Refused by change control, whatever the command: what blocked it and until when (cli.md, "Change control").
    if (run.error?.type === 'urn:ahs:blocked') this.append('GITHUB_OUTPUT', [keyValue('blocked-by', outputText(run.error.blockedBy ?? '')), keyValue('until', outputText(run.error.until ?? null))].join(''));
    const summarise = SUMMARIES[run.command];
    if (summarise) this.append('GITHUB_STEP_SUMMARY', summary(run, summarise, doc));
  }

  /** One append of the whole text, as the runner's file commands expect; a failure is a warning, not the command's outcome. */
  private append(variable: 'GITHUB_OUTPUT' | 'GITHUB_STEP_SUMMARY', text: string): void {
    const path = this.io.env[variable];
    if (!path || text === '') return;
    try {
      appendFileSync(path, this.redactor.redact(text), { encoding: 'utf8' });
    } catch (error) {
      this.io.err.write(`warning: cannot write $${variable} (${path}): ${(error as Error).message}\n`);
    }
  }
}

/** The $GITHUB_OUTPUT entries of a run: exit-code, then the command's own (or a dry run's). */
function outputEntries(spec: CommandOutputs, doc: Doc, exitCode: number): string {
  const values: Record<string, unknown> = { 'exit-code': exitCode };
  if (doc && typeof doc === 'object') {
    if (doc.dryRun === true) {
      Object.assign(values, { 'dry-run': true, 'predicted-status': doc.predicted?.status, 'predicted-state': scalar(doc.predicted?.state) });
      if (spec.write) values.changed = false;
    } else if (doc.changed === false && typeof doc.message === 'string') {
      // An --idempotent no-op, or a rollback already done: {changed: false, state, message}.
      Object.assign(values, { changed: false, state: doc.state, message: doc.message });
    } else {
      for (const [name, derive] of Object.entries(spec.outputs)) values[name] = derive(doc);
      if (spec.write && values.changed === undefined) values.changed = true;
    }
  }
  return Object.entries(values)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => keyValue(name, outputText(value)))
    .join('');
}

function outputText(value: unknown): string {
  if (value === null) return '';
  if (Array.isArray(value)) return value.filter((entry) => entry !== undefined && entry !== null).map(String).join('\n');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** `name<<DELIMITER` EOL value EOL `DELIMITER` EOL: the delimiter is random and never in the value (@actions/core). */
function keyValue(name: string, value: string): string {
  let delimiter: string;
  do delimiter = `ghadelimiter_${crypto.randomUUID()}`;
  while (value.includes(delimiter));
  return `${name}<<${delimiter}${EOL}${value}${EOL}${delimiter}${EOL}`;
}

function summary(run: RunRecord, summarise: Summarise, doc: Doc): string {
  const heading = `### ahs ${run.command}`;
  let lines: string[];
  if (doc && typeof doc === 'object' && doc.dryRun === true) {
    lines = [`${heading}: dry run, nothing was sent`, '', ...dryRunTable(doc)];
  } else if (doc && typeof doc === 'object' && doc.changed === false && typeof doc.message === 'string') {
    lines = [`${heading}: nothing to do`, '', cell(doc.message)];
  } else if (doc && typeof doc === 'object') {
    // 10 is `plan --detailed-exitcode` saying changes are pending: not a failure.
    const succeeded = run.exitCode === 0 || (run.exitCode === 10 && run.command === 'plan');
    const waiting = run.exitCode === WAITING ? `${heading}: waiting (exit 11)` : undefined;
    lines = [succeeded ? heading : (waiting ?? `${heading}: failed (exit ${run.exitCode})`), '', ...summarise(doc)];
  } else {
    lines = [`${heading}: failed (exit ${run.exitCode})`, '', cell(run.error?.title ?? 'no result')];
  }
  return `${lines.join(EOL)}${EOL}${EOL}`;
}

/** Each request a dry run would send (the earlier ones first) and the service's predicted answer. */
function dryRunTable(doc: Doc): string[] {
  const steps = [...(Array.isArray(doc.before) ? doc.before : []), doc];
  return table(
    ['request', 'predicted'],
    steps.map((step: Doc) => [
      `${step?.request?.method} ${step?.request?.path}`,
      `${step?.predicted?.status} ${step?.predicted?.error ? step.predicted.error.title : (scalar(step?.predicted?.state) ?? '')}`.trim(),
    ]),
  );
}

function table(header: string[], rows: unknown[][]): string[] {
  const line = (cells: unknown[]) => `| ${cells.map(cell).join(' | ')} |`;
  return [line(header), `|${header.map(() => '---').join('|')}|`, ...rows.map(line)];
}

/** A table cell: one line, no pipe, no HTML (names come from the service). */
function cell(value: unknown): string {
  if (value === undefined || value === null) return '';
  return String(value)
    .replace(/[\r\n]+/g, ' ')
    .replace(/\\/g, '\\\\')
    .replace(/\|/g, '\\|')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

/** At most 20 names, then how many more: the summary stays short for a sync of thousands. */
function names(list: unknown[]): string {
  const shown = list.slice(0, 20).map(String).join(', ');
  return list.length > 20 ? `${shown}, … and ${list.length - 20} more` : shown;
}

function versionText(version: Doc): string {
  return version?.versionId ? `${version.versionId} (${version.versionName})` : '';
}

function channelText(record: Doc): string {
  return record?.state ? `${record.state} on ${record.targetPlatform} in ${record.envId}` : '';
}

function scalar(value: unknown): string | number | undefined {
  return typeof value === 'string' || typeof value === 'number' ? value : undefined;
}
