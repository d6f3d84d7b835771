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
// - `documented`: the fields (optional or not) that the library's
//   declarations and cli.md's JSON documents name, by their paths.
// Remove a path only with the field's removal announced.
import type * as Library from '../../src/library/types.js';

type Leaf = string | number | boolean | bigint | symbol | null | undefined;
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

/** true when every path of P is a field of T; else the paths that are not (tsc prints them). */
type Fields<T, P extends string> = [Exclude<P, Paths<T>>] extends [never] ? true : Exclude<P, Paths<T>>;

/** true when P is exactly T's optional paths; else `gone` (listed, no longer an optional field) or `unlisted` (an optional field not listed here). */
type Optional<T, P extends string> = [Exclude<P, OptionalPaths<T>>] extends [never]
  ? [Exclude<OptionalPaths<T>, P>] extends [never]
    ? true
    : { unlisted: Exclude<OptionalPaths<T>, P> }
  : { gone: Exclude<P, OptionalPaths<T>> };

// Each line: a public type, and every optional field of it (nested ones by their path).
export const optional: {
  Asset: Optional<Library.Asset, never>;
  ChannelRecord: Optional<Library.ChannelRecord, 'downloadUrl'>;
  Collection: Optional<Library.Collection, 'description' | 'anchorAsset' | 'deletedAt'>;
  DeploymentRecord: Optional<Library.DeploymentRecord, never>;
  DeploymentState: Optional<Library.DeploymentState, never>;
  Item: Optional<Library.Item, never>;
  Version: Optional<Library.Version, 'fileName'>;
  DryRunDocument: Optional<Library.DryRunDocument, 'predicted.error.blockedBy' | 'predicted.error.until' | 'before' | 'before[].predicted.error.blockedBy' | 'before[].predicted.error.until'>;
  Unchanged: Optional<Library.Unchanged, never>;
  DeployResult: Optional<Library.DeployResult, never>;
  ReadBackRecord: Optional<Library.ReadBackRecord, never>;
  PromotionResult: Optional<Library.PromotionResult, never>;
  UndeployResult: Optional<Library.UndeployResult, never>;
  AssetDeleted: Optional<Library.AssetDeleted, never>;
  VersionDeleted: Optional<Library.VersionDeleted, never>;
  CollectionDeployResult: Optional<Library.CollectionDeployResult, 'downloadUrl' | 'message'>;
  MessageResult: Optional<Library.MessageResult, never>;
  ItemRemoved: Optional<Library.ItemRemoved, never>;
  ItemUploadResult: Optional<Library.ItemUploadResult, 'failed[].error.blockedBy' | 'failed[].error.until'>;
  SyncResult: Optional<Library.SyncResult, 'failed[].error.blockedBy' | 'failed[].error.until' | 'reconciled'>;
  ReleaseResult: Optional<Library.ReleaseResult, 'version.fileName' | 'stages[].matched'>;
  DesiredPlanDocument: Optional<Library.DesiredPlanDocument, 'file' | 'reads[].scope' | 'steps[].prediction' | 'steps[].prediction.decision.resource' | 'steps[].prediction.decision.message' | 'steps[].prediction.unchanged' | 'steps[].prediction.notes' | 'steps[].refuse' | 'steps[].refuse.byKind' | 'steps[].refuse.byKind.state' | 'steps[].refuse.byKind.not-found' | 'steps[].refuse.byKind.unknown-reference' | 'steps[].refuse.byKind.conflict' | 'steps[].refuse.byKind.access' | 'steps[].refuse.byKind.plan-limit' | 'steps[].refuse.byKind.validation' | 'steps[].refuse.byKind.internal' | 'steps[].batch' | 'steps[].batch.bounds' | 'steps[].after' | 'changes' | 'changes[].unknownAfter' | 'changes[].name' | 'changes[].compared' | 'changes[].request' | 'changes[].prediction' | 'changes[].prediction.title' | 'changes[].notes' | 'notes'>;
  PlanChange: Optional<Library.PlanChange, 'unknownAfter' | 'name' | 'compared' | 'request' | 'prediction' | 'prediction.title' | 'notes'>;
  PlanChangeAction: Optional<Library.PlanChangeAction, never>;
  ApplyResult: Optional<Library.ApplyResult, 'failed[].error.blockedBy' | 'failed[].error.until'>;
  VerifyResult: Optional<Library.VerifyResult, never>;
  VerifyCollectionParams: Optional<Library.VerifyCollectionParams, 'dir' | 'sums' | 'followLinks' | 'concurrency'>;
  FetchResult: Optional<Library.FetchResult, 'downloaded[].renamed' | 'skipped[].renamed' | 'failed[].renamed'>;
  VersionDownloadResult: Optional<Library.VersionDownloadResult, never>;
  DownloadVersionParams: Optional<Library.DownloadVersionParams, 'envId' | 'out'>;
  DesiredStateDocument: Optional<Library.DesiredStateDocument, '$schema' | 'assets' | 'collections'>;
  DesiredAsset: Optional<Library.DesiredAsset, 'description' | 'secured' | 'localCacheControl' | 'localCacheMaxAge' | 'active' | 'versions' | 'channels' | 'rollout' | 'rollout.soak' | 'rollout.check' | 'rollout.approve'>;
  DesiredChannel: Optional<Library.DesiredChannel, 'default' | 'live' | 'offline' | 'exclusive'>;
  DesiredCollection: Optional<Library.DesiredCollection, 'description' | 'maxAssets' | 'editable' | 'deployable' | 'platform' | 'localCacheControl' | 'localCacheMaxAge' | 'anchor' | 'items' | 'items.prune' | 'items.pattern' | 'items.compare' | 'items.followLinks' | 'deployments'>;
  RolloutDocument: Optional<Library.RolloutDocument, 'restored' | 'left' | 'left[].found' | 'left[].to' | 'dryRun' | 'requests' | 'requests[].predicted.error.blockedBy' | 'requests[].predicted.error.until' | 'requests[].before' | 'requests[].before[].predicted.error.blockedBy' | 'requests[].before[].predicted.error.until'>;
  JournalChange: Optional<Library.JournalChange, 'unknownAfter' | 'unknownBefore'>;
  JournalEntry: Optional<Library.JournalEntry, 'rollout' | 'control' | 'ci' | 'ci.runUrl' | 'ci.sha' | 'ci.ref' | 'changes[].unknownAfter' | 'changes[].unknownBefore'>;
  JournalInitResult: Optional<Library.JournalInitResult, never>;
  LockAcquired: Optional<Library.LockAcquired, never>;
  LockReleased: Optional<Library.LockReleased, never>;
  LockStatus: Optional<Library.LockStatus, 'ci.runUrl' | 'ci.sha' | 'ci.ref'>;
  LockBroken: Optional<Library.LockBroken, never>;
  FreezeSet: Optional<Library.FreezeSet, never>;
  FreezeListed: Optional<Library.FreezeListed, never>;
  FreezeRemoved: Optional<Library.FreezeRemoved, never>;
  VersionBlocked: Optional<Library.VersionBlocked, never>;
  VersionUnblocked: Optional<Library.VersionUnblocked, never>;
  PlannedWrite: Optional<Library.PlannedWrite<unknown>, 'steps[].after' | 'steps[].batch' | 'steps[].batch.bounds' | 'unchanged'>;
} = {
  Asset: true,
  ChannelRecord: true,
  Collection: true,
  DeploymentRecord: true,
  DeploymentState: true,
  Item: true,
  Version: true,
  DryRunDocument: true,
  Unchanged: true,
  DeployResult: true,
  ReadBackRecord: true,
  PromotionResult: true,
  UndeployResult: true,
  AssetDeleted: true,
  VersionDeleted: true,
  CollectionDeployResult: true,
  MessageResult: true,
  ItemRemoved: true,
  ItemUploadResult: true,
  SyncResult: true,
  ReleaseResult: true,
  DesiredPlanDocument: true,
  PlanChange: true,
  PlanChangeAction: true,
  ApplyResult: true,
  VerifyResult: true,
  VerifyCollectionParams: true,
  FetchResult: true,
  VersionDownloadResult: true,
  DownloadVersionParams: true,
  DesiredStateDocument: true,
  DesiredAsset: true,
  DesiredChannel: true,
  DesiredCollection: true,
  RolloutDocument: true,
  JournalChange: true,
  JournalEntry: true,
  JournalInitResult: true,
  LockAcquired: true,
  LockReleased: true,
  LockStatus: true,
  LockBroken: true,
  FreezeSet: true,
  FreezeListed: true,
  FreezeRemoved: true,
  VersionBlocked: true,
  VersionUnblocked: true,
  PlannedWrite: true,
};

// Each line: a public type, and the fields (nested ones by their path) that the library's documentation names.
export const documented: {
  channelRecord: Fields<Library.ChannelRecord, 'downloadUrl'>;
  collection: Fields<Library.Collection, 'description' | 'anchorAsset' | 'deletedAt'>;
  version: Fields<Library.Version, 'fileName'>;
  dryRun: Fields<Library.DryRunDocument, 'before' | 'before[].predicted.error.detail' | 'predicted.effects[].description'>;
  collectionDeploy: Fields<Library.CollectionDeployResult, 'downloadUrl' | 'message'>;
  sync: Fields<Library.SyncResult, 'reconciled' | 'skipped[].reason' | 'failed[].error.title' | 'compared.checksum'>;
  release: Fields<Library.ReleaseResult, 'stages[].matched' | 'assetVersion.envId'>;
  plan: Fields<Library.DesiredPlanDocument, 'file' | 'file.sha256' | 'reads[].scope' | 'steps[].batch' | 'steps[].batch.bounds' | 'steps[].after' | 'changes' | 'changes[].unknownAfter' | 'changes[].compared' | 'changes[].prediction.title' | 'notes'>;
  planChange: Fields<Library.PlanChange, 'unknownAfter' | 'name' | 'compared' | 'request' | 'prediction' | 'prediction.title' | 'notes'>;
  apply: Fields<Library.ApplyResult, 'steps[].request.body' | 'failed[].error.detail'>;
  desired: Fields<Library.DesiredStateDocument, '$schema' | 'assets' | 'collections'>;
  desiredAsset: Fields<Library.DesiredAsset, 'description' | 'secured' | 'active' | 'versions' | 'channels' | 'rollout' | 'rollout.soak' | 'rollout.check' | 'rollout.approve'>;
  desiredChannel: Fields<Library.DesiredChannel, 'default' | 'default.versionId' | 'live' | 'live[].versionId' | 'offline' | 'exclusive'>;
  desiredCollection: Fields<Library.DesiredCollection, 'description' | 'maxAssets' | 'anchor' | 'items' | 'items.prune' | 'items.pattern' | 'items.compare' | 'items.followLinks' | 'items.names' | 'deployments'>;
  rollout: Fields<Library.RolloutDocument, 'next.env' | 'next.for' | 'next.until' | 'next.found' | 'next.reason' | 'next.halt' | 'restored' | 'left' | 'dryRun' | 'requests' | 'waves[].previousDefault'>;
  journalEntry: Fields<Library.JournalEntry, 'ci' | 'ci.runUrl' | 'ci.sha' | 'ci.ref' | 'rollout' | 'changes[].unknownAfter' | 'changes[].unknownBefore'>;
  promotion: Fields<Library.PromotionResult, 'assetVersion.fallback' | 'previousDefault'>;
  fetch: Fields<Library.FetchResult, 'skipped[].reason' | 'failed[].error'>;
  planned: Fields<Library.PlannedWrite<unknown>, 'unchanged' | 'steps[].batch.bounds' | 'steps[].after'>;
} = {
  channelRecord: true,
  collection: true,
  version: true,
  dryRun: true,
  collectionDeploy: true,
  sync: true,
  release: true,
  plan: true,
  planChange: true,
  apply: true,
  desired: true,
  desiredAsset: true,
  desiredChannel: true,
  desiredCollection: true,
  rollout: true,
  journalEntry: true,
  promotion: true,
  fetch: true,
  planned: true,
};
