// The library's public types (cli.md, "In CI, and from code"): what
// `import { createClient } from 'ahs-cli'` gives. Each type is written once:
// what the service answers and what a call resolves to are the operations'
// own types (src/rules/, src/operations/, src/plan/, src/desired/,
// src/service/journal.ts), imported and re-exported here; this file declares
// only what is the library's own (the client, its options, its parameters,
// its lists). The shipped declarations (dist/types/) write each re-exported
// type out whole with its documentation (scripts/library-declarations.mjs),
// naming no internal module and no bundled package (zod, undici). Their
// documentation is where they are declared, once (a doc comment on a name
// of the `export type { ... }` below is refused by test/unit/library-docs).
//
// A write's parameters are the command's own arguments and flags, by the
// same camelCase keys as `run` receives them (`ahs release ASSET FILE --name
// N --expect-current V` is `release({ assetId, file, name, expectCurrent })`),
// plus the settings the command reads (`platform`, `envId`, `user`). Where
// those are the operation's input fields, the parameters are that input
// (Pick<>, Omit<>), documented there; a field the command names otherwise
// (`name` for versionName, `type` for assetType) is declared here. A removed
// or added optional field of a public type fails test/types/library-fields.ts.

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

/** An operation's input as the library takes it: the acting user is optional (the client's `user` by default). */
type ActingUser<T extends { user: unknown }> = Omit<T, 'user'> & { user?: string };

/** The channel a write targets; `user` overrides the client's. */
export type ChannelParams = Channel & { user?: string };

/** Parameters of assets.create() (`ahs asset create`). */
export type CreateAssetParams = Omit<AssetCreateInput, 'assetName' | 'assetType' | 'localCacheMaxAge' | 'user'> & {
  name: string;
  /** Asset type code. */
  type: string;
  localCacheMaxAge?: number;
  user?: string;
};

/** Parameters of assets.update() (`ahs asset update`); only what is given changes. */
export type UpdateAssetParams = Omit<AssetUpdateInput, 'assetName' | 'assetType' | 'localCacheMaxAge' | 'user'> & {
  name?: string;
  /** Sent as the asset's current type when absent (the service requires it; it cannot actually change). */
  type?: string;
  localCacheMaxAge?: number;
  user?: string;
};

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
export type CreateCollectionParams = Omit<CollectionCreateInput, 'collectionName' | 'allowedAssetTypes' | 'anchorAsset' | 'platformFrom' | 'user'> & {
  name: string;
  /** Asset type codes items may have (9999 = Other is always allowed). */
  allowedTypes: string[];
  /** The anchor (default) item's id. */
  anchor?: string;
  user?: string;
};

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
export type UploadItemsParams = Omit<ItemUploadInput, 'assetType' | 'user'> & {
  /** Asset type code of the items: one of the collection's allowed types, or 9999 (Other). */
  type: string;
  user?: string;
};

/** An item named by its collection and id. */
export type ItemParams = ActingUser<ItemRemoveInput>;

/** Parameters of versions.upload() (`ahs version upload`). */
export type UploadVersionParams = Omit<VersionUploadInput, 'versionName' | 'user'> & {
  /** The version name (max 64 characters). */
  name: string;
  user?: string;
};

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
export type SyncParams = Omit<ItemSyncInput, 'entries' | 'assetType' | 'user'> & {
  /** Asset type code of uploaded items: one of the collection's allowed types, or 9999 (Other). */
  type: string;
  user?: string;
};

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
export interface ExportParams {
  /** These assets only (with `collection`: these and those). */
  asset?: string[];
  /** These collections only. */
  collection?: string[];
  /** Only the channels of these platforms. */
  platform?: string[];
  /** Only the channels of these environments. */
  envId?: string[];
}

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

// --- the client ------------------------------------------------------------------

/**
 * The service, as the CLI sees it. Lists are read lazily, page by page
 * (PagedList); writes resolve to a PlannedWrite. Every method takes the
 * options of its own call last (CallOptions: `signal`, `timeoutMs`,
 * `retries`). Every failure is an AhsError with the CLI's `exitCode` and
 * `kind`.
 */
export interface Client {
  /** Assets: the things versions are uploaded to (`ahs asset ...`). */
  assets: {
    /**
     * Every asset of the domain, read page by page as the iteration goes.
     * @throws {NetworkError} nothing answered (exit code 6)
     * @throws {ApiError} the service refused the read (a 403 for a key of another domain: exit code 3)
     * @example
     * for await (const asset of client.assets.list()) console.log(asset.assetId);
     */
    list(options?: ListOptions): PagedList<Asset>;
    /**
     * One asset.
     * @throws {ApiError} `kind: 'not-found'` (exit code 4) when there is no such asset
     * @throws {NetworkError} nothing answered
     * @example
     * const asset = await client.assets.get('my-bundle');
     */
    get(assetId: string, options?: CallOptions): Promise<Asset>;
    /**
     * Plans the creation of an asset (`ahs asset create`): apply() sends it.
     * @throws {UsageError} a missing or invalid parameter (nothing sent)
     * @example
     * const asset = await (await client.assets.create({ assetId: 'my-bundle', name: 'My bundle', type: '1001' })).apply();
     */
    create(params: CreateAssetParams, options?: CallOptions): Promise<PlannedWrite<Asset>>;
    /**
     * Plans a change of an asset's fields (`ahs asset update`).
     * @throws {UsageError} a missing or invalid parameter (nothing sent)
     * @throws {ApiError} `kind: 'not-found'` when there is no such asset
     * @example
     * await (await client.assets.update({ assetId: 'my-bundle', description: 'iOS and Android bundle' })).apply();
     */
    update(params: UpdateAssetParams, options?: CallOptions): Promise<PlannedWrite<Asset>>;
    /**
     * Plans the deletion of an asset with no versions (`ahs asset delete`).
     * @throws {UsageError} a missing parameter (nothing sent)
     * @example
     * await (await client.assets.delete({ assetId: 'old-bundle' })).apply();
     */
    delete(params: AssetParams, options?: CallOptions): Promise<PlannedWrite<AssetDeleted>>;
    /**
     * Plans the removal of every version's deployment record for the platforms in one environment (`ahs asset undeploy`).
     * @throws {UsageError} a missing parameter or an empty platform list (nothing sent)
     * @example
     * await (await client.assets.undeploy({ assetId: 'my-bundle', envId: 'dev', platform: ['ios', 'android'] })).apply();
     */
    undeploy(params: UndeployAssetParams, options?: CallOptions): Promise<PlannedWrite<UndeployResult>>;
    /**
     * Every deployment record of an asset, OFFLINE included, narrowed by the
     * filter (`ahs asset status --json`: one list envelope). A filter that
     * would match only with other case is refused, not answered empty.
     * @throws {UsageError} a filter that differs from the records' ids only by case (`envId: 'PROD'` where they say `prod`)
     * @throws {NotFoundError} there is no such asset
     * @example
     * const { results } = await client.assets.status('my-bundle', { envId: 'prod' });
     * for (const r of results) console.log(r.targetPlatform, r.versionId, r.state);
     */
    status(assetId: string, filter?: RecordFilter, options?: CallOptions): Promise<Page<ChannelRecord>>;
  };
  /** Versions: the uploaded files of an asset, one platform each (`ahs version ...`). */
  versions: {
    /**
     * The versions of an asset, page by page.
     * @throws {ApiError} `kind: 'not-found'` when there is no such asset
     * @example
     * const latest = await client.versions.list('my-bundle').toArray({ limit: 20 });
     */
    list(assetId: string, options?: ListOptions): PagedList<Version>;
    /**
     * One version.
     * @throws {ApiError} `kind: 'not-found'` when the asset or the version does not exist
     * @example
     * const version = await client.versions.get('my-bundle', 'IOS3');
     */
    get(assetId: string, versionId: string, options?: CallOptions): Promise<Version>;
    /**
     * The records of a version in one environment, with their download URLs (`ahs version urls`).
     * @throws {ApiError} `kind: 'not-found'` when the asset or the version does not exist
     * @example
     * const [live] = await client.versions.urls('my-bundle', 'IOS3', 'prod').toArray();
     * console.log(live?.downloadUrl);
     */
    urls(assetId: string, versionId: string, envId: string, options?: ListOptions): PagedList<ChannelRecord>;
    /**
     * Plans the upload of a file as a new version (`ahs version upload`); the file is streamed when applied.
     * @throws {UsageError} a missing parameter or an unreadable file (nothing sent)
     * @example
     * const version = await (await client.versions.upload({ assetId: 'my-bundle', file: 'build/ios.zip', platform: 'ios', name: '1.5.0' })).apply();
     */
    upload(params: UploadVersionParams, options?: CallOptions): Promise<PlannedWrite<Version>>;
    /**
     * Plans the deletion of a version that is deployed nowhere (`ahs version delete`).
     * @throws {UsageError} a missing parameter (nothing sent)
     * @example
     * await (await client.versions.delete({ assetId: 'my-bundle', versionId: 'IOS1' })).apply();
     */
    delete(params: VersionParams, options?: CallOptions): Promise<PlannedWrite<VersionDeleted>>;
    /**
     * Downloads a version's file through its deployed URL (`ahs version
     * download`), from `envId` or the first environment where it is LIVE or
     * DEFAULT: streamed to a hidden partial file and renamed when complete, so
     * `out` is never half a file; its bytes are `bytes` events. An abort
     * through the call's `signal` removes the partial file.
     * @throws {NotFoundError} the asset or version does not exist, or the version is deployed nowhere (no URL)
     * @throws {PartialFailureError} the download was refused or cut (`exitCode` 6 when nothing answered)
     * @throws {CancelledError} the call's signal fired (nothing left at `out`)
     * @example
     * const { path, bytes } = await client.versions.download({ assetId: 'my-bundle', versionId: 'IOS3', envId: 'prod', out: 'build/app.zip' });
     */
    download(params: DownloadVersionParams, options?: CallOptions): Promise<VersionDownloadResult>;
    /**
     * Blocks a version (`ahs version block`): deploy, promoteDefault,
     * release reusing it, rollout and apply refuse it with a BlockedError
     * naming who, when and why, until unblock(). Nothing is deleted.
     * @throws {UsageError} no reason
     * @example
     * await client.versions.block({ assetId: 'my-bundle', versionId: 'IOS7', reason: 'crash on start (INC-42)' });
     */
    block(params: BlockParams, options?: CallOptions): Promise<VersionBlocked>;
    /**
     * Lifts a version's block (`ahs version unblock`; allowed during a freeze).
     * @throws {NetworkError} the service could not be reached
     * @example
     * const { unblocked } = await client.versions.unblock({ assetId: 'my-bundle', versionId: 'IOS7' });
     */
    unblock(params: UnblockParams, options?: CallOptions): Promise<VersionUnblocked>;
  };
  /** Collections: sets of items delivered together (`ahs collection ...`). */
  collections: {
    /**
     * Every collection of the domain, page by page.
     * @throws {NetworkError} nothing answered
     * @example
     * for await (const collection of client.collections.list()) console.log(collection.collectionId);
     */
    list(options?: ListOptions): PagedList<Collection>;
    /**
     * One collection.
     * @throws {NotFoundError} there is no such collection
     * @example
     * const collection = await client.collections.get('launch-pack');
     */
    get(collectionId: string, options?: CallOptions): Promise<Collection>;
    /**
     * Plans the creation of a collection (`ahs collection create`); its platform can never change.
     * @throws {UsageError} a missing or invalid parameter (nothing sent)
     * @example
     * await (await client.collections.create({ collectionId: 'launch-pack', name: 'Launch pack', allowedTypes: ['9999'] })).apply();
     */
    create(params: CreateCollectionParams, options?: CallOptions): Promise<PlannedWrite<Collection>>;
    /**
     * Plans a change of a collection's fields (`ahs collection update`).
     * @throws {UsageError} a missing or invalid parameter (nothing sent)
     * @example
     * await (await client.collections.update({ collectionId: 'launch-pack', maxAssets: 300 })).apply();
     */
    update(params: UpdateCollectionParams, options?: CallOptions): Promise<PlannedWrite<Collection>>;
    /**
     * Plans a soft delete (`ahs collection delete`): restore() brings it back, purge() removes it for good.
     * @throws {UsageError} a missing parameter (nothing sent)
     * @example
     * await (await client.collections.delete({ collectionId: 'launch-pack' })).apply();
     */
    delete(params: CollectionParams, options?: CallOptions): Promise<PlannedWrite<MessageResult>>;
    /**
     * Plans the restore of a soft-deleted collection (`ahs collection restore`).
     * @throws {UsageError} a missing parameter (nothing sent)
     * @example
     * await (await client.collections.restore({ collectionId: 'launch-pack' })).apply();
     */
    restore(params: CollectionParams, options?: CallOptions): Promise<PlannedWrite<MessageResult>>;
    /**
     * Plans the removal for good of a soft-deleted collection (`ahs collection purge`).
     * @throws {UsageError} a missing parameter (nothing sent)
     * @example
     * await (await client.collections.purge({ collectionId: 'launch-pack' })).apply();
     */
    purge(params: CollectionParams, options?: CallOptions): Promise<PlannedWrite<MessageResult>>;
    /**
     * Plans a deployment LIVE or OFFLINE in an environment, or the re-run of every Live deployment (`ahs collection-deploy`).
     * @throws {UsageError} a missing parameter (nothing sent)
     * @example
     * const { downloadUrl } = (await (await client.collections.deploy({ collectionId: 'launch-pack', envId: 'prod' })).apply()) as CollectionDeployResult;
     */
    deploy(params: DeployCollectionParams, options?: CallOptions): Promise<PlannedWrite<CollectionDeployResult | Unchanged>>;
    /**
     * Plans the removal of a collection's deployment in an environment (`ahs collection undeploy`).
     * @throws {UsageError} a missing parameter (nothing sent)
     * @example
     * await (await client.collections.undeploy({ collectionId: 'launch-pack', envId: 'dev' })).apply();
     */
    undeploy(params: UndeployCollectionParams, options?: CallOptions): Promise<PlannedWrite<MessageResult>>;
  };
  /** Items: the files of a collection (`ahs item ...`). */
  items: {
    /**
     * The items of a collection, page by page.
     * @throws {ApiError} `kind: 'not-found'` (exit code 4) when there is no such collection
     * @example
     * const names = (await client.items.list('launch-pack').toArray()).map((item) => item.assetItemName);
     */
    list(collectionId: string, options?: ListOptions): PagedList<Item>;
    /**
     * Plans the upload of files into a collection, several at once (`ahs item upload`).
     * @throws {UsageError} a missing parameter or an unreadable file (nothing sent)
     * @throws {PartialFailureError} when applied, some files were refused (the others are in the result)
     * @example
     * await (await client.items.upload({ collectionId: 'launch-pack', files: ['a.png', 'b.png'], type: '9999' })).apply();
     */
    upload(params: UploadItemsParams, options?: CallOptions): Promise<PlannedWrite<ItemUploadResult>>;
    /**
     * Plans the removal of an item (`ahs item remove`).
     * @throws {UsageError} a missing parameter (nothing sent)
     * @example
     * await (await client.items.remove({ collectionId: 'launch-pack', itemId: 'item-000001' })).apply();
     */
    remove(params: ItemParams, options?: CallOptions): Promise<PlannedWrite<ItemRemoved>>;
    /**
     * Plans making a collection hold the files of a folder (`ahs item sync`): uploads, replacements and, with `delete`, removals.
     * @throws {UsageError} a missing parameter or an unreadable folder (nothing sent)
     * @throws {PartialFailureError} when applied, some files failed (each in the result's `failed`)
     * @example
     * const plan = await client.items.sync({ collectionId: 'launch-pack', dir: './launch-pack', type: '9999' });
     * console.log(plan.steps.length, 'requests'); await plan.apply();
     */
    sync(params: SyncParams, options?: CallOptions): Promise<PlannedWrite<SyncResult>>;
  };
  /**
   * The deployment records of an asset, OFFLINE included, sorted as `ahs asset status` prints them (two listings merged: one page).
   * @throws {ApiError} `kind: 'not-found'` when there is no such asset
   * @example
   * const live = await client.records('my-bundle', { envId: 'prod', state: 'LIVE' }).toArray();
   */
  records(assetId: string, filter?: RecordFilter, options?: CallOptions): PagedList<ChannelRecord>;
  /**
   * The records of one channel (asset, platform, environment), one page.
   * @throws {ApiError} `kind: 'not-found'` when there is no such asset
   * @example
   * const current = (await client.channel('my-bundle', 'ios', 'prod').toArray()).find((r) => r.state === 'DEFAULT');
   */
  channel(assetId: string, platform: string, envId: string, options?: CallOptions): PagedList<ChannelRecord>;
  /**
   * Plans the deployment of a version LIVE or OFFLINE on a channel (`ahs deploy`); with `idempotent`, a version already in that state is `unchanged`.
   * @throws {UsageError} a missing parameter (nothing sent)
   * @example
   * await (await client.deploy({ assetId: 'my-bundle', versionId: 'IOS3', platform: 'ios', envId: 'staging' })).apply();
   */
  deploy(params: DeployParams, options?: CallOptions): Promise<PlannedWrite<DeployResult | Unchanged>>;
  /**
   * Plans making a version the Default of a channel (`ahs promote-default`), as a compare-and-set with `expectCurrent`.
   * @throws {UsageError} a missing parameter, or `fromEnv` without a Default (nothing sent)
   * @throws {ConflictError} when applied, `expectCurrent` did not hold, or the Default kept moving (exit code 5)
   * @example
   * await (await client.promoteDefault({ assetId: 'my-bundle', versionId: 'IOS3', platform: 'ios', envId: 'prod', expectCurrent: 'IOS2' })).apply();
   */
  promoteDefault(params: PromoteParams, options?: CallOptions): Promise<PlannedWrite<PromotionResult | Unchanged>>;
  /**
   * Plans the whole release of one file on one channel (`ahs release`): upload, deploy LIVE, promote; each stage skipped when already done, so a re-run resumes.
   * @throws {UsageError} a missing parameter or an unreadable file (nothing sent)
   * @throws {ConflictError} a version of that name with other content exists (nothing sent), or, when applied, `expectCurrent` did not hold
   * @example
   * const { version } = await (await client.release({ assetId: 'my-bundle', file: 'build/ios.zip', platform: 'ios', envId: 'prod', name: '1.5.0' })).apply();
   */
  release(params: ReleaseParams, options?: CallOptions): Promise<PlannedWrite<ReleaseResult>>;
  /**
   * Plans making the channel's previous Default the Default again (`ahs rollback`), as a compare-and-set on the Default read.
   * @throws {UsageError} no previous Default can be proven and `to` is not given (nothing sent)
   * @throws {ConflictError} when applied, another writer moved the Default meanwhile (exit code 5)
   * @example
   * await (await client.rollback({ assetId: 'my-bundle', platform: 'ios', envId: 'prod', to: 'IOS2' })).apply();
   */
  rollback(params: RollbackParams, options?: CallOptions): Promise<PlannedWrite<PromotionResult | Unchanged>>;
  /**
   * Whether what is Live is byte for byte the local files (`ahs verify`):
   * resolves with the answer whether or not everything matched (a difference
   * is where the CLI exits 1). Reads only.
   * @throws {UsageError} a bad sums file or path
   * @throws {NotFoundError} the asset, version or collection does not exist
   * @example
   * const { differ, missing, extra, failed } = await client.verify({ assetId: 'my-bundle', file: 'build/ios.zip', platform: 'ios', envId: 'prod' });
   */
  verify(params: VerifyParams, options?: CallOptions): Promise<VerifyResult>;
  /**
   * Downloads the items of a deployed collection into a folder (`ahs
   * fetch`): in parallel, each streamed to a hidden partial file and renamed
   * when complete, so a file at an item's name is replaced whole or not at
   * all; each file's bytes are `bytes` events (its name the label). An abort
   * through the call's `signal` removes this call's partial files (and a
   * folder it made, when nothing landed). A file that fails does not stop
   * the others; the call then rejects.
   * @throws {UsageError} both or neither of `collectionId` and `url`, a bad sums file or a `dir` that cannot be written (nothing downloaded)
   * @throws {NotFoundError} the collection is not deployed in `envId`, or an `item` is not in it
   * @throws {PartialFailureError} some file failed (its message names them; `exitCode` 6 when only the network failed)
   * @throws {CancelledError} the call's signal fired (no partial file left)
   * @example
   * const { downloaded } = await client.fetch({ collectionId: 'launch-pack', envId: 'prod', dir: './assets', pattern: ['*.png'] });
   * console.log(downloaded.map((f) => f.path));
   */
  fetch(params: FetchParams, options?: CallOptions): Promise<FetchResult>;
  /**
   * The service's current state as a desired-state document (`ahs export
   * --json`): assets with their fields and channels, collections with their
   * fields, item names and deployments. plan() of it, as a file, shows no
   * change. Reads only.
   * @throws {NotFoundError} an asset or collection asked for does not exist
   * @throws {NetworkError} nothing answered
   * @example
   * // JSON is YAML: plan() and apply() read the file as it is written.
   * await writeFile('ahs.yaml', JSON.stringify(await client.export({ asset: ['my-bundle'], envId: ['prod'] }), null, 2));
   */
  export(params?: ExportParams, options?: CallOptions): Promise<DesiredStateDocument>;
  /**
   * What apply would change to make the service hold the desired-state file (`ahs plan`). Sends nothing.
   * @throws {UsageError} a file that does not parse, or a plan error naming its line
   * @example
   * const plan = await client.plan({ file: 'ahs.yaml', checksum: true });
   */
  plan(params?: DesiredStateParams, options?: CallOptions): Promise<DesiredPlanDocument>;
  /**
   * Plans making the service hold the desired-state file, or sending a saved plan (`ahs apply`).
   * @throws {UsageError} a file that does not parse, or a plan error
   * @throws {ConflictError} a saved plan is stale (nothing sent)
   * @example
   * await (await client.apply({ file: 'ahs.yaml' })).apply();
   */
  apply(params?: ApplyParams, options?: CallOptions): Promise<PlannedWrite<ApplyResult>>;
  /**
   * One request to the API as given, for what the client has no method for
   * (`ahs api`): `path` under `/api/v2/` (`va/...` and `vc/...` under the
   * domain; `{domainId}` is filled), the key sent, the answer's JSON
   * returned (undefined for an empty one). A write sent this way is not a
   * plan: it is not predicted, and a lost answer is not settled by a read.
   * @throws {UsageError} a bad method or path (nothing sent)
   * @throws {ApiError} the service's error answer, its body as `body`
   * @throws {NetworkError} nothing answered
   * @example
   * const types = await client.request<{ results: unknown[] }>({ method: 'GET', path: 'va', query: { pageSize: 5 } });
   */
  request<T = unknown>(request: RawRequest, options?: CallOptions): Promise<T>;
  /**
   * Moves a rollout on from where it stands (`ahs rollout`): promotes every
   * wave whose gates hold, then resolves with where it stands. A rollout
   * that waits (a soak, an approval: the CLI's exit 11) resolves too, its
   * `next.action` being `wait`; a halt (a failed check, a moved channel)
   * rejects with the CLI's error.
   * @throws {UsageError} a missing parameter, or a soak without a journal (nothing sent)
   * @throws {ConflictError} a wave's channel was moved by another writer
   * @throws {PartialFailureError} a check failed: the rollout halts (recorded; `resume: true` runs that check again)
   * @throws {BlockedError} another version's rollout is in flight (`supersede: true` ends it), or this one was superseded
   * @example
   * const where = await client.rollout({ assetId: 'my-bundle', versionId: 'IOS3', platform: 'ios', waves: ['dev', 'staging', 'prod'], soak: { staging: '30m' } });
   * if (where.next.action === 'wait') console.log(where.next);
   */
  rollout(params: RolloutParams, options?: CallOptions): Promise<RolloutDocument>;
  /**
   * Where a rollout stands (`ahs rollout status`). Reads only. A rollout that
   * needs a person rejects as its run would: halted by a failed check
   * (PartialFailureError), blocked by or superseded by another version's
   * rollout (BlockedError), a wave moved since (ConflictError).
   * @throws {UsageError} a missing parameter
   * @example
   * const { waves } = await client.rolloutStatus({ assetId: 'my-bundle', versionId: 'IOS3', platform: 'ios', waves: ['dev', 'prod'] });
   */
  rolloutStatus(params: RolloutParams, options?: CallOptions): Promise<RolloutDocument>;
  /**
   * Each wave's previous Default back, newest first (`ahs rollout abort`); a channel moved since rejects (conflict) after the others.
   * @throws {UsageError} a missing parameter, or no journal to read the previous Defaults from
   * @throws {ConflictError} a channel another writer moved since was left alone
   * @example
   * await client.rolloutAbort({ assetId: 'my-bundle', versionId: 'IOS3', platform: 'ios', waves: ['dev', 'staging', 'prod'] });
   */
  rolloutAbort(params: RolloutParams, options?: CallOptions): Promise<RolloutDocument>;
  /**
   * The journal's entries, newest first (`ahs history`): read a chunk at a
   * time, so stopping early reads no more. Needs a journal (the `journal`
   * option, or with `fromEnvironment`/`profile` the journal setting).
   * @throws {UsageError} no journal is set, or a bad date
   * @example
   * for await (const entry of client.history({ id: 'my-bundle', envId: 'prod', limit: 10 })) console.log(entry.createdAt, entry.command);
   */
  history(params?: HistoryParams, options?: CallOptions): AsyncIterable<JournalEntry>;
  /** Leased locks (`ahs lock`): one apply or rollout on a scope at a time. A scope is an environment (`prod`), a channel (`my-bundle/ios/prod`) or a collection in an environment (`pack@prod`). */
  locks: {
    /**
     * Takes the lock of a scope for this caller (a compare-and-set in the
     * service): a lease that ends by itself at `ttlMs` (default 15 minutes)
     * unless renewed (acquire again with its `lockId`). Writes given its
     * `lockId` (CallOptions) go through it; every other ahs write of the
     * scope is refused with a BlockedError naming it.
     * @throws {BlockedError} another run holds it (after `waitMs`, when given)
     * @example
     * const lock = await client.locks.acquire({ scope: 'prod', ttlMs: 30 * 60_000, reason: 'release 1.4.2' });
     * try {
     *   const planned = await client.release({ assetId: 'my-bundle', file: 'build/app.zip', platform: 'ios', envId: 'prod', name: '1.4.2' }, { lockId: lock.lockId });
     *   await planned.apply();
     * } finally {
     *   await client.locks.release({ scope: 'prod', lockId: lock.lockId });
     * }
     */
    acquire(params: LockAcquireParams, options?: CallOptions): Promise<LockAcquired>;
    /**
     * Releases a lock this caller holds (`ahs lock release`); one it does not hold any more (its lease ended) is `released: false`.
     * @throws {BlockedError} another run holds it (locks.break() ends that one)
     * @example
     * const { lockId } = await client.locks.acquire({ scope: 'prod' });
     * await client.locks.release({ scope: 'prod', lockId });
     */
    release(params: LockReleaseParams, options?: CallOptions): Promise<LockReleased>;
    /**
     * Who holds the lock of a scope (`ahs lock status`): the holder, the command, the CI run, why, since when, when its lease ends.
     * @throws {UsageError} not a scope
     * @example
     * const status = await client.locks.status('prod');
     * if (status.held) console.log(`${status.holder} until ${status.leaseEnd}`);
     */
    status(scope: string, options?: CallOptions): Promise<LockStatus>;
    /**
     * Ends whoever holds the lock of a scope (`ahs lock break`), recorded in the journal with the reason. A killed job needs none: its lease ends by itself.
     * @throws {UsageError} no reason
     * @example
     * await client.locks.break({ scope: 'prod', reason: 'the job was cancelled' });
     */
    break(params: LockBreakParams, options?: CallOptions): Promise<LockBroken>;
  };
  /** Freezes (`ahs freeze`, `ahs unfreeze`): no writes to an environment but the ways out of an incident. */
  freezes: {
    /**
     * Freezes an environment (`ahs freeze`): until a time, for a duration
     * (on the service's clock) or a weekly window; every write to it is then
     * a BlockedError naming the freeze, except rollback, rolloutAbort,
     * versions.unblock and a write given `breakGlass` (CallOptions).
     * @throws {UsageError} no reason, or not exactly one of until, forMs and weekly
     * @example
     * await client.freezes.set({ envId: 'prod', weekly: 'Fri 16:00-Mon 08:00', zone: 'Europe/Berlin', reason: 'no weekend deploys' });
     */
    set(params: FreezeParams, options?: CallOptions): Promise<FreezeSet>;
    /**
     * Every freeze (`ahs freeze list`): whether it holds now on the service's clock, who set it and why.
     * @throws {NetworkError} the service could not be reached
     * @example
     * for (const freeze of await client.freezes.list()) if (freeze.active) console.log(freeze.env, freeze.until);
     */
    list(options?: CallOptions): Promise<FreezeListed[]>;
    /**
     * Lifts every freeze of an environment (`ahs unfreeze`).
     * @throws {NetworkError} the service could not be reached
     * @example
     * await client.freezes.remove({ envId: 'prod' });
     */
    remove(params: UnfreezeParams, options?: CallOptions): Promise<FreezeRemoved>;
  };
  /** The journal (`ahs journal`). */
  journal: {
    /**
     * Starts the journal (`ahs journal init`): the collection (default
     * ahs-journal), marked as a journal with a first entry, LIVE in
     * `envId`; run again, it does only what is missing. With no journal
     * setting every write of the domain is recorded in `ahs-journal`.
     * @throws {UsageError} the collection exists and is not a journal, or is deleted
     * @example
     * const started = await client.journal.init({ envId: 'prod' });
     * console.log(started.journal, started.created);
     */
    init(params?: JournalInitParams, options?: CallOptions): Promise<JournalInitResult>;
  };
  /**
   * Closes the connections of the writes planned and never applied.
   * @throws never
   * @example
   * try { ... } finally { await client.close(); }
   */
  close(): Promise<void>;
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
export type FreezeParams = Omit<FreezeInput, 'env' | 'user' | 'until'> & { envId: string; until?: Date | string; user?: string };

/** freezes.remove(): the environment. */
export type UnfreezeParams = Omit<FreezeRemoveInput, 'env' | 'user'> & { envId: string; user?: string };

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

