// Many promotions at one channel: never more than one DEFAULT.
import { describe, expect, it } from 'vitest';
import { Client, DEMO_USER, withEmulator } from './helpers.js';

const U = DEMO_USER;
const N = 12;

async function setup(client: Client) {
  await client.createAsset('race');
  for (let i = 1; i <= N; i++) {
    await client.uploadVersion('race', 'ios', `v${i}`);
    await client.deploy('race', `IOS${i}`, 'ios', { envId: 'prod', intent: 'LIVE', createdBy: U });
  }
  await client.deploy('race', 'IOS1', 'ios', { envId: 'prod', intent: 'DEFAULT', updatedBy: U });
}

async function defaults(client: Client): Promise<string[]> {
  const res = await client.get('/va/race/asset-urls?envId=prod&state=DEFAULT');
  return res.body.results.map((entry: any) => entry.versionId);
}

describe('concurrent promotions', () => {
  it('all racing with the same currentVersionId: one wins, the rest get 409, one DEFAULT', async () => {
    const { emu, client } = await withEmulator();
    try {
      await setup(client);
      const answers = await Promise.all(
        Array.from({ length: N - 1 }, (_, i) =>
          client.deploy('race', `IOS${i + 2}`, 'ios', { envId: 'prod', intent: 'DEFAULT', updatedBy: U, currentVersionId: 'IOS1', currentAssetIntent: 'LIVE' }),
        ),
      );
      const statuses = answers.map((a) => a.status);
      expect(statuses.filter((s) => s === 201)).toHaveLength(1);
      expect(statuses.filter((s) => s === 409)).toHaveLength(N - 2);
      const now = await defaults(client);
      expect(now).toHaveLength(1);
      expect(now[0]).toBe(answers.find((a) => a.status === 201)!.body.assetVersion.versionId);
    } finally {
      await emu.close();
    }
  });

  it('racing clients that re-read and retry on 409 all get through, one DEFAULT at every step', async () => {
    const { emu, client } = await withEmulator();
    try {
      await setup(client);
      const promote = async (versionId: string) => {
        for (let attempt = 0; attempt < 200; attempt++) {
          const [current] = await defaults(client);
          const res = await client.deploy('race', versionId, 'ios', { envId: 'prod', intent: 'DEFAULT', updatedBy: U, currentVersionId: current, currentAssetIntent: 'LIVE' });
          if (res.status === 201) return attempt;
          expect([409, 400]).toContain(res.status);
          expect((await defaults(client)).length).toBe(1);
        }
        throw new Error(`${versionId} never got promoted`);
      };
      await Promise.all(Array.from({ length: 6 }, (_, i) => promote(`IOS${i + 2}`)));
      expect(await defaults(client)).toHaveLength(1);
    } finally {
      await emu.close();
    }
  });

  it('while a promotion is held mid-deployment: one 201, the others 500, one DEFAULT', async () => {
    const { emu, client } = await withEmulator();
    try {
      await setup(client);
      const hold = emu.holdDeployments();
      // The first promotion to arrive holds the channel; the other four meet it mid-deployment.
      let refused = 0;
      let othersDone!: () => void;
      const fourRefused = new Promise<void>((resolve) => (othersDone = resolve));
      const pending = Array.from({ length: 5 }, (_, i) =>
        client
          .deploy('race', `IOS${i + 2}`, 'ios', { envId: 'prod', intent: 'DEFAULT', updatedBy: U, currentVersionId: 'IOS1', currentAssetIntent: 'LIVE' })
          .then((answer) => {
            if (answer.status === 500 && ++refused === 4) othersDone();
            return answer;
          }),
      );
      await hold.held();
      await fourRefused;
      hold();
      const answers = await Promise.all(pending);
      const statuses = answers.map((a) => a.status).sort();
      expect(statuses.filter((s) => s === 201)).toHaveLength(1);
      expect(statuses.filter((s) => s === 500)).toHaveLength(4);
      expect(await defaults(client)).toHaveLength(1);
      // A late client with the old pointer now gets the 409.
      const late = await client.deploy('race', `IOS${N}`, 'ios', { envId: 'prod', intent: 'DEFAULT', updatedBy: U, currentVersionId: 'IOS1', currentAssetIntent: 'LIVE' });
      expect(late.status).toBe(409);
    } finally {
      await emu.close();
    }
  });
});
