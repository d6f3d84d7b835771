// The library's public types are the operations' own (src/library/types.ts
// re-exports them; scripts/library-declarations.mjs writes them out for
// dist/types/), so they cannot drift from what a call returns. What can
// still go unnoticed is an operation's result losing a field that the
// library's users read: here, every optional field of a result, nested ones
// included, that the library documents (its declarations, cli.md's JSON
// documents), by its path. A path that is no longer a field of the public
// type fails `tsc --noEmit` (part of npm test) on its line, naming the path:
// remove it from here only with the field's removal announced.
import { describe, expect, it } from 'vitest';
import type * as Library from '../../src/library/types.js';

type Leaf = string | number | boolean | bigint | symbol | null | undefined;
type Depth = [never, 0, 1, 2, 3, 4, 5, 6, 7];

/** Every field path of T: `assetVersion.downloadUrl`, `stages[].matched` (through arrays, unions and optional fields). */
type Paths<T, D extends number = 8> = [D] extends [never]
  ? never
  : T extends Leaf
    ? never
    : T extends readonly (infer E)[]
      ? Paths<E, Depth[D]>
      : string extends keyof T
        ? never
        : { [K in keyof T & string]-?: K | Below<K, NonNullable<T[K]>, Depth[D]> }[keyof T & string];
type Below<K extends string, V, D extends number> = V extends readonly (infer E)[] ? `${K}[]` | Prefixed<`${K}[]`, Paths<E, D>> : Prefixed<K, Paths<V, D>>;
type Prefixed<K extends string, P> = P extends string ? `${K}.${P}` : never;

/** true when every path of P is a field of T; else the paths that are not (tsc prints them). */
type Fields<T, P extends string> = [Exclude<P, Paths<T>>] extends [never] ? true : Exclude<P, Paths<T>>;

// Each line: a result, and its optional fields (nested ones by their path) that a user may read.
const documented: {
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

// The check itself is the compiler's: a path taken away makes this file fail to compile, as below.
// @ts-expect-error `stages[].signed` is no field of ReleaseResult: Fields names it instead of true
const missing: Fields<Library.ReleaseResult, 'stages[].matched' | 'stages[].signed'> = true;

describe("the library's public types", () => {
  it('keep every optional field the library documents (checked by tsc; this row only names the check)', () => {
    expect(Object.values(documented).every((ok) => ok === true)).toBe(true);
    expect(missing).toBe(true);
  });
});
