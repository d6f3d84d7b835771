// The deploy request as a plan step, shared by every command that moves a
// version on a channel (deploy, promote-default, and the release workflows):
// a lost answer and a 500 (the channel mid-deployment) are settled by reading
// the channel, which says whether the requested state holds.
import type { ApiClient } from '../http/client.js';
import type { DeployBody } from '../rules/schemas.js';
import type { Prediction, Step } from '../plan/plan.js';
import type { DeployResponse } from '../io/views/deploy.js';
import { readChannel } from './assets.js';

export interface DeployTarget {
  assetId: string;
  versionId: string;
  platform: string;
  body: DeployBody;
}

export function deployStep(api: ApiClient, target: DeployTarget, predict: () => Promise<Prediction>): Step<DeployResponse> {
  const { assetId, versionId, platform, body } = target;
  return {
    request: { method: 'POST', path: api.path('va', assetId, 'versions', versionId, 'deploy'), query: { targetPlatformId: platform }, body },
    predict,
    retryOn500: true,
    async settle(client) {
      const { records } = await readChannel(client, assetId, platform, body.envId);
      const record = records.find((r) => r.versionId === versionId);
      const how = `the channel ${assetId}/${platform}/${body.envId} shows ${versionId} ${record?.state ?? 'not deployed'}`;
      if (record?.state !== body.intent) return { applied: false, how };
      return { applied: true, how, result: { assetVersion: { ...record, envId: body.envId } as unknown as DeployResponse['assetVersion'], message: 'Deployment confirmed by a read of the channel.' } };
    },
  };
}
