// What the rollout tests share (rollout.test.ts, rollout-wait.test.ts): the
// waves, an asset ready to roll out, and each wave's Default read back.
import { uid, type Harness } from './helpers.js';

export const ENVS = ['dev', 'staging', 'prod'];
export const WAVES = ['--platform', 'web', '--waves', ENVS.join(',')];

/** An asset whose 1.0 (WEB1) is the Default of dev, staging and prod, and a 2.0 (WEB2) uploaded, not deployed. */
export async function seededRollout(h: Harness): Promise<{ id: string; v1: string; v2: string }> {
  const id = uid('ro');
  await h.createAsset(id);
  const v1 = await h.uploadVersion(id, 'web', '1.0');
  const v2 = await h.uploadVersion(id, 'web', '2.0');
  for (const env of ENVS) {
    await h.deploy(id, v1, 'web', env, 'LIVE');
    await h.deploy(id, v1, 'web', env, 'DEFAULT');
  }
  return { id, v1, v2 };
}

/** The Default of each wave, in order. */
export async function waveDefaults(h: Harness, id: string): Promise<string[]> {
  const records = await h.records(id);
  return ENVS.map((env) => records.find((r) => r.startsWith(`web/${env}/`) && r.endsWith('=DEFAULT'))?.split('/')[2]?.split('=')[0] ?? 'none');
}
