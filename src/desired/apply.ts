// An apply: the plan document (planned now from the file, or a saved plan
// checked for staleness first) as an ordinary Plan for the one executor,
// which asks, sends step by step and settles lost answers. A run stopped
// half-way is finished by running it again: the next plan holds only what
// is left (every step's decision rests on what the service holds).
import { readFile } from 'node:fs/promises';
import { ExitCode, PartialFailureError, UsageError } from '../errors.js';
import type { ApiClient } from '../http/client.js';
import type { Context } from '../io/context.js';
import type { PlanOutput } from '../plan/context.js';
import { plan, type Plan } from '../plan/plan.js';
import { checkStale, readSavedPlan, type SavedPlan } from '../plan/saved.js';
import { applyResult, changeOf, describeStep, knownAnswers, type ApplyResult } from './render.js';
import { planFile, type DesiredInput } from './plan.js';

export async function readPlanFile(path: string): Promise<SavedPlan> {
  const text = await readFile(path, 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new UsageError(`cannot read the plan ${path}: ${error.code === 'ENOENT' ? 'no such file' : (error.code ?? error.message)}; write one with ahs plan --out ${path}`);
  });
  return readSavedPlan(text, path);
}

/** A saved plan is applied to the service it was made for, and only when nothing it rests on has moved (exit 5). */
export async function checkSavedPlan(doc: SavedPlan, path: string, api: ApiClient, signal: AbortSignal): Promise<void> {
  if (doc.baseUrl !== api.baseUrl || doc.domainId !== api.domainId) {
    throw new UsageError(`${path} was planned for ${doc.baseUrl} (domain ${doc.domainId}), not ${api.baseUrl} (domain ${api.domainId ?? 'none'}); nothing was sent: plan against this service, or select the plan's (--profile, --base-url, --domain)`);
  }
  await checkStale(doc, api, signal);
}

/** What `ahs apply` is given, typed: the file (as `ahs plan`), or the path of a saved plan. */
export interface ApplyInput extends DesiredInput {
  /** A plan saved by `ahs plan --out` (instead of the file): checked for staleness first, then sent as it was saved. */
  plan?: string | undefined;
  /** PLAN, already read (readPlanFile): `ahs apply` reads it before it asks for --yes. */
  saved?: SavedPlan | undefined;
}

/** The plan an apply sends: the saved one, once nothing it read has moved, or the file planned now. */
export async function planToApply(ctx: Context, input: ApplyInput): Promise<SavedPlan> {
  if (input.plan === undefined) return planFile(ctx, input);
  const saved = input.saved ?? (await readPlanFile(input.plan));
  await checkSavedPlan(saved, input.plan, await ctx.api(), ctx.signal);
  return saved;
}

/** What an apply did: its result (cli.md's JSON), the answers its requests are described with, and its failure when a step failed. */
export interface Applied {
  result: ApplyResult;
  /** Each step's answer where it came, else its predicted one (renderApplied describes the requests with them). */
  known: Map<string, unknown>;
  /** Exit 1 (or the code every failed step shares), naming each failed step; thrown once the result is printed. */
  failure?: PartialFailureError;
}

/**
 * The Plan the executor runs: asks once, says each step as its answer comes
 * in (not in JSON), and is done with what the run did, printed by nobody:
 * `ahs apply` prints it, the library answers it (appliedResult).
 */
export function applyPlan(doc: SavedPlan, api: ApiClient, out: PlanOutput): Plan<Applied> {
  // JSON (cli.md "Output"): stdout holds the one document, stderr nothing but an error object: no step lines.
  const said = !out.json;
  const name = (step: Parameters<typeof changeOf>[1]) => changeOf(doc, step)?.address ?? step.kind;
  return plan(
    doc.steps,
    (results): Applied => {
      const result: ApplyResult = applyResult(doc, results, api);
      const known = knownAnswers(doc, results);
      if (result.failed.length === 0) return { result, known };
      const first = result.failed[0]!;
      const failure = new PartialFailureError(
        `applied ${result.changed} of ${doc.steps.length} request(s); failed: ${result.failed.map((f) => `${f.resource}: ${f.step} (${f.error.title})`).join(', ')}; apply again once fixed: it sends only what is left`,
        sharedExitCode(doc.steps.map((step) => results.failureOf(step)?.error.exitCode)),
        out.json ? first.error : undefined,
      );
      return { result, known, failure };
    },
    {
      // A refused deploy or update stops the run: its table and JSON still say what was done.
      finishWhenStopped: true,
      confirm: { message: `Apply ${doc.steps.length} request(s) to ${api.baseUrl} (domain ${api.domainId})?`, action: 'apply' },
      onAnswer: (step, results) => {
        if (!said) return;
        const answers = new Map(doc.steps.filter((s) => results.has(s)).map((s) => [s.id, results.of(s)]));
        out.success(`${name(step)}: ${describeStep(step, answers)}`);
      },
      onFailure: (step, failure) => said && out.warn(`${name(step)}: ${failure.skipped ? 'not sent' : 'failed'}: ${failure.error.message}`),
    },
  );
}

/** The result of an apply, or its failure thrown (the library's apply(): a failed step is an error, as the CLI's exit 1). */
export function appliedResult({ result, failure }: Applied): ApplyResult {
  if (failure) throw failure;
  return result;
}

/** The exit code every failed step has (a lone 403 is 3, network failures only are 6), else 1. */
function sharedExitCode(codes: Array<ExitCode | undefined>): ExitCode {
  const known = new Set(codes.filter((code): code is ExitCode => code !== undefined));
  return known.size === 1 ? [...known][0]! : ExitCode.rejected;
}
