import type { Kit } from '../output.js';
import type { DeploymentRecord } from '../../rules/schemas.js';

/**
 * A deployment record as a read of the channel shows it (a lost answer
 * settled by a read): the same keys as the service's record, so a script
 * sees one shape whatever path the deploy took; what only the deploy's
 * answer carries (who and when, fallback, lock) is null.
 */
export type ReadBackRecord = Omit<DeploymentRecord, UnreadFields> & { [K in UnreadFields]: null };
type UnreadFields = 'fallback' | 'lock' | 'createdBy' | 'updatedBy' | 'createdAt' | 'updatedAt';

export interface DeployResponse {
  /** The service's record; or, when a lost answer was settled by a read of the channel, the record as read (./ReadBackRecord). */
  assetVersion: DeploymentRecord | ReadBackRecord;
  message: string;
}

export function renderDeployment(doc: DeployResponse, kit: Kit): string {
  return kit.record(doc.assetVersion, [
    { label: 'version id', get: (r) => r.versionId },
    { label: 'name', get: (r) => r.versionName },
    { label: 'platform', get: (r) => r.targetPlatform },
    { label: 'environment', get: (r) => r.envId },
    { label: 'state', get: (r) => kit.state(r.state) },
    { label: 'updated', get: (r) => (r.updatedAt === null ? '(confirmed by a read of the channel)' : `${kit.cell(r.updatedAt)} by ${r.updatedBy}`) },
  ]);
}

/** A promotion for a person: the old and new Default, the attempts, and the record. */
export function renderPromotion(doc: DeployResponse & { previousDefault: string | null; attempts: number }, kit: Kit): string {
  const lines = [`old Default: ${doc.previousDefault ?? '(none)'}`, `new Default: ${doc.assetVersion.versionId}`];
  if (doc.attempts > 1) lines.push(`attempts:    ${doc.attempts}`);
  return `${lines.join('\n')}\n${renderDeployment(doc, kit)}`;
}
