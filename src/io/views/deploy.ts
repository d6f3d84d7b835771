import type { Kit } from '../output.js';
import type { DeploymentRecord } from '../../rules/schemas.js';

export interface DeployResponse {
  assetVersion: DeploymentRecord;
  message: string;
}

export function renderDeployment(doc: DeployResponse, kit: Kit): string {
  return kit.record(doc.assetVersion, [
    { label: 'version id', get: (r) => r.versionId },
    { label: 'name', get: (r) => r.versionName },
    { label: 'platform', get: (r) => r.targetPlatform },
    { label: 'environment', get: (r) => r.envId },
    { label: 'state', get: (r) => kit.state(r.state) },
    { label: 'updated', get: (r) => `${kit.cell(r.updatedAt)} by ${r.updatedBy}` },
  ]);
}
