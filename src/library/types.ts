// The library's public types (cli.md, "In CI, and from code"): what
// `import { createClient } from 'ahs-cli'` gives, written out on their own so
// that the declarations shipped in dist/ (scripts/build.mjs) name no
// internal module and no bundled package (zod, undici). The implementation
// (./client.ts) is checked against them by tsc; the records are the spec's
// shapes, which the CLI checks every answer against (src/rules/schemas.ts).
//
// A write's parameters are the command's own arguments and flags, by the
// same camelCase keys as `run` receives them (`ahs release ASSET FILE --name
// N --expect-current V` is `release({ assetId, file, name, expectCurrent })`),
// plus the settings the command reads (`platform`, `envId`, `user`).

import type { ErrorBody } from '../errors.js';

/** How to reach the service. Only what is given here is used, unless `profile` or `fromEnvironment` asks for more. */
export interface ClientOptions {
  /** The API's base URL, without /api/v2 (https://assets.example.com). */
  baseUrl?: string;
  domainId?: string;
  apiKey?: string;
  /** The acting user's e-mail (createdBy / updatedBy / deletedBy). */
  user?: string;
  /** The delivery network's URL (default: baseUrl). */
  deliveryUrl?: string;
  /** The budget of one request, its retries included (default 30 000). */
  timeoutMs?: number;
  /** Retries of a request that surely did not apply (a read, a 429, a network error before sending; default 2); a deployment in progress is waited out up to timeoutMs. */
  retries?: number;
  /** Aborting it stops what is running: a CancelledError (kind 'interrupted'). */
  signal?: AbortSignal;
  /** Settings of this profile (of `ahs profile add`); what is given above wins. */
  profile?: string;
  /** As the CLI: AHS_* environment variables and the current profile; what is given above wins. */
  fromEnvironment?: boolean;
  /** Each line the CLI would print on stderr (stage lines, warnings); none when absent. */
  onMessage?: (line: string) => void;
  /** The journal collection (`ahs journal init`): every write of this client is recorded in it, and history() reads it. */
  journal?: string;
}

// --- records of the service (spec: asset-hosting-api-v2.md) -----------------------

export type DeploymentState = 'LIVE' | 'DEFAULT' | 'OFFLINE';

export interface Asset {
  assetId: string;
  assetName: string;
  assetType: string;
  secured: boolean;
  localCacheControl: boolean;
  localCacheMaxAge: number;
  createdBy: string;
  updatedBy: string;
  active: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface Version {
  versionId: string;
  version: number;
  versionName: string;
  targetPlatform: string;
  assetType: string;
  secured: boolean;
  /** As the service formats it ("1.2 MB"). */
  size: string;
  fileName?: string;
  uploadStatus: 'Committed';
  createdBy: string;
  updatedBy: string;
  active: boolean;
  createdAt: string;
  updatedAt: string;
}

/** A version's state on one channel (asset, platform, environment): GET /va/{id}/asset-urls. */
export interface ChannelRecord {
  assetId: string;
  version: number;
  versionId: string;
  versionName: string;
  targetPlatform: string;
  assetType: string;
  secured: boolean;
  state: DeploymentState;
  envId: string;
  downloadUrl?: string;
}

/** The deploy endpoint's record (or, when a lost answer was settled by a read, the channel's record). */
export interface DeploymentRecord {
  versionId: string;
  versionName: string;
  version: number;
  targetPlatform: string;
  envId: string;
  state: DeploymentState;
  [field: string]: unknown;
}

export interface Collection {
  collectionId: string;
  domainId: string;
  collectionName: string;
  description?: string | null;
  allowedAssetTypes: string[];
  maxAssets: number;
  editable: boolean;
  deployable: boolean;
  anchorAsset?: string | null;
  assetItems: string[];
  targetPlatform: string;
  createdBy: string;
  updatedBy: string;
  deleted: boolean;
  deletedAt?: string | null;
  localCacheControl: boolean;
  localCacheMaxAge: number;
  createdAt: string;
  updatedAt: string;
}

export interface Item {
  assetItemId: string;
  assetItemName: string;
  assetType: string;
  mimetype: string;
  size: number;
  fileName: string;
  parentCollections: string[];
  domain: string;
  createdBy: string;
  updatedBy: string;
  uploadStatus: 'Committed';
  createdAt: string;
  updatedAt: string;
}

// --- plans -----------------------------------------------------------------------

/** A value taken from an earlier step's answer (the id of the version an upload makes, for its deploy). */
export interface StepRef {
  $ref: string;
  field: string;
  optional?: boolean;
}

/** One request of a plan, as data: what `--dry-run` predicts and apply() sends. */
export interface PlanStep {
  id: string;
  /** asset.create, version.upload, version.deploy, version.promote, item.upload, ... */
  kind: string;
  /** The request's parameters; a parameter may be a StepRef. */
  params: Record<string, unknown>;
  /** Steps of one batch run together, bounded: `concurrency` chains of steps (one `after` another) at once, or with `bounds: 'requests'`, requests in flight. */
  batch?: { group: string; concurrency: number; bounds?: 'chains' | 'requests' };
  /** Steps of the same batch that must succeed first. */
  after?: string[];
}

/** The dry-run document of cli.md: the last request, with the ones before it in `before`. */
export interface DryRunDocument {
  dryRun: true;
  request: { method: string; path: string; query: Record<string, string>; body: unknown };
  current: unknown;
  /** What the service's rules say it would answer; `error` is set when it would refuse. */
  predicted: { status: number; state: unknown; effects: Array<{ description: string; [field: string]: unknown }>; error: ErrorBody | null };
  before?: Array<Omit<DryRunDocument, 'dryRun' | 'before'>>;
}

/** Nothing to send: the target is already as asked (`{changed: false, state, message}` as the CLI prints it). */
export interface Unchanged {
  changed: false;
  state: unknown;
  message: string;
}

/**
 * A write, planned from what was read and not yet sent. `steps` are its
 * requests; predict() says what the service would answer (never sends);
 * apply() sends them (once), settling lost answers and waiting out
 * deployments as the CLI does, and resolves to the CLI's JSON document `R`
 * (Unchanged among them for a write that can find nothing to do).
 */
export interface PlannedWrite<R> {
  readonly steps: readonly PlanStep[];
  /** Set when there is nothing to send. */
  readonly unchanged?: Unchanged;
  /**
   * The CLI's `--dry-run --json` document; a predicted refusal is in its
   * `predicted.error` (apply() would throw it). A write with nothing to
   * send resolves to what apply() would.
   */
  predict(): Promise<DryRunDocument | R>;
  apply(): Promise<R>;
}

// --- what a write resolves to (the CLI's JSON) -----------------------------------

export interface DeployResult {
  assetVersion: DeploymentRecord | ChannelRecord;
  message: string;
}

export interface PromotionResult {
  assetVersion: DeploymentRecord | ChannelRecord;
  message: string;
  previousDefault: string | null;
  attempts: number;
  [field: string]: unknown;
}

export interface ReleaseResult {
  version: Version;
  assetVersion: DeploymentRecord | ChannelRecord;
  previousDefault: string | null;
  /** `matched`, on the upload stage of a version already there: how it was found to be the file's (its content compared, or its name and size only when it cannot be downloaded). */
  stages: Array<{ stage: 'upload' | 'deploy' | 'promote'; changed: boolean; matched?: 'content' | 'name and size' }>;
}

export interface SyncResult {
  uploaded: Item[];
  replaced: Array<{ old: string; new: Item; removedFirst: boolean }>;
  removed: string[];
  unchanged: string[];
  failed: Array<{ file: string | null; error: ErrorBody }>;
  /** Which rule decided for how many files; checksum: compared by content where an item is Live (else a same-size edit is not seen). */
  compared: { content: number; size: number; checksum: boolean };
  /** Entries of the folder not synced: symbolic links without followLinks. */
  skipped: Array<{ file: string; reason: string }>;
  reconciled?: boolean;
}

/** What a write that answers with a message resolves to (collection delete, restore, purge, undeploy; item remove). */
export interface MessageResult {
  message: string;
  [field: string]: unknown;
}

/** `asset undeploy`: the service's answer. */
export interface UndeployResult {
  message: string;
  totalUndeployedVersions: number;
}

/** `asset delete`, `version delete`: the service answers with no body; the CLI's JSON names what went. */
export interface DeletedResult {
  deleted: true;
  assetId: string;
  versionId?: string;
}

/** `collection-deploy`: LIVE answers with the collection's download URL; OFFLINE and a reconcile with a message. */
export interface CollectionDeployResult {
  downloadUrl?: string;
  message?: string;
}

/** `item upload`: the items made, and each file the service refused (a refused file does not stop the others; apply() then throws). */
export interface ItemUploadResult {
  uploaded: Item[];
  failed: Array<{ file: string; error: ErrorBody }>;
}

/** `ahs plan --json`: the plan document, as `--out` saves it. */
export interface DesiredPlanDocument {
  formatVersion: number;
  baseUrl: string;
  domainId: string;
  file?: { path: string; sha256: string };
  files: Array<{ path: string; size: number; sha256: string }>;
  reads: Array<{ method: 'GET'; path: string; query: Record<string, string>; status: number; fingerprint: string; summary: string }>;
  steps: PlanStep[];
  changes?: Array<{ resource: string; action: 'create' | 'update' | 'delete'; lines: string[]; steps: string[]; notes?: string[] }>;
  notes?: string[];
}

export interface ApplyResult {
  changed: number;
  steps: Array<{ resource: string; action: 'create' | 'update' | 'delete'; request: { method: string; path: string; query: Record<string, string>; body: unknown }; outcome: 'done' | 'failed' | 'unknown' | 'not sent' }>;
  failed: Array<{ resource: string; step: string; error: ErrorBody }>;
}

// --- parameters ------------------------------------------------------------------

/** The channel a write targets; `user` overrides the client's. */
export interface ChannelParams {
  assetId: string;
  platform: string;
  envId: string;
  user?: string;
}

export interface CreateAssetParams {
  assetId: string;
  name: string;
  /** Asset type code. */
  type: string;
  description?: string;
  /** false: delivered without an API key. Default true. */
  secured?: boolean;
  localCacheControl?: boolean;
  localCacheMaxAge?: number;
  user?: string;
}

export interface UpdateAssetParams {
  assetId: string;
  name?: string;
  description?: string;
  /** Sent as the asset's current type when absent (the service requires it; it cannot actually change). */
  type?: string;
  localCacheControl?: boolean;
  localCacheMaxAge?: number;
  /** false: mark the asset inactive; true: active again. */
  active?: boolean;
  user?: string;
}

export interface AssetParams {
  assetId: string;
  user?: string;
}

export interface UndeployAssetParams {
  assetId: string;
  envId: string;
  /** The platforms whose records go (every version's): one, or several. */
  platform: string | string[];
  user?: string;
}

export interface VersionParams {
  assetId: string;
  versionId: string;
}

export interface CreateCollectionParams {
  collectionId: string;
  name: string;
  /** Asset type codes items may have (9999 = Other is always allowed). */
  allowedTypes: string[];
  description?: string;
  maxAssets?: number;
  /** false: items cannot be added or removed. Default true. */
  editable?: boolean;
  /** false: the collection cannot be deployed. Default true. */
  deployable?: boolean;
  /** The anchor (default) item's id. */
  anchor?: string;
  /** The collection's platform (permanent; default generic). */
  platform?: string;
  /** false: delivered without an API key. Default true. */
  secured?: boolean;
  localCacheControl?: boolean;
  localCacheMaxAge?: number;
  user?: string;
}

/** The updatable fields (`ahs collection update`); the id, allowed types, platform and `secured` are permanent. */
export interface UpdateCollectionParams {
  collectionId: string;
  name?: string;
  description?: string;
  maxAssets?: number;
  editable?: boolean;
  deployable?: boolean;
  anchor?: string;
  localCacheControl?: boolean;
  localCacheMaxAge?: number;
  user?: string;
}

export interface CollectionParams {
  collectionId: string;
  user?: string;
}

export interface UndeployCollectionParams extends CollectionParams {
  envId: string;
}

export interface DeployCollectionParams extends CollectionParams {
  /** Absent: the API key's own environment. */
  envId?: string;
  /** Default LIVE. */
  state?: 'LIVE' | 'OFFLINE';
  /** Already in that state: nothing to send (`unchanged`). */
  idempotent?: boolean;
  /** Re-run the Live deployment wherever it is Live (instead of state / envId). */
  reconcile?: boolean;
}

export interface UploadItemsParams {
  collectionId: string;
  /** The paths of the files to upload. */
  files: string[];
  /** Asset type code of the items (default: the collection's only allowed type). */
  type?: string;
  /** The item's name, with one file only (default: the file name). */
  name?: string;
  /** Files uploaded at the same time (default 8). */
  concurrency?: number;
  user?: string;
}

export interface ItemParams {
  collectionId: string;
  itemId: string;
  user?: string;
}

export interface UploadVersionParams {
  assetId: string;
  /** The path of the file to upload. */
  file: string;
  platform: string;
  /** The version name (max 64 characters). */
  name: string;
  user?: string;
}

export interface DeployParams extends ChannelParams {
  versionId: string;
  /** Default LIVE. */
  state?: 'LIVE' | 'OFFLINE';
  /** Already in that state: nothing to send (`unchanged`). */
  idempotent?: boolean;
}

export interface PromoteParams extends ChannelParams {
  /** The version to promote (or `fromEnv`). */
  versionId?: string;
  /** Promote the Default of this environment instead. */
  fromEnv?: string;
  /** Deploy it LIVE first when it is not. */
  makeLive?: boolean;
  /** Compare-and-set: the current Default must be this version ('none': no Default yet); else a ConflictError. */
  expectCurrent?: string;
  idempotent?: boolean;
}

export interface ReleaseParams extends ChannelParams {
  /** The path of the file to release. */
  file: string;
  /** The version name: the key that makes a re-run resume. */
  name: string;
  /** Where the release ends. Default DEFAULT. */
  state?: 'LIVE' | 'DEFAULT';
  expectCurrent?: string;
}

export interface RollbackParams extends ChannelParams {
  /** The version to make the Default again; without it, the one the journal (when set) or the channel's records prove was the Default before. */
  to?: string;
}

/**
 * What `ahs verify` checks (cli.md, "In CI, and from code"): the items a
 * collection serves in `envId` against the files at the top of `dir`, or a
 * channel's Default (or `versionId`) against `file`; with `sums` instead of
 * `dir` or `file`, against the lines of a sums file (as `sha256sum -c`
 * reads it).
 */
export type VerifyParams = VerifyCollectionParams | VerifyAssetParams;

export interface VerifyCollectionParams {
  collectionId: string;
  envId: string;
  dir?: string;
  sums?: string;
  /** Follow symbolic links in `dir` (as item sync's followLinks). */
  followLinks?: boolean;
  /** Files downloaded at the same time (default 8). */
  concurrency?: number;
}

export interface VerifyAssetParams {
  assetId: string;
  platform: string;
  envId: string;
  file?: string;
  sums?: string;
  /** Check this version (LIVE or DEFAULT in envId) rather than the Default. */
  versionId?: string;
}

/** The answer of a verify, everything matched or not (names as the files in dir, `file`, or the lines of `sums`). */
export interface VerifyResult {
  matched: string[];
  /** expected: the local (or listed) SHA-256; actual: the SHA-256 of what the delivery network serves. */
  differ: Array<{ name: string; expected: string; actual: string }>;
  /** Served, without a file or line. */
  missing: string[];
  /** A file or line, not served. */
  extra: string[];
  /** Could not be downloaded. */
  failed: Array<{ name: string; error: string }>;
}

export interface SyncParams {
  collectionId: string;
  /** The folder whose files the collection should hold (its top level). */
  dir: string;
  /** Asset type code of uploaded items (default: the collection's only allowed type). */
  type?: string;
  /** Remove the items that have no file of their name in `dir`. */
  delete?: boolean;
  followLinks?: boolean;
  /** Only files (and items) whose name matches one of these globs. */
  pattern?: string[];
  /** Re-run the Live deployments of the collection at the end. */
  reconcile?: boolean;
  /** Compare content by SHA-256 where it can be downloaded. */
  checksum?: boolean;
  user?: string;
}

export interface DesiredStateParams {
  /** The desired-state file, YAML or JSON (default ahs.yaml in the working folder). */
  file?: string;
  /** Only these resources of the file: asset.ID, collection.ID. */
  target?: string[];
  user?: string;
}

export interface ApplyParams extends DesiredStateParams {
  /** A plan saved by `ahs plan --out` (instead of `file`): checked for staleness first. */
  plan?: string;
}

export interface RecordFilter {
  platform?: string;
  envId?: string;
  state?: DeploymentState;
}

// --- the client ------------------------------------------------------------------

/**
 * The service, as the CLI sees it. Reads are async iterators (every page
 * is read, in parallel and checked as `--all` does, then yielded in the
 * service's order); writes resolve to a PlannedWrite. Every failure is an
 * AhsError with the CLI's `exitCode` and `kind`.
 */
export interface Client {
  assets: {
    list(): AsyncIterable<Asset>;
    get(assetId: string): Promise<Asset>;
    create(params: CreateAssetParams): Promise<PlannedWrite<Asset>>;
    update(params: UpdateAssetParams): Promise<PlannedWrite<Asset>>;
    /** An asset with no versions (`ahs asset delete`). */
    delete(params: AssetParams): Promise<PlannedWrite<DeletedResult>>;
    /** Every version's deployment record for the platforms in one environment (`ahs asset undeploy`). */
    undeploy(params: UndeployAssetParams): Promise<PlannedWrite<UndeployResult>>;
  };
  versions: {
    list(assetId: string): AsyncIterable<Version>;
    get(assetId: string, versionId: string): Promise<Version>;
    upload(params: UploadVersionParams): Promise<PlannedWrite<Version>>;
    delete(params: VersionParams): Promise<PlannedWrite<DeletedResult>>;
  };
  collections: {
    list(): AsyncIterable<Collection>;
    get(collectionId: string): Promise<Collection>;
    create(params: CreateCollectionParams): Promise<PlannedWrite<Collection>>;
    update(params: UpdateCollectionParams): Promise<PlannedWrite<Collection>>;
    /** Soft delete: restore() brings it back, purge() removes it for good. */
    delete(params: CollectionParams): Promise<PlannedWrite<MessageResult>>;
    restore(params: CollectionParams): Promise<PlannedWrite<MessageResult>>;
    purge(params: CollectionParams): Promise<PlannedWrite<MessageResult>>;
    /** Deploy LIVE or OFFLINE in an environment, or re-run every Live deployment (`ahs collection-deploy`). */
    deploy(params: DeployCollectionParams): Promise<PlannedWrite<CollectionDeployResult | Unchanged>>;
    undeploy(params: UndeployCollectionParams): Promise<PlannedWrite<MessageResult>>;
  };
  items: {
    list(collectionId: string): AsyncIterable<Item>;
    /** Files into a collection, several at once (`ahs item upload`). */
    upload(params: UploadItemsParams): Promise<PlannedWrite<ItemUploadResult>>;
    remove(params: ItemParams): Promise<PlannedWrite<MessageResult>>;
    /** Make the collection hold the folder's files (`ahs item sync`). */
    sync(params: SyncParams): Promise<PlannedWrite<SyncResult>>;
  };
  /** Deployment records of an asset, OFFLINE included, sorted as `ahs asset status`. */
  records(assetId: string, filter?: RecordFilter): AsyncIterable<ChannelRecord>;
  /** The records of one channel. */
  channel(assetId: string, platform: string, envId: string): AsyncIterable<ChannelRecord>;
  deploy(params: DeployParams): Promise<PlannedWrite<DeployResult | Unchanged>>;
  promoteDefault(params: PromoteParams): Promise<PlannedWrite<PromotionResult | Unchanged>>;
  /** Upload, deploy LIVE, promote: each stage skipped when already done (`ahs release`). */
  release(params: ReleaseParams): Promise<PlannedWrite<ReleaseResult>>;
  rollback(params: RollbackParams): Promise<PlannedWrite<PromotionResult | Unchanged>>;
  /**
   * Whether what is Live is byte for byte the local files (`ahs verify`):
   * resolves with the answer whether or not everything matched (a difference
   * is where the CLI exits 1); rejects when the check cannot be made (a
   * UsageError for a bad sums file or path, a NotFoundError...). Reads only.
   */
  verify(params: VerifyParams): Promise<VerifyResult>;
  /**
   * Moves a rollout on from where it stands (`ahs rollout`): promotes every
   * wave whose gates hold, then resolves with where it stands. A rollout
   * that waits (a soak, an approval: the CLI's exit 11) resolves too, its
   * `next.action` being `wait`; a halt (a failed check, a moved channel)
   * rejects with the CLI's error.
   */
  rollout(params: RolloutParams): Promise<RolloutDocument>;
  /** Where a rollout stands (`ahs rollout status`). Reads only. */
  rolloutStatus(params: RolloutParams): Promise<RolloutDocument>;
  /** Each wave's previous Default back, newest first (`ahs rollout abort`); a channel moved since rejects (conflict) after the others. */
  rolloutAbort(params: RolloutParams): Promise<RolloutDocument>;
  /** What apply would change to make the service hold the desired-state file (`ahs plan`). Sends nothing. */
  plan(params?: DesiredStateParams): Promise<DesiredPlanDocument>;
  /** Make the service hold the desired-state file, or send a saved plan (`ahs apply`). */
  apply(params?: ApplyParams): Promise<PlannedWrite<ApplyResult>>;
  /**
   * The journal's entries, newest first (`ahs history`): read a chunk at a
   * time, so stopping early reads no more. Needs a journal (the `journal`
   * option, or with `fromEnvironment`/`profile` the journal setting).
   */
  history(params?: HistoryParams): AsyncIterable<JournalEntry>;
  /** Closes the connections of the writes planned and never applied. */
  close(): Promise<void>;
}

/** A rollout (`ahs rollout`): the same arguments for a run, its status and its abort. */
export interface RolloutParams {
  assetId: string;
  /** The version, or `name` on the platform. */
  versionId?: string;
  name?: string;
  platform: string;
  /** The environments, in order. */
  waves: string[];
  /** Soak after a wave's promotion, by environment: `{staging: '30m'}`. Needs the journal. */
  soak?: Record<string, string>;
  /** A shell command run before and after each promotion (`--check`). */
  check?: string;
  approve?: string[];
  approved?: string[];
  user?: string;
}

/** Where a rollout stands: each wave, and what comes next. */
export interface RolloutDocument {
  asset: string;
  version: string;
  platform: string;
  waves: Array<{ env: string; state: 'done' | 'soaking' | 'next' | 'waiting-approval' | 'pending' | 'moved' | 'aborted'; gate: string | null; since: string | null; until: string | null; previousDefault: string | null }>;
  next: { action: 'promote' | 'wait' | 'halt' | 'aborted' | 'complete'; env?: string | null; for?: 'soak' | 'approval'; soaking?: string; until?: string; found?: string | null };
  /** The waves this call promoted. */
  promoted: string[];
}

export interface HistoryParams {
  /** An asset id or a collection id: only its changes. */
  id?: string;
  platform?: string;
  envId?: string;
  /** Entries from this time on (a Date or an ISO 8601 date or timestamp). */
  since?: Date | string;
  until?: Date | string;
  limit?: number;
}

/** One change, in the shared address scheme (`channel.A.P.E`, `version.A.V`, `item.C.NAME`, ...). */
export interface JournalChange {
  address: string;
  before: unknown;
  after: unknown;
  unknownAfter?: string[];
  unknownBefore?: string[];
}

/** A journal entry: what ahs recorded, with the service's createdAt/createdBy of it. */
export interface JournalEntry {
  apiVersion: 'ahs/journal/v1';
  command: string;
  arguments: string[];
  actor: string;
  ci?: { runUrl?: string; sha?: string; ref?: string };
  changes: JournalChange[];
  outcome: 'applied' | 'unknown';
  exitCode: number;
  rollout?: Record<string, unknown>;
  createdAt: string;
  createdBy: string;
  itemId: string;
  itemName: string;
  collectionId: string;
}
