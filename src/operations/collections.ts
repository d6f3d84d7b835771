// The collection writes as operations (issue 34): typed input, already
// resolved (no prompt, no setting read here), a Plan whose `done` is the
// typed result: exactly the JSON document `ahs collection create|update|
// delete|restore|purge|undeploy` and `ahs collection-deploy` print. The
// commands ask for what is missing and print; the library's
// client.collections.* call the same functions.
import { UsageError } from '../errors.js';
import { COLLECTION_REFUSED_UPDATE_FIELDS, decideCollectionDeploy, decideCollectionPurge, decideCollectionUpdate, liveEnvironments, resolveCollectionDeployEnv, type Decision } from '../rules/index.js';
import { collectionCreateBody, collectionUpdateBody, type Collection } from '../rules/schemas.js';
import { historyErased } from '../service/journal.js';
import { currentOf, itemParents, readSnapshot } from '../service/collections.js';
import { noop, plan, type Plan } from '../plan/plan.js';
import { steps } from '../plan/steps.js';
import { DEPLOY_ENV_NOTE, type CollectionDeployParams, type DeployAnswer } from '../plan/kinds/collections.js';
import type { PlanContext } from '../plan/context.js';
import { validateInput, type FieldNames } from './validate.js';

/** What a write that answers with a message resolves to (delete, restore, purge, undeploy, reconcile). */
export type CollectionMessage = { message: string };

export interface CollectionCreateInput {
  collectionId: string;
  collectionName: string;
  /** Type codes, as given (each trimmed, empty ones left out). */
  allowedAssetTypes: string[];
  description?: string | undefined;
  maxAssets?: number | undefined;
  /** false: items cannot be added or removed. Default true. */
  editable?: boolean | undefined;
  /** false: the collection cannot be deployed. Default true. */
  deployable?: boolean | undefined;
  anchorAsset?: string | undefined;
  /** false: delivered without an API key. Default true. */
  secured?: boolean | undefined;
  localCacheControl?: boolean | undefined;
  localCacheMaxAge?: number | undefined;
  /** The collection's platform (permanent); absent: the service's default (generic). */
  platform?: string | undefined;
  /** Where a platform nobody typed for this write came from (an environment variable, a profile): said in a note, since it can never change. */
  platformFrom?: string | undefined;
  /** The acting user (createdBy, updatedBy). */
  user: string;
}

/** The line `ahs collection create` prints on stderr once the collection is made, and the library's onMessage hears. */
export function collectionCreatedLine(collectionId: string): string {
  return `created collection ${collectionId}; add files with: ahs item upload ${collectionId} FILE... --type CODE`;
}

/** The line `ahs collection update` prints on stderr once the collection is updated (changes: the fields sent), and the library's onMessage hears. */
export function collectionUpdatedLine(collectionId: string, changes: string[]): string {
  return `updated collection ${collectionId} (${changes.join(', ')})`;
}

/**
 * The line `ahs collection-deploy` prints on stderr once the collection is
 * LIVE, and the library's onMessage hears: with a fetch command that works as
 * printed. Without an environment named (an environment-scoped key deployed
 * to its own), `ahs fetch COLLECTION_ID` would stop for want of --env, which
 * the CLI cannot see: the deployed URL says it all.
 */
export function collectionLiveLine(collectionId: string, envId: string | undefined, downloadUrl: string): string {
  const fetch = envId ? `ahs fetch ${shellWord(collectionId)} --env ${shellWord(envId)}` : `ahs fetch --url ${shellWord(downloadUrl)}`;
  return `collection ${collectionId} is LIVE${envId ? ` in ${envId}` : ''}; fetch it with: ${fetch}`;
}

/** A word the shell reads back unchanged: bare when safe, else single-quoted. */
function shellWord(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

/** POST /vc: the collection it made. */
export async function createCollection(ctx: PlanContext, input: CollectionCreateInput, names: FieldNames = {}): Promise<Plan<Collection>> {
  const { user, platform, platformFrom, allowedAssetTypes, ...fields } = input;
  const body = validateInput(
    collectionCreateBody(),
    { ...fields, allowedAssetTypes: allowedAssetTypes.map((code) => code.trim()).filter(Boolean), createdBy: user, updatedBy: user, targetPlatform: platform },
    names,
  );
  if (platform !== undefined && platformFrom !== undefined) {
    (await ctx.output()).info(`platform ${platform}, from ${platformFrom}: a collection's platform can never change (--platform chooses another)`);
  }
  const create = steps.collectionCreate({ collectionId: input.collectionId, body });
  return plan([create], (results) => results.of(create)!);
}

export interface CollectionChangeMessages {
  /** Nothing to change was given. */
  nothing: string;
  /** Fields that are no field of an update (a file of fields names them); undefined: the schema's own message. */
  unknown?: (fields: string[], updatable: string[]) => string | undefined;
}

/**
 * The fields an update changes, refusing before anything is read what the
 * service will not take: the permanent fields, assetItems, deleted, fields
 * that are no field of an update, and nothing at all.
 */
export function collectionChanges(patch: Record<string, unknown>, messages: CollectionChangeMessages): string[] {
  const refusedFields = COLLECTION_REFUSED_UPDATE_FIELDS as readonly string[];
  const refused = Object.keys(patch).filter((field) => refusedFields.includes(field));
  if (refused.length > 0) throw new UsageError(`${refusedMessage(refused)}; nothing was sent`);
  const updatable = Object.keys(collectionUpdateBody().shape).filter((key) => key !== 'updatedBy');
  const unknown = Object.keys(patch).filter((key) => !updatable.includes(key) && key !== 'updatedBy' && !refusedFields.includes(key));
  const unknownMessage = unknown.length > 0 ? messages.unknown?.(unknown, updatable) : undefined;
  if (unknownMessage) throw new UsageError(unknownMessage);
  const changes = Object.keys(patch).filter((key) => key !== 'updatedBy');
  if (changes.length === 0) throw new UsageError(messages.nothing);
  return changes;
}

export interface CollectionUpdateInput {
  collectionId: string;
  /** The fields to change, as the API names them (collectionName, maxAssets, ...). */
  patch: Record<string, unknown>;
  user: string;
}

/**
 * PUT /vc/{id}: the collection as updated. A maxAssets below the current
 * item count is refused before sending (a dry run too).
 */
export async function updateCollection(ctx: PlanContext, input: CollectionUpdateInput, names: FieldNames = {}, messages: CollectionChangeMessages = { nothing: 'nothing to update' }): Promise<Plan<Collection>> {
  const { collectionId, patch, user } = input;
  collectionChanges(patch, messages);
  const body = validateInput(collectionUpdateBody().strict(), { ...patch, updatedBy: user }, names);
  // Read before the write: the fields as they were (the journal records them as before: cli.md "Memory"), and
  // maxAssets checked against the current item count before sending, in a dry run too (exit 2).
  const view = await readSnapshot(await ctx.api(), collectionId);
  if (view.snapshot && body.maxAssets !== undefined) {
    const decision = decideCollectionUpdate(collectionId, view.snapshot, body);
    if (!decision.ok) throw new UsageError(`${decision.title}; nothing was sent`);
  }
  const before = view.collection ? (({ assetItems: _items, ...fields }) => fields)(view.collection) : undefined;
  const update = steps.collectionUpdate({ collectionId, body, ...(before ? { before } : {}) });
  return plan([update], (results) => results.of(update)!);
}

function refusedMessage(fields: string[]): string {
  const parts: string[] = [];
  const items: string[] = fields.filter((f) => f === 'assetItems');
  const deleted: string[] = fields.filter((f) => f === 'deleted' || f === 'deletedAt');
  const permanent = fields.filter((f) => !items.includes(f) && !deleted.includes(f));
  if (permanent.length) parts.push(`${permanent.join(', ')} cannot be updated (permanent after create, or set by the service)`);
  if (items.length) parts.push('assetItems cannot be updated: add or remove items with `ahs item upload|remove`');
  if (deleted.length) parts.push(`${deleted.join(', ')} cannot be updated: use \`ahs collection delete|restore\``);
  return parts.join('; ');
}

export interface CollectionWriteInput {
  collectionId: string;
  user: string;
}

/**
 * Soft delete (the collection must not be Live anywhere), after a
 * confirmation. The collection is read first: LIVE somewhere, the service
 * would refuse, so nothing is asked and nothing is sent (the step's refusal:
 * the service's error and the commands that free it).
 */
export async function deleteCollection(ctx: PlanContext, input: CollectionWriteInput): Promise<Plan<CollectionMessage>> {
  const { collectionId, user } = input;
  const { collection, snapshot } = await readSnapshot(await ctx.api(), collectionId);
  const live = snapshot ? liveEnvironments(snapshot) : [];
  const offline = live.map((envId) => `ahs collection-deploy ${collectionId} --state OFFLINE --env ${envId}`);
  const refuse = { hint: live.length > 0 ? `first ${offline.join('; ')}` : snapshot?.deleted ? `it is deleted already: ahs collection restore ${collectionId} brings it back` : `see ahs collection get ${collectionId}` };
  const deletion = steps.collectionDelete({ collectionId, user }, { refuse });
  // The journal is not content: deleting it says that history goes with it.
  const erased = historyErased(collection);
  const confirm = { message: `Delete collection ${collectionId}? (soft delete: \`ahs collection restore\` brings it back)${erased}`, action: `collection delete ${collectionId}${erased ? " (the ahs journal: it erases the team's history of writes)" : ''}` };
  return plan([deletion], (results) => results.of(deletion)!, { confirm });
}

/** Brings a soft-deleted collection back. */
export async function restoreCollection(_ctx: PlanContext, input: CollectionWriteInput): Promise<Plan<CollectionMessage>> {
  const restore = steps.collectionRestore({ collectionId: input.collectionId, user: input.user });
  return plan([restore], (results) => results.of(restore)!);
}

/**
 * Irreversible: says what goes (the deployment records in every
 * environment, the items only this collection held) before asking. A
 * missing collection asks nothing: the request's 400, settled by a read, is
 * not found.
 */
export async function purgeCollection(ctx: PlanContext, input: CollectionWriteInput): Promise<Plan<CollectionMessage>> {
  const { collectionId, user } = input;
  const api = await ctx.api();
  const out = await ctx.output();
  const view = await readSnapshot(api, collectionId);
  const items = view.collection ? await itemParents(api, view.collection) : [];
  const decision = decideCollectionPurge(collectionId, view.snapshot, items);
  if (view.snapshot) {
    if (decision.ok) {
      out.info(`Purging collection ${collectionId} removes, for good:`);
      for (const effect of decision.effects) out.info(`  - ${effect.description}`);
    }
  }
  // Asked even when the rules predict a refusal (the state may have moved since the read), by the executor once
  // change control let the write through.
  const erased = historyErased(view.collection);
  const confirm = view.snapshot ? { message: `Purge collection ${collectionId}? This cannot be undone${erased ? `.${erased}` : ''}`, action: `collection purge ${collectionId}${erased ? " (the ahs journal: it erases the team's history of writes for good)" : ''}` } : undefined;
  // Planned from what was read (also what the question said): the dry run shows the same.
  const current = view.snapshot ? { ...(currentOf(view) as object), items } : null;
  const purge = steps.collectionPurge({ collectionId, user }, { prediction: { current, decision: view.snapshot ? decision : { ...decision, ...(decision.ok ? {} : { kind: 'not-found' as const, resource: 'collection' as const }) } } });
  return plan([purge], (results) => results.of(purge)!, confirm ? { confirm } : {});
}

export interface CollectionUndeployInput extends CollectionWriteInput {
  envId: string;
}

/** Removes the Live record in one environment, after a confirmation; only a fresh deploy makes it Live again. */
export async function undeployCollection(ctx: PlanContext, input: CollectionUndeployInput): Promise<Plan<CollectionMessage>> {
  const { collectionId, envId, user } = input;
  const undeploy = steps.collectionUndeploy({ collectionId, envId, user });
  // Asked by the executor, once change control let the write through.
  return plan([undeploy], (results) => results.of(undeploy)!, { confirm: { message: `Undeploy collection ${collectionId} from ${envId}? Its URL there stops working until a fresh deploy`, action: `collection undeploy ${collectionId}` } });
}

/** `collection-deploy`: LIVE answers with the collection's download URL; OFFLINE and a reconcile with a message. */
export type CollectionDeployAnswer = DeployAnswer;

export type CollectionDeployInput = CollectionWriteInput &
  (
    | {
        /** Re-run the Live deployment wherever it is Live. */
        reconcile: true;
      }
    | {
        reconcile?: false | undefined;
        state: 'LIVE' | 'OFFLINE';
        /** Absent: the API key's own environment (a domain-wide key must name one). */
        envId?: string | undefined;
        /** Where envId came from, to explain the service's 403. */
        envSource?: CollectionDeployParams['envSource'];
        /** Already in that state: nothing to send. */
        idempotent?: boolean | undefined;
      }
  );

/**
 * LIVE / OFFLINE in one environment, or a reconcile. The target environment
 * is the API key's scope; a domain-wide key names it in the body (envId).
 * Naming another environment than a scoped key's is the service's 403, which
 * the step explains.
 */
export async function deployCollection(ctx: PlanContext, input: CollectionDeployInput): Promise<Plan<CollectionDeployAnswer>> {
  const { collectionId, user } = input;
  if (input.reconcile) {
    const reconcile = steps.collectionReconcile({ collectionId, user });
    return plan([reconcile], (results) => results.of(reconcile)!);
  }
  const { state, envId, envSource } = input;
  // The key's scope is not visible to the CLI: predict for the named environment.
  const target = resolveCollectionDeployEnv(undefined, envId);
  // The deployment's state in that environment, read before the write: what --idempotent decides on, and what the
  // journal's entry records as before (cli.md "Memory": true values). A key's own environment (no envId) is not
  // visible to the CLI: there, before stays unknown. A dry run's prediction is the step's own (it reads the same).
  const dryRun = ctx.globals.dryRun === true;
  if (!target.ok || (dryRun && !input.idempotent)) {
    const deploy = steps.collectionDeploy({ collectionId, user, state, envId, envSource });
    return plan([deploy], (results) => results.of(deploy)!);
  }
  const { snapshot } = await readSnapshot(await ctx.api(), collectionId);
  if (input.idempotent && snapshot && !snapshot.deleted && snapshot.deployments[target.envId] === state) {
    return noop(state, `Collection ${collectionId} is already ${state} in ${target.envId}; nothing sent`);
  }
  if (dryRun) {
    const deploy = steps.collectionDeploy({ collectionId, user, state, envId, envSource });
    return plan([deploy], (results) => results.of(deploy)!);
  }
  const decision = decideCollectionDeploy(collectionId, snapshot, { state, envId: target.envId, createdBy: user, updatedBy: user });
  const current = snapshot ? (snapshot.deployments[target.envId] ?? null) : null;
  const deploy = steps.collectionDeploy({ collectionId, user, state, envId, envSource }, { prediction: { current, decision: decision as Decision<unknown>, notes: [DEPLOY_ENV_NOTE] } });
  return plan([deploy], (results) => results.of(deploy)!);
}
