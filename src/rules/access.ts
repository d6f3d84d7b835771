// Who may act, and what may be uploaded (spec, "Authentication" 2-4 and the
// 400/403 rows of the asset, version and item error tables). The emulator
// holds the domain's users, keys, asset types and plan; these functions judge.
import type { Rejection } from './decision.js';
import { canAct } from './defaults.js';
import { actingUserNotAllowed, fileTypeNotAllowed, keyScopedElsewhere, noFileUploaded, storageLimitReached, uploadTooLarge } from './rejections.js';

export interface DomainUser {
  email: string;
  role: string;
  active: boolean;
}

/** Writes name an acting user: an active admin or owner of the domain, else 400. */
export function decideActingUser(field: string, email: string, users: DomainUser[], domainId: string): Rejection | undefined {
  const wanted = email.toLowerCase();
  const allowed = users.some((user) => canAct(user) && user.email.toLowerCase() === wanted);
  if (allowed) return undefined;
  return actingUserNotAllowed(field, email, domainId);
}

/** A key scoped to one environment acts only there (403). */
export function decideKeyScope(keyEnvId: string | undefined, envId: string): Rejection | undefined {
  if (keyEnvId === undefined || keyEnvId === envId) return undefined;
  return keyScopedElsewhere(keyEnvId, envId);
}

/** An upload needs a file, of a type its asset type allows (no list: any file). */
export function decideFileType(file: { fileName: string } | undefined, assetType: string, allowedExtensions: string[] | undefined): Rejection | undefined {
  if (!file || file.fileName === '') return noFileUploaded();
  if (!allowedExtensions || allowedExtensions.length === 0) return undefined;
  const dot = file.fileName.lastIndexOf('.');
  const extension = dot > 0 ? file.fileName.slice(dot).toLowerCase() : '';
  if (allowedExtensions.some((candidate) => candidate.toLowerCase() === extension)) return undefined;
  return fileTypeNotAllowed(extension, file.fileName, assetType, allowedExtensions);
}

export interface Plan {
  maxUploadBytes?: number;
  maxStorageBytes?: number;
}

/** The plan's limits answer 403: the upload size first, then the domain's storage. */
export function decidePlanLimits(size: number, storedBytes: number, plan: Plan | undefined): Rejection | undefined {
  if (plan?.maxUploadBytes !== undefined && size > plan.maxUploadBytes) {
    return uploadTooLarge(plan.maxUploadBytes);
  }
  if (plan?.maxStorageBytes !== undefined && storedBytes + size > plan.maxStorageBytes) {
    return storageLimitReached(plan.maxStorageBytes, storedBytes);
  }
  return undefined;
}
