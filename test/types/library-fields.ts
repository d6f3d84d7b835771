// The library's public types, checked by the compiler (`tsc --noEmit`, part
// of npm test; test/docs/library-types.test.ts proves that these lines fail
// when a field goes; test/e2e/library-package.test.ts compiles this file
// against the shipped dist/types too). The types are the operations' own (src/library/types.ts
// re-exports them), so they cannot drift from what a call returns; what can
// go unnoticed is a result losing a field its users read. So:
// - `optional`: every optional field of every re-exported type and of
//   PlannedWrite, nested ones included, by its path, exactly. A field taken
//   away (or made required) fails on its line, naming the path (`gone`); a
//   new optional field fails until it is listed here (`unlisted`).
// - `parameters`: the same for every parameter type, most of which are an
//   operation's input (Pick<>, Omit<>): an input that loses an optional
//   field takes it from the library's callers too.
// - `documented`: the fields (optional or not) that the library's
//   declarations and cli.md's JSON documents name, by their paths.
// Remove a path only with the field's removal announced.
import type * as Library from '../../src/library/types.js';

type Leaf = string | number | boolean | bigint | symbol | null | undefined | Date;
type Depth = [never, 0, 1, 2, 3, 4, 5, 6, 7];
type Prefixed<K extends string, P> = P extends string ? `${K}.${P}` : never;

/**
 * The field paths of T: `assetVersion.downloadUrl`, `stages[].matched` (through arrays, unions and optional fields);
 * with `Only` 'optional', those of its optional fields only. A phantom `__` field of the implementation is left out.
 */
type Paths<T, Only extends 'all' | 'optional' = 'all', D extends number = 8> = [D] extends [never]
  ? never
  : T extends Leaf
    ? never
    : T extends readonly (infer E)[]
      ? Paths<E, Only, Depth[D]>
      : string extends keyof T
        ? never
        : { [K in keyof T & string]-?: K extends `__${string}` ? never : Here<T, K, Only> | Below<K, NonNullable<T[K]>, Only, Depth[D]> }[keyof T & string];
type Here<T, K extends keyof T, Only> = Only extends 'optional' ? ({} extends Pick<T, K> ? K : never) : K;
type Below<K extends string, V, Only extends 'all' | 'optional', D extends number> = V extends readonly (infer E)[]
  ? (Only extends 'optional' ? never : `${K}[]`) | Prefixed<`${K}[]`, Paths<E, Only, D>>
  : Prefixed<K, Paths<V, Only, D>>;
type OptionalPaths<T> = Paths<T, 'optional'>;

/** A check: T must be true (else tsc names what it is instead, on the line of the check). */
type Is<T extends true> = T;

/** true when every path of P is a field of T; else the paths that are not (tsc prints them). */
type Fields<T, P extends string> = [Exclude<P, Paths<T>>] extends [never] ? true : Exclude<P, Paths<T>>;

/** true when P is exactly T's optional paths; else `gone` (listed, no longer an optional field) or `unlisted` (an optional field not listed here). */
type Optional<T, P extends string> = [Exclude<P, OptionalPaths<T>>] extends [never]
  ? [Exclude<OptionalPaths<T>, P>] extends [never]
    ? true
    : { unlisted: Exclude<OptionalPaths<T>, P> }
  : { gone: Exclude<P, OptionalPaths<T>> };

// Each line: a public type, and every optional field of it (nested ones by their path).
export type OptionalFields = {
  Asset: Is<Optional<Library.Asset, never>>;
  ChannelRecord: Is<Optional<Library.ChannelRecord, 'downloadUrl'>>;
  Collection: Is<Optional<Library.Collection, 'description' | 'anchorAsset' | 'deletedAt'>>;
  DeploymentRecord: Is<Optional<Library.DeploymentRecord, never>>;
  DeploymentState: Is<Optional<Library.DeploymentState, never>>;
  Item: Is<Optional<Library.Item, never>>;
  Version: Is<Optional<Library.Version, 'fileName'>>;
  DryRunDocument: Is<Optional<Library.DryRunDocument, 'predicted.error.blockedBy' | 'predicted.error.until' | 'before' | 'before[].predicted.error.blockedBy' | 'before[].predicted.error.until'>>;
  Unchanged: Is<Optional<Library.Unchanged, never>>;
  DeployResult: Is<Optional<Library.DeployResult, never>>;
  ReadBackRecord: Is<Optional<Library.ReadBackRecord, never>>;
  PromotionResult: Is<Optional<Library.PromotionResult, never>>;
  UndeployResult: Is<Optional<Library.UndeployResult, never>>;
  AssetDeleted: Is<Optional<Library.AssetDeleted, never>>;
  VersionDeleted: Is<Optional<Library.VersionDeleted, never>>;
  CollectionDeployResult: Is<Optional<Library.CollectionDeployResult, 'downloadUrl' | 'message'>>;
  MessageResult: Is<Optional<Library.MessageResult, never>>;
  ItemRemoved: Is<Optional<Library.ItemRemoved, never>>;
  ItemUploadResult: Is<Optional<Library.ItemUploadResult, 'failed[].error.blockedBy' | 'failed[].error.until'>>;
  SyncResult: Is<Optional<Library.SyncResult, 'failed[].error.blockedBy' | 'failed[].error.until' | 'reconciled'>>;
  ReleaseResult: Is<Optional<Library.ReleaseResult, 'version.fileName' | 'stages[].matched'>>;
  DesiredPlanDocument: Is<Optional<Library.DesiredPlanDocument, 'file' | 'reads[].scope' | 'steps[].prediction' | 'steps[].prediction.decision.resource' | 'steps[].prediction.decision.message' | 'steps[].prediction.unchanged' | 'steps[].prediction.notes' | 'steps[].refuse' | 'steps[].refuse.byKind' | 'steps[].refuse.byKind.state' | 'steps[].refuse.byKind.not-found' | 'steps[].refuse.byKind.unknown-reference' | 'steps[].refuse.byKind.conflict' | 'steps[].refuse.byKind.access' | 'steps[].refuse.byKind.plan-limit' | 'steps[].refuse.byKind.validation' | 'steps[].refuse.byKind.internal' | 'steps[].batch' | 'steps[].batch.bounds' | 'steps[].after' | 'changes' | 'changes[].unknownAfter' | 'changes[].name' | 'changes[].compared' | 'changes[].request' | 'changes[].prediction' | 'changes[].prediction.title' | 'changes[].notes' | 'notes'>>;
  PlanChange: Is<Optional<Library.PlanChange, 'unknownAfter' | 'name' | 'compared' | 'request' | 'prediction' | 'prediction.title' | 'notes'>>;
  PlanChangeAction: Is<Optional<Library.PlanChangeAction, never>>;
  ApplyResult: Is<Optional<Library.ApplyResult, 'failed[].error.blockedBy' | 'failed[].error.until'>>;
  VerifyResult: Is<Optional<Library.VerifyResult, never>>;
  VerifyCollectionParams: Is<Optional<Library.VerifyCollectionParams, 'dir' | 'sums' | 'followLinks' | 'concurrency'>>;
  FetchResult: Is<Optional<Library.FetchResult, 'downloaded[].renamed' | 'skipped[].renamed' | 'failed[].renamed'>>;
  VersionDownloadResult: Is<Optional<Library.VersionDownloadResult, never>>;
  DownloadVersionParams: Is<Optional<Library.DownloadVersionParams, 'envId' | 'out'>>;
  DesiredStateDocument: Is<Optional<Library.DesiredStateDocument, '$schema' | 'assets' | 'collections'>>;
  DesiredAsset: Is<Optional<Library.DesiredAsset, 'description' | 'secured' | 'localCacheControl' | 'localCacheMaxAge' | 'active' | 'versions' | 'channels' | 'rollout' | 'rollout.soak' | 'rollout.check' | 'rollout.approve'>>;
  DesiredChannel: Is<Optional<Library.DesiredChannel, 'default' | 'live' | 'offline' | 'exclusive'>>;
  DesiredCollection: Is<Optional<Library.DesiredCollection, 'description' | 'maxAssets' | 'editable' | 'deployable' | 'platform' | 'localCacheControl' | 'localCacheMaxAge' | 'anchor' | 'items' | 'items.prune' | 'items.pattern' | 'items.compare' | 'items.followLinks' | 'deployments'>>;
  RolloutDocument: Is<Optional<Library.RolloutDocument, 'restored' | 'left' | 'left[].found' | 'left[].to' | 'dryRun' | 'requests' | 'requests[].predicted.error.blockedBy' | 'requests[].predicted.error.until' | 'requests[].before' | 'requests[].before[].predicted.error.blockedBy' | 'requests[].before[].predicted.error.until'>>;
  JournalChange: Is<Optional<Library.JournalChange, 'unknownAfter' | 'unknownBefore'>>;
  JournalEntry: Is<Optional<Library.JournalEntry, 'rollout' | 'control' | 'ci' | 'ci.runUrl' | 'ci.sha' | 'ci.ref' | 'changes[].unknownAfter' | 'changes[].unknownBefore'>>;
  JournalInitResult: Is<Optional<Library.JournalInitResult, never>>;
  LockAcquired: Is<Optional<Library.LockAcquired, never>>;
  LockReleased: Is<Optional<Library.LockReleased, never>>;
  LockStatus: Is<Optional<Library.LockStatus, 'ci.runUrl' | 'ci.sha' | 'ci.ref'>>;
  LockBroken: Is<Optional<Library.LockBroken, never>>;
  FreezeSet: Is<Optional<Library.FreezeSet, never>>;
  FreezeListed: Is<Optional<Library.FreezeListed, never>>;
  FreezeRemoved: Is<Optional<Library.FreezeRemoved, never>>;
  VersionBlocked: Is<Optional<Library.VersionBlocked, never>>;
  VersionUnblocked: Is<Optional<Library.VersionUnblocked, never>>;
  PlannedWrite: Is<Optional<Library.PlannedWrite<unknown>, 'steps[].after' | 'steps[].batch' | 'steps[].batch.bounds' | 'unchanged'>>;
};

// Each line: a parameter type of the library, and every optional field of it. Most are an operation's input
// (Pick<>, Omit<>, src/library/types.ts), so an input that loses an optional field fails here, as a result does.
export type OptionalParameters = {
  ChannelParams: Is<Optional<Library.ChannelParams, 'user'>>;
  CreateAssetParams: Is<Optional<Library.CreateAssetParams, 'description' | 'localCacheControl' | 'localCacheMaxAge' | 'secured' | 'user'>>;
  UpdateAssetParams: Is<Optional<Library.UpdateAssetParams, 'active' | 'description' | 'localCacheControl' | 'localCacheMaxAge' | 'name' | 'type' | 'user'>>;
  AssetParams: Is<Optional<Library.AssetParams, 'user'>>;
  UndeployAssetParams: Is<Optional<Library.UndeployAssetParams, 'user'>>;
  VersionParams: Is<Optional<Library.VersionParams, never>>;
  CreateCollectionParams: Is<Optional<Library.CreateCollectionParams, 'anchor' | 'deployable' | 'description' | 'editable' | 'localCacheControl' | 'localCacheMaxAge' | 'maxAssets' | 'platform' | 'secured' | 'user'>>;
  UpdateCollectionParams: Is<Optional<Library.UpdateCollectionParams, 'anchor' | 'deployable' | 'description' | 'editable' | 'localCacheControl' | 'localCacheMaxAge' | 'maxAssets' | 'name' | 'user'>>;
  CollectionParams: Is<Optional<Library.CollectionParams, 'user'>>;
  UndeployCollectionParams: Is<Optional<Library.UndeployCollectionParams, 'user'>>;
  DeployCollectionParams: Is<Optional<Library.DeployCollectionParams, 'envId' | 'idempotent' | 'reconcile' | 'state' | 'user'>>;
  UploadItemsParams: Is<Optional<Library.UploadItemsParams, 'concurrency' | 'name' | 'user'>>;
  ItemParams: Is<Optional<Library.ItemParams, 'user'>>;
  UploadVersionParams: Is<Optional<Library.UploadVersionParams, 'user'>>;
  DeployParams: Is<Optional<Library.DeployParams, 'idempotent' | 'state' | 'user'>>;
  PromoteParams: Is<Optional<Library.PromoteParams, 'expectCurrent' | 'fromEnv' | 'idempotent' | 'makeLive' | 'user' | 'versionId'>>;
  ReleaseParams: Is<Optional<Library.ReleaseParams, 'expectCurrent' | 'state' | 'user'>>;
  RollbackParams: Is<Optional<Library.RollbackParams, 'to' | 'user'>>;
  VerifyParams: Is<Optional<Library.VerifyParams, 'concurrency' | 'dir' | 'file' | 'followLinks' | 'sums' | 'versionId'>>;
  VerifyAssetParams: Is<Optional<Library.VerifyAssetParams, 'file' | 'sums' | 'versionId'>>;
  SyncParams: Is<Optional<Library.SyncParams, 'checksum' | 'delete' | 'followLinks' | 'pattern' | 'reconcile' | 'user'>>;
  DesiredStateParams: Is<Optional<Library.DesiredStateParams, 'checksum' | 'file' | 'target' | 'user'>>;
  ApplyParams: Is<Optional<Library.ApplyParams, 'checksum' | 'file' | 'plan' | 'target' | 'user'>>;
  RecordFilter: Is<Optional<Library.RecordFilter, 'envId' | 'platform' | 'state'>>;
  FetchFilesOptions: Is<Optional<Library.FetchFilesOptions, 'concurrency' | 'dir' | 'item' | 'pattern' | 'skipExisting' | 'verify'>>;
  FetchCollectionParams: Is<Optional<Library.FetchCollectionParams, 'concurrency' | 'dir' | 'item' | 'pattern' | 'skipExisting' | 'verify'>>;
  FetchUrlParams: Is<Optional<Library.FetchUrlParams, 'concurrency' | 'dir' | 'item' | 'pattern' | 'skipExisting' | 'verify'>>;
  FetchParams: Is<Optional<Library.FetchParams, 'concurrency' | 'dir' | 'item' | 'pattern' | 'skipExisting' | 'verify'>>;
  ExportParams: Is<Optional<Library.ExportParams, 'asset' | 'collection' | 'envId' | 'platform'>>;
  RolloutParams: Is<Optional<Library.RolloutParams, 'approve' | 'approved' | 'check' | 'name' | 'resume' | 'soak' | 'supersede' | 'to' | 'user' | 'versionId'>>;
  LockAcquireParams: Is<Optional<Library.LockAcquireParams, 'lockId' | 'reason' | 'ttlMs' | 'user' | 'waitMs'>>;
  LockReleaseParams: Is<Optional<Library.LockReleaseParams, 'user'>>;
  LockBreakParams: Is<Optional<Library.LockBreakParams, 'user'>>;
  FreezeParams: Is<Optional<Library.FreezeParams, 'forMs' | 'until' | 'user' | 'weekly' | 'zone'>>;
  UnfreezeParams: Is<Optional<Library.UnfreezeParams, 'reason' | 'user'>>;
  BlockParams: Is<Optional<Library.BlockParams, 'envId' | 'user'>>;
  UnblockParams: Is<Optional<Library.UnblockParams, 'reason' | 'user'>>;
  JournalInitParams: Is<Optional<Library.JournalInitParams, 'collectionId' | 'envId' | 'user'>>;
  HistoryParams: Is<Optional<Library.HistoryParams, 'envId' | 'id' | 'limit' | 'platform' | 'since' | 'until'>>;
};

// Each line: a public type, and the fields (nested ones by their path) that the library's documentation names.
export type DocumentedFields = {
  channelRecord: Is<Fields<Library.ChannelRecord, 'downloadUrl'>>;
  collection: Is<Fields<Library.Collection, 'description' | 'anchorAsset' | 'deletedAt'>>;
  version: Is<Fields<Library.Version, 'fileName'>>;
  dryRun: Is<Fields<Library.DryRunDocument, 'before' | 'before[].predicted.error.detail' | 'predicted.effects[].description'>>;
  collectionDeploy: Is<Fields<Library.CollectionDeployResult, 'downloadUrl' | 'message'>>;
  sync: Is<Fields<Library.SyncResult, 'reconciled' | 'skipped[].reason' | 'failed[].error.title' | 'compared.checksum'>>;
  release: Is<Fields<Library.ReleaseResult, 'stages[].matched' | 'assetVersion.envId'>>;
  plan: Is<Fields<Library.DesiredPlanDocument, 'file' | 'file.sha256' | 'reads[].scope' | 'steps[].batch' | 'steps[].batch.bounds' | 'steps[].after' | 'changes' | 'changes[].unknownAfter' | 'changes[].compared' | 'changes[].prediction.title' | 'notes'>>;
  planChange: Is<Fields<Library.PlanChange, 'unknownAfter' | 'name' | 'compared' | 'request' | 'prediction' | 'prediction.title' | 'notes'>>;
  apply: Is<Fields<Library.ApplyResult, 'steps[].request.body' | 'failed[].error.detail'>>;
  desired: Is<Fields<Library.DesiredStateDocument, '$schema' | 'assets' | 'collections'>>;
  desiredAsset: Is<Fields<Library.DesiredAsset, 'description' | 'secured' | 'active' | 'versions' | 'channels' | 'rollout' | 'rollout.soak' | 'rollout.check' | 'rollout.approve'>>;
  desiredChannel: Is<Fields<Library.DesiredChannel, 'default' | 'default.versionId' | 'live' | 'live[].versionId' | 'offline' | 'exclusive'>>;
  desiredCollection: Is<Fields<Library.DesiredCollection, 'description' | 'maxAssets' | 'anchor' | 'items' | 'items.prune' | 'items.pattern' | 'items.compare' | 'items.followLinks' | 'items.names' | 'deployments'>>;
  rollout: Is<Fields<Library.RolloutDocument, 'next.env' | 'next.for' | 'next.until' | 'next.found' | 'next.reason' | 'next.halt' | 'restored' | 'left' | 'dryRun' | 'requests' | 'waves[].previousDefault'>>;
  journalEntry: Is<Fields<Library.JournalEntry, 'ci' | 'ci.runUrl' | 'ci.sha' | 'ci.ref' | 'rollout' | 'changes[].unknownAfter' | 'changes[].unknownBefore'>>;
  promotion: Is<Fields<Library.PromotionResult, 'assetVersion.fallback' | 'previousDefault'>>;
  fetch: Is<Fields<Library.FetchResult, 'skipped[].reason' | 'failed[].error'>>;
  planned: Is<Fields<Library.PlannedWrite<unknown>, 'unchanged' | 'steps[].batch.bounds' | 'steps[].after'>>;
};
