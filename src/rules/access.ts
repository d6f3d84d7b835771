// Who may act, and what may be uploaded (spec, "Authentication" 2-4 and the
// 400/403 rows of the asset, version and item error tables). The emulator
// holds the domain's users, keys, asset types and plan; these functions judge.
import { reject, type Rejection } from './decision.js';

export interface DomainUser {
  email: string;
  role: string;
  active: boolean;
}

/** Writes name an acting user: an active admin or owner of the domain, else 400. */
export function decideActingUser(field: string, email: string, users: DomainUser[], domainId: string): Rejection | undefined {
  const wanted = email.toLowerCase();
  const allowed = users.some((user) => user.active && (user.role === 'owner' || user.role === 'admin') && user.email.toLowerCase() === wanted);
  if (allowed) return undefined;
  return reject(400, `${field} ${email} is not an active admin or owner of domain ${domainId}; use the e-mail of an active admin or owner`);
}

/** A key scoped to one environment acts only there (403). */
export function decideKeyScope(keyEnvId: string | undefined, envId: string): Rejection | undefined {
  if (keyEnvId === undefined || keyEnvId === envId) return undefined;
  return reject(403, `This API key is scoped to environment ${keyEnvId}; it cannot act in ${envId}`);
}

/** An upload needs a file, of a type its asset type allows (no list: any file). */
export function decideFileType(file: { fileName: string } | undefined, assetType: string, allowedExtensions: string[] | undefined): Rejection | undefined {
  if (!file || file.fileName === '') return reject(400, 'No file uploaded: send the file in the multipart field assetFile');
  if (!allowedExtensions || allowedExtensions.length === 0) return undefined;
  const dot = file.fileName.lastIndexOf('.');
  const extension = dot > 0 ? file.fileName.slice(dot).toLowerCase() : '';
  if (allowedExtensions.some((candidate) => candidate.toLowerCase() === extension)) return undefined;
  return reject(400, `File type ${extension || '(none)'} of ${file.fileName} is not allowed for asset type ${assetType}; allowed: ${allowedExtensions.join(', ')}`);
}

export interface Plan {
  maxUploadBytes?: number;
  maxStorageBytes?: number;
}

/** The plan's limits answer 403: the upload size first, then the domain's storage. */
export function decidePlanLimits(size: number, storedBytes: number, plan: Plan | undefined): Rejection | undefined {
  if (plan?.maxUploadBytes !== undefined && size > plan.maxUploadBytes) {
    return reject(403, `The file is larger than the plan's upload limit of ${plan.maxUploadBytes} bytes; upload a smaller file or raise the plan`);
  }
  if (plan?.maxStorageBytes !== undefined && storedBytes + size > plan.maxStorageBytes) {
    return reject(403, `The plan's storage limit of ${plan.maxStorageBytes} bytes is reached (${storedBytes} bytes stored); remove versions or items first`);
  }
  return undefined;
}
