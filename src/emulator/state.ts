// The emulator's data: plain JSON-able records, one DomainState per domain.
// The stores (store.ts) keep it in memory or persist it to --data-dir;
// handlers see it Frozen and change it only through the store's operations.
import type { DeploymentState } from '../rules/index.js';
import type { Item } from '../rules/schemas.js';

/** A read-only view, all the way down. */
export type Frozen<T> = T extends (infer U)[] ? readonly Frozen<U>[] : T extends object ? { readonly [K in keyof T]: Frozen<T[K]> } : T;

export interface AssetRecord {
  assetId: string;
  assetName: string;
  description?: string;
  assetType: string;
  secured: boolean;
  localCacheControl: boolean;
  localCacheMaxAge: number;
  createdBy: string;
  updatedBy: string;
  active: boolean;
  createdAt: string;
  updatedAt: string;
  /** Last version number used per platform (numbers are never reused). */
  sequences: Record<string, number>;
}

export interface VersionRecord {
  versionId: string;
  version: number;
  versionName: string;
  targetPlatform: string;
  size: string;
  sizeBytes: number;
  fileName: string;
  mimetype: string;
  blobId: string;
  createdBy: string;
  updatedBy: string;
  active: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface DeploymentRecord {
  state: DeploymentState;
  createdBy: string;
  updatedBy: string;
  createdAt: string;
  updatedAt: string;
}

/** One channel: one asset, one target platform, one environment. */
export interface ChannelRecord {
  records: Record<string, DeploymentRecord>;
  /** Versions that held the Default pointer here and lost it (for the 409). */
  formerDefaults: string[];
}

export interface CollectionRecord {
  collectionId: string;
  domainId: string;
  collectionName: string;
  description?: string;
  allowedAssetTypes: string[];
  maxAssets: number;
  editable: boolean;
  deployable: boolean;
  anchorAsset?: string;
  assetItems: string[];
  targetPlatform: string;
  secured: boolean;
  createdBy: string;
  updatedBy: string;
  deleted: boolean;
  deletedAt: string | null;
  deletedBy?: string;
  /** Deployed LIVE at least once (GET /deployments is 404 before that). */
  everDeployed: boolean;
  localCacheControl: boolean;
  localCacheMaxAge: number;
  createdAt: string;
  updatedAt: string;
}

/** An item as stored: the service's item record (src/rules/schemas.ts, one source) and where its bytes are; uploadStatus is added when it is served. */
export type ItemRecord = Omit<Item, 'uploadStatus'> & { blobId: string };

export interface CollectionDeploymentRecord {
  state: 'LIVE' | 'OFFLINE';
  createdBy: string;
  updatedBy: string;
  createdAt: string;
  updatedAt: string;
}

export interface DomainState {
  assets: Record<string, AssetRecord>;
  /** assetId -> versionId -> version */
  versions: Record<string, Record<string, VersionRecord>>;
  /** assetId -> platform -> envId -> channel */
  channels: Record<string, Record<string, Record<string, ChannelRecord>>>;
  collections: Record<string, CollectionRecord>;
  items: Record<string, ItemRecord>;
  /** collectionId -> envId -> deployment */
  collectionDeployments: Record<string, Record<string, CollectionDeploymentRecord>>;
  /** Last item number used. */
  itemSequence: number;
}

export interface EmulatorState {
  formatVersion: 1;
  domains: Record<string, DomainState>;
}

/**
 * A map keyed by ids the client chooses. No prototype: an id such as
 * `constructor`, `toString` or `__proto__` is an ordinary key, never an
 * inherited property (a lookup of an absent one is `undefined`, and
 * storing `__proto__` does not replace the map's prototype).
 */
export function dict<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

/** JSON.parse for stored state and journal lines: every object comes back without a prototype, as `dict()` made it. */
export function parseRecords<T>(text: string): T {
  return JSON.parse(text, (_key, value: unknown) =>
    value !== null && typeof value === 'object' && !Array.isArray(value) ? Object.assign(dict(), value) : value,
  ) as T;
}

export function emptyDomainState(): DomainState {
  return { assets: dict(), versions: dict(), channels: dict(), collections: dict(), items: dict(), collectionDeployments: dict(), itemSequence: 0 };
}

export function emptyState(): EmulatorState {
  return { formatVersion: 1, domains: dict() };
}

/** Every blob id the state refers to (for sweeping orphans after a crash). */
export function referencedBlobs(state: Frozen<EmulatorState>): Set<string> {
  const ids = new Set<string>();
  for (const domain of Object.values(state.domains)) {
    for (const versions of Object.values(domain.versions)) for (const version of Object.values(versions)) ids.add(version.blobId);
    for (const item of Object.values(domain.items)) ids.add(item.blobId);
  }
  return ids;
}

/** Bytes a domain stores (versions and items), for the plan's storage limit. */
export function storedBytes(domain: Frozen<DomainState>): number {
  let total = 0;
  for (const versions of Object.values(domain.versions)) for (const version of Object.values(versions)) total += version.sizeBytes;
  for (const item of Object.values(domain.items)) total += item.size;
  return total;
}
