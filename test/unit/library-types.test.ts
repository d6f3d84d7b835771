// The library's public record types (src/library/types.ts) are written out on
// their own, so that the shipped declarations name no internal module; these
// checks fail `tsc --noEmit` (part of npm test) when they drift from the
// shapes the CLI checks every answer against (src/rules/schemas.ts).
import { describe, expect, it } from 'vitest';
import type * as Library from '../../src/library/types.js';
import type * as Schemas from '../../src/rules/schemas.js';
import type { VerifyResult } from '../../src/operations/verify.js';
import type { ApplyResult } from '../../src/desired/render.js';
import type { PromoteResult } from '../../src/plan/kinds/versions.js';
import type { DeployResponse } from '../../src/plan/answers.js';
import type { JournalEntry } from '../../src/service/journal.js';
import type { FetchResult, VersionDownloadResult } from '../../src/operations/fetch.js';
import type { DesiredState } from '../../src/rules/desired.js';
import type { ItemSyncResult } from '../../src/operations/item-sync.js';

/** True only when A and B have exactly the same keys, each assignable both ways. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? (keyof A extends keyof B ? (keyof B extends keyof A ? true : false) : false) : false) : false;

const checks: {
  asset: Same<Library.Asset, Schemas.Asset>;
  version: Same<Library.Version, Schemas.Version>;
  item: Same<Library.Item, Schemas.Item>;
  channelRecord: Same<Library.ChannelRecord, Schemas.AssetUrl>;
  collection: Same<Library.Collection, Schemas.Collection>;
  deploymentRecord: Same<Library.DeploymentRecord, Schemas.DeploymentRecord>;
  // What promoteDefault and rollback resolve to is the promotion step's answer: no other key compiles (issue 35).
  promotion: Same<Library.PromotionResult, PromoteResult>;
  deploy: Same<Library.DeployResult, DeployResponse>;
  // `items.sync` answers what `ahs item sync --json` prints: the operation's result, the links it skipped included.
  syncSkipped: Same<Library.SyncResult['skipped'], Array<{ file: string; reason: string }>>;
  syncResult: Same<Library.SyncResult, ItemSyncResult>;
  // `client.verify` answers what `ahs verify --json` prints: the operation's result (src/operations/verify.ts).
  verifyResult: Same<Library.VerifyResult, VerifyResult>;
  // `client.apply` answers what src/desired/ gives `ahs apply --json` to print.
  applyResult: Same<Library.ApplyResult, ApplyResult>;
  // `client.history()` yields the journal's entries as src/service/journal.ts reads them.
  journalEntry: Same<Library.JournalEntry, JournalEntry>;
} = { asset: true, version: true, item: true, channelRecord: true, collection: true, deploymentRecord: true, promotion: true, deploy: true, syncSkipped: true, syncResult: true, verifyResult: true, applyResult: true, journalEntry: true };

describe('the library\'s public types', () => {
  it('are the schemas\' shapes (checked by tsc; this row only names the check)', () => {
    expect(Object.values(checks).every(Boolean)).toBe(true);
  });
});

// `client.fetch`, `client.versions.download` and `client.export` answer what `ahs fetch`, `ahs version download` and `ahs export` print (src/operations/).
const downloads: {
  fetchResult: Same<Library.FetchResult, FetchResult>;
  versionDownload: Same<Library.VersionDownloadResult, VersionDownloadResult>;
  desiredState: Same<Library.DesiredStateDocument, DesiredState>;
  desiredAsset: Same<Library.DesiredAsset, NonNullable<DesiredState['assets']>[string]>;
  desiredCollection: Same<Library.DesiredCollection, NonNullable<DesiredState['collections']>[string]>;
} = { fetchResult: true, versionDownload: true, desiredState: true, desiredAsset: true, desiredCollection: true };

describe('the library\'s download and export types', () => {
  it('are the operations\' results (checked by tsc; this row only names the check)', () => {
    expect(Object.values(downloads).every(Boolean)).toBe(true);
  });
});
