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
import { readdirSync, statSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename, resolve as resolvePath } from 'node:path';
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
  defaultOf,
  decideVersionDeploy,
  type ChannelSnapshot,
  type CollectionSnapshot,
  type DeploymentState,
} from '../rules/index.js';
import { LIMITS, type Asset, type AssetUrl, type Collection, type DeployBody, type Item, type Version } from '../rules/schemas.js';
import { findAsset, listAllVersions, listRecords } from '../service/assets.js';
import { listItems, readSnapshot, type CollectionView } from '../service/collections.js';
import { compare, planSync, servedContent } from '../plan/items-plan.js';
import { topFiles } from '../transfer/top-files.js';
import { comparedLine } from '../io/views/collections.js';
import type { Context } from '../io/context.js';
import type { RolloutDefaults } from '../operations/rollout.js';
import { matchesAny } from '../util/glob.js';
import { eachLimited } from '../util/pool.js';
import { sizeAgrees } from '../service/size.js';
import { resolveParams } from '../plan/execute.js';
import { KINDS } from '../plan/kinds/index.js';
import { ref, type Ref, type Step } from '../plan/plan.js';
import { steps } from '../plan/steps.js';
import { fileSha256 } from '../transfer/digest.js';
import { hashServed } from '../service/delivery.js';
import { KNOWN_AFTER_APPLY, plannedFiles, recordReads, toSavedPlan, type ChangeAction, type PlannedChange, type ReadScope, type SavedPlan } from '../plan/saved.js';
import { DEFAULT_FILE, loadDesiredFile, type DesiredFile, type FieldPath } from './file.js';
import { withRequests } from './render.js';
import type { DesiredAsset, DesiredChannel, DesiredCollection, VersionRef } from './schema.js';

/** Assets and collections read at once. */
const RESOURCES_IN_FLIGHT = 8;

export interface DesiredPlan {
  steps: Step[];
  changes: PlannedChange[];
  notes: string[];
}

export interface PlanInputs {
  ctx: Context;
  api: ApiClient;
  /** --checksum: items compared by content wherever they are Live (as compare: checksum in the file). */
  checksum?: boolean;
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
    part.changes.push(change(create, `asset.${assetId}`, 'create', null, fieldsOf(body, ['assetId', 'createdBy'])));
  } else {
    record = asset;
    if (asset.assetType !== spec.type) throw file.error([...at, 'type'], `the asset type cannot change (${assetId} is of type ${asset.assetType}); keep ${asset.assetType}, or use another asset id`);
    const wantedFields = { assetName: spec.name, localCacheControl: spec.localCacheControl, localCacheMaxAge: spec.localCacheMaxAge, active: spec.active };
    const changed = Object.entries(wantedFields).filter(([key, value]) => value !== undefined && asset[key as keyof Asset] !== value);
    if (changed.length > 0) {
      const body = { updatedBy: user, assetType: asset.assetType, ...Object.fromEntries(changed) };
      const update = steps.assetUpdate({ assetId, body, before: asset });
      part.steps.push(update);
      const before = Object.fromEntries(changed.map(([key]) => [key, asset[key as keyof Asset] ?? null]));
      part.changes.push(change(update, `asset.${assetId}`, 'update', before, Object.fromEntries(changed), { notes: [drift(asset)] }));
    }
    if (spec.description !== undefined) part.notes.push(`asset ${assetId}: description cannot be compared (the service never returns it); it is sent only when the asset is created`);
    if (spec.secured !== undefined && spec.secured !== asset.secured) throw file.error([...at, 'secured'], `secured cannot change once the asset exists (${assetId} is ${asset.secured ? '' : 'not '}secured)`);
  }

  // Versions to upload.
  const uploaded: UploadedVersion[] = [];
  const uploads = new Map<string, Step<Version>>();
  const predicted = new Map<string, unknown>();
  for (const [platform, named] of Object.entries(spec.versions ?? {})) {
    for (const [versionName, relative] of Object.entries(named)) {
      const path = file.resolve(relative);
      const local = await stat(path).catch(() => undefined);
      const existing = versions.filter((v) => v.versionName === versionName && v.targetPlatform === platform);
      if (existing.length > 0) {
        // Already uploaded: nothing to send, but a file that is not the one uploaded under that name is said, never passed over.
        const matched = checkUploaded(file, [...at, 'versions', platform, versionName], relative, local, existing);
        if (matched) uploaded.push({ at: [...at, 'versions', platform, versionName], relative, path, versions: matched, label: `${platform}/${versionName}` });
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
      part.changes.push(
        change(upload, `version.${assetId}.${KNOWN_AFTER_APPLY}`, 'upload', null, { versionId: null, versionName, platform, fileName: basename(path), size: local.size, sha256, path: relative }, { unknownAfter: ['versionId'], name: versionName }),
      );
    }
  }

  await compareUploaded(inputs, assetId, uploaded, records, part);
  if (spec.rollout) await noteRollouts(inputs, assetId, spec.rollout, uploaded, part);

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

/**
 * Where each version the file names (and that exists) stands in the rollout
 * its asset declares: a note per version, read only (channels and journal,
 * as `ahs rollout status` reads them). A rollout moves by `ahs rollout`, not
 * by apply: this is what it would find.
 */
async function noteRollouts(inputs: PlanInputs, assetId: string, rollout: RolloutDefaults, uploaded: UploadedVersion[], part: Part): Promise<void> {
  const { rolloutStanding } = await import('../operations/rollout.js');
  const versions = uploaded.flatMap((u) => u.versions.map((v) => ({ v, label: u.label })));
  const notes = await Promise.all(
    versions.map(async ({ v, label }) => {
      const standing = await rolloutStanding(inputs.ctx, inputs.api, { assetId, versionId: v.versionId, platform: v.targetPlatform }, rollout).catch((error: Error) => `not read (${error.message})`);
      return `asset ${assetId}: rollout of ${label} (${v.versionId}) through ${rollout.waves.join(',')}: ${standing}`;
    }),
  );
  part.notes.push(...notes);
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
  /** Its version name. */
  name: string;
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

  const address = `channel.${c.assetId}.${c.platform}.${c.envId}`;
  let evolving = snapshot;
  const body = (intent: 'LIVE' | 'OFFLINE'): DeployBody => ({ envId: c.envId, intent, createdBy: c.user, updatedBy: c.user });
  const idOf = (version: Resolved) => (version.isNew ? null : version.key);
  const unknown = (version: Resolved, field: string) => (version.isNew ? { unknownAfter: [field] } : {});
  const deploy = (version: Resolved, intent: 'LIVE' | 'OFFLINE') => {
    const step = steps.versionDeploy({ assetId: c.assetId, versionId: version.versionId, platform: c.platform, body: body(intent), channel: evolving, versionIsNew: version.isNew });
    const before = version.isNew ? null : (evolving.records[version.key] ?? null);
    if (!version.isNew) evolving = evolve(evolving, version.key, { versionId: version.key, ...body(intent) });
    part.steps.push(step);
    part.changes.push(change(step, address, 'deploy', { version: idOf(version), state: before }, { version: idOf(version), state: intent }, { name: version.name, ...unknown(version, 'version') }));
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
    part.steps.push(promote);
    part.changes.push(change(promote, address, 'promote', { default: currentDefault ?? null }, { default: idOf(target) }, { name: target.name, ...unknown(target, 'default') }));
  }
  for (const { version, state } of wanted.values()) {
    if (state !== 'OFFLINE' || stateOf(version) === 'OFFLINE') continue;
    deploy(version, 'OFFLINE');
  }
  // Versions Live here that the file does not list (a former Default included, once the promotion made it LIVE):
  // with exclusive: true the file is the whole truth of the channel, and they are drift, taken OFFLINE.
  const unlisted = Object.entries(evolving.records).filter(([versionId, state]) => state === 'LIVE' && !wanted.has(versionId)).map(([versionId]) => versionId);
  if (channel.exclusive === true) {
    for (const versionId of unlisted) deploy({ versionId, label: labelOf(c, versionId), name: c.versions.find((v) => v.versionId === versionId)?.versionName ?? versionId, key: versionId, isNew: false, at: c.at }, 'OFFLINE');
  } else if (unlisted.length > 0) {
    part.notes.push(`channel ${name}: not managed by the file (Live, not listed; exclusive: true takes them OFFLINE): ${unlisted.map((id) => labelOf(c, id)).join(', ')}`);
  }
}

function evolve(channel: ChannelSnapshot, versionId: string, request: Parameters<typeof decideVersionDeploy>[1]): ChannelSnapshot {
  const decision = decideVersionDeploy(channel, request);
  return decision.ok ? applyVersionDeploy(channel, versionId, decision) : channel;
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
    return { versionId: version.versionId, label: `${version.versionName} (${version.versionId})`, name: version.versionName, key: version.versionId, isNew: false, at };
  }
  const named = c.versions.filter((v) => v.versionName === entry && v.targetPlatform === c.platform);
  if (named.length > 1) {
    throw c.file.error(at, `${named.length} ${c.platform} versions of ${c.assetId} are named ${entry} (${named.map((v) => v.versionId).join(', ')}): pin one as { versionId: ID }`);
  }
  if (named.length === 1) return { versionId: named[0]!.versionId, label: `${entry} (${named[0]!.versionId})`, name: entry, key: named[0]!.versionId, isNew: false, at };
  const upload = c.uploads.get(`${c.platform}\u0000${entry}`);
  if (upload) return { versionId: ref(upload, 'versionId'), label: `${entry} (${KNOWN_AFTER_APPLY})`, name: entry, key: upload.id, isNew: true, at };
  const elsewhere = c.versions.filter((v) => v.versionName === entry).map((v) => `${v.versionId} on ${v.targetPlatform}`);
  throw c.file.error(
    at,
    `${c.assetId} has no ${c.platform} version named ${entry}${elsewhere.length ? ` (only ${elsewhere.join(', ')}: a version's platform cannot change)` : ''}; add it under versions.${c.platform} to upload it`,
  );
}

// --- collections --------------------------------------------------------------------

async function planCollection(inputs: PlanInputs, collectionId: string, spec: DesiredCollection): Promise<Part> {
  const { api, file, user } = inputs;
  const at: FieldPath = ['collections', collectionId];
  const [view, items] = await Promise.all([readSnapshot(api, collectionId), spec.items ? listItems(api, collectionId).catch(() => [] as Item[]) : Promise.resolve([] as Item[])]);
  const part: Part = { steps: [], changes: [], notes: [] };
  const address = `collection.${collectionId}`;
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
    part.changes.push(change(create, address, 'create', null, fieldsOf(body, ['collectionId', 'createdBy'])));
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
      part.changes.push(change(restore, address, 'update', { deleted: true }, { deleted: false }, { notes: [drift(collection)] }));
      snapshot = { ...snapshot, deleted: false };
    }
    const changed = Object.entries(fields).filter(([key, value]) => value !== undefined && (collection as Record<string, unknown>)[key] !== value);
    if (changed.length > 0) {
      const body = { ...Object.fromEntries(changed), updatedBy: user };
      const decision = decideCollectionUpdate(collectionId, snapshot, body);
      const update = steps.collectionUpdate({ collectionId, body }, { prediction: { current: currentFields(collection), decision } });
      if (decision.ok) snapshot = { ...snapshot, ...pick(body as Partial<CollectionSnapshot>, ['maxAssets', 'editable', 'deployable']) };
      part.steps.push(update);
      const before = Object.fromEntries(changed.map(([key]) => [key, (collection as Record<string, unknown>)[key] ?? null]));
      part.changes.push(change(update, address, 'update', before, Object.fromEntries(changed), { notes: [drift(collection)] }));
    }
  }

  // Items: as `item sync` plans them (src/plan/items-plan.ts).
  const byName = new Map<string, Item | Step<Item>>();
  for (const item of items) byName.set(item.assetItemName, item);
  let itemsChanged = false;
  if (spec.items && 'dir' in spec.items) {
    const source = spec.items;
    const patterns = source.pattern === undefined ? [] : [source.pattern].flat();
    const dir = file.resolve(source.dir);
    const { files, notFollowed, broken } = topFiles(dir, folderEntries(file, [...at, 'items', 'dir'], dir, patterns), source.followLinks === true);
    if (notFollowed.length > 0) part.notes.push(`collection ${collectionId}: skipped ${notFollowed.length} symbolic link(s) in ${source.dir}, not followed without followLinks: true: ${notFollowed.join(', ')}`);
    for (const link of broken) part.notes.push(`collection ${collectionId}: skipped ${link.name} in ${source.dir}: ${link.reason}`);
    const shown = items.filter((item) => patterns.length === 0 || matchesAny(item.assetItemName, patterns));
    const checksum = source.compare === 'checksum' || inputs.checksum === true;
    const itemView: CollectionView = { collection: view.collection, status: view.status, snapshot };
    const comparison = await compare(files, shown, checksum && present ? servedContent(inputs.ctx, itemView) : undefined);
    if (checksum) comparison.compared.checksum = true;
    const removals = source.prune === true ? comparison.orphans : [];
    const uploads = new Map(files.map((local) => [local, { collectionId, fields: { assetItemName: local.name, assetType: source.type, createdBy: user }, file: { path: local.path, name: local.name, size: local.size } }]));
    const sync = planSync({
      view: itemView,
      itemCount: shown.length === items.length ? snapshot.itemCount : items.length,
      comparison,
      removals,
      uploads,
      room: snapshot.maxAssets - (items.length - removals.length),
      user,
      assetType: source.type,
      refuse: { hint: 'ahs plan shows every request and what the service would answer' },
      groupPrefix: `items:${collectionId}:`,
    });
    snapshot = { ...snapshot, itemCount: sync.itemCount };
    for (const { file: local, item } of comparison.unchanged) byName.set(local.name, item);
    for (const r of sync.replacements) byName.set(r.file.name, r.upload);
    for (const u of sync.uploads) byName.set(u.file.name, u.step);
    if (comparison.compared.content + comparison.compared.size > 0) part.notes.push(`collection ${collectionId}: items ${comparedLine(comparison.compared)}`);
    if (sync.all.length > 0) {
      itemsChanged = true;
      part.steps.push(...sync.all);
      const item = (name: string) => `item.${collectionId}.${name}`;
      const was = (old: Item) => ({ itemId: old.assetItemId, size: old.size });
      for (const r of sync.removals) part.changes.push(change(r.step, item(r.old.assetItemName), 'remove', was(r.old), null, { notes: ['no file of that name'] }));
      for (const r of sync.replacements) {
        const compared = comparison.rules.get(r.file.name);
        const upload = change(r.upload, item(r.file.name), 'upload', was(r.old), { itemId: null, size: r.file.size }, { unknownAfter: ['itemId'], ...(compared ? { compared } : {}) });
        const remove = change(r.remove, item(r.old.assetItemName), 'remove', was(r.old), null, { notes: [r.removeFirst ? 'replaced: removed first, the collection is at maxAssets' : 'replaced by the new upload'] });
        part.changes.push(...(r.removeFirst ? [remove, upload] : [upload, remove]));
      }
      for (const u of sync.uploads) part.changes.push(change(u.step, item(u.file.name), 'upload', null, { itemId: null, size: u.file.size }, { unknownAfter: ['itemId'] }));
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
      const update = steps.collectionUpdate({ collectionId, body: { anchorAsset: anchorId, updatedBy: user }, before: { anchorAsset: collection?.anchorAsset ?? null } }, { prediction: { current: collection?.anchorAsset ?? null, decision: allow(200, { anchorAsset: spec.anchor }) } });
      part.steps.push(update);
      part.changes.push(change(update, address, 'update', { anchor: anchorName(collection?.anchorAsset ?? undefined, items) ?? null }, { anchor: spec.anchor }));
    }
  }

  // Deployments per environment; OFFLINE needs a deployment first.
  const deployments = Object.entries(spec.deployments ?? {});
  const deploySteps: Step[] = [];
  const deployTo = (envId: string, state: 'LIVE' | 'OFFLINE', notes?: string[]) => {
    const request = { state, envId, createdBy: user, updatedBy: user };
    const before = snapshot.deployments[envId] ?? null;
    const decision = decideCollectionDeploy(collectionId, snapshot, request);
    if (decision.ok) snapshot = { ...snapshot, deployments: { ...snapshot.deployments, [envId]: state } };
    const step = steps.collectionDeploy({ collectionId, user, state, envId }, { prediction: { current: before, decision } });
    deploySteps.push(step);
    part.changes.push(change(step, `${address}.deployment.${envId}`, 'deploy', { state: before }, { state }, notes ? { notes } : {}));
  };
  for (const [envId, state] of deployments) {
    const current = snapshot.deployments[envId];
    if (current === state) continue;
    if (state === 'OFFLINE' && !current) deployTo(envId, 'LIVE', ['deployed LIVE first: only a deployment can be taken OFFLINE']);
    deployTo(envId, state);
  }
  // New items reach the environments where the collection stays Live by a re-run of its deployments.
  const stayLive = Object.entries(snapshot.deployments).filter(([envId, state]) => state === 'LIVE' && !deploySteps.some((s) => (s.params as { envId?: string }).envId === envId));
  if (itemsChanged && present && stayLive.length > 0) {
    const reconcile = steps.collectionReconcile({ collectionId, user }, { prediction: { current: snapshot.deployments, decision: decideCollectionReconcile(collectionId, snapshot, user) } });
    deploySteps.push(reconcile);
    for (const [envId] of stayLive) part.changes.push(change(reconcile, `${address}.deployment.${envId}`, 'deploy', { state: 'LIVE' }, { state: 'LIVE' }, { notes: ['re-run: the items changed'] }));
  }
  part.steps.push(...deploySteps);
  return part;
}

/** The entries of the items folder whose names match the patterns, sorted; a folder that cannot be read is an error at its line. */
function folderEntries(file: DesiredFile, at: FieldPath, dir: string, patterns: string[]): string[] {
  let names: string[];
  try {
    if (!statSync(dir).isDirectory()) throw Object.assign(new Error('not a folder'), { code: 'ENOTDIR' });
    names = readdirSync(dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw file.error(at, `cannot read the folder ${dir}: ${code === 'ENOENT' ? 'no such folder' : code === 'ENOTDIR' ? 'not a folder' : (error as Error).message}`);
  }
  return names.sort().filter((name) => patterns.length === 0 || matchesAny(name, patterns));
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

function fieldsOf(body: Record<string, unknown>, leave: string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(body).filter(([key, value]) => !leave.includes(key) && value !== undefined));
}

/** A change of the plan document: values (the request and the prediction are added with the document). */
function change(step: Step, address: string, action: ChangeAction, before: Record<string, unknown> | null, after: Record<string, unknown> | null, extra: Partial<PlannedChange> = {}): PlannedChange {
  return { address, action, before, after, ...extra, step: step.id };
}

/** Who changed the record last, as the service says: how a change made outside the file shows. */
function drift(record: { updatedBy?: string | null; updatedAt?: string | null }): string {
  return record.updatedBy ? `last changed by ${record.updatedBy}${record.updatedAt ? ` at ${record.updatedAt}` : ''}` : 'the service does not say who changed it last';
}

// --- the plan document --------------------------------------------------------------

/** What `ahs plan` (and `ahs apply` without a saved plan) is given, typed: the library's plan() and apply() give the same. */
export interface DesiredInput {
  /** The desired-state file, YAML or JSON (default ahs.yaml in the working folder). */
  file?: string | undefined;
  /** How the caller names that file, for messages (default the CLI's `-f FILE`). */
  fileAs?: string | undefined;
  /** --target: `asset.ID`, `collection.ID`, or an id of either; none: everything. */
  targets?: string[] | undefined;
  /** Compare items by content (SHA-256 of what a Live item serves), as `compare: checksum` in the file's items and `ahs plan --checksum`. */
  checksum?: boolean | undefined;
  /** The acting user, read (or asked for) once the file is read. */
  user: () => Promise<string>;
}

/** The file read and planned: the plan document (nothing is sent, nothing printed). */
export async function planFile(ctx: Context, input: DesiredInput): Promise<SavedPlan> {
  const file = await loadDesiredFile(input.file ?? DEFAULT_FILE, input.fileAs);
  const user = await input.user();
  const api = await ctx.api();
  return planDocument({ ctx, api, checksum: input.checksum, file, user, targets: input.targets, signal: ctx.signal });
}

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
    reads: recorder.reads(channelScope(planned.steps)),
    steps: planned.steps.map(withoutGuessedIds),
    changes: withRequests(planned.changes, planned.steps, api),
    notes: planned.notes,
  });
}

/**
 * Fingerprints per channel (issue 31): a read of an asset's deployment
 * records covers the channels the plan changes only (their steps were
 * decided on those records), so a promotion on another channel of the
 * same asset leaves a saved plan fresh.
 */
function channelScope(planned: Step[]): ReadScope {
  const changed = new Map<string, string[]>();
  for (const step of planned) {
    if (step.kind !== 'version.deploy' && step.kind !== 'version.promote') continue;
    const p = step.params as { assetId: string; platform: string; envId?: string; body?: { envId?: string } };
    const channel = `${p.platform}/${p.envId ?? p.body?.envId}`;
    changed.set(p.assetId, [...new Set([...(changed.get(p.assetId) ?? []), channel])]);
  }
  return (path) => {
    const match = /\/va\/([^/]+)(?:\/versions\/[^/]+)?\/asset-urls$/.exec(path);
    return match ? (changed.get(decodeURIComponent(match[1]!)) ?? []) : undefined;
  };
}

/** An upload's predicted answer without the id the service will assign (null: it is not known before the apply). */
function withoutGuessedIds(step: Step): Step {
  const field = step.kind === 'version.upload' ? 'versionId' : step.kind === 'item.upload' ? 'assetItemId' : undefined;
  const decision = step.prediction?.decision as { ok: boolean; next?: Record<string, unknown> } | undefined;
  if (!field || !decision?.ok || !decision.next) return step;
  return { ...step, prediction: { ...step.prediction!, decision: { ...decision, next: { ...decision.next, [field]: null } } as never } };
}

/**
 * A version of that name exists: the file named for it must be the one it
 * was uploaded from (file name, and a size agreeing within the service's
 * rounding), as release decides; another file under the same name is a plan
 * error naming the line. A file no longer on disk is left alone: the
 * version is there, and only its content could tell.
 */
function checkUploaded(file: DesiredFile, at: FieldPath, relative: string, local: { size: number; isFile(): boolean } | undefined, existing: Version[]): Version[] | undefined {
  if (!local?.isFile()) return undefined;
  const name = basename(relative);
  const same = existing.filter((v) => (v.fileName === undefined || v.fileName === null || v.fileName === name) && sizeAgrees(v.size, local.size));
  if (same.length > 0) return same;
  const found = existing.map((v) => `${v.versionId} (${v.fileName ?? 'no file name'}, ${v.size})`).join(', ');
  throw file.error(at, `${relative} (${local.size} bytes) is not the file this version was uploaded from: ${found}; a version's file cannot change: give the new file another version name`);
}

interface UploadedVersion {
  at: FieldPath;
  relative: string;
  path: string;
  /** The versions of that name whose file name and size agree with the file. */
  versions: Version[];
  /** "ios/1.4.2". */
  label: string;
}

/**
 * A version already uploaded is compared by content where it can be
 * downloaded (LIVE or DEFAULT somewhere: its record has a downloadUrl), as
 * release does: what the delivery network serves is hashed (never written)
 * and another SHA-256 than the file's is a plan error at its line naming
 * both. Elsewhere name and size decided, and the plan says which rule did.
 */
async function compareUploaded(inputs: PlanInputs, assetId: string, uploaded: UploadedVersion[], records: AssetUrl[], part: Part): Promise<void> {
  if (uploaded.length === 0) return;
  const servedBy = (entry: UploadedVersion) =>
    entry.versions.map((v) => records.find((r) => r.versionId === v.versionId && r.downloadUrl && (r.state === 'LIVE' || r.state === 'DEFAULT'))).filter((r): r is AssetUrl => r !== undefined);
  const tasks = uploaded.flatMap((entry) => servedBy(entry).map((r) => ({ id: r.versionId, name: r.versionId, url: new URL(r.downloadUrl!, inputs.api.baseUrl).toString() })));
  const unique = [...new Map(tasks.map((t) => [t.id, t])).values()];
  const [summary, locals] = await Promise.all([
    unique.length > 0 ? hashServed(inputs.ctx, unique, { label: `comparing ${unique.length} version(s) of ${assetId} by content` }) : Promise.resolve({ hashed: [], failed: [] }),
    Promise.all(uploaded.map(async (entry) => (servedBy(entry).length > 0 ? fileSha256(entry.path) : undefined))),
  ]);
  const served = new Map(summary.hashed.map((h) => [h.id, h.sha256]));
  const byContent: string[] = [];
  const bySize: string[] = [];
  for (const [index, entry] of uploaded.entries()) {
    const local = locals[index];
    const hashed = servedBy(entry).filter((r) => served.has(r.versionId));
    if (local === undefined || hashed.length === 0) {
      bySize.push(`${entry.label} (${entry.versions.map((v) => v.versionId).join(', ')})`);
      continue;
    }
    const equal = hashed.find((r) => served.get(r.versionId) === local);
    if (equal) {
      byContent.push(`${entry.label} (${equal.versionId})`);
      continue;
    }
    const other = hashed[0]!;
    throw inputs.file.error(
      entry.at,
      `${entry.relative} is not the content of ${other.versionId}: it serves SHA-256 ${served.get(other.versionId)}, the file is ${local}; a version's file cannot change: give the new file another version name`,
    );
  }
  for (const failed of summary.failed) part.notes.push(`asset ${assetId}: could not download ${failed.id} to compare its content (${failed.error}): compared by name and size`);
  if (byContent.length) part.notes.push(`asset ${assetId}: versions compared by content (SHA-256 of what is served): ${byContent.join(', ')}`);
  if (bySize.length) part.notes.push(`asset ${assetId}: versions compared by file name and size (LIVE or DEFAULT nowhere, so not downloadable): ${bySize.join(', ')}`);
}
