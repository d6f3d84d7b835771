// The desired-state file's schema (src/rules/desired.ts), by table: a file
// that holds each kind of thing is accepted as written; each bad field is
// refused with the message a person sees (src/desired/file.ts places it at
// its line); the JSON Schema editors read describes the same file.
import { describe, expect, it } from 'vitest';
import { desiredFileSchema, desiredJsonSchema } from '../../src/rules/desired.js';

const whole = {
  apiVersion: 'ahs/v1',
  assets: {
    app: {
      name: 'App',
      type: '1001',
      description: 'the app',
      secured: false,
      localCacheControl: true,
      localCacheMaxAge: 60,
      active: true,
      versions: { ios: { '1.0': 'dist/app-1.0.zip' } },
      channels: { ios: { prod: { default: '1.0', live: [{ versionId: 'IOS1' }], offline: ['0.9'], exclusive: true } } },
      rollout: { waves: ['dev', 'prod'], soak: { dev: '30m' }, check: 'curl -f $AHS_URL', approve: ['prod'] },
    },
  },
  collections: {
    'launch-pack': {
      name: 'Launch pack',
      allowedTypes: ['9999'],
      maxAssets: 10,
      editable: true,
      deployable: true,
      platform: 'generic',
      anchor: 'index.json',
      items: { dir: 'pack', type: '9999', prune: true, pattern: ['*.json'], compare: 'checksum', followLinks: false },
      deployments: { prod: 'LIVE', dev: 'OFFLINE' },
    },
    listed: { name: 'Listed', allowedTypes: ['9999'], items: { names: ['a.json'] } },
  },
};

/** The messages of a file, each as `path: message`. */
function problems(doc: unknown): string[] {
  const parsed = desiredFileSchema.safeParse(doc);
  return parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
}

const withAsset = (asset: Record<string, unknown>) => ({ apiVersion: 'ahs/v1', assets: { app: { name: 'App', type: '1001', ...asset } } });
const withCollection = (collection: Record<string, unknown>) => ({ apiVersion: 'ahs/v1', collections: { pack: { name: 'Pack', allowedTypes: ['9999'], ...collection } } });

describe('the desired-state file', () => {
  it('a file with every kind of thing is accepted as written', () => {
    expect(desiredFileSchema.parse(whole)).toEqual(whole);
  });

  const rows: Array<[string, unknown, string]> = [
    ['another apiVersion', { apiVersion: 'ahs/v2' }, 'apiVersion: must be ahs/v1'],
    ['a key it does not know', { apiVersion: 'ahs/v1', asset: {} }, ': Unrecognized key: "asset"'],
    ['assets that are no map', { apiVersion: 'ahs/v1', assets: [] }, 'assets: must map asset ids to assets'],
    ['a type given as a number', withAsset({ type: 1001 }), 'assets.app.type: must be a string (quote a number: "1001")'],
    ['an empty name', withAsset({ name: '' }), 'assets.app.name: must not be empty'],
    ['a name too long', withAsset({ name: 'n'.repeat(65) }), 'assets.app.name: must be at most 64 characters'],
    ['secured not a boolean', withAsset({ secured: 'yes' }), 'assets.app.secured: must be true or false'],
    ['a description too long', withAsset({ description: 'd'.repeat(401) }), 'assets.app.description: must be at most 400 characters'],
    ['versions as a list', withAsset({ versions: ['1.0'] }), 'assets.app.versions: must map platforms to { VERSION_NAME: FILE }'],
    ['a platform of versions as a list', withAsset({ versions: { ios: ['a.zip'] } }), 'assets.app.versions.ios: must map version names to files'],
    ['channels as a list', withAsset({ channels: [] }), 'assets.app.channels: must map platforms to { ENV: channel }'],
    ['a platform of channels as a list', withAsset({ channels: { ios: [] } }), 'assets.app.channels.ios: must map environments to channels'],
    ['a Default that is neither a name nor a pin', withAsset({ channels: { ios: { prod: { default: 7 } } } }), 'assets.app.channels.ios.prod.default: must be a version name, or { versionId: ID }'],
    ['live not a list', withAsset({ channels: { ios: { prod: { live: '1.0' } } } }), 'assets.app.channels.ios.prod.live: must be a list of versions'],
    ['offline not a list', withAsset({ channels: { ios: { prod: { offline: '1.0' } } } }), 'assets.app.channels.ios.prod.offline: must be a list of versions'],
    ['exclusive not a boolean', withAsset({ channels: { ios: { prod: { exclusive: 'yes' } } } }), 'assets.app.channels.ios.prod.exclusive: must be true or false'],
    ['a rollout of no wave', withAsset({ rollout: { waves: [] } }), 'assets.app.rollout.waves: must name at least one environment'],
    ['waves not a list', withAsset({ rollout: { waves: 'dev' } }), 'assets.app.rollout.waves: must be a list of environments'],
    ['soak not a map', withAsset({ rollout: { waves: ['dev'], soak: ['30m'] } }), 'assets.app.rollout.soak: must map environments to durations (30m, 2h)'],
    ['approve not a list', withAsset({ rollout: { waves: ['dev'], approve: 'prod' } }), 'assets.app.rollout.approve: must be a list of environments'],
    ['collections as a list', { apiVersion: 'ahs/v1', collections: [] }, 'collections: must map collection ids to collections'],
    ['no allowed type', withCollection({ allowedTypes: [] }), 'collections.pack.allowedTypes: must name at least one asset type'],
    ['allowed types not a list', withCollection({ allowedTypes: '9999' }), 'collections.pack.allowedTypes: must be a list of asset type codes'],
    ['maxAssets not an integer', withCollection({ maxAssets: 2.5 }), 'collections.pack.maxAssets: must be an integer from 1 to 5000'],
    ['a description too long', withCollection({ description: 'd'.repeat(401) }), 'collections.pack.description: must be at most 400 characters'],
    ['items of neither form', withCollection({ items: { files: [] } }), 'collections.pack.items: must be { dir, type, prune?, pattern? } or { names: [...] }'],
    ['compare by something else', withCollection({ items: { dir: 'x', type: '9999', compare: 'mtime' } }), 'collections.pack.items: must be { dir, type, prune?, pattern? } or { names: [...] }'],
    ['a deployment state of a version', withCollection({ deployments: { prod: 'DEFAULT' } }), 'collections.pack.deployments.prod: must be LIVE or OFFLINE'],
    ['deployments as a list', withCollection({ deployments: ['prod'] }), 'collections.pack.deployments: must map environments to LIVE or OFFLINE'],
  ];
  it.each(rows)('%s: refused', (_, doc, message) => {
    expect(problems(doc)).toContain(message);
  });
});

describe('its JSON Schema, for editors', () => {
  it('describes the same file: its top-level keys, apiVersion fixed, and the channel and rollout fields described', () => {
    const schema = desiredJsonSchema() as { description?: string; properties?: Record<string, { const?: string }>; required?: string[] };
    expect(schema.description).toMatch(/^ahs desired state \(ahs plan, ahs apply\)\. Read as written: /);
    expect(Object.keys(schema.properties ?? {}).sort()).toEqual(['$schema', 'apiVersion', 'assets', 'collections']);
    expect(schema.properties?.apiVersion?.const).toBe('ahs/v1');
    expect(schema.required).toEqual(['apiVersion']);
    const text = JSON.stringify(schema);
    expect(text).toContain('the Default version (promoted over the current one as a compare-and-set)');
    expect(text).toContain('the environments, in order');
  });
});
