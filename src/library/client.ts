// createClient: the CLI's capabilities as a typed library (cli.md, "In CI, and
// from code"). No second implementation: every write is the operation the
// command runs (src/operations/, src/desired/: typed input, a Plan whose
// `done` is the typed result), given a library Context (./context.ts); the one
// executor predicts it (dry run) or sends it, and its result is the call's
// answer, the document the command prints with --json. Reads are the service
// reads the commands make (src/service/*.ts over src/http/paging.ts), yielded
// one by one. Client, the interface it implements, is declared here with the
// documentation of each method; what the methods take and give is
// ./types.ts's.
import { setMaxListeners } from 'node:events';
import type { Context } from '../context.js';
import type { Plan } from '../plan/plan.js';
import { UsageError } from '../errors.js';
import { eventsOf, libraryContext, type CallSettings, type LibraryContext } from './context.js';
import type { ApiClient } from '../http/client.js';
import type { Query } from '../http/client.js';
import type { ResponseSchema } from '../http/responses.js';
import type {
  ApplyParams, ApplyResult, Asset, AssetDeleted, AssetParams, BlockParams, CallOptions, ChannelRecord, ClientEvent,
  ClientOptions, Collection, CollectionDeployResult, CollectionParams, CreateAssetParams, CreateCollectionParams,
  DeployCollectionParams, DeployParams, DeployResult, DesiredPlanDocument, DesiredStateDocument, DesiredStateParams,
  DownloadVersionParams, DryRunDocument, ExportParams, FetchParams, FetchResult, FreezeListed, FreezeParams,
  FreezeRemoved, FreezeSet, HistoryParams, Item, ItemParams, ItemRemoved, ItemUploadResult, JournalEntry,
  JournalInitParams, JournalInitResult, ListOptions, LockAcquireParams, LockAcquired, LockBreakParams, LockBroken,
  LockReleaseParams, LockReleased, LockStatus, MessageResult, Page, PagedList, PlanStep, PlannedWrite,
  PromoteParams, PromotionResult, RawRequest, RecordFilter, ReleaseParams, ReleaseResult, RollbackParams,
  RolloutDocument, RolloutParams, SyncParams, SyncResult, UnblockParams, Unchanged, UndeployAssetParams,
  UndeployCollectionParams, UndeployResult, UnfreezeParams, UpdateAssetParams, UpdateCollectionParams,
  UploadItemsParams, UploadVersionParams, VerifyCollectionParams, VerifyParams, VerifyResult, Version,
  VersionBlocked, VersionDeleted, VersionDownloadResult, VersionParams, VersionUnblocked,
} from './types.js';
import type { FetchInput, FetchSource } from '../operations/fetch.js';
import type { ExportFilter } from '../operations/export.js';

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

/** A client for the service `options` name. Nothing is sent until a call is made. */
export function createClient(options: ClientOptions): Client {
  checkOptions(options);
  const open = new Set<Context>();
  const session = new Session(options, open);
  return {
    assets: {
      list: (options) => session.list(options, async (api) => ({ path: api.path('va') })),
      get: (assetId, opts) => session.readOne(opts, async (api) => (await import('../service/assets.js')).getAsset(api, need('assets.get', { assetId }).assetId)),
      create: (params, opts) =>
        session.plan(opts, 'assets.create', params, ['assetId', 'name', 'type'], { user: params.user }, async (ctx) => {
          const { assetCreatedLine, createAsset } = await import('../operations/assets.js');
          const planned = await createAsset(
            ctx,
            {
              assetId: params.assetId,
              assetName: params.name,
              assetType: params.type,
              description: params.description,
              secured: params.secured,
              localCacheControl: params.localCacheControl,
              localCacheMaxAge: params.localCacheMaxAge,
              user: await ctx.setting('user'),
            },
            parameterNames,
          );
          return saying(ctx, planned, assetCreatedLine);
        }),
      update: (params, opts) =>
        session.plan(opts, 'assets.update', params, ['assetId'], { user: params.user }, async (ctx) => {
          const { assetId, name: assetName, type: assetType, description, localCacheControl, localCacheMaxAge, active } = params;
          const changes = { assetName, assetType, description, localCacheControl, localCacheMaxAge, active };
          const nothing = 'assets.update: nothing to update: give name, description, type, localCacheControl, localCacheMaxAge or active';
          const { assetUpdatedLine, refuseEmptyUpdate, updateAsset } = await import('../operations/assets.js');
          refuseEmptyUpdate(changes, nothing);
          const user = await ctx.setting('user');
          return saying(ctx, await updateAsset(ctx, { assetId, user, ...changes }, parameterNames, nothing), assetUpdatedLine);
        }),
      delete: (params, opts) =>
        session.plan(opts, 'assets.delete', params, ['assetId'], { user: params.user }, async (ctx) => (await import('../operations/assets.js')).deleteAsset(ctx, { assetId: params.assetId, user: await ctx.setting('user') })),
      // async: a bad platform list is a rejection, as every other bad parameter.
      undeploy: async (params, opts) => {
        const platforms = platformList('assets.undeploy', params.platform).split(',');
        return session.plan(opts, 'assets.undeploy', params, ['assetId', 'envId'], { user: params.user }, async (ctx) =>
          (await import('../operations/assets.js')).undeployAsset(ctx, { assetId: params.assetId, envId: params.envId, platforms }, parameterNames),
        );
      },
      status: async (assetId, filter = {}, opts) =>
        session.run(opts, {}, async (ctx) => {
          need('assets.status', { assetId });
          const { platform, envId } = filter;
          const state = deploymentState('assets.status', filter.state);
          return (await import('../operations/asset-status.js')).assetStatus(ctx, { assetId, platform, envId, state });
        }),
    },
    versions: {
      list: (assetId, options) =>
        session.list(options, async (api) => {
          const { assetPath } = await import('../service/assets.js');
          const { versionSchema } = await import('../rules/schemas.js');
          return { path: assetPath(api, need('versions.list', { assetId }).assetId, 'versions'), item: versionSchema };
        }),
      urls: (assetId, versionId, envId, options) =>
        session.list(options, async (api) => {
          need('versions.urls', { assetId, versionId, envId });
          const { assetUrlSchema } = await import('../rules/schemas.js');
          return { path: api.path('va', assetId, 'versions', versionId, 'asset-urls'), query: { envId }, item: assetUrlSchema };
        }),
      get: (assetId, versionId, opts) => session.readOne(opts, async (api) => (await import('../service/assets.js')).getVersion(api, assetId, need('versions.get', { assetId, versionId }).versionId)),
      upload: (params, opts) =>
        session.plan(opts, 'versions.upload', params, ['assetId', 'file', 'platform', 'name'], { platform: params.platform, user: params.user }, async (ctx) =>
          (await import('../operations/versions.js')).uploadVersion(
            ctx,
            { assetId: await checkedAssetId(params.assetId), file: params.file, platform: await ctx.setting('platform'), versionName: params.name, user: await ctx.setting('user') },
            parameterNames,
          ),
        ),
      delete: (params, opts) =>
        session.plan(opts, 'versions.delete', params, ['assetId', 'versionId'], {}, async (ctx) => (await import('../operations/versions.js')).deleteVersion(ctx, { assetId: await checkedAssetId(params.assetId), versionId: params.versionId })),
      download: async (params, opts) =>
        session.run(opts, {}, async (ctx) => {
          const { assetId, versionId, envId, out } = need('versions.download', params, ['assetId', 'versionId']);
          return (await import('../operations/fetch.js')).downloadVersion(ctx, { assetId, versionId, envId, out });
        }),
      block: async (params, opts) =>
        session.run(opts, { envId: params.envId, user: params.user, command: 'versions.block' }, async (ctx) => {
          const { assetId, versionId, reason } = need('versions.block', params, ['assetId', 'versionId', 'reason']);
          const envId = (await ctx.settings()).get('envId');
          return (await import('../operations/change-control.js')).blockVersion(ctx, { assetId, versionId, reason, user: await ctx.setting('user'), ...(envId ? { envId } : {}) });
        }),
      unblock: async (params, opts) =>
        session.run(opts, { user: params.user, command: 'versions.unblock' }, async (ctx) => {
          const { assetId, versionId, reason } = need('versions.unblock', params, ['assetId', 'versionId']);
          return (await import('../operations/change-control.js')).unblockVersion(ctx, { assetId, versionId, user: await ctx.setting('user'), ...(reason ? { reason } : {}) });
        }),
    },
    locks: {
      acquire: async (params, opts) =>
        session.run(opts, { user: params.user, command: 'locks.acquire' }, async (ctx) => {
          const { scope, ttlMs, reason, lockId, waitMs } = need('locks.acquire', params, ['scope']);
          return (await import('../operations/change-control.js')).acquireScopeLock(ctx, { scope, user: await ctx.setting('user'), ...(ttlMs !== undefined ? { ttlMs } : {}), ...(reason ? { reason } : {}), ...(lockId ? { lockId } : {}), ...(waitMs !== undefined ? { waitMs } : {}) });
        }),
      release: async (params, opts) =>
        session.run(opts, { user: params.user, command: 'locks.release' }, async (ctx) => {
          const { scope, lockId } = need('locks.release', params, ['scope', 'lockId']);
          return (await import('../operations/change-control.js')).releaseScopeLock(ctx, { scope, lockId, user: await ctx.setting('user') });
        }),
      status: async (scope, opts) =>
        session.run(opts, { command: 'locks.status' }, async (ctx) => (await import('../operations/change-control.js')).scopeLockStatus(ctx, { scope: need('locks.status', { scope }).scope })),
      break: async (params, opts) =>
        session.run(opts, { user: params.user, command: 'locks.break' }, async (ctx) => {
          const { scope, reason } = need('locks.break', params, ['scope', 'reason']);
          return (await import('../operations/change-control.js')).breakScopeLock(ctx, { scope, reason, user: await ctx.setting('user') });
        }),
    },
    freezes: {
      set: async (params, opts) =>
        session.run(opts, { user: params.user, command: 'freezes.set' }, async (ctx) => {
          const { envId, reason, until, forMs, weekly, zone } = need('freezes.set', params, ['envId', 'reason']);
          const window = { ...(until !== undefined ? { until: until instanceof Date ? until.toISOString() : until } : {}), ...(forMs !== undefined ? { forMs } : {}), ...(weekly !== undefined ? { weekly } : {}), ...(zone !== undefined ? { zone } : {}) };
          return (await import('../operations/change-control.js')).setFreeze(ctx, { env: envId, reason, user: await ctx.setting('user'), ...window });
        }),
      list: async (opts) => session.run(opts, { command: 'freezes.list' }, async (ctx) => (await import('../operations/change-control.js')).listEnvFreezes(ctx)),
      remove: async (params, opts) =>
        session.run(opts, { user: params.user, command: 'freezes.remove' }, async (ctx) => {
          const { envId, reason } = need('freezes.remove', params, ['envId']);
          return (await import('../operations/change-control.js')).removeFreeze(ctx, { env: envId, user: await ctx.setting('user'), ...(reason ? { reason } : {}) });
        }),
    },
    collections: {
      list: (options) => session.list(options, async (api) => ({ path: api.path('vc') })),
      get: (collectionId, opts) =>
        session.readOne(opts, async (api) => {
          const { readCollection } = await import('../service/collections.js');
          const { NotFoundError } = await import('../errors.js');
          const found = await readCollection(api, need('collections.get', { collectionId }).collectionId);
          if (!found) throw new NotFoundError(`collection ${collectionId} not found`);
          return found;
        }),
      create: (params, opts) =>
        session.plan(opts, 'collections.create', params, ['collectionId', 'name'], { platform: params.platform, user: params.user }, async (ctx) => {
          const allowedAssetTypes = strings('collections.create', 'allowedTypes', params.allowedTypes);
          const [{ collectionCreatedLine, createCollection }, { sourceOf }] = await Promise.all([import('../operations/collections.js'), import('../config/settings.js')]);
          const settings = await ctx.settings();
          const user = await ctx.setting('user');
          const platform = settings.resolve('platform');
          const platformFrom = platform.source === 'env' || platform.source === 'profile' ? sourceOf('platform', platform.source, settings.profileName) : undefined;
          const input = {
            collectionId: params.collectionId,
            collectionName: params.name,
            allowedAssetTypes,
            description: params.description,
            maxAssets: params.maxAssets,
            editable: off(params.editable),
            deployable: off(params.deployable),
            anchorAsset: params.anchor,
            secured: off(params.secured),
            localCacheControl: flag(params.localCacheControl),
            localCacheMaxAge: params.localCacheMaxAge,
            platform: platform.value,
            platformFrom,
            user,
          };
          return saying(ctx, await createCollection(ctx, input, collectionParameterNames), () => collectionCreatedLine(input.collectionId));
        }),
      update: (params, opts) =>
        session.plan(opts, 'collections.update', params, ['collectionId'], { user: params.user }, async (ctx) => {
          const { collectionChanges, collectionUpdatedLine, updateCollection } = await import('../operations/collections.js');
          const given = {
            collectionName: params.name,
            description: params.description,
            maxAssets: params.maxAssets,
            editable: params.editable,
            deployable: params.deployable,
            anchorAsset: params.anchor,
            localCacheControl: params.localCacheControl,
            localCacheMaxAge: params.localCacheMaxAge,
          };
          const patch = Object.fromEntries(Object.entries(given).filter(([, value]) => value !== undefined));
          const messages = { nothing: 'collections.update: nothing to update: give name, description, maxAssets, editable, deployable, anchor, localCacheControl or localCacheMaxAge' };
          const changes = collectionChanges(patch, messages);
          const planned = await updateCollection(ctx, { collectionId: params.collectionId, patch, user: await ctx.setting('user') }, collectionParameterNames, messages);
          return saying(ctx, planned, () => collectionUpdatedLine(params.collectionId, changes));
        }),
      delete: (params, opts) =>
        session.plan(opts, 'collections.delete', params, ['collectionId'], { user: params.user }, async (ctx) =>
          (await import('../operations/collections.js')).deleteCollection(ctx, { collectionId: await collectionIdOf(ctx, params.collectionId), user: await ctx.setting('user') }),
        ),
      restore: (params, opts) =>
        session.plan(opts, 'collections.restore', params, ['collectionId'], { user: params.user }, async (ctx) =>
          (await import('../operations/collections.js')).restoreCollection(ctx, { collectionId: await collectionIdOf(ctx, params.collectionId), user: await ctx.setting('user') }),
        ),
      purge: (params, opts) =>
        session.plan(opts, 'collections.purge', params, ['collectionId'], { user: params.user }, async (ctx) =>
          (await import('../operations/collections.js')).purgeCollection(ctx, { collectionId: await collectionIdOf(ctx, params.collectionId), user: await ctx.setting('user') }),
        ),
      deploy: (params, opts) =>
        session.plan(opts, 'collections.deploy', params, ['collectionId'], { envId: params.envId, user: params.user }, async (ctx) => {
          const { collectionLiveLine, deployCollection } = await import('../operations/collections.js');
          const collectionId = await collectionIdOf(ctx, params.collectionId);
          const user = await ctx.setting('user');
          if (params.reconcile) return deployCollection(ctx, { collectionId, user, reconcile: true });
          const env = (await ctx.settings()).resolve('envId');
          const planned = await deployCollection(ctx, { collectionId, user, state: stateOf('collections.deploy', params.state, ['LIVE', 'OFFLINE'] as const) ?? 'LIVE', envId: env.value, envSource: env.source, idempotent: params.idempotent });
          return saying(ctx, planned, (answer) => (answer.downloadUrl ? collectionLiveLine(collectionId, env.value, answer.downloadUrl) : undefined));
        }),
      undeploy: (params, opts) =>
        session.plan(opts, 'collections.undeploy', params, ['collectionId', 'envId'], { envId: params.envId, user: params.user }, async (ctx) =>
          (await import('../operations/collections.js')).undeployCollection(ctx, { collectionId: await collectionIdOf(ctx, params.collectionId), envId: params.envId, user: await ctx.setting('user') }),
        ),
    },
    items: {
      list: (collectionId, options) =>
        session.list(options, async (api) => {
          const { readNamingCollection, vcPath } = await import('../service/collections.js');
          need('items.list', { collectionId });
          // A missing collection is answered 400 on its items: named as not found by a read of the collection.
          return { path: vcPath(api, collectionId, 'items'), named: (read) => readNamingCollection(api, collectionId, read) };
        }),
      upload: (params, opts) =>
        session.plan(opts, 'items.upload', params, ['collectionId', 'type'], { user: params.user }, async (ctx) => {
          const files = paths('items.upload', params.files);
          // No terminal to ask in: the type is required, named as this call's parameter (not the CLI's --type).
          need('items.upload', params, ['type']);
          const [{ checkItemName, uploadItems }, { assetTypeArg }] = await Promise.all([import('../operations/items.js'), import('../pickers/pick-collection.js')]);
          const collectionId = await collectionIdOf(ctx, params.collectionId);
          checkItemName(params.name, files, itemParameterNames);
          const assetType = await assetTypeArg(ctx, collectionId, params.type);
          const input = { collectionId, files, assetType, name: params.name, concurrency: params.concurrency, user: await ctx.setting('user') };
          return uploadItems(ctx, input, itemParameterNames);
        }),
      remove: (params, opts) =>
        session.plan(opts, 'items.remove', params, ['collectionId', 'itemId'], { user: params.user }, async (ctx) =>
          (await import('../operations/items.js')).removeItem(ctx, { collectionId: await collectionIdOf(ctx, params.collectionId), itemId: params.itemId, user: await ctx.setting('user') }),
        ),
      sync: (params, opts) =>
        session.plan(opts, 'items.sync', params, ['collectionId', 'dir', 'type'], { user: params.user }, async (ctx) => {
          const { folderEntries, syncItems } = await import('../operations/item-sync.js');
          const { collectionId, dir, pattern } = params;
          const entries = folderEntries(dir, pattern ?? []);
          const assetType = need('items.sync', params, ['type']).type!;
          const user = await ctx.setting('user');
          const input = { collectionId, dir, entries, assetType, user, delete: params.delete, followLinks: params.followLinks, pattern, reconcile: params.reconcile, checksum: params.checksum };
          return syncItems(ctx, input, itemParameterNames);
        }),
    },
    records: (assetId, filter = {}, opts) =>
      session.whole(opts, async (api) => (await import('../service/assets.js')).listRecords(api, need('records', { assetId }).assetId, { ...filter, state: deploymentState('records', filter.state) })),
    channel: (assetId, platform, envId, opts) =>
      session.whole(opts, async (api) => (await (await import('../service/assets.js')).readChannel(api, assetId, platform, need('channel', { assetId, platform, envId }).envId)).records),
    deploy: (params, opts) =>
      session.plan(opts, 'deploy', params, ['assetId', 'versionId', 'platform', 'envId'], params, async (ctx) =>
        (await import('../operations/channel.js')).deployVersion(
          ctx,
          { ...(await channelOf(ctx, params.assetId)), versionId: params.versionId, state: stateOf('deploy', params.state, ['LIVE', 'OFFLINE'] as const) ?? 'LIVE', idempotent: params.idempotent, user: await ctx.setting('user') },
          parameterNames,
        ),
      ),
    promoteDefault: (params, opts) =>
      session.plan(opts, 'promoteDefault', params, ['assetId', 'platform', 'envId'], params, async (ctx) => {
        const { checkPromoteSource, promoteDefault } = await import('../operations/channel.js');
        const { versionId, fromEnv, makeLive, expectCurrent, idempotent } = params;
        checkPromoteSource({ versionId, fromEnv, envId: params.envId }, parameterNames);
        if (versionId === undefined && fromEnv === undefined) throw new UsageError('promoteDefault: versionId (or fromEnv) is required');
        return promoteDefault(ctx, { ...(await channelOf(ctx, params.assetId)), versionId, fromEnv, makeLive, expectCurrent, idempotent, user: await ctx.setting('user') }, parameterNames);
      }),
    release: (params, opts) =>
      session.plan(opts, 'release', params, ['assetId', 'file', 'platform', 'envId', 'name'], params, async (ctx) =>
        (await import('../operations/release.js')).release(
          ctx,
          { ...(await channelOf(ctx, params.assetId)), file: params.file, versionName: params.name, state: stateOf('release', params.state, ['LIVE', 'DEFAULT'] as const) ?? 'DEFAULT', expectCurrent: params.expectCurrent, user: await ctx.setting('user') },
          parameterNames,
        ),
      ),
    fetch: (params, opts) => fetchFiles(session, params, opts),
    export: async (params = {}, opts) => {
      const filter = exportFilter(params);
      return session.run(opts, {}, async (ctx) => (await import('../operations/export.js')).exportState(ctx, filter));
    },
    rollback: (params, opts) =>
      session.plan(opts, 'rollback', params, ['assetId', 'platform', 'envId'], params, async (ctx) =>
        (await import('../operations/rollback.js')).rollback(ctx, { ...(await channelOf(ctx, params.assetId)), to: params.to, user: await ctx.setting('user') }, parameterNames),
      ),
    verify: (params, opts) => verify(session, params, opts),
    plan: (params: DesiredStateParams = {}, opts) =>
      session.run(opts, { user: params.user }, async (ctx): Promise<DesiredPlanDocument> => {
        const { planFile } = await import('../desired/plan.js');
        return planFile(ctx, desiredInput('plan', params, ctx));
      }),
    apply: (params: ApplyParams = {}, opts) =>
      session.plan(opts, 'apply', params, [], { user: params.user }, async (ctx) => {
        if (params.plan !== undefined && (params.file !== undefined || params.target !== undefined)) {
          throw new UsageError(`apply: a saved plan is applied as it was saved: leave out ${params.file !== undefined ? 'file' : 'target'} (or plan again with them)`);
        }
        const [{ applyPlan, appliedResult, planToApply }, { thenDo }] = await Promise.all([import('../desired/apply.js'), import('../plan/plan.js')]);
        const doc = await planToApply(ctx, { ...desiredInput('apply', params, ctx), plan: params.plan });
        return thenDo(applyPlan(doc, await ctx.api(), await ctx.output()), appliedResult);
      }),
    rollout: (params, opts) => rollout(session, 'start', params, opts),
    rolloutStatus: (params, opts) => rollout(session, 'status', params, opts),
    rolloutAbort: (params, opts) => rollout(session, 'abort', params, opts),
    history: (params = {}, opts) => session.history(params, opts),
    journal: {
      init: (params = {}, opts) =>
        session.run(opts, { envId: params.envId, user: params.user, command: 'journal.init' }, async (ctx) => {
          const [{ initJournal }, { DEFAULT_JOURNAL_ID }] = await Promise.all([import('../operations/journal-init.js'), import('../service/journal.js')]);
          const collectionId = params.collectionId ?? DEFAULT_JOURNAL_ID;
          const result = await initJournal(ctx, { collectionId, envId: await ctx.setting('envId'), user: await ctx.setting('user') });
          if (!result) throw new UsageError('journal.init: a dry run is not a call of its own here: the executor printed its prediction');
          return result;
        }),
    },
    // A read is sent at once; a write is planned and applied at once, as every write of the client:
    // gated by change control and recorded in the journal as the raw request (src/operations/api-request.ts).
    request: async <T>(request: RawRequest, opts?: CallOptions): Promise<T> => {
      const { method, path, query, body } = checkRequest(request);
      const [{ pathOf }, { planWriteRequest, readRequest }] = await Promise.all([import('../service/api-path.js'), import('../operations/api-request.js')]);
      if (method === 'GET') return session.readOne(opts, async (api) => (await readRequest({ api: async () => api }, { method, path: pathOf(path, api.domainId ?? ''), query })) as T);
      const planned = await session.plan(opts, 'request', request, [], {}, async (ctx) => planWriteRequest(ctx, { method, path: pathOf(path, (await ctx.api()).domainId ?? ''), query, body }));
      return (await planned.apply()) as T;
    },
    close: () => session.close(),
  };
}

/** Where a list is read: its path, the schema of one result, and how a failure of its first read is named. */
interface ListSource {
  path: string;
  query?: Query;
  item?: ResponseSchema;
  /** Runs the first page's read (a missing collection answers 400 on its items: named as not found). */
  named?: <T>(read: () => Promise<T>) => Promise<T>;
}

/** The contexts of one client: each call gets its own (its settings, its documents); close() ends those still open. */
class Session {
  constructor(
    private readonly options: ClientOptions,
    private readonly open: Set<Context>,
  ) {}

  /** A call's context: the client's options with the call's own above them (its signal aborts it alone). */
  private async context(settings: CallSettings = {}, call: CallOptions = {}): Promise<LibraryContext> {
    const control = { ...(call.lockId !== undefined ? { lockId: call.lockId } : {}), ...(call.breakGlass !== undefined ? { breakGlass: call.breakGlass } : {}) };
    const made = await libraryContext(withCallOptions(this.options, call), { ...settings, ...control });
    this.open.add(made.ctx);
    return made;
  }

  private async end(ctx: Context): Promise<void> {
    this.open.delete(ctx);
    await ctx.dispose();
  }

  /** A list read lazily, page by page (http/paging.ts eachPage); toArray() without a limit reads it whole as --all does. */
  list<T>(options: ListOptions = {}, source: (api: ApiClient) => Promise<ListSource>): PagedList<T> {
    const session = this;
    const { pageSize, ...call } = checkListOptions(options);
    async function* pages(): AsyncGenerator<Page<T>, void, undefined> {
      const { ctx } = await session.context({}, call);
      try {
        const api = await ctx.api();
        const { path, query, item, named = (read) => read() } = await source(api);
        const { eachPage } = await import('../http/paging.js');
        const iterator = eachPage<T>(api, path, query, { pageSize, item });
        try {
          let next = await named(() => iterator.next());
          while (!next.done) {
            yield next.value;
            next = await iterator.next();
          }
        } finally {
          await iterator.return();
        }
      } finally {
        await session.end(ctx);
      }
    }
    const whole = async (): Promise<T[]> => {
      const { ctx } = await session.context({}, call);
      try {
        const api = await ctx.api();
        const { path, query, item, named = (read) => read() } = await source(api);
        const { fetchAll } = await import('../http/paging.js');
        return await named(() => fetchAll<T>(api, path, query, { pageSize, item }));
      } finally {
        await session.end(ctx);
      }
    };
    return pagedList(pages, whole);
  }

  /** A read whose answer is one merged list (two listings of records): one page. */
  whole<T>(call: CallOptions = {}, read: (api: ApiClient) => Promise<T[]>): PagedList<T> {
    const session = this;
    const all = async (): Promise<T[]> => session.readOne(call, read);
    async function* pages(): AsyncGenerator<Page<T>, void, undefined> {
      const results = await all();
      yield { pageNumber: 1, pageSize: results.length, totalResults: results.length, results };
    }
    return pagedList(pages, all);
  }

  async readOne<T>(call: CallOptions = {}, read: (api: ApiClient) => Promise<T>): Promise<T> {
    const { ctx } = await this.context({}, checkCallOptions(call));
    try {
      return await read(await ctx.api());
    } finally {
      await this.end(ctx);
    }
  }

  /** A call that needs the whole context (its settings, its output's messages), not only the API client: verify, plan. */
  async run<T>(callOptions: CallOptions | undefined, call: CallSettings, work: (ctx: Context) => Promise<T>): Promise<T> {
    const { ctx } = await this.context(call, checkCallOptions(callOptions));
    try {
      return await work(ctx);
    } finally {
      await this.end(ctx);
    }
  }

  /** The operation's Plan (src/operations/), from its reads, as a PlannedWrite; nothing is sent yet. */
  async plan<P extends object, R>(
    callOptions: CallOptions | undefined,
    name: string,
    params: P,
    required: ReadonlyArray<keyof P & string>,
    call: CallSettings,
    operation: (ctx: Context) => Promise<Plan<R>>,
  ): Promise<PlannedWrite<R>> {
    need(name, params, required);
    const { ctx, documents } = await this.context({ platform: call.platform, envId: call.envId, user: call.user, command: name }, checkCallOptions(callOptions));
    let planned: Plan<R>;
    try {
      planned = await operation(ctx);
    } catch (error) {
      await this.end(ctx);
      throw error;
    }
    return new LibraryPlan<R>(planned, ctx, documents, () => this.end(ctx), eventsOf(this.options));
  }

  async close(): Promise<void> {
    await Promise.all([...this.open].map((ctx) => this.end(ctx)));
  }

  /** The journal's entries, newest first (`ahs history`), a chunk read at a time. */
  history(params: HistoryParams, call?: CallOptions): AsyncIterable<JournalEntry> {
    const session = this;
    const when = (name: string, value: Date | string | undefined): Date | undefined => {
      if (value === undefined) return undefined;
      const date = value instanceof Date ? value : new Date(value);
      if (Number.isNaN(date.getTime())) throw new UsageError(`history: ${name} must be a Date or an ISO 8601 date or timestamp (got ${String(value)})`);
      return date;
    };
    return {
      async *[Symbol.asyncIterator]() {
        const filter = { id: params.id, platform: params.platform, envId: params.envId, since: when('since', params.since), until: when('until', params.until), limit: params.limit };
        const { ctx } = await session.context({}, checkCallOptions(call));
        try {
          const [{ requireJournal }, { readHistory, unreadableLine }, { isUnreadable }] = await Promise.all([import('../service/journal-setting.js'), import('../service/history.js'), import('../service/journal.js')]);
          const nameOne = "and give its id as createClient's journal option (or its profile's, with profile or fromEnvironment)";
          const journal = await requireJournal(ctx, 'history()', nameOne);
          const out = await ctx.output();
          // An unreadable entry is a warning (with its item id), never an entry: it decides nothing.
          for await (const entry of readHistory(ctx, journal, filter, 'history()', nameOne)) {
            if (isUnreadable(entry)) out.warn(unreadableLine(entry));
            else yield entry as JournalEntry;
          }
        } finally {
          await session.end(ctx);
        }
      },
    };
  }
}

/** A Plan with the context it was made in: predicted and applied by the executor (src/plan/execute.ts). */
class LibraryPlan<R> implements PlannedWrite<R> {
  private applied = false;
  readonly steps: readonly PlanStep[];
  readonly unchanged?: Unchanged;

  constructor(
    private readonly plan: Plan,
    private readonly ctx: Context,
    private readonly documents: unknown[],
    private readonly end: () => Promise<void>,
    private readonly emit: (event: ClientEvent) => void = () => {},
  ) {
    // Copies: the executor's steps stay as the command made them.
    this.steps = plan.steps.map(({ id, kind, params, batch, after }) => structuredClone({ id, kind, params, ...(batch ? { batch } : {}), ...(after ? { after } : {}) }));
    if (plan.noop) this.unchanged = { changed: false, ...plan.noop };
    // A multi-step write whose every stage is done (a release run again) plans no step: nothing to send either.
    else if (plan.steps.length === 0) this.unchanged = { changed: false, state: null, message: 'nothing to send: the service already holds what this write asks for' };
  }

  async predict(): Promise<DryRunDocument | R> {
    this.refuseIfApplied('predict');
    const before = this.documents.length;
    try {
      await this.execute({ ...this.ctx, globals: { ...this.ctx.globals, dryRun: true } });
    } catch (error) {
      // A predicted rejection is the prediction: the document says what the service would answer.
      // (Loaded here: plan/dryrun.ts brings the rules and zod, which an import of the library must not.)
      const { PredictedRejection } = await import('../plan/dryrun.js');
      if (!(error instanceof PredictedRejection) || this.documents.length === before) throw error;
    }
    return this.documents.at(-1) as DryRunDocument | R;
  }

  async apply(): Promise<R> {
    this.refuseIfApplied('apply');
    this.applied = true;
    try {
      const result = await this.execute(this.ctx, this.withStepEvents());
      if (this.plan.noop) return { changed: false, ...this.plan.noop } as R;
      return result as R;
    } finally {
      await this.end();
    }
  }

  private async execute(ctx: Context, plan: Plan = this.plan): Promise<unknown> {
    const { executePlan } = await import('../plan/execute.js');
    return executePlan(plan, ctx);
  }

  /** The plan, telling the caller's onEvent of each step as its answer comes (or it fails). */
  private withStepEvents(): Plan {
    const { plan, emit } = this;
    return {
      ...plan,
      onAnswer(step, results) {
        plan.onAnswer?.(step, results);
        emit({ type: 'step', id: step.id, kind: step.kind, outcome: 'done' });
      },
      onFailure(step, failure) {
        plan.onFailure?.(step, failure);
        emit({ type: 'step', id: step.id, kind: step.kind, outcome: 'failed' });
      },
    };
  }

  private refuseIfApplied(what: string): void {
    if (this.applied) throw new UsageError(`${what}: this plan was applied already; plan the write again (its reads would be stale)`);
  }
}


/** `ahs verify` with the call's parameters: the operation (src/operations/verify.ts); its differences are the answer, not an error. */
async function verify(session: Session, params: VerifyParams, call?: CallOptions): Promise<VerifyResult> {
  const asset = params !== null && typeof params === 'object' && 'assetId' in params;
  if (asset) need('verify', params, ['assetId', 'platform', 'envId']);
  else need('verify', params as VerifyCollectionParams, ['collectionId', 'envId']);
  const path = asset ? params.file : (params as VerifyCollectionParams).dir;
  if ((path === undefined) === (params.sums === undefined)) throw new UsageError(`verify: give either ${asset ? 'file' : 'dir'} or sums`);
  return session.run(call, asset ? { platform: params.platform, envId: params.envId } : { envId: params.envId }, async (ctx) => {
    const { verify: verifyOperation } = await import('../operations/verify.js');
    if (asset) {
      const { assetId, platform, envId, file, sums, versionId } = params;
      return (await verifyOperation(ctx, { kind: 'asset', assetId, platform, envId, file, sums, versionId }, parameterNames)).result;
    }
    const { collectionId, envId, dir, sums, followLinks, concurrency } = params as VerifyCollectionParams;
    return (await verifyOperation(ctx, { kind: 'collection', collectionId, envId, dir, sums, followLinks, concurrency }, parameterNames)).result;
  });
}

/** A rollout run, its status or its abort: the operation (src/operations/rollout.ts); a wait (exit 11) answers with the document. */
async function rollout(session: Session, mode: 'start' | 'status' | 'abort', params: RolloutParams, callOptions?: CallOptions): Promise<RolloutDocument> {
  const call = `rollout${mode === 'start' ? '' : mode === 'status' ? 'Status' : 'Abort'}`;
  need(call, params, ['assetId', 'platform']);
  if (!Array.isArray(params.waves) || params.waves.length === 0 || params.waves.some((env) => typeof env !== 'string' || env === '')) throw new UsageError(`${call}: waves is required: the environments in order, e.g. ['dev', 'staging', 'prod']`);
  // Named as this call's parameters, before any request (the operation's own words name the CLI's VERSION_ID, --name and --check).
  const given = (value: string | undefined) => value !== undefined && value !== '';
  if (given(params.versionId) && given(params.name)) throw new UsageError(`${call}: give versionId or name, not both`);
  if (!given(params.versionId) && !given(params.name)) throw new UsageError(`${call}: versionId (or name) is required: the version to roll out`);
  if (params.check !== undefined && params.check.trim() === '') throw new UsageError(`${call}: check must not be empty`);
  const [operations, { WaitingError }] = await Promise.all([import('../operations/rollout.js'), import('../errors.js')]);
  // The journal names each wave's entry after the call (rollout, rolloutAbort), as every other library write's.
  const result = await session.run(callOptions, { platform: params.platform, user: params.user, command: call }, async (ctx) => {
    const options = {
      assetId: params.assetId,
      versionId: params.versionId,
      name: params.name,
      platform: params.platform,
      waves: params.waves,
      soak: Object.entries(params.soak ?? {}).map(([env, duration]) => `${env}=${duration}`),
      check: params.check,
      approve: params.approve,
      approved: params.approved,
      resume: params.resume,
      supersede: params.supersede,
      to: Object.entries(params.to ?? {}).map(([env, versionId]) => `${env}=${versionId}`),
      user: () => ctx.setting('user'),
    };
    return mode === 'start' ? operations.startRollout(ctx, options) : mode === 'status' ? operations.rolloutStatus(ctx, options) : operations.abortRollout(ctx, options);
  });
  if (result.stop && !(result.stop instanceof WaitingError)) throw result.stop;
  return result.document;
}

/** A field of the service's API as the library's caller gives it (validation messages name the parameter). */
const PARAMETERS: Record<string, string> = {
  createdBy: 'user',
  updatedBy: 'user',
  deletedBy: 'user',
  assetName: 'name',
  assetType: 'type',
  versionName: 'name',
  collectionName: 'name',
  targetPlatforms: 'platform',
  targetPlatform: 'platform',
  itemName: 'name',
  itemType: 'type',
};

function parameterNames(field: string): string {
  return PARAMETERS[field] ?? field;
}

/** A boolean flag as `run` receives it: true, or undefined when not given. */
function flag(value: boolean | undefined): true | undefined {
  return value ? true : undefined;
}

/** A `--no-x` flag as `run` receives it: false, or undefined when not given. */
function off(value: boolean | undefined): false | undefined {
  return value === false ? false : undefined;
}

/** A list of strings, none empty (files, type codes): named by the call when it is not. */
function strings(call: string, key: string, value: unknown): string[] {
  if (!Array.isArray(value) || value.length === 0 || value.some((entry) => typeof entry !== 'string' || entry === '')) {
    throw new UsageError(`${call}: ${key} must be a non-empty list of strings`);
  }
  return value as string[];
}

function paths(call: string, value: unknown): string[] {
  return strings(call, 'files', value);
}

/** One platform or several, as the command's --platform P[,P...] takes them. */
function platformList(call: string, value: string | string[] | undefined): string {
  if (typeof value === 'string' && value !== '') return value;
  return strings(call, 'platform', value).join(',');
}

/**
 * A state filter as the CLI's --state takes it: any case (`live` is LIVE);
 * another value matches no record, so it is refused as --state refuses it,
 * not answered with an empty list.
 */
function deploymentState(call: string, state: unknown): 'LIVE' | 'OFFLINE' | 'DEFAULT' | undefined {
  return stateOf(call, state, ['LIVE', 'OFFLINE', 'DEFAULT'] as const);
}

/** A write's state parameter as the command's --state takes it: any case, one of `allowed`, else a usage error naming the call's parameter. */
function stateOf<S extends string>(call: string, state: unknown, allowed: readonly S[]): S | undefined {
  if (state === undefined) return undefined;
  const upper = typeof state === 'string' ? state.toUpperCase() : state;
  if (allowed.includes(upper as S)) return upper as S;
  throw new UsageError(`${call}: state must be one of ${allowed.join(', ')} (got ${String(state)})`);
}

/** The call's required parameters, named by the call when one is missing or empty. */
function need<P extends object>(call: string, params: P, required: ReadonlyArray<keyof P & string> = Object.keys(params) as Array<keyof P & string>): P {
  if (params === null || typeof params !== 'object') throw new UsageError(`${call}: expected an object of parameters`);
  for (const key of required) {
    const value = params[key];
    if (value === undefined || value === null || value === '') throw new UsageError(`${call}: ${key} is required`);
    if (typeof value !== 'string') throw new UsageError(`${call}: ${key} must be a string (got ${typeof value})`);
  }
  return params;
}

/** `ahs fetch` of a collection in an environment, or of its deployed URL: the files on disk, the result; any failed file rejects. */
async function fetchFiles(session: Session, params: FetchParams, call?: CallOptions): Promise<FetchResult> {
  if (params === null || typeof params !== 'object') throw new UsageError('fetch: expected an object of parameters');
  const given = params as Partial<Record<'url' | 'collectionId' | 'envId', unknown>>;
  const byUrl = given.url !== undefined;
  if (byUrl === (given.collectionId !== undefined)) throw new UsageError('fetch: give either collectionId (with envId) or url');
  if (byUrl && given.envId !== undefined) throw new UsageError('fetch: envId is not used with url (the URL names the environment); remove it');
  let source: FetchSource;
  if ('url' in params) source = { url: need('fetch', params, ['url']).url };
  else source = { collectionId: need('fetch', params, ['collectionId', 'envId']).collectionId, envId: params.envId };
  const { dir, skipExisting, concurrency, verify } = params;
  if (concurrency !== undefined && !(Number.isInteger(concurrency) && concurrency > 0)) throw new UsageError(`fetch: concurrency must be a whole number above 0 (got ${String(concurrency)})`);
  const input: FetchInput = {
    source,
    dir,
    itemIds: params.item === undefined ? undefined : strings('fetch', 'item', params.item),
    patterns: params.pattern === undefined ? undefined : strings('fetch', 'pattern', params.pattern),
    skipExisting,
    concurrency,
    verify,
  };
  return session.run(call, {}, async (ctx) => {
    const { result, failure } = await (await import('../operations/fetch.js')).fetchCollection(ctx, input);
    if (failure) {
      // The files that came, and those that failed, are the caller's all the same.
      failure.result = result;
      throw failure;
    }
    return result;
  });
}

/** export()'s filter: each a list of ids when given. */
function exportFilter(params: ExportParams): ExportFilter {
  if (params === null || typeof params !== 'object') throw new UsageError('export: expected an object of parameters');
  const ids = (key: keyof ExportParams) => (params[key] === undefined ? undefined : strings('export', key, params[key]));
  return { asset: ids('asset'), collection: ids('collection'), platform: ids('platform'), envId: ids('envId') };
}

function checkOptions(options: ClientOptions): void {
  if (options === null || typeof options !== 'object') throw new UsageError('createClient: expected an object of settings, such as { baseUrl, domainId, apiKey, user }');
  if (options.fromEnvironment || options.profile !== undefined) return;
  for (const key of ['baseUrl', 'domainId'] as const) {
    if (!options[key]) throw new UsageError(`createClient: ${key} is required (or ask for the CLI's settings: { profile: 'NAME' } or { fromEnvironment: true })`);
  }
}

/**
 * The plan, saying once it is done the line its command prints on stderr then
 * (onMessage hears it, as it hears release's and items.upload's); the result
 * unchanged. No line when `line` gives none.
 */
async function saying<R>(ctx: Context, planned: Plan<R>, line: (result: R) => string | undefined): Promise<Plan<R>> {
  const out = await ctx.output();
  return {
    ...planned,
    done: async (results) => {
      const result = await planned.done(results);
      const text = line(result);
      if (text !== undefined) out.success(text);
      return result;
    },
  };
}

/** A lazy list over its pages; `whole` reads it at once for toArray() without a limit. */
function pagedList<T>(pages: () => AsyncGenerator<Page<T>, void, undefined>, whole: () => Promise<T[]>): PagedList<T> {
  return {
    async *[Symbol.asyncIterator]() {
      for await (const page of pages()) yield* page.results;
    },
    pages,
    async toArray({ limit }: { limit?: number } = {}) {
      if (limit === undefined) return whole();
      if (!Number.isInteger(limit) || limit < 0) throw new UsageError(`toArray: limit must be a whole number of at least 0 (got ${String(limit)})`);
      const taken: T[] = [];
      if (limit === 0) return taken;
      for await (const page of pages()) {
        taken.push(...page.results.slice(0, limit - taken.length));
        if (taken.length >= limit) break;
      }
      return taken;
    },
  };
}

/** A signal of the library's own making, listened to by as many requests at once as a call sends (no MaxListenersExceededWarning). */
function unlimited(signal: AbortSignal): AbortSignal {
  setMaxListeners(0, signal);
  return signal;
}

/** The client's options with one call's above them: its own budget, and a signal that aborts this call alone. */
function withCallOptions(options: ClientOptions, call: CallOptions): ClientOptions {
  const signals = [options.signal, call.signal].filter((signal): signal is AbortSignal => signal !== undefined);
  return {
    ...options,
    ...(call.timeoutMs !== undefined ? { timeoutMs: call.timeoutMs } : {}),
    ...(call.retries !== undefined ? { retries: call.retries } : {}),
    ...(signals.length > 0 ? { signal: signals.length === 1 ? signals[0] : unlimited(AbortSignal.any(signals)) } : {}),
  };
}

function checkCallOptions(call: CallOptions | undefined): CallOptions {
  if (call === undefined) return {};
  if (call === null || typeof call !== 'object') throw new UsageError('expected the call\'s options as an object, such as { signal, timeoutMs, retries }');
  if (call.signal !== undefined && !(call.signal instanceof AbortSignal)) throw new UsageError('signal must be an AbortSignal');
  if (call.timeoutMs !== undefined && !(typeof call.timeoutMs === 'number' && call.timeoutMs > 0)) throw new UsageError(`timeoutMs must be a number of milliseconds above 0 (got ${String(call.timeoutMs)})`);
  if (call.retries !== undefined && !(Number.isInteger(call.retries) && call.retries >= 0)) throw new UsageError(`retries must be a whole number of at least 0 (got ${String(call.retries)})`);
  if (call.lockId !== undefined && typeof call.lockId !== 'string') throw new UsageError('lockId must be the lock id locks.acquire() answered (a string)');
  if (call.breakGlass !== undefined && !(typeof call.breakGlass === 'object' && call.breakGlass !== null && typeof call.breakGlass.reason === 'string' && call.breakGlass.reason.trim() !== '')) throw new UsageError('breakGlass must be { reason: "..." }: the reason is recorded in the journal with the write');
  return call;
}

function checkListOptions(options: ListOptions): ListOptions {
  checkCallOptions(options);
  const { pageSize } = options;
  if (pageSize !== undefined && !(Number.isInteger(pageSize) && pageSize > 0)) throw new UsageError(`pageSize must be a whole number above 0 (got ${String(pageSize)})`);
  return options;
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

function checkRequest(request: RawRequest): RawRequest {
  if (request === null || typeof request !== 'object') throw new UsageError('request: expected { method, path, query?, body? }');
  if (typeof request.method !== 'string' || !METHODS.includes(request.method.toUpperCase())) throw new UsageError(`request: method must be one of ${METHODS.join(', ')} (got ${String(request.method)})`);
  if (typeof request.path !== 'string' || request.path === '') throw new UsageError('request: path is required (va/..., vc/..., or /api/v2/...)');
  return { ...request, method: request.method.toUpperCase() as RawRequest['method'] };
}

/** plan() and apply()'s parameters as the desired-state layer takes them (src/desired/plan.ts DesiredInput). */
function desiredInput(call: string, params: DesiredStateParams, ctx: Context): { file: string | undefined; fileAs: string; targets: string[] | undefined; checksum: boolean | undefined; user: () => Promise<string> } {
  if (params === null || typeof params !== 'object') throw new UsageError(`${call}: expected an object of parameters`);
  return {
    file: params.file,
    fileAs: 'the file parameter',
    targets: params.target,
    checksum: flag(params.checksum),
    user: () => ctx.setting('user'),
  };
}

/** A collection's fields as the library's caller gives them (validation messages name the parameter). */
function collectionParameterNames(field: string): string {
  return ({ anchorAsset: 'anchor', allowedAssetTypes: 'allowedTypes' } as Record<string, string>)[field] ?? parameterNames(field);
}

/** A collection id, checked as the CLI's COLLECTION_ID is (a usage error before any request). */
async function collectionIdOf(ctx: Context, collectionId: string): Promise<string> {
  const { collectionArg } = await import('../pickers/pick-collection.js');
  return collectionArg(ctx, collectionId);
}

/** An item's fields as the library's caller gives them. */
function itemParameterNames(field: string): string {
  return ({ assetItemName: 'name' } as Record<string, string>)[field] ?? parameterNames(field);
}

/**
 * The channel of a call (asset, platform, environment) as its context resolved
 * it (the call's platform and envId, as the CLI's --platform and --env), its
 * asset id checked as the CLI checks ASSET_ID.
 */
async function channelOf(ctx: Context, assetId: string): Promise<{ assetId: string; platform: string; envId: string }> {
  return { assetId: await checkedAssetId(assetId), platform: await ctx.setting('platform'), envId: await ctx.setting('envId') };
}

async function checkedAssetId(assetId: string): Promise<string> {
  const { assetId: schema, validate } = await import('../rules/schemas.js');
  const checked = validate(schema, assetId, () => 'assetId');
  if (!checked.ok) throw new UsageError(checked.messages.join('; '));
  return assetId;
}
