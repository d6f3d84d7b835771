// The executor's one hook (src/plan/execute.ts): after a real run whose
// outcome is applied or unknown, one journal entry listing what the run
// changed, in the shared address scheme. A failed append never changes the
// command's outcome or exit code: it is one warning line naming what was
// not recorded (and a ::warning under GitHub Actions).
import type { PlanContext } from './context.js';
import { AhsError, OutcomeUnknownError } from '../errors.js';
import type { Plan, Results, Step } from './plan.js';
import { workflowCommand } from '../util/workflow-command.js';
import { appendEntry, ciRunOf, JOURNAL_API_VERSION, type Change, type EntryDocument } from '../service/journal.js';
import type { RolloutField } from '../service/rollout-journal.js';
import { isByAnother } from './answers.js';

/** What the hook needs of a context: all optional, so that a context without settings (a test's) records nothing. */
export type RecordingContext = Pick<PlanContext, 'output' | 'io'> & Partial<Pick<PlanContext, 'settings' | 'api' | 'deliveryClient' | 'signal' | 'run' | 'redactor'>>;

type P = Record<string, any>;
type A = any;

/** The change one answered (or unknown) step made; undefined for a step that changes nothing a person tracks. */
export function changeOf(step: Step, answer: A, answered: boolean): Change | undefined {
  const p = step.params as P;
  switch (step.kind) {
    case 'version.upload': {
      const after = answered
        ? { versionId: answer?.versionId ?? null, versionName: answer?.versionName ?? p.fields?.versionName, platform: p.platform, fileName: answer?.fileName ?? p.file?.name, size: answer?.size ?? p.file?.size }
        : { versionId: null, versionName: p.fields?.versionName, platform: p.platform, fileName: p.file?.name, size: p.file?.size };
      return { address: `version.${p.assetId}.${after.versionId ?? '(known after apply)'}`, before: null, after, ...(after.versionId ? {} : { unknownAfter: ['versionId'] }) };
    }
    case 'version.delete':
      return { address: `version.${p.assetId}.${p.versionId}`, before: { versionId: p.versionId }, after: null };
    case 'version.deploy': {
      const versionId = answer?.assetVersion?.versionId ?? p.versionId;
      // The record as the command read it, or as the executor's prediction read it.
      const predicted = step.prediction?.current;
      const read = p.channel !== undefined || predicted !== undefined;
      const before = p.channel?.records?.[versionId] ?? (typeof predicted === 'string' ? predicted : null);
      return {
        address: `channel.${p.assetId}.${p.platform}.${p.body?.envId}`,
        before: { version: versionId, state: before },
        after: { version: versionId, state: answer?.assetVersion?.state ?? p.body?.intent ?? null },
        // A deploy that read nothing before sending (ahs deploy) does not know the state it replaced.
        ...(read ? {} : { unknownBefore: ['state'] }),
      };
    }
    case 'version.promote': {
      const previous = answer?.previousDefault !== undefined ? answer.previousDefault : (Object.entries((p.channel?.records ?? {}) as Record<string, string>).find(([, s]) => s === 'DEFAULT')?.[0] ?? null);
      return { address: `channel.${p.assetId}.${p.platform}.${p.envId}`, before: { default: previous }, after: { default: answer?.assetVersion?.versionId ?? p.versionId } };
    }
    case 'asset.create':
      return { address: `asset.${p.body?.assetId}`, before: null, after: answer ?? p.body };
    case 'asset.update': {
      // The fields that change (a PUT sends them all).
      const keys = Object.keys(p.body ?? {}).filter((key) => key !== 'updatedBy' && (!p.before || JSON.stringify(p.before[key]) !== JSON.stringify(p.body[key])));
      return { address: `asset.${p.assetId}`, before: p.before ? pick(p.before, keys) : null, after: pick(p.body ?? {}, keys) };
    }
    case 'asset.delete':
      return { address: `asset.${p.assetId}`, before: { assetId: p.assetId }, after: null };
    case 'asset.undeploy':
      return { address: `asset.${p.assetId}.deployments.${p.body?.envId}`, before: { records: (p.records ?? []).map((r: P) => ({ versionId: r.versionId, platform: r.targetPlatform, state: r.state })) }, after: { records: [] } };
    case 'collection.create':
      return { address: `collection.${p.collectionId}`, before: null, after: answer ?? p.body };
    case 'collection.update':
      return { address: `collection.${p.collectionId}`, before: null, after: p.body };
    case 'collection.delete':
      return { address: `collection.${p.collectionId}`, before: { deleted: false }, after: { deleted: true } };
    case 'collection.restore':
      return { address: `collection.${p.collectionId}`, before: { deleted: true }, after: { deleted: false } };
    case 'collection.purge':
      return { address: `collection.${p.collectionId}`, before: { deleted: true }, after: null };
    case 'collection.deploy':
      return { address: `collection.${p.collectionId}.deployment.${p.envId ?? '(the key\'s environment)'}`, before: null, after: { state: p.state } };
    case 'collection.undeploy':
      return { address: `collection.${p.collectionId}.deployment.${p.envId}`, before: { state: 'LIVE' }, after: { state: null } };
    case 'collection.reconcile':
      return { address: `collection.${p.collectionId}.deployment.*`, before: { state: 'LIVE' }, after: { state: 'LIVE' } };
    case 'item.upload':
      return {
        address: `item.${p.collectionId}.${p.fields?.assetItemName}`,
        before: null,
        after: { itemId: answer?.assetItemId ?? null, size: answer?.size ?? p.file?.size },
        ...(answered ? {} : { unknownAfter: ['itemId'] }),
      };
    case 'item.remove':
      return { address: `item.${p.collectionId}.${p.name ?? p.itemId}`, before: { itemId: p.itemId }, after: null };
    default:
      return undefined;
  }
}

function pick(value: P, keys: string[]): P {
  return Object.fromEntries(keys.map((key) => [key, value[key] ?? null]));
}

/** The changes of a run: each answered step's, then each step whose outcome is unknown. */
export function changesOf(steps: Step[], results: Results): { changes: Change[]; unknown: boolean } {
  const changes: Change[] = [];
  let unknown = false;
  for (const step of steps) {
    const failure = results.failureOf(step);
    const isUnknown = failure?.error instanceof OutcomeUnknownError;
    if (!results.has(step) && !isUnknown) continue;
    // Another writer's identical change, found made: its entry is that writer's.
    if (results.has(step) && isByAnother(results.of(step))) continue;
    unknown ||= isUnknown;
    const change = changeOf(step, results.of(step), results.has(step));
    if (change) changes.push(change);
  }
  return { changes, unknown };
}

/**
 * Runs `work` (the steps and the plan's done), then records the run in the
 * journal when one is set and something was applied or may have been; then
 * ends as `work` did.
 */
export async function journaled(ctx: RecordingContext, plan: Plan, results: () => Results, work: () => Promise<void>): Promise<void> {
  let failed = false;
  let failure: unknown;
  try {
    await work();
  } catch (error) {
    failed = true;
    failure = error;
  }
  const exitCode = !failed ? 0 : failure instanceof AhsError ? failure.exitCode : 1;
  await recordRun(ctx, plan, results(), { exitCode, unknown: failure instanceof OutcomeUnknownError });
  if (failed) throw failure;
}

async function recordRun(ctx: RecordingContext, plan: Plan, results: Results, end: { exitCode: number; unknown: boolean }): Promise<void> {
  if (!ctx.settings || !ctx.api || plan.journal?.record === false) return;
  let journalId: string | undefined;
  let actor: string | undefined;
  try {
    const settings = await ctx.settings();
    journalId = settings.get('journal');
    actor = settings.get('user');
  } catch {
    return;
  }
  if (!journalId) return;
  const { changes, unknown } = changesOf(plan.steps, results);
  if (changes.length === 0 && !unknown && !end.unknown) return;
  const command = plan.journal?.command ?? ctx.run?.command ?? 'write';
  const given = plan.journal?.rollout;
  const rollout = typeof given === 'function' ? given(results) : given;
  const doc = entryDocument(ctx, { command, arguments: plan.journal?.arguments, actor, changes, outcome: unknown || end.unknown ? 'unknown' : 'applied', exitCode: end.exitCode, rollout: rollout as RolloutField | undefined });
  await append(ctx, journalId, doc, changes.map((c) => c.address).join(', ') || 'its outcome');
}

function entryDocument(ctx: RecordingContext, d: { command: string; arguments?: string[] | undefined; actor: string | undefined; changes: Change[]; outcome: 'applied' | 'unknown'; exitCode: number; rollout?: RolloutField | undefined }): EntryDocument {
  return {
    apiVersion: JOURNAL_API_VERSION,
    command: d.command,
    arguments: (d.arguments ?? ctx.run?.arguments ?? []).map((arg) => ctx.redactor?.redact(arg) ?? arg),
    actor: d.actor ?? '',
    ...(ciRunOf(ctx.io.env) ? { ci: ciRunOf(ctx.io.env) } : {}),
    changes: d.changes,
    outcome: d.outcome,
    exitCode: d.exitCode,
    ...(d.rollout ? { rollout: d.rollout as unknown as Record<string, unknown> } : {}),
  };
}

/** Appends `doc`; a refusal is one warning naming what was not recorded (`what`), and false. */
async function append(ctx: RecordingContext, journalId: string, doc: EntryDocument, what: string): Promise<boolean> {
  const out = await ctx.output();
  try {
    if (!doc.actor) throw new Error('no acting user (--user) to record it as');
    await appendEntry(ctx as PlanContext, journalId, doc);
    return true;
  } catch (error) {
    const reason = (error as Error).message;
    const text = `the journal ${journalId} did not record this ${doc.command} (${what}): ${reason.replace(/[.\s]+$/, '')}; ahs profile check says whether the journal is reachable`;
    out.warn(text);
    if (ctx.io.env.GITHUB_ACTIONS === 'true') ctx.io.err.write(workflowCommand('warning', { title: 'ahs journal' }, ctx.redactor?.redact(text) ?? text));
    return false;
  }
}

/**
 * A rollout's entry that no write of the executor carries (an intent before
 * a promotion, a promotion recorded by a later run, a failed check, a
 * resume, a supersede), appended on its own: true when the journal took it
 * (a refusal is warned, as the executor's). The change-control seam: a
 * rollout's lock, when rollouts take one, is checked by the executor
 * before the wave's plan; these entries are records, not writes.
 */
export async function recordRolloutEvent(ctx: RecordingContext, journalId: string, rollout: RolloutField, exitCode = 0, changes: Change[] = []): Promise<boolean> {
  let actor: string | undefined;
  try {
    actor = (await ctx.settings?.())?.get('user');
  } catch {
    actor = undefined;
  }
  const doc = entryDocument(ctx, { command: ctx.run?.command ?? 'rollout', actor, changes, outcome: 'applied', exitCode, rollout });
  return append(ctx, journalId, doc, `${rollout.action} of ${rollout.wave}`);
}

/** The plan, its journal entry carrying the rollout field (or the field made from the run's results). */
export function appendRolloutEntry(plan: Plan, rollout: RolloutField | ((results: Results) => RolloutField)): Plan {
  return { ...plan, journal: { ...plan.journal, rollout: (results: Results) => ({ ...(typeof rollout === 'function' ? rollout(results) : rollout) }) } };
}
