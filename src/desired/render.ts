// A plan document for a person, Terraform-like, rendered from its values
// (src/io/views/plan.ts): `+` create, `~` change (field: old → new), `-`
// remove, each request with the rules' prediction; and the outcome of an apply as cli.md's JSON
// ({changed, steps: [{resource, action, request, outcome}], failed}).
import type { Kit } from '../io/output.js';
import type { ApiClient } from '../http/client.js';
import { OutcomeUnknownError, type ErrorBody } from '../errors.js';
import { resolveParams } from '../plan/execute.js';
import { KINDS } from '../plan/kinds/index.js';
import type { Results, Step } from '../plan/plan.js';
import type { PlannedChange, SavedPlan } from '../plan/saved.js';
import { changeHeader, fieldLines, KNOWN, planSummaryLine, symbolOf, tally as countChanges } from '../io/views/plan.js';

/** The values each step is predicted to answer, for the refs of later steps: an id the service assigns is "(known after apply)", never a guess. */
export function predictedAnswers(doc: Pick<SavedPlan, 'steps'>): Map<string, unknown> {
  const answers = new Map<string, unknown>();
  for (const step of doc.steps) {
    const decision = step.prediction?.decision;
    const next = decision?.ok ? (decision as { next: unknown }).next : undefined;
    const assigned = ASSIGNED[step.kind];
    answers.set(step.id, next && assigned ? { ...(next as object), [assigned]: KNOWN } : assigned ? { [assigned]: KNOWN } : next);
  }
  return answers;
}

/** The field of an answer that the service assigns, by kind of step. */
const ASSIGNED: Partial<Record<Step['kind'], string>> = { 'version.upload': 'versionId', 'item.upload': 'assetItemId' };

export function describeStep(step: Step, answers: ReadonlyMap<string, unknown>): string {
  return KINDS[step.kind].describe(resolveParams(step.params, answers) as never);
}

/**
 * The rules' prediction in words (cli.md "Desired state"): what the request
 * leads to is already in its description ("deploy IOS3 LIVE"), so an
 * accepted request says only that; a refusal names the service's answer.
 */
function prediction(step: Step, kit: Kit): string {
  const decision = step.prediction?.decision;
  if (!decision) return kit.style.dim('(no prediction)');
  if (!decision.ok) return kit.style.red(`(predicted to be refused: ${decision.status} ${(decision as { title?: string }).title ?? ''}`.trimEnd() + ')');
  return kit.style.green('(predicted to succeed)');
}

export function summaryLine(doc: SavedPlan): string {
  return planSummaryLine(doc.steps.length, doc.changes ?? []);
}

/** The plan for a person, rendered from the changes' values: each change, its fields, the request that makes it with its prediction. */
export function renderPlan(doc: SavedPlan, kit: Kit): string {
  const answers = predictedAnswers(doc);
  const byId = new Map(doc.steps.map((step) => [step.id, step]));
  const lines: string[] = [];
  const shown = new Set<string>();
  for (const change of doc.changes ?? []) {
    const symbol = symbolOf(change);
    const colour = symbol === '+' ? kit.style.green : symbol === '-' ? kit.style.red : kit.style.yellow;
    lines.push(`${colour(symbol)} ${kit.style.bold(changeHeader(change))}${change.notes?.length ? kit.style.dim(` (${change.notes.join('; ')})`) : ''}`);
    for (const line of fieldLines(change)) lines.push(`    ${line}`);
    const step = byId.get(change.step);
    if (!step || shown.has(step.id)) continue;
    shown.add(step.id);
    lines.push(kit.style.dim(`      ${describeStep(step, answers)} `) + prediction(step, kit));
  }
  // Steps that change nothing by themselves (the settling of copies), and any saved plan's steps, one by one.
  for (const step of doc.steps.filter((s) => !shown.has(s.id))) lines.push(`~ ${describeStep(step, answers)} ${prediction(step, kit)}`);
  for (const note of doc.notes ?? []) lines.push(kit.style.dim(`note: ${note}`));
  if (lines.length > 0) lines.push('');
  lines.push(summaryLine(doc));
  return lines.join('\n');
}

/** The request each change sends and its prediction, as values (plan --json): refs to an id the service assigns read "(known after apply)". */
export function withRequests(changes: PlannedChange[], stepList: Step[], api: ApiClient): PlannedChange[] {
  const answers = predictedAnswers({ steps: stepList });
  const byId = new Map(stepList.map((step) => [step.id, step]));
  return changes.map((change) => {
    const step = byId.get(change.step);
    if (!step) return change;
    const request = KINDS[step.kind].request(resolveParams(step.params, answers) as never, api);
    const query = Object.fromEntries(Object.entries(request.query ?? {}).map(([key, value]) => [key, String(value)]));
    const decision = step.prediction?.decision;
    const title = decision && !decision.ok ? (decision as { title?: string }).title : undefined;
    return {
      ...change,
      request: { method: request.method, path: request.path.replaceAll(encodeURIComponent(KNOWN), KNOWN), query, body: request.body ?? null },
      prediction: decision ? { ok: decision.ok, status: decision.status, ...(title ? { title } : {}) } : null,
    };
  });
}

export interface AppliedStep {
  /** The change's address (asset.ID, channel.ASSET.PLATFORM.ENV, ...), or the kind of a step that is no change. */
  resource: string;
  action: PlannedChange['action'];
  request: { method: string; path: string; query: Record<string, string>; body: unknown };
  /** unknown: the answer was lost and the read that would tell failed too. */
  outcome: 'done' | 'failed' | 'unknown' | 'not sent';
}

/** What apply() of the desired state resolves to: each request sent and its outcome. */
export interface ApplyResult {
  changed: number;
  steps: AppliedStep[];
  failed: Array<{ resource: string; step: string; error: ErrorBody }>;
  /** The plan's notes (symbolic links skipped, which rule compared, what the file does not manage): said in JSON too. */
  notes: string[];
}

/** Each step's answer where it came, else its predicted one: the ids a later step's refs stand for. */
export function knownAnswers(doc: SavedPlan, results: Results): Map<string, unknown> {
  const known = predictedAnswers(doc);
  for (const step of doc.steps) if (results.has(step)) known.set(step.id, results.of(step));
  return known;
}

/** What an apply did, step by step, from the run's answers. */
export function applyResult(doc: SavedPlan, results: Results, api: ApiClient): ApplyResult {
  const known = knownAnswers(doc, results);
  const result: ApplyResult = { changed: 0, steps: [], failed: [], notes: doc.notes ?? [] };
  for (const step of doc.steps) {
    const change = changeOf(doc, step);
    const request = KINDS[step.kind].request(resolveParams(step.params, known) as never, api);
    const failure = results.failureOf(step);
    const outcome = results.has(step) ? 'done' : !failure || failure.skipped ? 'not sent' : failure.error instanceof OutcomeUnknownError ? 'unknown' : 'failed';
    if (outcome === 'done') result.changed++;
    const query = Object.fromEntries(Object.entries(request.query ?? {}).map(([key, value]) => [key, String(value)]));
    result.steps.push({ resource: change?.address ?? step.kind, action: change?.action ?? 'update', request: { method: request.method, path: request.path, query, body: request.body ?? null }, outcome });
    if (failure) result.failed.push({ resource: change?.address ?? step.kind, step: describeStep(step, known), error: failure.error.toBody() });
  }
  return result;
}

/**
 * What an apply did, for a person (stdout, as `plan` prints the plan): each
 * request with its outcome, then the closing line Terraform prints ("Apply
 * complete! Resources: 1 added, 2 changed, 0 destroyed.").
 */
export function renderApplied(doc: SavedPlan, result: ApplyResult, known: ReadonlyMap<string, unknown>, kit: Kit): string {
  const rows = doc.steps.map((step, index) => ({ ...result.steps[index]!, said: describeStep(step, known) }));
  const outcome = (row: AppliedStep) => (row.outcome === 'done' ? kit.style.green('done') : row.outcome === 'failed' ? kit.style.red('failed') : row.outcome === 'unknown' ? kit.style.yellow('unknown') : 'not sent');
  const table = rows.length
    ? kit.table(
        [
          { header: 'RESOURCE', get: (row: (typeof rows)[number]) => row.resource },
          { header: 'REQUEST', get: (row) => row.said },
          { header: 'OUTCOME', get: (row) => outcome(row) },
        ],
        rows,
      )
    : undefined;
  return [table, appliedLine(doc, result)].filter(Boolean).join('\n');
}

/** "Apply complete: 1 added, 2 changed, 0 removed (5 requests sent)." A resource counts once every request of its change is done. */
function appliedLine(doc: SavedPlan, result: ApplyResult): string {
  if (doc.steps.length === 0) return 'Apply complete: no changes, nothing sent (the service holds what the file says).';
  const done = new Set(doc.steps.filter((_, index) => result.steps[index]?.outcome === 'done').map((step) => step.id));
  const tally = countChanges((doc.changes ?? []).filter((change) => done.has(change.step)));
  const resources = `${tally.create} added, ${tally.change} changed, ${tally.remove} removed`;
  if (result.failed.length === 0) return `Apply complete: ${resources} (${result.changed} request(s) sent).`;
  const count = (outcome: AppliedStep['outcome']) => result.steps.filter((step) => step.outcome === outcome).length;
  const unknown = count('unknown') > 0 ? `, ${count('unknown')} unknown (the answer was lost and could not be checked: ahs plan shows whether it took)` : '';
  return `Apply incomplete: ${resources}; ${result.changed} of ${doc.steps.length} request(s) done, ${count('failed')} failed${unknown}, ${count('not sent')} not sent.`;
}

export function changeOf(doc: SavedPlan, step: Step): PlannedChange | undefined {
  return doc.changes?.find((change) => change.step === step.id);
}
