// The executor's one hook (src/plan/execute.ts): after a real run whose
// outcome is applied or unknown, one journal entry listing what the run
// changed, in the shared address scheme, with the values the service held
// (`before` read before the write, `after` what it holds after; an update
// names only the fields it changed). A change another run had already made
// (the answer says so: ./answers.ts's byAnother) is not this run's: it records nothing
// for it. Only a marked journal is appended to (src/service/journal.ts's
// journalMark): its collection is read beside the run's writes, so the
// check costs no round. A failed append never changes the command's
// outcome or exit code: it is one warning line naming what was not
// recorded (and a ::warning under GitHub Actions); no warning is printed
// for an entry that was stored.
import type { PlanContext } from './context.js';
import { AhsError, OutcomeUnknownError } from '../errors.js';
import type { Plan, Results, Step } from './plan.js';
import type { ApiClient } from '../http/client.js';
import type { Collection } from '../rules/schemas.js';
import { workflowCommand } from '../util/workflow-command.js';
import { escapeControls } from '../util/escape.js';
import { readCollection } from '../service/collections.js';
import { appendEntry, ciRunOf, journalMark, newEntry, type Change, type EntryDocumentV2 } from '../service/journal.js';
import { journalChoice, type JournalChoice } from '../service/journal-setting.js';
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
      return { address: `version.${p.assetId}.${after.versionId ?? '(known after apply)'}`, before: null, after: defined(after), ...(after.versionId ? {} : { unknownAfter: ['versionId'] }) };
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
        ...(answered ? {} : { unknownAfter: ['state'] }),
      };
    }
    case 'version.promote': {
      const previous = answer?.previousDefault !== undefined ? answer.previousDefault : (Object.entries((p.channel?.records ?? {}) as Record<string, string>).find(([, s]) => s === 'DEFAULT')?.[0] ?? null);
      return { address: `channel.${p.assetId}.${p.platform}.${p.envId}`, before: { default: previous }, after: { default: answer?.assetVersion?.versionId ?? p.versionId }, ...(answered ? {} : { unknownAfter: ['default'] }) };
    }
    case 'asset.create':
      return { address: `asset.${p.body?.assetId}`, before: null, after: defined(answered && answer ? { ...answer, ...(p.body?.description !== undefined ? { description: p.body.description } : {}) } : p.body) };
    case 'asset.update':
      return { address: `asset.${p.assetId}`, ...fieldChanges(p.before, p.body, 'updatedBy', ['description']) };
    case 'asset.delete':
      return { address: `asset.${p.assetId}`, before: { assetId: p.assetId }, after: null };
    case 'asset.undeploy':
      return { address: `asset.${p.assetId}.deployments.${p.body?.envId}`, before: { records: (p.records ?? []).map((r: P) => ({ versionId: r.versionId, platform: r.targetPlatform, state: r.state })) }, after: { records: [] } };
    case 'collection.create':
      return { address: `collection.${p.collectionId}`, before: null, after: defined(answered && answer ? answer : p.body) };
    case 'collection.update': {
      const predicted = step.prediction?.current;
      // The collection as the command read it, or the fields the desired state's plan read.
      const before = p.before ?? (predicted && typeof predicted === 'object' ? predicted : undefined);
      return { address: `collection.${p.collectionId}`, ...fieldChanges(before, p.body, 'updatedBy') };
    }
    case 'collection.delete':
      return { address: `collection.${p.collectionId}`, before: { deleted: false }, after: { deleted: true } };
    case 'collection.restore':
      return { address: `collection.${p.collectionId}`, before: { deleted: true }, after: { deleted: false } };
    case 'collection.purge':
      return { address: `collection.${p.collectionId}`, before: { deleted: true }, after: null };
    case 'collection.deploy': {
      const predicted = step.prediction?.current;
      return {
        address: `collection.${p.collectionId}.deployment.${p.envId ?? '(the key\'s environment)'}`,
        before: typeof predicted === 'string' || predicted === null ? { state: predicted } : null,
        after: { state: p.state },
        ...(predicted === undefined ? { unknownBefore: ['state'] } : {}),
      };
    }
    case 'collection.undeploy':
      return { address: `collection.${p.collectionId}.deployment.${p.envId}`, before: { state: 'LIVE' }, after: { state: null } };
    case 'collection.reconcile':
      return { address: `collection.${p.collectionId}.deployment.*`, before: { state: 'LIVE' }, after: { state: 'LIVE' } };
    case 'item.upload':
      return {
        address: `item.${p.collectionId}.${p.fields?.assetItemName}`,
        before: null,
        after: defined({ itemId: answer?.assetItemId ?? null, size: answer?.size ?? p.file?.size }),
        ...(answered ? {} : { unknownAfter: ['itemId'] }),
      };
    case 'item.remove':
      return { address: `item.${p.collectionId}.${p.name ?? p.itemId}`, before: { itemId: p.itemId }, after: null };
    case 'api.request':
      return rawRequestChange(p, answered);
    default:
      return undefined;
  }
}

/**
 * `ahs api`'s write (or the library's request()): the request as sent, the
 * body as JSON text of at most 2,000 characters; what it changed is the
 * service's to say, so `after` is the request and `answer` is unknown when
 * no answer came.
 */
function rawRequestChange(p: P, answered: boolean): Change {
  const text = p.body === undefined ? undefined : JSON.stringify(p.body);
  const query = p.query && Object.keys(p.query).length > 0 ? { query: JSON.stringify(p.query) } : {};
  const body = text !== undefined ? { body: text.length > 2000 ? `${text.slice(0, 2000)}…` : text } : {};
  return { address: `request.${p.method}`, before: null, after: { method: p.method, path: p.path, ...query, ...body }, ...(answered ? {} : { unknownAfter: ['answer'] }) };
}

/** The value without its undefined fields (a change never holds an undefined, nor a null it did not read). */
function defined(value: P | null | undefined): P | null {
  if (!value || typeof value !== 'object') return null;
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));
}

/**
 * An update's change, field by field: the fields the body sets to another
 * value than `before` held (an unchanged field is absent, never null).
 * `unread`: fields the service never answers (an asset's description):
 * their before is unknown, named in unknownBefore. Without `before` (a
 * write that read nothing first), every field sent, before unknown.
 */
function fieldChanges(before: P | undefined, body: P | undefined, skip: string, unread: string[] = []): Pick<Change, 'before' | 'after' | 'unknownBefore'> {
  const sent = Object.entries(body ?? {}).filter(([key, value]) => key !== skip && value !== undefined);
  const changed = before ? sent.filter(([key, value]) => unread.includes(key) || JSON.stringify(before[key]) !== JSON.stringify(value)) : sent;
  // The asset type is required by every PUT: it changes only when it differs.
  const keys = changed.map(([key]) => key);
  if (!before) return { before: null, after: Object.fromEntries(changed), ...(keys.length ? { unknownBefore: keys } : {}) };
  const unknown = keys.filter((key) => unread.includes(key) || before[key] === undefined);
  return {
    before: Object.fromEntries(keys.filter((key) => !unknown.includes(key)).map((key) => [key, before[key]])),
    after: Object.fromEntries(changed),
    ...(unknown.length ? { unknownBefore: unknown } : {}),
  };
}

/** The changes of a run: each answered step's (not one another run had made), then each step whose outcome is unknown. */
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
    // An update that changed nothing (every field as it was) is no change.
    if (change && !(change.before && change.after && Object.keys(change.after).length === 0)) changes.push(change);
  }
  return { changes, unknown };
}

/** The journal this run appends to, and its collection, read beside the run's writes. */
interface JournalCheck {
  choice: JournalChoice;
  collection: Promise<{ collection?: Collection; error?: unknown }>;
}

/** Starts the read of the run's journal (none when turned off, or for a context without settings). */
async function checkJournal(ctx: RecordingContext, plan: Plan): Promise<JournalCheck | undefined> {
  if (!ctx.settings || !ctx.api || plan.journal?.record === false) return undefined;
  try {
    const choice = journalChoice(await ctx.settings());
    if (!choice.id) return undefined;
    const api = await ctx.api();
    const id = choice.id;
    return {
      choice,
      collection: readCollection(api, id).then(
        (collection) => ({ collection }),
        (error: unknown) => ({ error }),
      ),
    };
  } catch {
    return undefined;
  }
}

/**
 * Runs `work` (the steps and the plan's done), then records the run in the
 * journal when one is in use and something was applied or may have been;
 * then ends as `work` did.
 */
export async function journaled(ctx: RecordingContext, plan: Plan, results: () => Results, work: () => Promise<void>): Promise<void> {
  const check = checkJournal(ctx, plan);
  let failed = false;
  let failure: unknown;
  try {
    await work();
  } catch (error) {
    failed = true;
    failure = error;
  }
  const exitCode = !failed ? 0 : failure instanceof AhsError ? failure.exitCode : 1;
  const unknown = failure instanceof AhsError && failure.outcome === 'unknown';
  await recordRun(ctx, plan, results(), await check, { exitCode, unknown });
  if (failed) throw failure;
}

/** A client for the append: the run's, or (after Ctrl-C, whose signal aborts it) one short-lived beside it. */
async function appendClient(ctx: RecordingContext): Promise<{ api: ApiClient; done: () => Promise<void> }> {
  const api = await ctx.api!();
  if (!ctx.signal?.aborted) return { api, done: async () => undefined };
  const detached = api.detached(APPEND_AFTER_INTERRUPT_MS);
  return { api: detached, done: () => detached.destroy() };
}

/** How long the append of an interrupted run may take: the person asked to stop. */
const APPEND_AFTER_INTERRUPT_MS = 3000;

async function recordRun(ctx: RecordingContext, plan: Plan, results: Results, check: JournalCheck | undefined, end: { exitCode: number; unknown: boolean }): Promise<void> {
  if (!check) return;
  const { changes, unknown } = changesOf(plan.steps, results);
  if (changes.length === 0 && !unknown && !end.unknown) return;
  const command = plan.journal?.command ?? ctx.run?.command ?? 'write';
  const given = plan.journal?.rollout;
  const rollout = typeof given === 'function' ? given(results) : given;
  await recordEntry(ctx, check, {
    command,
    arguments: plan.journal?.arguments ?? ctx.run?.arguments ?? [],
    changes,
    outcome: unknown || end.unknown ? 'unknown' : 'applied',
    exitCode: end.exitCode,
    ...(rollout ? { rollout: rollout as unknown as RolloutField } : {}),
    ...(plan.journal?.control ? { control: plan.journal.control } : {}),
  });
}

/** What a writer outside the executor records (ahs api): the entry's own fields. */
export interface EntryFields {
  command: string;
  arguments: string[];
  changes: Change[];
  outcome: 'applied' | 'unknown';
  exitCode: number;
  rollout?: RolloutField;
  control?: EntryDocumentV2['control'];
}

/**
 * Appends one entry to the run's journal, when it is one (marked): a
 * collection that is not, named by a setting, is left untouched with one
 * warning naming the setting; the domain's ahs-journal that is not there
 * (no setting) is no journal, silently. Never throws.
 */
async function recordEntry(ctx: RecordingContext, check: JournalCheck, fields: EntryFields): Promise<boolean> {
  const { choice } = check;
  const journalId = choice.id!;
  const out = await ctx.output();
  const warn = (text: string) => {
    const safe = escapeControls(ctx.redactor?.redact(text) ?? text);
    out.warn(safe);
    if (ctx.io.env.GITHUB_ACTIONS === 'true') ctx.io.err.write(workflowCommand('warning', { title: 'ahs journal' }, safe));
  };
  const what = `this ${fields.command} (${fields.changes.map((c) => c.address).join(', ') || 'its outcome'})`;
  let actor: string | undefined;
  let client: Awaited<ReturnType<typeof appendClient>> | undefined;
  try {
    actor = (await ctx.settings!()).get('user');
    client = await appendClient(ctx);
    let { collection, error } = await check.collection;
    // The read beside the writes was cut by the interrupt: read again, briefly.
    if (error !== undefined && ctx.signal?.aborted) ({ collection, error } = await readCollection(client.api, journalId).then((c) => ({ collection: c, error: undefined }), (e: unknown) => ({ collection: undefined, error: e })));
    if (error !== undefined) throw error;
    const mark = journalMark(journalId, collection);
    if (!mark.marked) {
      if (choice.source === 'default') return false;
      warn(`${what} was not recorded: the journal setting (${choice.setting}) names ${journalId}, and ${mark.why.replace(/^the collection /, 'the collection ')}; nothing was added to it. Start a journal with \`ahs journal init\`, or fix ${choice.setting.startsWith('profile') ? 'the profile\'s key journal' : choice.setting}`);
      return false;
    }
    if (!actor) throw new Error('no acting user (--user) to record it as');
    const doc = newEntry({
      ...fields,
      arguments: fields.arguments.map((arg) => ctx.redactor?.redact(arg) ?? arg),
      actor,
      ...(ciRunOf(ctx.io.env) ? { ci: ciRunOf(ctx.io.env) } : {}),
    });
    const journalCtx = { ...(ctx as PlanContext), api: async () => client!.api };
    await appendEntry(journalCtx, journalId, doc, collection);
    return true;
  } catch (error) {
    const reason = (error as Error).message;
    warn(`the journal ${journalId} did not record ${what}: ${reason.replace(/[.\s]+$/, '')}; ahs profile check says whether the journal is reachable`);
    return false;
  } finally {
    await client?.done().catch(() => undefined);
  }
}

/**
 * Records one write made outside the executor (`ahs api`'s raw request) in
 * the run's journal, by the same rules. `start` reads the journal's
 * collection beside the write: call it before sending.
 */
export function startRecording(ctx: RecordingContext): { record(fields: EntryFields): Promise<void> } {
  const check = checkJournal(ctx, { steps: [], done: async () => undefined } as unknown as Plan);
  return {
    async record(fields) {
      const started = await check;
      if (started) await recordEntry(ctx, started, fields);
    },
  };
}

/**
 * A rollout's entry that no write of the executor carries (an intent before
 * a promotion, a promotion recorded by a later run, a failed check, a
 * resume, a supersede), appended on its own to `journalId`, by the same
 * rules (a marked journal only): true when the journal took it (a refusal
 * is warned, as the executor's). The change-control seam: a rollout's
 * lock, when rollouts take one, is checked by the executor before the
 * wave's plan; these entries are records, not writes.
 */
export async function recordRolloutEvent(ctx: RecordingContext, journalId: string, rollout: RolloutField, exitCode = 0, changes: Change[] = [], known?: Collection): Promise<boolean> {
  if (!ctx.settings || !ctx.api) return false;
  let choice: JournalChoice;
  try {
    choice = { ...journalChoice(await ctx.settings()), id: journalId };
  } catch {
    return false;
  }
  const api = await ctx.api();
  // The journal's collection as the run read it just before (a rollout's read of its entries): its mark and its
  // continuation are not read again, the append going straight out (a round less before a promotion).
  const collection = known
    ? Promise.resolve({ collection: known })
    : readCollection(api, journalId).then(
        (found) => ({ collection: found }),
        (error: unknown) => ({ error }),
      );
  return recordEntry(ctx, { choice, collection }, { command: ctx.run?.command ?? 'rollout', arguments: ctx.run?.arguments ?? [], changes, outcome: 'applied', exitCode, rollout });
}

/** The plan, its journal entry carrying the rollout field (or the field made from the run's results). */
export function appendRolloutEntry(plan: Plan, rollout: RolloutField | ((results: Results) => RolloutField)): Plan {
  return { ...plan, journal: { ...plan.journal, rollout: (results: Results) => ({ ...(typeof rollout === 'function' ? rollout(results) : rollout) }) } };
}
