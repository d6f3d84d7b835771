// What the three rollout commands share: their options resolved for the
// operations (src/operations/rollout.ts): the platform (asked for in a
// terminal), the acting user (asked for once a wave is written), and the
// asset's `rollout:` defaults of a desired-state file.
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import type { RolloutOptions } from '../../operations/rollout.js';

/** The command line of a rollout, as every run of it gives it. */
export interface RolloutFlags {
  assetId: string;
  versionId?: string | undefined;
  name?: string | undefined;
  waves?: string[] | undefined;
  soak?: string[] | undefined;
  check?: string | undefined;
  approve?: string[] | undefined;
  approved?: string[] | undefined;
  wait?: true | undefined;
  resume?: true | undefined;
  supersede?: true | undefined;
  to?: string[] | undefined;
  /** The desired-state file whose `assets.ID.rollout` gives the defaults. */
  file?: string | undefined;
}

/** The operation's options from the command line. */
export async function rolloutOptions(ctx: Context, flags: RolloutFlags): Promise<RolloutOptions> {
  // The service's settings first: what is missing there is said before any question.
  await ctx.api();
  const platform = await ctx.setting('platform', { message: 'Target platform' });
  const { file: _, ...given } = await withFileDefaults(flags);
  return { ...given, platform, user: () => ctx.setting('user', { message: 'Acting user e-mail' }) };
}

/**
 * The asset's `rollout:` defaults of the desired-state file (--file, else
 * ahs.yaml when it is there): each applies where its flag was not given.
 */
async function withFileDefaults(options: RolloutFlags): Promise<RolloutFlags> {
  const { DEFAULT_FILE, loadDesiredFile } = await import('../../desired/file.js');
  const { existsSync } = await import('node:fs');
  const path = options.file ?? (existsSync(DEFAULT_FILE) ? DEFAULT_FILE : undefined);
  if (path === undefined) return options;
  const defaults = (await loadDesiredFile(path)).state.assets?.[options.assetId]?.rollout;
  if (!defaults) {
    if (options.file !== undefined) throw new UsageError(`${path} declares no rollout for ${options.assetId} (assets.${options.assetId}.rollout: {waves, soak, check, approve})`);
    return options;
  }
  // The file's gates of waves that --waves leaves out do not apply.
  const waves = options.waves ?? defaults.waves;
  const soak = options.soak && options.soak.length > 0 ? options.soak : Object.entries(defaults.soak ?? {}).filter(([env]) => waves.includes(env)).map(([env, duration]) => `${env}=${duration}`);
  return { ...options, waves, soak, check: options.check ?? defaults.check, approve: options.approve ?? defaults.approve?.filter((env) => waves.includes(env)) };
}
