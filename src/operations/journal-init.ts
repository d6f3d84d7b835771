// journal init (cli.md, "Memory"): the journal's collection, marked as a
// journal (its description, and a first entry), and its deployment, as one
// plan, run again after a race with another init (two CI jobs' first runs)
// for what is left. The command (src/commands/journal/init.ts) and the
// library's client.journal.init() parse and render; this is the work.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LIMITS } from '../rules/schemas.js';
import { decideCollectionDeploy, decideItemAdd, type CollectionSnapshot } from '../rules/index.js';
import { ApiError, ConflictError, UsageError } from '../errors.js';
import { readSnapshot, type CollectionView } from '../service/collections.js';
import type { ApiClient } from '../http/client.js';
import { systemClock } from '../http/retry.js';
import { DEPLOY_ENV_NOTE, ITEM_FILE_TYPE_NOTE } from '../plan/kinds/collections.js';
import { ciRunOf, DEFAULT_JOURNAL_ID, describeJournal, entryUpload, isJournalCollection, JOURNAL_ASSET_TYPE, JOURNAL_MARK, newEntry, parseJournalDescription } from '../service/journal.js';
import { plan } from '../plan/plan.js';
import { steps } from '../plan/steps.js';
import type { Plan, Step } from '../plan/plan.js';
import type { PlanContext } from '../plan/context.js';
import { executePlan, type ExecutorContext } from '../plan/execute.js';

export interface JournalInitInput {
  collectionId: string;
  envId: string;
  user: string;
}

/** What journal init did (`ahs journal init --json`; journal.init() resolves to it): created, deployed, whether it raced another init. */
export interface JournalInitResult {
  journal: string;
  envId: string;
  /** This run created the collection. */
  created: boolean;
  /** This run deployed it LIVE in envId. */
  deployed: boolean;
  /** This run sent a write (false: the journal was ready). */
  wrote: boolean;
  /** Another init ran at the same time: this one read it again and did what was left. */
  raced: boolean;
  /** A dry run that found nothing to send (one with writes to send answers undefined). */
  dryRun: boolean;
}

/**
 * Starts (or completes) the journal `collectionId`, read in `envId`.
 * Two CI jobs' first runs may both init the journal at once: the one whose
 * create or deployment comes second is refused (409, or 400 "already
 * LIVE"). A read then shows the other's work (an absent collection or
 * deployment proves nothing; a present one does): the rest is planned
 * again from it, as a run started a moment later would have.
 */
export async function initJournal(ctx: PlanContext & ExecutorContext, input: JournalInitInput): Promise<JournalInitResult | undefined> {
  const { collectionId, envId } = input;
  const api = await ctx.api();
  // The first entry's file (it names the actor and the command line): removed whatever happens.
  const scratch = mkdtempSync(join(tmpdir(), 'ahs-journal-'));
  // What this run did, whichever attempt did it: the report never hides a create or a deployment it sent.
  const did = { created: false, deployed: false, wrote: false };
  try {
    for (let attempt = 1; ; attempt++) {
      if (attempt > 1) await otherInitDone(api, collectionId, envId, ctx.signal);
      const init = await planInit(ctx, { ...input, raced: attempt > 1, entryFile: join(scratch, `entry-${attempt}.json`), did });
      try {
        return await executePlan(init.plan, ctx);
      } catch (error) {
        if (attempt >= 3 || !(error instanceof ApiError || error instanceof ConflictError)) throw error;
        const now = await readSnapshot(api, collectionId);
        // Another run's, not this one's: a create or deployment this run made is no sign of a race.
        const otherRun = (init.creates && !did.created && now.collection !== undefined) || (init.deploys && !did.deployed && now.snapshot?.deployments[envId] === 'LIVE');
        if (!otherRun) throw error;
      }
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

interface InitInput extends JournalInitInput {
  /** Planned again after another run's init came first. */
  raced: boolean;
  /** Where the first entry is written for its upload. */
  entryFile: string;
  /** What this run's attempts did so far (told by each answer). */
  did: { created: boolean; deployed: boolean; wrote: boolean };
}

/** The init from a fresh read: the journal's collection, its first entry and its deployment, whichever are missing. */
async function planInit(ctx: PlanContext, { collectionId, envId, user, raced, entryFile, did }: InitInput): Promise<{ plan: Plan<JournalInitResult>; creates: boolean; deploys: boolean }> {
  const api = await ctx.api();
  const view = await readSnapshot(api, collectionId);
  if (view.snapshot?.deleted) throw new UsageError(`the collection ${collectionId} is deleted: restore it (ahs collection restore ${collectionId}) or name another journal`);
  // A collection of the team's own (a typo, a name taken), empty or not, is never taken over: init
  // would rewrite its description and deploy it. One that says "ahs journal" is one (a racing init's too).
  const itemCount = view.snapshot?.itemCount ?? 0;
  if (view.collection && !isJournalCollection(view.collection)) {
    const holds = itemCount > 0 ? `it holds ${itemCount} item(s) and ` : '';
    throw new UsageError(`the collection ${collectionId} already exists and is not an ahs journal (${holds}its description does not say "${JOURNAL_MARK}"): name another journal, e.g. ahs journal init ${DEFAULT_JOURNAL_ID === collectionId ? 'team-journal' : DEFAULT_JOURNAL_ID}`);
  }
  const links = parseJournalDescription(view.collection?.description);
  // A journal is read where it is LIVE: one that never got there (an init whose environment did not
  // exist) is taken over by the environment given now, rather than left unusable.
  const moved = view.collection !== undefined && links.envId !== undefined && links.envId !== envId;
  if (moved && view.snapshot?.deployments[links.envId!] === 'LIVE') throw new UsageError(`the journal ${collectionId} is read in ${links.envId}, not ${envId}: run again with --env ${links.envId}`);
  const description = describeJournal({ ...links, envId });
  const planned: Step[] = [];
  const created = !view.collection;
  if (created) {
    planned.push(
      steps.collectionCreate({
        collectionId,
        body: { collectionId, collectionName: 'ahs journal', description, allowedAssetTypes: [JOURNAL_ASSET_TYPE], createdBy: user, updatedBy: user },
      }),
    );
  } else if (view.collection!.description !== description) {
    planned.push(steps.collectionUpdate({ collectionId, body: { description, updatedBy: user } }));
  }
  const live = view.snapshot?.deployments[envId] === 'LIVE';
  // A dry run predicts the upload and the deployment after a create from the
  // collection the create would make (the service does not hold it yet), as
  // the desired-state planner does, not from a read that would say "not found".
  // After an upload, the deployment is predicted from the read plus that entry (a collection is
  // deployed only with an item: one half-made, created and never given its entry, has none yet).
  let made: CollectionSnapshot | undefined = created
    ? { collectionId, deleted: false, deployable: true, editable: true, itemCount: 0, maxAssets: LIMITS.maxAssetsCeiling, deployments: {} }
    : view.snapshot;
  if ((view.snapshot?.itemCount ?? 0) === 0 || moved) {
    // The first entry: the journal's own start (a collection is deployed only with an item); again
    // when it is taken over, so that the entries say where it went LIVE.
    const doc = newEntry({
      command: 'journal init',
      arguments: ctx.run?.arguments.map((word) => ctx.redactor.redact(word)) ?? [],
      actor: user,
      ...(ciRunOf(ctx.io.env) ? { ci: ciRunOf(ctx.io.env) } : {}),
      // Its deployment is not among the changes: the entry is uploaded before it (a collection is
      // deployed only with an item), and a deployment the service then refuses (an environment that
      // does not exist) would stay in the journal as applied. The description names where it is read.
      changes: [{ address: `collection.${collectionId}`, before: view.collection ? { description: view.collection.description ?? null } : null, after: { description } }],
      outcome: 'applied',
      exitCode: 0,
    });
    // The v2 entry: its file's name carries it, as every entry's (src/service/journal-format.ts).
    const entry = entryUpload(doc);
    writeFileSync(entryFile, entry.content);
    const upload = {
      collectionId,
      fields: { assetItemName: entry.assetItemName, assetType: JOURNAL_ASSET_TYPE, createdBy: user },
      file: { path: entryFile, name: entry.fileName, label: 'the journal\'s first entry', size: Buffer.byteLength(entry.content) },
    };
    const decision = decideItemAdd(collectionId, made, { assetType: JOURNAL_ASSET_TYPE, allowedAssetTypes: [JOURNAL_ASSET_TYPE] });
    planned.push(steps.itemUpload(upload, { prediction: { current: null, decision, notes: [ITEM_FILE_TYPE_NOTE] } }));
    if (decision.ok && made) made = { ...made, itemCount: decision.next.itemCount };
  }
  if (!live) {
    const deploy = { collectionId, user, state: 'LIVE' as const, envId };
    const decision = decideCollectionDeploy(collectionId, made, { state: 'LIVE', envId, createdBy: user, updatedBy: user });
    planned.push(steps.collectionDeploy(deploy, { prediction: { current: view.snapshot?.deployments[envId] ?? null, decision, notes: [DEPLOY_ENV_NOTE] } }));
  }
  const initPlan = plan(
    planned,
    async () => {
      if (did.wrote) await notSplit(api, collectionId, envId, view);
      return { journal: collectionId, envId, created: did.created, deployed: did.deployed, wrote: did.wrote, raced, dryRun: ctx.globals.dryRun === true };
    },
    {
      // Its first entry is its own upload: the executor appends nothing after it.
      journal: { record: false },
      // The journal is not content, and change control keeps its record there: a lock or a freeze of the
      // environment never stands between a team and its memory (a frozen prod still gets its journal).
      control: { skip: true },
      onAnswer: (step) => {
        did.wrote = true;
        if (step.kind === 'collection.create') did.created = true;
        if (step.kind === 'collection.deploy') did.deployed = true;
      },
    },
  );
  return { plan: initPlan, creates: created, deploys: !live };
}

/**
 * After this run's writes: the journal is still read in `envId` and LIVE in no
 * environment it was not LIVE in at the read. Two inits at once for two
 * environments (a dev job and a prod job) can otherwise leave it LIVE in both,
 * each job told it is ready; the one that finds it so says so (exit 5) rather
 * than report a journal that its next run would refuse.
 */
async function notSplit(api: ApiClient, collectionId: string, envId: string, before: CollectionView): Promise<void> {
  const after = await readSnapshot(api, collectionId);
  const readIn = parseJournalDescription(after.collection?.description).envId;
  const liveIn = Object.entries(after.snapshot?.deployments ?? {}).filter(([, state]) => state === 'LIVE').map(([env]) => env);
  const newly = liveIn.filter((env) => env !== envId && before.snapshot?.deployments[env] !== 'LIVE');
  if (readIn === envId && newly.length === 0) return;
  const others = [...new Set([...newly, ...(readIn && readIn !== envId ? [readIn] : [])])];
  throw new ConflictError(
    `another run initialised the journal ${collectionId} for ${others.join(' and ')} at the same time as this one for ${envId}: it is now LIVE in ${liveIn.join(' and ') || 'no environment'} and read in ${readIn ?? 'none'}; keep one environment (ahs collection undeploy ${collectionId} --env ENV for the other) and run ahs journal init ${collectionId} --env ENV again`,
  );
}

/**
 * After a race: the other run's init, given up to 5 s to get its first entry
 * in and its deployment done, so that this one plans what is left rather
 * than a second "journal init" entry of a change it did not make. A run
 * that died halfway leaves it to this one after the wait.
 */
async function otherInitDone(api: ApiClient, collectionId: string, envId: string, signal: AbortSignal): Promise<void> {
  for (const start = Date.now(); Date.now() - start < 5_000; await systemClock.sleep(200, signal)) {
    const view = await readSnapshot(api, collectionId);
    const ours = parseJournalDescription(view.collection?.description).envId === envId;
    if (!ours || ((view.snapshot?.itemCount ?? 0) > 0 && view.snapshot?.deployments[envId] === 'LIVE')) return;
  }
}
