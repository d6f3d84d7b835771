import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { maskKey, openProfileStore, validateProfileName } from '../../src/config/profiles.js';
import { resolveSettings } from '../../src/config/settings.js';
import { UsageError } from '../../src/errors.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'ahs-unit-'));
});
afterEach(async () => rm(dir, { recursive: true, force: true }));

describe('profile store', () => {
  it('makes the first profile current, writes 0600, removes cleanly', async () => {
    const store = openProfileStore({ AHS_CONFIG_DIR: dir });
    expect(store.path).toBe(join(dir, 'config.json'));
    expect(await store.put('a', { baseUrl: 'http://a', apiKey: 'k' })).toBe(true);
    expect(await store.put('b', { baseUrl: 'http://b' })).toBe(false);
    expect(store.current()).toBe('a');
    expect((await stat(store.path)).mode & 0o777).toBe(0o600);
    await store.use('b');
    expect(store.current()).toBe('b');
    await store.remove('b');
    expect(store.current()).toBeUndefined();
    expect(store.names()).toEqual(['a']);
    await expect(store.use('zzz')).rejects.toThrow(UsageError);
  });

  it('masks keys and checks names', () => {
    expect(maskKey(undefined)).toBeNull();
    expect(maskKey('short')).toBe('********');
    expect(maskKey('0123456789abcdefWXYZ')).toBe('********WXYZ');
    expect(() => validateProfileName('bad name')).toThrow(UsageError);
  });
});

describe('settings resolution', () => {
  it('flag > env > profile > default', async () => {
    const store = openProfileStore({ AHS_CONFIG_DIR: dir });
    await store.put('p', { baseUrl: 'http://profile', domainId: 'pd', envId: 'pe', platform: 'pp', user: 'p@x', apiKey: 'pk' });
    const env = { AHS_DOMAIN: 'ed', AHS_ENV: 'ee', AHS_API_KEY: ' ek ' };
    const s = resolveSettings({ env: 'fe' }, env, store);
    expect(s.profileName).toBe('p');
    expect(s.resolve('envId')).toEqual({ value: 'fe', source: 'flag' });
    expect(s.resolve('domainId')).toEqual({ value: 'ed', source: 'env' });
    expect(s.resolve('platform')).toEqual({ value: 'pp', source: 'profile' });
    expect(s.get('apiKey')).toBe('ek');
    expect(s.resolve('deliveryUrl')).toEqual({ value: 'http://profile', source: 'default' });
    expect(s.timeoutMs).toBe(30_000);
    expect(s.retries).toBe(2);
  });

  it('has no default platform or env, and names the flag when missing', () => {
    const s = resolveSettings({}, {}, openProfileStore({ AHS_CONFIG_DIR: dir }));
    expect(s.get('platform')).toBeUndefined();
    expect(() => s.require('envId')).toThrow(/--env is required.*AHS_ENV/);
  });

  it('selects a profile by --profile or AHS_PROFILE and refuses an unknown one', async () => {
    const store = openProfileStore({ AHS_CONFIG_DIR: dir });
    await store.put('one', { domainId: '1' });
    await store.put('two', { domainId: '2' });
    expect(resolveSettings({}, { AHS_PROFILE: 'two' }, store).get('domainId')).toBe('2');
    expect(resolveSettings({ profile: 'one' }, { AHS_PROFILE: 'two' }, store).get('domainId')).toBe('1');
    expect(() => resolveSettings({ profile: 'three' }, {}, store)).toThrow(/no profile named "three"/);
  });

  describe('URL settings are checked, naming the setting and where it came from', () => {
    const refused = (run: () => unknown): string => {
      try {
        run();
      } catch (error) {
        expect(error).toBeInstanceOf(UsageError);
        return (error as Error).message;
      }
      throw new Error('expected a usage error');
    };
    const flags = {} as const;

    it('refuses what is not an http(s) URL', () => {
      expect(refused(() => resolveSettings({ ...flags, baseUrl: 'notaurl' }, {}, undefined).require('baseUrl'))).toBe(
        'invalid API base URL "notaurl" (from --base-url): not a URL; give one such as https://assets.example.com',
      );
      expect(refused(() => resolveSettings({ ...flags, baseUrl: 'ftp://x' }, {}, undefined).require('baseUrl'))).toBe(
        'invalid API base URL "ftp://x" (from --base-url): only http:// and https:// URLs are accepted, not ftp://',
      );
      expect(refused(() => resolveSettings(flags, { AHS_BASE_URL: 'http://' }, undefined).get('baseUrl'))).toMatch(
        /^invalid API base URL "http:\/\/" \(from environment variable AHS_BASE_URL\): /,
      );
      expect(refused(() => resolveSettings({ ...flags, deliveryUrl: 'cdn.example.com' }, {}, undefined).get('deliveryUrl'))).toMatch(
        /^invalid delivery URL "cdn.example.com" \(from --delivery-url\): not a URL/,
      );
    });

    it('names the profile a bad URL came from', async () => {
      const store = openProfileStore({ AHS_CONFIG_DIR: dir });
      await store.put('prod', { baseUrl: 'ftp://old' });
      expect(refused(() => resolveSettings(flags, {}, store).require('baseUrl'))).toMatch(/\(from profile "prod"\)/);
    });

    it('hints when the URL already ends in the API path', () => {
      expect(refused(() => resolveSettings(flags, { AHS_BASE_URL: 'http://host:8080/api/v2/' }, undefined).require('baseUrl'))).toBe(
        'invalid API base URL "http://host:8080/api/v2/" (from environment variable AHS_BASE_URL): ahs adds /api/v2 itself; drop it: http://host:8080',
      );
    });

    it('accepts http(s) URLs with a path prefix', () => {
      expect(resolveSettings({ ...flags, baseUrl: 'https://gw.example.com/ahs' }, {}, undefined).require('baseUrl')).toBe('https://gw.example.com/ahs');
    });
  });
});
