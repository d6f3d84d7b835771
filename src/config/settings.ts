// Settings resolution: flag > environment variable > profile > default
// (cli.md, "Where settings come from"). --platform and --env have no built-in
// default. A setting a command needs but nobody gave is a UsageError that
// names the flag (or the prompt asks for it, see Context.need).
import type { GlobalOptions } from '../options.js';
import { UsageError } from '../errors.js';
import type { Profile, ProfileStore } from './profiles.js';

export type SettingName = 'baseUrl' | 'deliveryUrl' | 'domainId' | 'envId' | 'platform' | 'user' | 'apiKey' | 'journal';

/** `option`: given to the library's createClient (or one of its calls), above any flag. */
export type Source = 'option' | 'flag' | 'env' | 'profile' | 'default';

/** Settings given by a library caller (src/library/): the highest layer. */
export type GivenSettings = Partial<Record<SettingName, string>>;

export interface Resolved {
  value: string | undefined;
  source: Source | undefined;
  /** Turned off for this run (the journal: `--no-journal`, `AHS_JOURNAL=`, the library's `journal: ''`). */
  off?: boolean;
}

/** How each setting is given: flag (GlobalOptions key and spelling), environment variable. */
export const SETTINGS: Record<SettingName, { option?: keyof GlobalOptions; flag?: string; env: string; label: string }> = {
  baseUrl: { option: 'baseUrl', flag: '--base-url', env: 'AHS_BASE_URL', label: 'API base URL' },
  deliveryUrl: { option: 'deliveryUrl', flag: '--delivery-url', env: 'AHS_DELIVERY_URL', label: 'delivery URL' },
  domainId: { option: 'domain', flag: '--domain', env: 'AHS_DOMAIN', label: 'domain' },
  envId: { option: 'env', flag: '--env', env: 'AHS_ENV', label: 'environment' },
  platform: { option: 'platform', flag: '--platform', env: 'AHS_PLATFORM', label: 'target platform' },
  user: { option: 'user', flag: '--user', env: 'AHS_USER', label: 'acting user e-mail' },
  apiKey: { env: 'AHS_API_KEY', label: 'API key' },
  journal: { option: 'journal', flag: '--journal', env: 'AHS_JOURNAL', label: 'journal collection' },
};

export const DEFAULT_TIMEOUT_SECONDS = 30;
export const DEFAULT_RETRIES = 2;

export interface Settings {
  /** The profile in use (by --profile, AHS_PROFILE or the current one), if any. */
  profileName: string | undefined;
  profile: Profile | undefined;
  resolve(name: SettingName): Resolved;
  /** The value, or undefined. */
  get(name: SettingName): string | undefined;
  /** The value, or a UsageError naming the flag / variable / profile key. */
  require(name: SettingName): string;
  timeoutMs: number;
  retries: number;
}

export function resolveSettings(globals: GlobalOptions, env: NodeJS.ProcessEnv, store: ProfileStore | undefined, given: GivenSettings = {}): Settings {
  const requested = globals.profile ?? nonEmpty(env.AHS_PROFILE);
  let profileName: string | undefined;
  let profile: Profile | undefined;
  if (requested !== undefined) {
    profile = store?.get(requested);
    if (!profile) {
      const from = globals.profile !== undefined ? '--profile' : 'AHS_PROFILE';
      throw new UsageError(`no profile named ${JSON.stringify(requested)} (from ${from}); see: ahs profile list`);
    }
    profileName = requested;
  } else if (store) {
    profileName = store.current();
    profile = profileName ? store.get(profileName) : undefined;
  }

  const resolve = (name: SettingName): Resolved => {
    const spec = SETTINGS[name];
    const givenValue = given[name];
    if (givenValue !== undefined && givenValue !== '') return { value: name === 'apiKey' ? givenValue.trim() : givenValue, source: 'option' };
    const flagValue = spec.option ? globals[spec.option] : undefined;
    if (name === 'journal' && givenValue === '') return { value: undefined, source: 'option', off: true };
    if (typeof flagValue === 'string' && flagValue !== '') return { value: flagValue, source: 'flag' };
    if (name === 'journal' && flagValue === false) return { value: undefined, source: 'flag', off: true };
    if (name === 'journal' && env[spec.env] !== undefined && env[spec.env]!.trim() === '') return { value: undefined, source: 'env', off: true };
    const envValue = nonEmpty(env[spec.env]);
    if (envValue !== undefined) return { value: name === 'apiKey' ? envValue.trim() : envValue, source: 'env' };
    const profileValue = profile?.[name];
    if (profileValue) return { value: profileValue, source: 'profile' };
    // The delivery network defaults to the API host (the emulator serves both).
    if (name === 'deliveryUrl') {
      const base = resolve('baseUrl');
      if (base.value) return { value: base.value, source: 'default' };
    }
    return { value: undefined, source: undefined };
  };

  return {
    profileName,
    profile,
    resolve,
    get: (name) => checked(name, resolve(name), profileName).value,
    require(name) {
      const { value } = checked(name, resolve(name), profileName);
      if (value !== undefined) return value;
      throw missingSetting(name, profileName);
    },
    timeoutMs: (globals.timeout ?? DEFAULT_TIMEOUT_SECONDS) * 1000,
    retries: globals.retries ?? DEFAULT_RETRIES,
  };
}

/** The URL settings, and the path each must not end in (ahs adds it to every request). */
const URL_SETTINGS: Partial<Record<SettingName, RegExp>> = {
  baseUrl: /\/api\/v2\/?$/,
  deliveryUrl: /\/api\/(v2|vi)\/?$/,
};

/** A URL setting that is not an http(s) URL is a usage error naming it and where it came from. */
function checked(name: SettingName, resolved: Resolved, profileName: string | undefined): Resolved {
  const apiPath = URL_SETTINGS[name];
  if (!apiPath || resolved.value === undefined) return resolved;
  const refuse = (why: string) =>
    new UsageError(`invalid ${SETTINGS[name].label} ${JSON.stringify(resolved.value)} (from ${sourceOf(name, resolved.source, profileName)}): ${why}`);
  let url: URL;
  try {
    url = new URL(resolved.value);
  } catch {
    throw refuse('not a URL; give one such as https://assets.example.com');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw refuse(`only http:// and https:// URLs are accepted, not ${url.protocol}//`);
  if (!url.hostname) throw refuse('the URL names no host');
  const suffix = apiPath.exec(url.pathname)?.[0];
  if (suffix) {
    const fixed = resolved.value.replace(/\/+$/, '').slice(0, -suffix.replace(/\/$/, '').length);
    throw refuse(`ahs adds ${suffix.replace(/\/$/, '')} itself; drop it: ${fixed}`);
  }
  return resolved;
}

/**
 * A setting used as a filter (asset status --env, version list --platform):
 * given on the command line or in its environment variable, which mean the
 * same thing (cli.md); never a profile's default, which would hide the rest.
 */
export function filterSetting(settings: Settings, name: SettingName): string | undefined {
  const { source } = settings.resolve(name);
  return source === 'flag' || source === 'env' || source === 'option' ? settings.get(name) : undefined;
}

/** "--base-url", "environment variable AHS_BASE_URL", "profile \"prod\"". */
export function sourceOf(name: SettingName, source: Source | undefined, profileName: string | undefined): string {
  const spec = SETTINGS[name];
  if (source === 'option') return `the ${name} option`;
  if (source === 'flag') return spec.flag ?? spec.env;
  if (source === 'env') return `environment variable ${spec.env}`;
  if (source === 'profile') return `profile ${JSON.stringify(profileName)}`;
  return name === 'deliveryUrl' ? `the API base URL, its default` : 'the default';
}

export function missingSetting(name: SettingName, profileName?: string): UsageError {
  const spec = SETTINGS[name];
  const ways = [spec.flag ? `pass ${spec.flag}` : undefined, `set ${spec.env}`, `or set ${name} in ${profileName ? `profile ${JSON.stringify(profileName)}` : 'a profile'} (ahs profile add)`]
    .filter(Boolean)
    .join(', ');
  const what = spec.flag ? `${spec.flag} is required` : `no ${spec.label}`;
  return new UsageError(`${what} (${spec.label}): ${ways}`);
}

/**
 * Several settings missing at once, named in one error (a person fixes them
 * all in one go rather than meeting them one run at a time).
 */
export function missingSettings(names: SettingName[], profileName?: string): UsageError {
  if (names.length === 1) return missingSetting(names[0]!, profileName);
  const specs = names.map((name) => SETTINGS[name]);
  const flags = specs.map((spec) => spec.flag ?? spec.env);
  const where = profileName ? `profile ${JSON.stringify(profileName)}` : 'a profile';
  return new UsageError(
    `${listed(flags)} are required (${specs.map((spec) => spec.label).join(', ')}): pass them, set ${listed(specs.map((spec) => spec.env))}, or set ${listed(names)} in ${where} (ahs profile add)`,
  );
}

function listed(words: string[]): string {
  return words.length <= 1 ? words.join('') : `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}
