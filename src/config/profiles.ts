// Profiles, stored with conf in AHS_CONFIG_DIR (or the user's config folder),
// in a file readable by its owner only. The API key lives here and nowhere
// else; everything that shows a profile masks it.
import Conf from 'conf';
import { chmodSync } from 'node:fs';
import { UsageError } from '../errors.js';

/** The settings a profile may hold (cli.md, "Where settings come from"). */
export interface Profile {
  baseUrl?: string;
  deliveryUrl?: string;
  domainId?: string;
  envId?: string;
  platform?: string;
  user?: string;
  apiKey?: string;
}

export const PROFILE_KEYS = ['baseUrl', 'deliveryUrl', 'domainId', 'envId', 'platform', 'user', 'apiKey'] as const;

interface Store {
  current?: string;
  profiles: Record<string, Profile>;
}

export interface ProfileStore {
  /** Where the file lives (for messages). */
  readonly path: string;
  current(): string | undefined;
  names(): string[];
  get(name: string): Profile | undefined;
  /** Adds or replaces; the first profile added becomes the current one. Returns whether it became current. */
  put(name: string, profile: Profile, makeCurrent?: boolean): boolean;
  use(name: string): void;
  remove(name: string): void;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export function validateProfileName(name: string): string {
  if (!NAME.test(name)) throw new UsageError(`profile name must be 1 to 64 letters, digits, '.', '_' or '-' (got ${JSON.stringify(name)})`);
  return name;
}

export function openProfileStore(env: NodeJS.ProcessEnv = process.env): ProfileStore {
  const conf = new Conf<Store>({
    projectName: 'ahs',
    projectSuffix: '',
    ...(env.AHS_CONFIG_DIR ? { cwd: env.AHS_CONFIG_DIR } : {}),
    configName: 'config',
    configFileMode: 0o600,
    defaults: { profiles: {} },
  });
  const profiles = (): Record<string, Profile> => ({ ...(conf.get('profiles') ?? {}) });
  const secure = () => {
    // conf applies the mode when it writes; a file made by an older version may not have it.
    try {
      chmodSync(conf.path, 0o600);
    } catch {
      /* not written yet */
    }
  };
  return {
    path: conf.path,
    current: () => {
      const name = conf.get('current');
      return name && profiles()[name] ? name : undefined;
    },
    names: () => Object.keys(profiles()).sort(),
    get: (name) => profiles()[name],
    put(name, profile, makeCurrent = false) {
      const all = profiles();
      const first = Object.keys(all).length === 0 || !conf.get('current');
      all[name] = stripUndefined(profile);
      conf.set('profiles', all);
      const becomesCurrent = first || makeCurrent;
      if (becomesCurrent) conf.set('current', name);
      secure();
      return becomesCurrent;
    },
    use(name) {
      if (!profiles()[name]) throw new UsageError(`no profile named ${JSON.stringify(name)} (see: ahs profile list)`);
      conf.set('current', name);
      secure();
    },
    remove(name) {
      const all = profiles();
      if (!all[name]) throw new UsageError(`no profile named ${JSON.stringify(name)} (see: ahs profile list)`);
      delete all[name];
      conf.set('profiles', all);
      if (conf.get('current') === name) conf.delete('current');
      secure();
    },
  };
}

function stripUndefined(profile: Profile): Profile {
  return Object.fromEntries(Object.entries(profile).filter(([, value]) => value !== undefined && value !== '')) as Profile;
}

/** A masked key for display: never the key itself. */
export function maskKey(key: string | undefined): string | null {
  if (!key) return null;
  return key.length >= 16 ? `********${key.slice(-4)}` : '********';
}
