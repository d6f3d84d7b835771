// From the desired-state file and what the service holds to an ordinary
// plan of typed steps (src/plan/): what `ahs plan` prints and `ahs apply`
// sends. Each asset and collection is read on its own, all of them in
// parallel (a plan of 50 channels takes the rounds of one, issue 21). The
// order within a resource follows the rules: create, uploads, LIVE before
// DEFAULT, the promotion a compare-and-set on the Default read, OFFLINE
// after it; a collection's items as `item sync` does them (removals first,
// replacements, then uploads, never over maxAssets), then its anchor and
// its deployments. What the service cannot do is an error at the line of
// the file; what it cannot tell is said as a note.
import { readdir, stat } from 'node:fs/promises';
import { basename, join, resolve as resolvePath } from 'node:path';
import type { ApiClient } from '../http/client.js';
import { UsageError } from '../errors.js';
import {
  allow,
  applyVersionDeploy,
  createdAsset,
  createdVersion,
  decideCollectionDeploy,
  decideCollectionReconcile,
  decideCollectionUpdate,
  decideItemAdd,
  decideItemRemove,
  defaultOf,
  decideVersionDeploy,
  type ChannelSnapshot,
  type CollectionSnapshot,
  type Decision,
  type DeploymentState,
} from '../rules/index.js';
import { LIMITS, type Asset, type AssetUrl, type Collection, type DeployBody, type Item, type Version } from '../rules/schemas.js';
import { findAsset, listAllVersions, listRecords } from '../service/assets.js';
import { listItems, readSnapshot } from '../service/collections.js';
import { matchesAny } from '../util/glob.js';
import { eachLimited } from '../util/pool.js';
import { sizeAgrees } from '../service/size.js';
import { resolveParams } from '../plan/execute.js';
import { KINDS } from '../plan/kinds/index.js';
import { ref, type Prediction, type Ref, type Step } from '../plan/plan.js';
import { steps } from '../plan/steps.js';
import { fileSha256 } from '../transfer/digest.js';
import { plannedFiles, recordReads, toSavedPlan, type PlannedChange, type SavedPlan } from '../plan/saved.js';
import type { DesiredFile, FieldPath } from './file.js';
import type { DesiredAsset, DesiredChannel, DesiredCollection, VersionRef } from './schema.js';
import { compareText } from '../order.js';

/** Item writes of one collection at once (as item sync). */
const ITEM_CONCURRENCY = 4;
/** Assets and collections read at once. */
const RESOURCES_IN_FLIGHT = 8;

export interface DesiredPlan {
  steps: Step[];
  changes: PlannedChange[];
  notes: string[];
}

export interface PlanInputs {
  api: ApiClient;
  file: DesiredFile;
  user: string;
  /** --target: `asset.ID`, `collection.ID`, or an id of either; none: everything. */
  targets?: string[];
  signal?: AbortSignal;
}

/** One resource's part of the plan, built on its own. */
interface Part {
  steps: Step[];
  changes: PlannedChange[];
  notes: string[];
}

export async function planDesired(inputs: PlanInputs): Promise<DesiredPlan> {
  const { file } = inputs;
  const assets = Object.entries(file.state.assets ?? {});
  const collections = Object.entries(file.state.collections ?? {});
  const wanted = selector(inputs.targets ?? [], assets.map(([id]) => id), collections.map(([id]) => id));
  const work: Array<() => Promise<Part>> = [
    ...assets.filter(([id]) => wanted('asset', id)).map(([id, spec]) => () => planAsset(inputs, id, spec)),
    ...collections.filter(([id]) => wanted('collection', id)).map(([id, spec]) => () => planCollection(inputs, id, spec)),
  ];
  const parts: Part[] = [];
  await eachLimited(work, RESOURCES_IN_FLIGHT, inputs.signal ?? new AbortController().signal, async (make, index) => {
    parts[index] = await make();
  });
  return { steps: parts.flatMap((p) => p.steps), changes: parts.flatMap((p) => p.changes), notes: parts.flatMap((p) => p.notes) };
}

/** --target: which resources the plan covers; a selector that names none is a usage error. */
function selector(targets: string[], assetIds: string[], collectionIds: string[]): (type: 'asset' | 'collection', id: string) => boolean {
  if (targets.length === 0) return () => true;
  const chosen = new Set<string>();
  for (const target of targets) {
    const [type, id] = /^(asset|collection)\.(.+)$/.exec(target)?.slice(1) ?? [undefined, target];
    const assets = type !== 'collection' && assetIds.includes(id!) ? [`asset.${id}`] : [];
    const collections = type !== 'asset' && collectionIds.includes(id!) ? [`collection.${id}`] : [];
    if (assets.length + collections.length === 0) {
      throw new UsageError(`--target ${target} names nothing in the file: give asset.ID or collection.ID of the file (assets: ${assetIds.join(', ') || 'none'}; collections: ${collectionIds.join(', ') || 'none'})`);
    }
    for (const name of [...assets, ...collections]) chosen.add(name);
  }
  return (type, id) => chosen.has(`${type}.${id}`);
}

// --- assets -------------------------------------------------------------------------

async function planAsset(inputs: PlanInputs, assetId: string, spec: DesiredAsset): Promise<Part> {
  const { api, file, user } = inputs;
  const at: FieldPath = ['assets', assetId];
  const asset = await findAsset(api, assetId);
  const [versions, records] = asset ? await Promise.all([listAllVersions(api, assetId), listRecords(api, assetId)]) : [[] as Version[], [] as AssetUrl[]];
  const part: Part = { steps: [], changes: [], notes: [] };
  const now = new Date().toISOString();

  // The asset itself.
  let record: Asset;
  if (!asset) {
    const body = { assetId, assetName: spec.name, assetType: spec.type, createdBy: user, ...pick(spec, ['description', 'secured', 'localCacheControl', 'localCacheMaxAge']) };
    record = createdAsset(body, now);
    const create = steps.assetCreate({ body }, { prediction: { current: null, decision: allow(201, record) } });
    part.steps.push(create);
    part.changes.push({ resource: `asset ${assetId}`, action: 'create', lines: fieldLines(body, ['assetId', 'createdBy']), steps: [create.id] });
  } else {
    record = asset;
    if (asset.assetType !== spec.type) throw file.error([...at, 'type'], `the asset type cannot change (${assetId} is of type ${asset.assetType}); keep ${asset.assetType}, or use another asset id`);
    const wantedFields = { assetName: spec.name, localCacheControl: spec.localCacheControl, localCacheMaxAge: spec.localCacheMaxAge, active: spec.active };
    const changed = Object.entries(wantedFields).filter(([key, value]) => value !== undefined && asset[key as keyof Asset] !== value);
    if (changed.length > 0) {
      const body = { updatedBy: user, assetType: asset.assetType, ...Object.fromEntries(changed) };
      const update = steps.assetUpdate({ assetId, body, before: asset });
      part.steps.push(update);
      part.changes.push({ resource: `asset ${assetId}`, action: 'update', lines: changed.map(([key, value]) => `${key}: ${show(asset[key as keyof Asset])} → ${show(value)}`), steps: [update.id], notes: [drift(asset)] });
    }
    if (spec.description !== undefined) part.notes.push(`asset ${assetId}: description cannot be compared (the service never returns it); it is sent only when the asset is created`);
    if (spec.secured !== undefined && spec.secured !== asset.secured) throw file.error([...at, 'secured'], `secured cannot change once the asset exists (${assetId} is ${asset.secured ? '' : 'not '}secured)`);
  }

  // Versions to upload.
  const uploads = new Map<string, Step<Version>>();
  const predicted = new Map<string, unknown>();
  for (const [platform, named] of Object.entries(spec.versions ?? {})) {
    for (const [versionName, relative] of Object.entries(named)) {
      const path = file.resolve(relative);
      const local = await stat(path).catch(() => undefined);
      const existing = versions.filter((v) => v.versionName === versionName && v.targetPlatform === platform);
      if (existing.length > 0) {
        // Already uploaded: nothing to send, but a file that is not the one uploaded under that name is said, never passed over.
        checkUploaded(file, [...at, 'versions', platform, versionName], relative, local, existing);
        continue;
      }
      if (!local?.isFile()) throw file.error([...at, 'versions', platform, versionName], `cannot read ${relative} (${path}): no such file`);
      const onPlatform = [...versions.filter((v) => v.targetPlatform === platform).map((v) => v.version), ...[...uploads.values()].map((s) => predicted.get(s.id) as Version).filter((v) => v.targetPlatform === platform).map((v) => v.version)];
      const next = createdVersion(record, { platform, latest: Math.max(0, ...onPlatform), versionName, createdBy: user, fileName: basename(path), bytes: local.size }, now);
      const sha256 = await fileSha256(path);
      const upload = steps.versionUpload(
        { assetId, platform, fields: { versionName, createdBy: user }, file: { path, name: basename(path), size: local.size, sha256 } },
        { prediction: { current: null, decision: allow(201, next), notes: ['the version id assumes no deleted version used a higher number on this platform'] } },
      );
      predicted.set(upload.id, next);
      uploads.set(`${platform}\u0000${versionName}`, upload);
      part.steps.push(upload);
      part.changes.push({ resource: `version ${assetId}/${platform}/${versionName}`, action: 'create', lines: [`file: ${relative} (${local.size} bytes, sha256 ${sha256.slice(0, 12)}…)`], steps: [upload.id] });
    }
  }

  // Channels.
  for (const [platform, envs] of Object.entries(spec.channels ?? {})) {
    for (const [envId, channel] of Object.entries(envs)) {
      const found = records.filter((r) => r.targetPlatform === platform && r.envId === envId);
      planChannel(part, { file, user, assetId, platform, envId, at: [...at, 'channels', platform, envId], versions, uploads, records: found }, channel);
    }
  }

  // The predictions the kinds make (a deploy of an existing version reads it), all at once.
  await Promise.all(
    part.steps
      .filter((step) => !step.prediction)
      .map(async (step) => {
        step.prediction = await KINDS[step.kind].predict(resolveParams(step.params, predicted), api);
      }),
  );
  return part;
}

interface ChannelInputs {
  file: DesiredFile;
  user: string;
  assetId: string;
  platform: string;
  envId: string;
  at: FieldPath;
  versions: Version[];
  uploads: Map<string, Step<Version>>;
  records: AssetUrl[];
}

interface Resolved {
  versionId: string | Ref<string>;
  /** "1.4.2 (IOS2)", for people. */
  label: string;
  /** The key of the version within the channel: its id, or the upload step's. */
  key: string;
  isNew: boolean;
  at: FieldPath;
}

/**
 * One channel: LIVE deploys first, then the promotion (a compare-and-set on
 * the Default read), then OFFLINE deploys (a former Default can go OFFLINE
 * once the promotion made it LIVE). Versions the file does not name are
 * left as they are.
 */
function planChannel(part: Part, c: ChannelInputs, channel: DesiredChannel): void {
  const name = `${c.assetId}/${c.platform}/${c.envId}`;
  const snapshot: ChannelSnapshot = { records: Object.fromEntries(c.records.map((r) => [r.versionId, r.state])), formerDefaults: [], midDeployment: false };
  const currentDefault = defaultOf(snapshot);
  const stateOf = (v: Resolved): DeploymentState | undefined => (v.isNew ? undefined : snapshot.records[v.key]);
  const wanted = new Map<string, { version: Resolved; state: DeploymentState }>();
  const want = (ref: VersionRef, at: FieldPath, state: DeploymentState) => {
    const version = resolveVersion(c, ref, at);
    const earlier = wanted.get(version.key);
    if (earlier && earlier.state !== state) throw c.file.error(at, `${version.label} is also ${earlier.state} in this channel: a version has one state per channel`);
    wanted.set(version.key, { version, state });
    return version;
  };
  const target = channel.default === undefined ? undefined : want(channel.default, [...c.at, 'default'], 'DEFAULT');
  for (const [index, entry] of (channel.live ?? []).entries()) want(entry, [...c.at, 'live', index], 'LIVE');
  for (const [index, entry] of (channel.offline ?? []).entries()) want(entry, [...c.at, 'offline', index], 'OFFLINE');

  // A Default leaves only when another version takes its place.
  for (const { version, state } of wanted.values()) {
    if (state !== 'DEFAULT' && stateOf(version) === 'DEFAULT' && !target) {
      throw c.file.error(version.at, `${version.label} is the Default of ${name}: a Default cannot be made ${state} without another one (set default: to the version that takes its place) or undeploying the channel (ahs asset undeploy ${c.assetId} --env ${c.envId} --platform ${c.platform})`);
    }
  }

  const change: PlannedChange = { resource: `channel ${name}`, action: c.records.length === 0 ? 'create' : 'update', lines: [], steps: [] };
  let evolving = snapshot;
  const body = (intent: 'LIVE' | 'OFFLINE'): DeployBody => ({ envId: c.envId, intent, createdBy: c.user, updatedBy: c.user });
  const add = (step: Step, line: string) => {
    part.steps.push(step);
    change.steps.push(step.id);
    change.lines.push(line);
  };
  const deploy = (version: Resolved, intent: 'LIVE' | 'OFFLINE') => {
    const step = steps.versionDeploy({ assetId: c.assetId, versionId: version.versionId, platform: c.platform, body: body(intent), channel: evolving, versionIsNew: version.isNew });
    if (!version.isNew) evolving = evolve(evolving, version.key, { versionId: version.key, ...body(intent) });
    add(step, `${version.label}: ${evolvingState(snapshot, version) ?? 'not deployed'} → ${intent}`);
  };
  const live = [...wanted.values()].filter((w) => w.state === 'LIVE' || w.state === 'DEFAULT').map((w) => w.version);
  const madeLive = new Set<string>();
  for (const version of live) {
    const state = stateOf(version);
    if (state === 'LIVE' || state === 'DEFAULT') continue;
    deploy(version, 'LIVE');
    madeLive.add(version.key);
  }
  if (target && stateOf(target) !== 'DEFAULT') {
    const promote = steps.versionPromote({
      assetId: c.assetId,
      platform: c.platform,
      envId: c.envId,
      versionId: target.versionId,
      user: c.user,
      channel: madeLive.has(target.key) ? snapshot : evolving,
      expected: currentDefault ?? null,
      afterLive: madeLive.has(target.key) ? body('LIVE') : undefined,
      versionIsNew: target.isNew,
    });
    if (!target.isNew) evolving = evolve(evolving, target.key, { versionId: target.key, intent: 'DEFAULT', currentVersionId: currentDefault, currentAssetIntent: currentDefault ? 'LIVE' : undefined, createdBy: c.user, updatedBy: c.user });
    else if (currentDefault) evolving = { ...evolving, records: { ...evolving.records, [currentDefault]: 'LIVE' } };
    add(promote, `${target.label}: ${madeLive.has(target.key) ? 'LIVE' : (stateOf(target) ?? 'not deployed')} → DEFAULT${currentDefault ? ` (${labelOf(c, currentDefault)}: DEFAULT → LIVE)` : ''}`);
  }
  for (const { version, state } of wanted.values()) {
    if (state !== 'OFFLINE' || stateOf(version) === 'OFFLINE') continue;
    deploy(version, 'OFFLINE');
  }
  if (change.steps.length > 0) part.changes.push(change);
}

function evolve(channel: ChannelSnapshot, versionId: string, request: Parameters<typeof decideVersionDeploy>[1]): ChannelSnapshot {
  const decision = decideVersionDeploy(channel, request);
  return decision.ok ? applyVersionDeploy(channel, versionId, decision) : channel;
}

function evolvingState(snapshot: ChannelSnapshot, version: Resolved): string | undefined {
  return version.isNew ? undefined : snapshot.records[version.key];
}

function labelOf(c: ChannelInputs, versionId: string): string {
  const version = c.versions.find((v) => v.versionId === versionId);
  return version ? `${version.versionName} (${versionId})` : versionId;
}

/** A version named in a channel: by name on the channel's platform (existing, or uploaded by this plan), or pinned by id. */
function resolveVersion(c: ChannelInputs, entry: VersionRef, at: FieldPath): Resolved {
  if (typeof entry !== 'string') {
    const version = c.versions.find((v) => v.versionId === entry.versionId);
    if (!version) throw c.file.error(at, `${c.assetId} has no version ${entry.versionId}`);
    if (version.targetPlatform !== c.platform) {
      throw c.file.error(at, `${entry.versionId} is a ${version.targetPlatform} version: a version's platform cannot change; name a ${c.platform} version here`);
    }
    return { versionId: version.versionId, label: `${version.versionName} (${version.versionId})`, key: version.versionId, isNew: false, at };
  }
  const named = c.versions.filter((v) => v.versionName === entry && v.targetPlatform === c.platform);
  if (named.length > 1) {
    throw c.file.error(at, `${named.length} ${c.platform} versions of ${c.assetId} are named ${entry} (${named.map((v) => v.versionId).join(', ')}): pin one as { versionId: ID }`);
  }
  if (named.length === 1) return { versionId: named[0]!.versionId, label: `${entry} (${named[0]!.versionId})`, key: named[0]!.versionId, isNew: false, at };
  const upload = c.uploads.get(`${c.platform}\u0000${entry}`);
  if (upload) return { versionId: ref(upload, 'versionId'), label: `${entry} (new)`, key: upload.id, isNew: true, at };
  const elsewhere = c.versions.filter((v) => v.versionName === entry).map((v) => `${v.versionId} on ${v.targetPlatform}`);
  throw c.file.error(
    at,
    `${c.assetId} has no ${c.platform} version named ${entry}${elsewhere.length ? ` (only ${elsewhere.join(', ')}: a version's platform cannot change)` : ''}; add it under versions.${c.platform} to upload it`,
  );
}

// --- collections --------------------------------------------------------------------

interface LocalFile {
  name: string;
  path: string;
  size: number;
}

async function planCollection(inputs: PlanInputs, collectionId: string, spec: DesiredCollection): Promise<Part> {
  const { api, file, user } = inputs;
  const at: FieldPath = ['collections', collectionId];
  const [view, items] = await Promise.all([readSnapshot(api, collectionId), spec.items ? listItems(api, collectionId).catch(() => [] as Item[]) : Promise.resolve([] as Item[])]);
  const part: Part = { steps: [], changes: [], notes: [] };
  const resource = `collection ${collectionId}`;
  const collection = view.collection;
  const fields = {
    collectionName: spec.name,
    description: spec.description,
    maxAssets: spec.maxAssets,
    editable: spec.editable,
    deployable: spec.deployable,
    localCacheControl: spec.localCacheControl,
    localCacheMaxAge: spec.localCacheMaxAge,
  };
  let snapshot: CollectionSnapshot;
  const present = collection && view.snapshot;
  if (!present) {
    const body = { collectionId, allowedAssetTypes: spec.allowedTypes, ...defined(fields), collectionName: spec.name, ...(spec.platform ? { targetPlatform: spec.platform } : {}), createdBy: user };
    const create = steps.collectionCreate({ collectionId, body }, { prediction: { current: null, decision: allow(201, body) } });
    part.steps.push(create);
    part.changes.push({ resource, action: 'create', lines: fieldLines(body, ['collectionId', 'createdBy']), steps: [create.id] });
    snapshot = { collectionId, deleted: false, deployable: spec.deployable ?? true, editable: spec.editable ?? true, itemCount: 0, maxAssets: spec.maxAssets ?? LIMITS.maxAssetsCeiling, deployments: {} };
  } else {
    snapshot = view.snapshot!;
    if (!sameSet(collection.allowedAssetTypes, spec.allowedTypes)) {
      throw file.error([...at, 'allowedTypes'], `a collection's allowed types cannot change (${collectionId} allows ${collection.allowedAssetTypes.join(', ')}); keep them, or use another collection id`);
    }
    const platform = collection.targetPlatform ?? 'generic';
    if (spec.platform !== undefined && spec.platform !== platform) throw file.error([...at, 'platform'], `a collection's platform cannot change (${collectionId} is ${platform}); keep ${platform}, or use another collection id`);
    if (snapshot.deleted) {
      const restore = steps.collectionRestore({ collectionId, user }, { prediction: { current: { deleted: true }, decision: allow(200, { deleted: false }) } });
      part.steps.push(restore);
      part.changes.push({ resource, action: 'update', lines: ['deleted: true → false (restored)'], steps: [restore.id], notes: [drift(collection)] });
      snapshot = { ...snapshot, deleted: false };
    }
    const changed = Object.entries(fields).filter(([key, value]) => value !== undefined && (collection as Record<string, unknown>)[key] !== value);
    if (changed.length > 0) {
      const body = { ...Object.fromEntries(changed), updatedBy: user };
      const decision = decideCollectionUpdate(collectionId, snapshot, body);
      const update = steps.collectionUpdate({ collectionId, body }, { prediction: { current: currentFields(collection), decision } });
      if (decision.ok) snapshot = { ...snapshot, ...pick(body as Partial<CollectionSnapshot>, ['maxAssets', 'editable', 'deployable']) };
      part.steps.push(update);
      part.changes.push({ resource, action: 'update', lines: changed.map(([key, value]) => `${key}: ${show((collection as Record<string, unknown>)[key])} → ${show(value)}`), steps: [update.id], notes: [drift(collection)] });
    }
  }

  // Items.
  const byName = new Map<string, Item | Step<Item>>();
  for (const item of items) byName.set(item.assetItemName, item);
  let itemsChanged = false;
  if (spec.items && 'dir' in spec.items) {
    const source = spec.items;
    const patterns = source.pattern === undefined ? [] : [source.pattern].flat();
    const files = await readFolder(file, [...at, 'items', 'dir'], file.resolve(source.dir), patterns);
    const shown = items.filter((item) => patterns.length === 0 || matchesAny(item.assetItemName, patterns));
    const itemSteps = await planItems({ collectionId, user, assetType: source.type, allowed: spec.allowedTypes, prune: source.prune === true, snapshot, files, items: shown });
    snapshot = itemSteps.snapshot;
    for (const [itemName, value] of itemSteps.named) byName.set(itemName, value);
    if (itemSteps.steps.length > 0) {
      itemsChanged = true;
      part.steps.push(...itemSteps.steps);
      part.changes.push({ resource: `items of ${collectionId}`, action: 'update', lines: itemSteps.lines, steps: itemSteps.steps.map((s) => s.id) });
    }
  } else if (spec.items) {
    const listed = new Set(spec.items.names);
    const missing = spec.items.names.filter((n) => !items.some((item) => item.assetItemName === n));
    const extra = items.filter((item) => !listed.has(item.assetItemName)).map((item) => item.assetItemName);
    if (missing.length) part.notes.push(`collection ${collectionId}: listed but not in the collection (a listing uploads nothing; give items.dir): ${missing.join(', ')}`);
    if (extra.length) part.notes.push(`collection ${collectionId}: in the collection but not listed (drift): ${extra.join(', ')}`);
  }

  // The anchor item, by name.
  if (spec.anchor !== undefined) {
    const anchor = byName.get(spec.anchor);
    if (!anchor) throw file.error([...at, 'anchor'], `no item named ${spec.anchor} in ${collectionId} or in its items folder`);
    const anchorId = 'assetItemId' in anchor ? anchor.assetItemId : ref(anchor, 'assetItemId');
    if (typeof anchorId !== 'string' || collection?.anchorAsset !== anchorId) {
      const update = steps.collectionUpdate({ collectionId, body: { anchorAsset: anchorId, updatedBy: user } }, { prediction: { current: collection?.anchorAsset ?? null, decision: allow(200, { anchorAsset: spec.anchor }) } });
      part.steps.push(update);
      part.changes.push({ resource, action: 'update', lines: [`anchor: ${show(anchorName(collection?.anchorAsset ?? undefined, items))} → ${spec.anchor}`], steps: [update.id] });
    }
  }

  // Deployments per environment; OFFLINE needs a deployment first.
  const deployments = Object.entries(spec.deployments ?? {});
  const deploySteps: Step[] = [];
  const lines: string[] = [];
  const deployTo = (envId: string, state: 'LIVE' | 'OFFLINE') => {
    const request = { state, envId, createdBy: user, updatedBy: user };
    const decision = decideCollectionDeploy(collectionId, snapshot, request);
    if (decision.ok) snapshot = { ...snapshot, deployments: { ...snapshot.deployments, [envId]: state } };
    deploySteps.push(steps.collectionDeploy({ collectionId, user, state, envId }, { prediction: { current: snapshot.deployments[envId] ?? null, decision } }));
  };
  for (const [envId, state] of deployments) {
    const current = snapshot.deployments[envId];
    if (current === state) continue;
    lines.push(`${envId}: ${current ?? 'not deployed'} → ${state}${state === 'OFFLINE' && !current ? ' (deployed LIVE first: only a deployment can be taken OFFLINE)' : ''}`);
    if (state === 'OFFLINE' && !current) deployTo(envId, 'LIVE');
    deployTo(envId, state);
  }
  // New items reach the environments where the collection stays Live by a re-run of its deployments.
  const stayLive = Object.entries(snapshot.deployments).some(([envId, state]) => state === 'LIVE' && !deploySteps.some((s) => (s.params as { envId?: string }).envId === envId));
  if (itemsChanged && present && stayLive) {
    const reconcile = steps.collectionReconcile({ collectionId, user }, { prediction: { current: snapshot.deployments, decision: decideCollectionReconcile(collectionId, snapshot, user) } });
    deploySteps.push(reconcile);
    lines.push('Live deployments re-run (the items changed)');
  }
  if (deploySteps.length > 0) {
    part.steps.push(...deploySteps);
    part.changes.push({ resource: `deployments of ${collectionId}`, action: 'update', lines, steps: deploySteps.map((s) => s.id) });
  }
  return part;
}

interface ItemInputs {
  collectionId: string;
  user: string;
  assetType: string;
  allowed: string[];
  prune: boolean;
  snapshot: CollectionSnapshot;
  files: LocalFile[];
  items: Item[];
}

/**
 * The item writes of a folder, as `item sync` does them: removals (prune)
 * first, then each changed file replaced (uploaded, then its old item
 * removed; the old one first when the collection is full), then the new
 * files; each phase a batch. A file matches the item of its name and size.
 */
async function planItems(c: ItemInputs): Promise<{ steps: Step[]; lines: string[]; snapshot: CollectionSnapshot; named: Map<string, Item | Step<Item>> }> {
  const byName = new Map<string, Item[]>();
  for (const item of [...c.items].sort((a, b) => compareText(b.createdAt, a.createdAt))) byName.set(item.assetItemName, [...(byName.get(item.assetItemName) ?? []), item]);
  const claimed = new Set<Item>();
  const replacements: Array<{ file: LocalFile; old: Item }> = [];
  const uploads: LocalFile[] = [];
  const named = new Map<string, Item | Step<Item>>();
  for (const file of c.files) {
    const candidates = byName.get(file.name) ?? [];
    const same = candidates.find((item) => item.size === file.size);
    const item = same ?? candidates[0];
    if (item) claimed.add(item);
    if (same) named.set(file.name, same);
    else if (item) replacements.push({ file, old: item });
    else uploads.push(file);
  }
  const orphans = c.prune ? c.items.filter((item) => !claimed.has(item)) : [];
  let snapshot = c.snapshot;
  const predicted = (decision: Decision<{ itemCount: number }>): Prediction => {
    if (decision.ok) snapshot = { ...snapshot, itemCount: decision.next.itemCount };
    return { current: { itemCount: snapshot.itemCount, maxAssets: snapshot.maxAssets }, decision };
  };
  const digests = new Map<LocalFile, string>();
  await Promise.all([...replacements.map((r) => r.file), ...uploads].map(async (file) => digests.set(file, await fileSha256(file.path))));
  const uploadStep = (file: LocalFile, group: string, concurrency: number, after?: string[]) =>
    steps.itemUpload(
      { collectionId: c.collectionId, fields: { assetItemName: file.name, assetType: c.assetType, createdBy: c.user }, file: { path: file.path, name: file.name, size: file.size, sha256: digests.get(file) } },
      { batch: { group, concurrency }, after, refuse: { hint: 'ahs plan shows every request and what the service would answer' }, prediction: predicted(decideItemAdd(c.collectionId, snapshot, { assetType: c.assetType, allowedAssetTypes: c.allowed })) },
    );
  const removeStep = (old: Item, group: string, concurrency: number, after?: string[]) =>
    steps.itemRemove(
      { collectionId: c.collectionId, itemId: old.assetItemId, name: old.assetItemName, user: c.user },
      { batch: { group, concurrency }, after, prediction: predicted(decideItemRemove(c.collectionId, snapshot, { assetItemId: old.assetItemId, parentCollections: old.parentCollections ?? [c.collectionId] }, old.assetItemId)) },
    );
  const all: Step[] = [];
  const lines: string[] = [];
  const group = (phase: string) => `items:${c.collectionId}:${phase}`;
  for (const old of orphans) {
    all.push(removeStep(old, group('remove'), ITEM_CONCURRENCY));
    lines.push(`- ${old.assetItemName} (${old.assetItemId}): no file of that name`);
  }
  const room = snapshot.maxAssets - snapshot.itemCount;
  const removeFirst = room < 1;
  const replaceConcurrency = removeFirst ? ITEM_CONCURRENCY : Math.max(1, Math.min(ITEM_CONCURRENCY, room));
  for (const { file, old } of replacements) {
    if (removeFirst) {
      const remove = removeStep(old, group('replace'), replaceConcurrency);
      const upload = uploadStep(file, group('replace'), replaceConcurrency, [remove.id]);
      all.push(remove, upload);
      named.set(file.name, upload);
    } else {
      const upload = uploadStep(file, group('replace'), replaceConcurrency);
      all.push(upload, removeStep(old, group('replace'), replaceConcurrency, [upload.id]));
      named.set(file.name, upload);
    }
    lines.push(`~ ${file.name}: ${old.size} → ${file.size} bytes (replaces ${old.assetItemId}${removeFirst ? ', removed first: the collection is full' : ''})`);
  }
  for (const file of uploads) {
    const upload = uploadStep(file, group('upload'), ITEM_CONCURRENCY);
    all.push(upload);
    named.set(file.name, upload);
    lines.push(`+ ${file.name} (${file.size} bytes)`);
  }
  return { steps: all, lines, snapshot, named };
}

/** The regular files at the top of the items folder whose names match the patterns, by name. */
async function readFolder(file: DesiredFile, at: FieldPath, dir: string, patterns: string[]): Promise<LocalFile[]> {
  const names = await readdir(dir).catch((error: NodeJS.ErrnoException) => {
    throw file.error(at, `cannot read the folder ${dir}: ${error.code === 'ENOENT' ? 'no such folder' : error.code === 'ENOTDIR' ? 'not a folder' : error.message}`);
  });
  const files: LocalFile[] = [];
  for (const name of names.sort()) {
    if (patterns.length > 0 && !matchesAny(name, patterns)) continue;
    const path = join(dir, name);
    const info = await stat(path).catch(() => undefined);
    if (info?.isFile()) files.push({ name, path, size: info.size });
  }
  return files;
}

function anchorName(anchorId: string | undefined, items: Item[]): string | undefined {
  if (!anchorId) return undefined;
  return items.find((item) => item.assetItemId === anchorId)?.assetItemName ?? anchorId;
}

function currentFields(collection: Collection): Record<string, unknown> {
  const { collectionName, description, maxAssets, editable, deployable, localCacheControl, localCacheMaxAge } = collection as Collection & Record<string, unknown>;
  return { collectionName, description, maxAssets, editable, deployable, localCacheControl, localCacheMaxAge };
}

// --- small helpers ------------------------------------------------------------------

function pick<T extends object, K extends keyof T>(value: T, keys: readonly K[]): Partial<Pick<T, K>> {
  const out: Partial<Pick<T, K>> = {};
  for (const key of keys) if (value[key] !== undefined) out[key] = value[key];
  return out;
}

function defined<T extends Record<string, unknown>>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, inner]) => inner !== undefined)) as Partial<T>;
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && [...a].sort().join('\u0000') === [...b].sort().join('\u0000');
}

function fieldLines(body: Record<string, unknown>, leave: string[]): string[] {
  return Object.entries(body)
    .filter(([key, value]) => !leave.includes(key) && value !== undefined)
    .map(([key, value]) => `${key}: ${show(value)}`);
}

function show(value: unknown): string {
  if (value === undefined || value === null) return '(none)';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** Who changed the record last, as the service says: how a change made outside the file shows. */
function drift(record: { updatedBy?: string | null; updatedAt?: string | null }): string {
  return record.updatedBy ? `last changed by ${record.updatedBy}${record.updatedAt ? ` at ${record.updatedAt}` : ''}` : 'the service does not say who changed it last';
}

// --- the plan document --------------------------------------------------------------

/**
 * The desired-state file planned against the service, as the saved-plan
 * document (src/plan/saved.ts): what `plan --json` prints, `--out` writes
 * and `apply` runs. Every read the planning made is recorded with it.
 */
export async function planDocument(inputs: PlanInputs): Promise<SavedPlan> {
  const { api, file } = inputs;
  const recorder = recordReads(api);
  let planned: DesiredPlan;
  try {
    planned = await planDesired(inputs);
  } finally {
    recorder.stop();
  }
  return toSavedPlan({
    baseUrl: api.baseUrl,
    domainId: api.domainId ?? '',
    file: { path: resolvePath(file.path), sha256: file.sha256 },
    files: await plannedFiles(planned.steps),
    reads: recorder.reads(),
    steps: planned.steps,
    changes: planned.changes,
    notes: planned.notes,
  });
}

/**
 * A version of that name exists: the file named for it must be the one it
 * was uploaded from (file name, and a size agreeing within the service's
 * rounding), as release decides; another file under the same name is a plan
 * error naming the line. A file no longer on disk is left alone: the
 * version is there, and only its content could tell.
 */
function checkUploaded(file: DesiredFile, at: FieldPath, relative: string, local: { size: number; isFile(): boolean } | undefined, existing: Version[]): void {
  if (!local?.isFile()) return;
  const name = basename(relative);
  const same = existing.some((v) => (v.fileName === undefined || v.fileName === null || v.fileName === name) && sizeAgrees(v.size, local.size));
  if (same) return;
  const found = existing.map((v) => `${v.versionId} (${v.fileName ?? 'no file name'}, ${v.size})`).join(', ');
  throw file.error(at, `${relative} (${local.size} bytes) is not the file this version was uploaded from: ${found}; a version's file cannot change: give the new file another version name`);
}
