// Typed builders of steps, one per kind: the parameters a kind takes (each
// may be a Ref to an earlier step's answer) and the type of its answer.
import type { Asset, Collection, Item, Version } from '../rules/schemas.js';
import type { DeployResponse } from './answers.js';
import { step, type Ref, type Step, type StepKind } from './plan.js';
import type { AssetCreateParams, AssetDeleteParams, AssetUndeployParams, AssetUpdateParams, UndeployAnswer } from './kinds/assets.js';
import type { PromoteResult, VersionDeleteParams, VersionDeployParams, VersionPromoteParams, VersionUploadParams } from './kinds/versions.js';
import type {
  CollectionCreateParams,
  CollectionDeployParams,
  CollectionUndeployParams,
  CollectionUpdateParams,
  CollectionWriteParams,
  Converged,
  DeployAnswer,
  ItemConvergeParams,
  ItemRemoveParams,
  ItemUploadParams,
} from './kinds/collections.js';
import type { ApiRequestParams } from './kinds/api.js';

/** A value known now or taken from an earlier step's answer, at any depth. */
type OrRef<T> = Ref<T> | (T extends Array<infer U> ? Array<OrRef<U>> : T extends object ? { [K in keyof T]: OrRef<T[K]> } : T);

/** Each parameter known now or taken from an earlier step's answer. */
export type WithRefs<P> = { [K in keyof P]: OrRef<P[K]> };

type Extra<R> = Partial<Omit<Step<R>, 'kind' | 'params'>>;
type Message = { message: string };

function builder<P, R>(kind: StepKind) {
  return (params: WithRefs<P>, extra: Extra<R> = {}): Step<R> => step<R>(kind, params as Record<string, unknown>, extra);
}

export const steps = {
  assetCreate: builder<AssetCreateParams, Asset>('asset.create'),
  assetUpdate: builder<AssetUpdateParams, Asset>('asset.update'),
  assetDelete: builder<AssetDeleteParams, undefined>('asset.delete'),
  assetUndeploy: builder<AssetUndeployParams, UndeployAnswer>('asset.undeploy'),
  versionUpload: builder<VersionUploadParams, Version>('version.upload'),
  versionDelete: builder<VersionDeleteParams, undefined>('version.delete'),
  versionDeploy: builder<VersionDeployParams, DeployResponse>('version.deploy'),
  versionPromote: builder<VersionPromoteParams, PromoteResult>('version.promote'),
  collectionCreate: builder<CollectionCreateParams, Collection>('collection.create'),
  collectionUpdate: builder<CollectionUpdateParams, Collection>('collection.update'),
  collectionDelete: builder<CollectionWriteParams, Message>('collection.delete'),
  collectionRestore: builder<CollectionWriteParams, Message>('collection.restore'),
  collectionPurge: builder<CollectionWriteParams, Message>('collection.purge'),
  collectionUndeploy: builder<CollectionUndeployParams, Message>('collection.undeploy'),
  collectionDeploy: builder<CollectionDeployParams, DeployAnswer>('collection.deploy'),
  collectionReconcile: builder<CollectionWriteParams, Message>('collection.reconcile'),
  itemUpload: builder<ItemUploadParams, Item>('item.upload'),
  itemRemove: builder<ItemRemoveParams, Message>('item.remove'),
  itemConverge: builder<ItemConvergeParams, Converged>('item.converge'),
  apiRequest: builder<ApiRequestParams, unknown>('api.request'),
};

export type { PromoteResult } from './kinds/versions.js';
export type { DeployAnswer } from './kinds/collections.js';
