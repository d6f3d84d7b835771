// The fixture: what the spec does not show (domains, users, keys,
// environments, platforms, asset types, plan limits) comes from a JSON file
// (emulator.md, "Fixture"). Without one, the built-in demo fixture.
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { LIMITS } from '../rules/schemas.js';
import { variationSchema } from './variation.js';

const userSchema = z.object({
  email: z.string().min(1),
  role: z.string().min(1),
  active: z.boolean().default(true),
});

const apiKeySchema = z.object({
  key: z.string().min(1),
  envId: z.string().min(1).optional(),
});

const assetTypeSchema = z.object({
  code: z.string().min(1),
  name: z.string().optional(),
  active: z.boolean().default(true),
  allowedExtensions: z.array(z.string().min(1)).optional(),
});

const planSchema = z.object({
  maxUploadBytes: z.number().int().positive().optional(),
  maxStorageBytes: z.number().int().positive().optional(),
});

const domainSchema = z.object({
  domainId: z.string().min(1).regex(/^[^/?#\s]+$/, 'domainId must be usable as a path segment'),
  users: z.array(userSchema).default([]),
  apiKeys: z.array(apiKeySchema).default([]),
  environments: z.array(z.string().min(1)).min(1),
  targetPlatforms: z.array(z.string().min(1)).min(1),
  assetTypes: z.array(assetTypeSchema).min(1),
  plan: planSchema.optional(),
});

export const fixtureSchema = z.object({
  maxAssetsCeiling: z.number().int().min(1).max(LIMITS.maxAssetsCeiling).default(LIMITS.maxAssetsCeiling),
  deployDelayMs: z.number().int().min(0).default(0),
  /** Other silent choices (emulator.md, "Variations"); absent: the defaults. */
  variation: variationSchema.optional(),
  domains: z.array(domainSchema).min(1),
});

/** The fixture as written in a file (defaults may be left out). */
export type FixtureConfig = z.input<typeof fixtureSchema>;
/** The fixture with every default filled in. */
export type Fixture = z.output<typeof fixtureSchema>;
export type DomainFixture = Fixture['domains'][number];
export type ApiKeyFixture = DomainFixture['apiKeys'][number];
export type AssetTypeFixture = DomainFixture['assetTypes'][number];

// The documented demo values (README, `ahs emulator start`).
export const DEMO_DOMAIN = 'demo';
export const DEMO_USER = 'owner@demo.test';
export const DEMO_API_KEY = 'demo-key';
export const DEMO_ENVIRONMENTS = ['dev', 'staging', 'prod'] as const;
export const DEMO_PLATFORMS = ['generic', 'ios', 'android', 'web'] as const;
export const DEMO_ASSET_TYPES = ['1001', '9999'] as const;

export const DEMO_FIXTURE: FixtureConfig = {
  maxAssetsCeiling: LIMITS.maxAssetsCeiling,
  deployDelayMs: 0,
  domains: [
    {
      domainId: DEMO_DOMAIN,
      users: [{ email: DEMO_USER, role: 'owner', active: true }],
      apiKeys: [{ key: DEMO_API_KEY }],
      environments: [...DEMO_ENVIRONMENTS],
      targetPlatforms: [...DEMO_PLATFORMS],
      assetTypes: [
        { code: '1001', name: 'Bundle', active: true },
        { code: '9999', name: 'Other', active: true },
      ],
    },
  ],
};

export class FixtureError extends Error {}

/** Validates a fixture (object) and fills its defaults; throws FixtureError with a readable reason. */
export function parseFixture(input: unknown, source = 'fixture'): Fixture {
  const parsed = fixtureSchema.safeParse(withDemoDomains(input));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue && issue.path.length > 0 ? issue.path.join('.') : '(top level)';
    throw new FixtureError(`${source}: ${where}: ${issue?.message ?? 'invalid'}`);
  }
  const fixture = parsed.data;
  const seenDomains = new Set<string>();
  const seenKeys = new Set<string>();
  for (const domain of fixture.domains) {
    if (seenDomains.has(domain.domainId)) throw new FixtureError(`${source}: domain ${domain.domainId} is listed twice`);
    seenDomains.add(domain.domainId);
    for (const key of domain.apiKeys) {
      if (seenKeys.has(key.key)) throw new FixtureError(`${source}: API key ${key.key} is listed twice (a key belongs to exactly one domain)`);
      seenKeys.add(key.key);
      if (key.envId !== undefined && !domain.environments.includes(key.envId)) {
        throw new FixtureError(`${source}: API key ${key.key} is scoped to environment ${key.envId}, which domain ${domain.domainId} does not have`);
      }
    }
  }
  return fixture;
}

/**
 * A fixture that names no domains (e.g. only a `variation` block) runs the
 * demo's domains: `{"variation": {"maxPageSize": 20}}` is the demo service
 * with that choice.
 */
function withDemoDomains(input: unknown): unknown {
  if (input && typeof input === 'object' && !Array.isArray(input) && !('domains' in input)) return { ...input, domains: DEMO_FIXTURE.domains };
  return input;
}

/** Reads and validates a fixture file, or the given object, or the demo fixture. */
export async function loadFixture(config?: FixtureConfig | string): Promise<Fixture> {
  if (config === undefined) return parseFixture(DEMO_FIXTURE, 'built-in demo fixture');
  if (typeof config !== 'string') return parseFixture(config);
  let text: string;
  try {
    text = await readFile(config, 'utf8');
  } catch (error) {
    throw new FixtureError(`cannot read fixture file ${config}: ${(error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new FixtureError(`fixture file ${config} is not valid JSON: ${(error as Error).message}`);
  }
  return parseFixture(json, config);
}
