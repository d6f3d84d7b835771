import type { Kit } from '../output.js';
import type { DeployResponse } from '../../plan/answers.js';

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
