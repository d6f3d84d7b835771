// A plan document for a person, Terraform-like: grouped by resource, `+`
// create, `~` change (field: old → new), `-` remove, each request with the
// rules' prediction; and the outcome of an apply as cli.md's JSON
// ({changed, steps: [{resource, action, request, outcome}], failed}).
import type { Kit } from '../io/output.js';
import type { ApiClient } from '../http/client.js';
import type { ErrorBody } from '../errors.js';
import { resolveParams } from '../plan/execute.js';
import { KINDS } from '../plan/kinds/index.js';
import type { Results, Step } from '../plan/plan.js';
import type { PlannedChange, SavedPlan } from '../plan/saved.js';

const SYMBOL: Record<PlannedChange['action'], string> = { create: '+', update: '~', delete: '-' };

/** The values each step is predicted to answer: a later step's refs shown as the ids they will be. */
function predictedAnswers(doc: SavedPlan): Map<string, unknown> {
  const answers = new Map<string, unknown>();
  for (const step of doc.steps) {
    const decision = step.prediction?.decision;
    answers.set(step.id, decision?.ok ? (decision as { next: unknown }).next : undefined);
  }
  return answers;
}

export function describeStep(step: Step, answers: ReadonlyMap<string, unknown>): string {
  return KINDS[step.kind].describe(resolveParams(step.params, answers) as never);
}

function prediction(step: Step, kit: Kit): string {
  const decision = step.prediction?.decision;
  if (!decision) return kit.style.dim('(not predicted)');
  if (!decision.ok) return kit.style.red(`✗ ${decision.status}: ${(decision as { title?: string }).title ?? 'rejected'}`);
  const next = (decision as { next?: unknown }).next;
  return kit.style.green(`${decision.status}${typeof next === 'string' ? ` ${next}` : ''}`);
}

/** Counts by action, for the summary line and $GITHUB_OUTPUT-style reports. */
export function counts(doc: SavedPlan): Record<PlannedChange['action'], number> {
  const tally = { create: 0, update: 0, delete: 0 };
  for (const change of doc.changes ?? []) tally[change.action]++;
  return tally;
}

export function summaryLine(doc: SavedPlan): string {
  if (doc.steps.length === 0) return 'No changes: the service holds what the file says.';
  const { create, update, delete: remove } = counts(doc);
  return `Plan: ${create} to create, ${update} to change, ${remove} to remove (${doc.steps.length} request(s)).`;
}

export function renderPlan(doc: SavedPlan, kit: Kit): string {
  const answers = predictedAnswers(doc);
  const byId = new Map(doc.steps.map((step) => [step.id, step]));
  const lines: string[] = [];
  const shown = new Set<string>();
  for (const change of doc.changes ?? []) {
    const symbol = SYMBOL[change.action];
    const colour = change.action === 'create' ? kit.style.green : change.action === 'delete' ? kit.style.red : kit.style.yellow;
    lines.push(`${colour(symbol)} ${kit.style.bold(change.resource)}${change.notes?.length ? kit.style.dim(` (${change.notes.join('; ')})`) : ''}`);
    for (const line of change.lines) lines.push(`    ${line}`);
    for (const id of change.steps) {
      const step = byId.get(id);
      if (!step) continue;
      shown.add(id);
      lines.push(kit.style.dim(`      ${describeStep(step, answers)} → `) + prediction(step, kit));
    }
  }
  // A plan that is not a desired-state one (any saved plan) is shown step by step.
  for (const step of doc.steps.filter((s) => !shown.has(s.id))) lines.push(`~ ${describeStep(step, answers)} → ${prediction(step, kit)}`);
  for (const note of doc.notes ?? []) lines.push(kit.style.dim(`note: ${note}`));
  if (lines.length > 0) lines.push('');
  lines.push(summaryLine(doc));
  return lines.join('\n');
}

export interface AppliedStep {
  resource: string;
  action: PlannedChange['action'];
  request: { method: string; path: string; query: Record<string, string>; body: unknown };
  outcome: 'done' | 'failed' | 'not sent';
}

export interface ApplyResult {
  changed: number;
  steps: AppliedStep[];
  failed: Array<{ resource: string; step: string; error: ErrorBody }>;
}

/** What an apply did, step by step, from the run's answers. */
export function applyResult(doc: SavedPlan, results: Results, api: ApiClient): ApplyResult {
  const answers = new Map<string, unknown>();
  for (const step of doc.steps) if (results.has(step)) answers.set(step.id, results.of(step));
  const fallback = predictedAnswers(doc);
  const known = new Map([...fallback, ...answers]);
  const result: ApplyResult = { changed: 0, steps: [], failed: [] };
  for (const step of doc.steps) {
    const change = changeOf(doc, step);
    const request = KINDS[step.kind].request(resolveParams(step.params, known) as never, api);
    const failure = results.failureOf(step);
    const outcome = results.has(step) ? 'done' : failure && !failure.skipped ? 'failed' : 'not sent';
    if (outcome === 'done') result.changed++;
    const query = Object.fromEntries(Object.entries(request.query ?? {}).map(([key, value]) => [key, String(value)]));
    result.steps.push({ resource: change?.resource ?? step.kind, action: change?.action ?? 'update', request: { method: request.method, path: request.path, query, body: request.body ?? null }, outcome });
    if (failure) result.failed.push({ resource: change?.resource ?? step.kind, step: describeStep(step, known), error: failure.error.toBody() });
  }
  return result;
}

export function changeOf(doc: SavedPlan, step: Step): PlannedChange | undefined {
  return doc.changes?.find((change) => change.steps.includes(step.id));
}
