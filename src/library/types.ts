// The library's public types (cli.md, "In CI, and from code"), but Client
// (./client.ts, beside createClient). Each is written once: what the service
// answers and what a call resolves to are the operations' own types,
// re-exported here; the shipped declarations write them out whole with their
// documentation, where they are declared (scripts/library-declarations.mjs).
// This file declares only the library's own: its options, lists and
// parameters. A write's parameters are the command's arguments and flags by
// their camelCase keys (`ahs release ASSET FILE --name N` is `release({
// assetId, file, name })`) plus the settings it reads (`platform`, `envId`,
// `user`): the operation's input (Pick<>, Omit<>, documented there) but for
// a field the command names otherwise (`name` for versionName), declared
// here. A public type that loses an optional field fails
// test/types/library-fields.ts.

import type { Asset, AssetUrl as ChannelRecord, Collection, DeploymentRecord, Item, Version } from '../rules/schemas.js';
import type { DeploymentState } from '../rules/version-deploy.js';
import type { DesiredAsset, DesiredChannel, DesiredCollection, DesiredState as DesiredStateDocument } from '../rules/desired.js';
import type { DryRunDocument } from '../plan/dryrun.js';
import type { Step, Unchanged } from '../plan/plan.js';
import type { ChangeAction as PlanChangeAction, PlannedChange as PlanChange, SavedPlan as DesiredPlanDocument } from '../plan/saved.js';
import type { DeployResponse as DeployResult, ReadBackRecord } from '../plan/answers.js';
import type { PromoteResult as PromotionResult } from '../plan/kinds/versions.js';
import type { UndeployAnswer as UndeployResult } from '../plan/kinds/assets.js';
import type { AssetCreateInput, AssetDeleted, AssetDeleteInput, AssetUndeployInput, AssetUpdateInput } from '../operations/assets.js';
import type { VersionDeleted, VersionKey, VersionUploadInput } from '../operations/versions.js';
import type { CollectionCreateInput, CollectionDeployAnswer as CollectionDeployResult, CollectionMessage as MessageResult, CollectionUndeployInput, CollectionWriteInput } from '../operations/collections.js';
import type { ItemRemoved, ItemRemoveInput, ItemUploadInput, ItemUploadResult } from '../operations/items.js';
import type { ItemSyncInput, ItemSyncResult as SyncResult } from '../operations/item-sync.js';
import type { ReleaseInput, ReleaseResult } from '../operations/release.js';
import type { RolloutDocument, RolloutOptions } from '../operations/rollout.js';
import type { ExportFilter } from '../operations/export.js';
import type { VerifyAssetInput, VerifyCollectionInput as VerifyCollectionParams, VerifyResult } from '../operations/verify.js';
import type { FetchInput, FetchResult, VersionDownloadInput as DownloadVersionParams, VersionDownloadResult } from '../operations/fetch.js';
import type { ApplyResult } from '../desired/render.js';
import type { Change as JournalChange, JournalEntry } from '../service/journal.js';
import type { JournalInitInput, JournalInitResult } from '../operations/journal-init.js';
import type { Channel } from '../service/promote.js';
import type { HistoryFilter } from '../service/history.js';
import type { DeployInput, PromoteInput } from '../operations/channel.js';
import type { RollbackInput } from '../operations/rollback.js';
import type { AssetStatusInput } from '../operations/asset-status.js';
import type { ApplyInput } from '../desired/apply.js';
import type { DesiredInput } from '../desired/plan.js';
import type { AcquireLockInput, FreezeInput, FreezeListed, FreezeRemoved, FreezeRemoveInput, FreezeSet, LockAcquired, LockBreakInput, LockBroken } from '../operations/change-control.js';
import type { LockReleased, LockReleaseInput, LockStatus, VersionBlocked, VersionBlockInput, VersionUnblocked, VersionUnblockInput } from '../operations/change-control.js';

export type {
  Asset, ChannelRecord, Collection, DeploymentRecord, DeploymentState, Item, Version, DryRunDocument, Unchanged,
  DeployResult, ReadBackRecord, PromotionResult, UndeployResult, AssetDeleted, VersionDeleted, CollectionDeployResult,
  MessageResult, ItemRemoved, ItemUploadResult, SyncResult, ReleaseResult, DesiredPlanDocument, PlanChange,
  PlanChangeAction, ApplyResult, VerifyResult, VerifyCollectionParams, FetchResult, VersionDownloadResult,
  DownloadVersionParams, DesiredStateDocument, DesiredAsset, DesiredChannel, DesiredCollection, RolloutDocument,
  JournalChange, JournalEntry, JournalInitResult, LockAcquired, LockReleased, LockStatus, LockBroken, FreezeSet,
  FreezeListed, FreezeRemoved, VersionBlocked, VersionUnblocked
};

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
  /**
   * What happens as a call runs, as typed events: each request and its
   * answer (with its time), each retry, the bytes of each transfer, each
   * step of a write as its answer comes, each warning and message.
   * @example
   * createClient({ ...settings, onEvent: (e) => { if (e.type === 'bytes') bar.update(e.done, e.total); } });
   */
  onEvent?: (event: ClientEvent) => void;
  /** Where the client logs: requests and answers at debug, messages at info, retries and warnings at warn. Any of console's shape. */
  logger?: Logger;
  /** The journal collection (`ahs journal init`): every write of this client is recorded in it, and history() reads it. */
  journal?: string;
}

/** A logger with levels (console fits). */
export interface Logger {
  debug?(message: string): void;
  info?(message: string): void;
  warn?(message: string): void;
}

/** One event of a call (ClientOptions.onEvent). */
export type ClientEvent =
  /** A request is sent (each attempt): "GET", "/va/my-bundle" (the path below /api/v2/{domainId}). */
  | { type: 'request'; method: string; path: string }
  /** Its answer came after `ms` milliseconds: its status, or null when it failed without one. */
  | { type: 'answer'; method: string; path: string; status: number | null; ms: number }
  /** A request is about to be sent again: why, and when. */
  | { type: 'retry'; message: string }
  /** A transfer's progress: `done` bytes of `total` (when known) of the file `label`. */
  | { type: 'bytes'; label: string; done: number; total?: number }
  /** A transfer ended (`ok`: it completed). */
  | { type: 'transfer-end'; label: string; ok: boolean }
  /** A step of a write has its answer (sent and answered, or settled by a read). */
  | { type: 'step'; id: string; kind: string; outcome: 'done' | 'failed' }
  /** A warning the CLI would print (a journal entry not written, a key missing...). */
  | { type: 'warning'; message: string }
  /** Any other line the CLI would print on stderr (a stage's line). */
  | { type: 'message'; message: string };

/**
 * A write, planned from what was read and not yet sent. `steps` are its
 * requests; predict() says what the service would answer (never sends);
 * apply() sends them (once), settling lost answers and waiting out
 * deployments as the CLI does, and resolves to the CLI's JSON document `R`
 * (Unchanged among them for a write that can find nothing to do).
 */
export interface PlannedWrite<R> {
  readonly steps: readonly PlanStep[];
  /** Set exactly when there is nothing to send (`steps` is empty): apply() then resolves without a write. */
  readonly unchanged?: Unchanged;
  /**
   * The CLI's `--dry-run --json` document; a predicted refusal is in its
   * `predicted.error` (apply() would throw it). A write with nothing to
   * send resolves to what apply() would.
   */
  predict(): Promise<DryRunDocument | R>;
  apply(): Promise<R>;
}

/** One request of a plan, as data: what `--dry-run` predicts and apply() sends (`kind`: asset.create, version.upload, version.deploy, version.promote, item.upload, ...; a parameter may be a reference to an earlier step's answer, `{ $ref, field }`). */
export type PlanStep = Pick<Step, 'id' | 'kind' | 'params' | 'batch' | 'after'>;

// --- parameters ------------------------------------------------------------------

/** An operation's input as the library takes it, with fields of its own (`Own`): the acting user is optional (the client's `user` by default). */
type ActingUser<T extends { user: unknown }, Own = {}> = Omit<T, 'user'> & Own & { user?: string };

/** The channel a write targets; `user` overrides the client's. */
export type ChannelParams = Channel & { user?: string };

/** Parameters of assets.create() (`ahs asset create`). */
export type CreateAssetParams = ActingUser<Omit<AssetCreateInput, 'assetName' | 'assetType' | 'localCacheMaxAge'>, {
  name: string;
  /** Asset type code. */
  type: string;
  localCacheMaxAge?: number;
}>;

/** Parameters of assets.update() (`ahs asset update`); only what is given changes. */
export type UpdateAssetParams = ActingUser<Omit<AssetUpdateInput, 'assetName' | 'assetType' | 'localCacheMaxAge'>, {
  name?: string;
  /** Sent as the asset's current type when absent (the service requires it; it cannot actually change). */
  type?: string;
  localCacheMaxAge?: number;
}>;

/** An asset named by id, with the acting user. */
export type AssetParams = ActingUser<AssetDeleteInput>;

/** Parameters of assets.undeploy() (`ahs asset undeploy`). */
export type UndeployAssetParams = Omit<AssetUndeployInput, 'platforms'> & {
  /** The platforms whose records go (every version's): one, or several. */
  platform: string | string[];
  user?: string;
};

/** A version named by its asset and id. */
export type VersionParams = VersionKey;

/** Parameters of collections.create() (`ahs collection create`). */
export type CreateCollectionParams = ActingUser<Omit<CollectionCreateInput, 'collectionName' | 'allowedAssetTypes' | 'anchorAsset' | 'platformFrom'>, {
  name: string;
  /** Asset type codes items may have (9999 = Other is always allowed). */
  allowedTypes: string[];
  /** The anchor (default) item's id. */
  anchor?: string;
}>;

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

/** A collection named by id, with the acting user. */
export type CollectionParams = ActingUser<CollectionWriteInput>;

/** Parameters of collections.undeploy(). */
export type UndeployCollectionParams = ActingUser<CollectionUndeployInput>;

/** Parameters of collections.deploy() (`ahs collection-deploy`). */
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

/** Parameters of items.upload() (`ahs item upload`). */
export type UploadItemsParams = ActingUser<Omit<ItemUploadInput, 'assetType'>, {
  /** Asset type code of the items: one of the collection's allowed types, or 9999 (Other). */
  type: string;
}>;

/** An item named by its collection and id. */
export type ItemParams = ActingUser<ItemRemoveInput>;

/** Parameters of versions.upload() (`ahs version upload`). */
export type UploadVersionParams = ActingUser<Omit<VersionUploadInput, 'versionName'>, {
  /** The version name (max 64 characters). */
  name: string;
}>;

/** Parameters of deploy() (`ahs deploy`); `state` LIVE when not given. */
export type DeployParams = ChannelParams & Pick<DeployInput, 'versionId' | 'idempotent'> & Partial<Pick<DeployInput, 'state'>>;

/** Parameters of promoteDefault() (`ahs promote-default`): a version, or the Default of `fromEnv`. */
export type PromoteParams = ChannelParams & Omit<PromoteInput, keyof Channel | 'user' | 'offerMakeLive'>;

/** Parameters of release() (`ahs release`); `state` DEFAULT when not given. */
export type ReleaseParams = ChannelParams & Pick<ReleaseInput, 'file' | 'expectCurrent'> & Partial<Pick<ReleaseInput, 'state'>> & {
  /** The version name: the key that makes a re-run resume. */
  name: string;
};

/** Parameters of rollback() (`ahs rollback`). */
export type RollbackParams = ChannelParams & Pick<RollbackInput, 'to'>;

/**
 * What `ahs verify` checks (cli.md, "In CI, and from code"): the items a
 * collection serves in `envId` against the files at the top of `dir`, or a
 * channel's Default (or `versionId`) against `file`; with `sums` instead of
 * `dir` or `file`, against the lines of a sums file (as `sha256sum -c`
 * reads it).
 */
export type VerifyParams = VerifyCollectionParams | VerifyAssetParams;

/** verify() of a channel's version against a file (or a sums file). */
export type VerifyAssetParams = Omit<VerifyAssetInput, 'concurrency'>;

/** Parameters of items.sync() (`ahs item sync`). */
export type SyncParams = ActingUser<Omit<ItemSyncInput, 'entries' | 'assetType'>, {
  /** Asset type code of uploaded items: one of the collection's allowed types, or 9999 (Other). */
  type: string;
}>;

/** The desired-state file of plan() and apply() (`ahs plan -f`). */
export type DesiredStateParams = Pick<DesiredInput, 'file' | 'checksum'> & {
  /** Only these resources of the file: asset.ID, collection.ID. */
  target?: string[];
  user?: string;
};

/** Parameters of apply(): the file, or a saved plan. */
export type ApplyParams = DesiredStateParams & Pick<ApplyInput, 'plan'>;

/** Narrows records(): a platform, an environment, a state. */
export type RecordFilter = Omit<AssetStatusInput, 'assetId'>;

// --- downloads and exports (issue 35) ------------------------------------------------

/** What fetch() downloads, and how (the flags of `ahs fetch` by their camelCase names). */
export type FetchFilesOptions = Pick<FetchInput, 'dir' | 'skipExisting' | 'concurrency' | 'verify'> & {
  /** Only these items, by id (each must be in the deployed collection). */
  item?: string[];
  /** Only items whose name matches one of these globs (`*.png`). */
  pattern?: string[];
};

/** fetch() of a collection deployed in an environment. */
export interface FetchCollectionParams extends FetchFilesOptions {
  collectionId: string;
  envId: string;
}

/** fetch() of a deployed collection URL (`ahs collection url`), the environment being the URL's. */
export interface FetchUrlParams extends FetchFilesOptions {
  /** An absolute http(s) URL, or a path relative to the client's deliveryUrl. */
  url: string;
}

/** Parameters of fetch() (`ahs fetch`): a collection in an environment, or its deployed URL. */
export type FetchParams = FetchCollectionParams | FetchUrlParams;

/** Parameters of export() (`ahs export`): without assets or collections, every asset and every collection not deleted. */
export type ExportParams = ExportFilter;

// --- calls and lists ---------------------------------------------------------------

/**
 * Options of one call, above the client's (as the AWS SDK's `abortSignal`
 * and `requestTimeout` per command). A call aborted by its own signal fails
 * alone: the client and its other calls go on.
 */
export interface CallOptions {
  /** Aborts this call: a CancelledError whose `cause` is the signal's reason. */
  signal?: AbortSignal;
  /** The budget of each of this call's requests, its retries included (default: the client's `timeoutMs`). */
  timeoutMs?: number;
  /** Retries of a request that surely did not apply (default: the client's `retries`). */
  retries?: number;
  /**
   * The lock this call's write holds already (what locks.acquire() answered,
   * `--lock-id`): a scope it locks is not another holder's, and the write
   * renews it rather than taking one of its own.
   */
  lockId?: string;
  /** Lets this one write through a freeze (`--break-glass --reason R`), recorded in the journal with the reason. */
  breakGlass?: { reason: string };
}

/** A request of request(), as `ahs api` sends it. */
export interface RawRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** `va/my-bundle`, `/api/v2/{domainId}/vc`...: never a whole URL (the base URL is the client's). */
  path: string;
  query?: Record<string, string | number | boolean | undefined>;
  /** Sent as JSON. */
  body?: unknown;
}

/** A list read's options: a call's, and the size of the pages it asks for. */
export interface ListOptions extends CallOptions {
  /**
   * The results to ask for per page (default 1000). The service may cap it:
   * the pages after the first then ask for the size it reported.
   */
  pageSize?: number;
}

/** One page of a list, as the service answered it. */
export interface Page<T> {
  pageNumber: number;
  /** The page size the service used (it may be smaller than the one asked for). */
  pageSize: number;
  /** The length of the whole list when this page was read. */
  totalResults: number;
  results: T[];
}

/**
 * A list read lazily: a page is requested only when the iteration needs
 * it, and nothing more once it stops (`break`, `return`, a thrown error).
 *
 * @example
 * for await (const asset of client.assets.list()) {
 *   if (asset.assetId === 'my-bundle') break; // no further page is read
 * }
 * const firstTen = await client.versions.list('my-bundle').toArray({ limit: 10 });
 */
export interface PagedList<T> extends AsyncIterable<T> {
  /** The pages themselves, each with the list's `totalResults`. */
  pages(): AsyncIterable<Page<T>>;
  /**
   * The results in an array: with `limit`, the first `limit` (reading only
   * the pages they are on); without, the whole list read as `ahs ... --all`
   * reads it (pages in parallel, re-read if the list changed meanwhile).
   */
  toArray(options?: { limit?: number }): Promise<T[]>;
}

/** A rollout (`ahs rollout`): the same arguments for a run, its status and its abort. */
export type RolloutParams = Pick<RolloutOptions, 'assetId' | 'versionId' | 'name' | 'platform' | 'check' | 'approve' | 'approved' | 'resume' | 'supersede'> & {
  /** The environments, in order. */
  waves: string[];
  /** Soak after a wave's promotion, by environment: `{staging: '30m'}`. Needs the journal. */
  soak?: Record<string, string>;
  /** rolloutAbort: the Default a wave gets back when the journal does not prove it, by environment: `{prod: 'WEB6'}` (`--to`). */
  to?: Record<string, string>;
  user?: string;
};

/** locks.acquire(): the scope, the lease (ms), why; `lockId` renews a lock this caller holds; `waitMs` waits for another holder; the acting user. */
export type LockAcquireParams = ActingUser<Omit<AcquireLockInput, 'onWait'>>;

/** locks.release(): the scope and the lock id locks.acquire() answered. */
export type LockReleaseParams = ActingUser<LockReleaseInput>;

/** locks.break(): the scope and why (recorded). */
export type LockBreakParams = ActingUser<LockBreakInput>;

/** freezes.set(): the environment, why, and one of `until` (a time), `forMs` (from now, on the service's clock) and `weekly` (in `zone`). */
export type FreezeParams = ActingUser<Omit<FreezeInput, 'env' | 'until'>, { envId: string; until?: Date | string }>;

/** freezes.remove(): the environment. */
export type UnfreezeParams = ActingUser<Omit<FreezeRemoveInput, 'env'>, { envId: string }>;

/** versions.block(): the version and why; `envId`, where its record is deployed so that its reason reads back (default: the client's). */
export type BlockParams = ActingUser<VersionBlockInput>;

/** versions.unblock(): the version. */
export type UnblockParams = ActingUser<VersionUnblockInput>;

/** journal.init(): which collection (default ahs-journal), the environment it is read in, the acting user. */
export type JournalInitParams = Partial<JournalInitInput>;

/** Narrows history(): an asset or collection, a platform, an environment, a time range, a number of entries. */
export type HistoryParams = Omit<HistoryFilter, 'since' | 'until'> & {
  /** Entries from this time on (a Date or an ISO 8601 date or timestamp). */
  since?: Date | string;
  until?: Date | string;
};
