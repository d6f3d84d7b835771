// Profiles, stored with conf in AHS_CONFIG_DIR (or the user's config folder),
// in a file readable by its owner only, in a folder of its owner only. The
// API key lives here and nowhere else; everything that shows a profile masks it.
//
// Every command reads the profiles, few write them: reads parse conf's JSON
// file directly and conf (ajv, semver: about 100 ms of start-up) is loaded
// only to write. Runs at once (two terminals, CI jobs) are expected: a write
// is a read-modify-write of the file as it is then, under a lock
// (config-folder.ts), and conf writes it atomically (temporary file, rename).
import envPaths from 'env-paths';
import { chmodSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { UsageError } from '../errors.js';
import { loadWithoutSignalHooks } from '../signals.js';
import { configFolderError, ensureConfigFolder, withLock } from './config-folder.js';

/** The settings a profile may hold (cli.md, "Where settings come from"). */
export interface Profile {
  baseUrl?: string;
  deliveryUrl?: string;
  domainId?: string;
  envId?: string;
  platform?: string;
  user?: string;
  apiKey?: string;
  /** The journal collection (ahs journal init). */
  journal?: string;
}

export const PROFILE_KEYS = ['baseUrl', 'deliveryUrl', 'domainId', 'envId', 'platform', 'user', 'apiKey', 'journal'] as const;

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
  put(name: string, profile: Profile, makeCurrent?: boolean): Promise<boolean>;
  use(name: string): Promise<void>;
  remove(name: string): Promise<void>;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export function validateProfileName(name: string): string {
  if (!NAME.test(name)) throw new UsageError(`profile name must be 1 to 64 letters, digits, '.', '_' or '-' (got ${JSON.stringify(name)})`);
  return name;
}

// conf's own options; profilesPath() must name the file conf writes.
const PROJECT = { projectName: 'ahs', projectSuffix: '', configName: 'config' } as const;

/** The profiles file: AHS_CONFIG_DIR/config.json, or config.json in the user's config folder for ahs. */
export function profilesPath(env: NodeJS.ProcessEnv = process.env): string {
  const dir = env.AHS_CONFIG_DIR ? resolve(env.AHS_CONFIG_DIR) : envPaths(PROJECT.projectName, { suffix: PROJECT.projectSuffix }).config;
  return join(dir, `${PROJECT.configName}.json`);
}

function readStore(path: string): Store {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // No folder, or a file where the folder would be: no profiles yet (a write says what is wrong).
    if (code === 'ENOENT' || code === 'ENOTDIR') return { profiles: {} };
    if (code === 'EACCES' || code === 'EPERM') throw configFolderError('cannot read the profiles file in', dirname(path), error);
    throw new UsageError(`cannot read the profiles file ${path}: ${(error as Error).message}`);
  }
  let data: Partial<Store>;
  try {
    data = JSON.parse(text) as Partial<Store>;
  } catch {
    throw new UsageError(`the profiles file ${path} is not valid JSON: fix it, or remove it and add the profiles again`);
  }
  const profiles = data.profiles && typeof data.profiles === 'object' ? data.profiles : {};
  return typeof data.current === 'string' ? { current: data.current, profiles } : { profiles };
}

export interface ProfileStoreOptions {
  /** Where a warning about the config folder goes (one that others may write to). */
  warn?: (text: string) => void | Promise<void>;
}

export function openProfileStore(env: NodeJS.ProcessEnv = process.env, options: ProfileStoreOptions = {}): ProfileStore {
  const path = profilesPath(env);
  const dir = dirname(path);
  let store = readStore(path);
  /**
   * Changes the profiles as they are in the file now, holding the lock, and
   * writes them through conf (atomic, mode 0600). `change` may refuse (throw)
   * once it sees the fresh profiles.
   */
  const update = async (change: (fresh: Store) => void): Promise<void> => {
    await ensureConfigFolder(dir, options.warn ?? (() => undefined));
    const { default: Conf } = await loadWithoutSignalHooks(() => import('conf'));
    await withLock(path, dir, async () => {
      const fresh = readStore(path);
      change(fresh);
      try {
        const conf = new Conf<Store>({ ...PROJECT, cwd: dir, configFileMode: 0o600, defaults: { profiles: {} } });
        conf.store = fresh;
        // conf applies the mode when it writes; a file made by an older version may not have it.
        chmodSync(conf.path, 0o600);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code) throw configFolderError('cannot write to', dir, error);
        throw error;
      }
      store = readStore(path);
    });
  };
  const known = (profiles: Store['profiles'], name: string) => {
    if (!profiles[name]) throw new UsageError(`no profile named ${JSON.stringify(name)} (see: ahs profile list)`);
  };
  return {
    path,
    current: () => (store.current && store.profiles[store.current] ? store.current : undefined),
    names: () => Object.keys(store.profiles).sort(),
    get: (name) => store.profiles[name],
    async put(name, profile, makeCurrent = false) {
      let becameCurrent = false;
      await update((fresh) => {
        fresh.profiles = { ...fresh.profiles, [name]: stripUndefined(profile) };
        // Never a current naming a profile that is gone: the first one, or one named by a dangling current, takes over.
        becameCurrent = makeCurrent || !fresh.current || !fresh.profiles[fresh.current];
        if (becameCurrent) fresh.current = name;
      });
      return becameCurrent;
    },
    async use(name) {
      known(store.profiles, name);
      await update((fresh) => {
        known(fresh.profiles, name);
        fresh.current = name;
      });
    },
    async remove(name) {
      known(store.profiles, name);
      await update((fresh) => {
        known(fresh.profiles, name);
        const { [name]: _removed, ...rest } = fresh.profiles;
        fresh.profiles = rest;
        if (fresh.current === name) delete fresh.current;
      });
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
