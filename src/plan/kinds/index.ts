// The executor's registry: every kind of step, by name.
import type { StepKind } from '../plan.js';
import type { Kind } from './kind.js';
import { apiRequest } from './api.js';
import { assetCreate, assetDelete, assetUndeploy, assetUpdate } from './assets.js';
import { versionDelete, versionDeploy, versionPromote, versionUpload } from './versions.js';
import {
  collectionCreate,
  collectionDelete,
  collectionDeploy,
  collectionPurge,
  collectionReconcile,
  collectionRestore,
  collectionUndeploy,
  collectionUpdate,
  itemConverge,
  itemRemove,
  itemUpload,
} from './collections.js';

export const KINDS: Record<StepKind, Kind> = {
  'asset.create': assetCreate,
  'asset.update': assetUpdate,
  'asset.delete': assetDelete,
  'asset.undeploy': assetUndeploy,
  'version.upload': versionUpload,
  'version.delete': versionDelete,
  'version.deploy': versionDeploy,
  'version.promote': versionPromote,
  'collection.create': collectionCreate,
  'collection.update': collectionUpdate,
  'collection.delete': collectionDelete,
  'collection.restore': collectionRestore,
  'collection.purge': collectionPurge,
  'collection.undeploy': collectionUndeploy,
  'collection.deploy': collectionDeploy,
  'collection.reconcile': collectionReconcile,
  'item.upload': itemUpload,
  'item.remove': itemRemove,
  'item.converge': itemConverge,
  'api.request': apiRequest,
};

export type { Kind, KindIO, StepFile } from './kind.js';
