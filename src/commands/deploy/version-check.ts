// The deploy endpoint's 404 for a version that is missing, inactive, or of
// another platform, as a dry-run Rejection with the service's wording (the
// emulator's), so the predicted error body equals the real one.
import type { ApiClient } from '../../http/client.js';
import { isApiError } from '../../http/client.js';
import { getVersion } from '../../http/resources.js';
import { versionNotFoundForPlatform, type Rejection } from '../../rules/index.js';

export async function deployableVersion(api: ApiClient, assetId: string, versionId: string, platform: string): Promise<Rejection | undefined> {
  let version: Awaited<ReturnType<typeof getVersion>> | undefined;
  try {
    version = await getVersion(api, assetId, versionId);
  } catch (error) {
    if (!isApiError(error, 404)) throw error;
  }
  if (version && version.active && version.targetPlatform === platform) return undefined;
  return versionNotFoundForPlatform(versionId, platform, assetId, version?.targetPlatform);
}
