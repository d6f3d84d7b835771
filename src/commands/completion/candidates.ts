// `ahs completion SHELL --candidates KIND`: the values a script offers at
// <TAB>, one a line. Profile names come from the config; ids, environments
// and platforms from the service with the settings of the line (--profile,
// --platform, AHS_*, the current profile), within a short budget: what was
// read by then is offered. Any failure (no settings, no network, a refusal,
// too slow) offers what the config names, or nothing, silently: a completion
// never prints an error, never prompts, and prints only the values.
import type { Context } from '../../context.js';
import { fetchAll } from '../../http/paging.js';
import { listAllVersions, listRecords } from '../../service/assets.js';
import { deploymentsFrom, readDeploymentStatus } from '../../service/collections.js';
import type { Asset, Collection } from '../../rules/schemas.js';
import { SERVICE_CANDIDATES_TIMEOUT_MS, type DynamicValues } from '../../docs/shells.js';

export interface CandidatesRequest {
  kind: DynamicValues;
  /** The asset whose versions to list (`versions:ASSET_ID`). */
  assetId?: string;
}

/** How many assets or collections are read at once for their environments and platforms. */
const AT_ONCE = 4;

export async function candidates(request: CandidatesRequest, ctx: Context): Promise<string[]> {
  if (request.kind === 'profiles') return (await ctx.profiles()).names();
  const found = new Set<string>();
  if (request.kind === 'envs') for (const value of await localValues(ctx, 'envId', 'AHS_ENV')) found.add(value);
  if (request.kind === 'platforms') for (const value of await localValues(ctx, 'platform', 'AHS_PLATFORM')) found.add(value);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, SERVICE_CANDIDATES_TIMEOUT_MS);
  });
  try {
    // Past the deadline, what was found by then; the reads left are dropped with the process.
    await Promise.race([fromService(request, ctx, found).catch(() => undefined), deadline]);
    return [...found].sort();
  } finally {
    clearTimeout(timer);
  }
}

/** Every value of a setting the profiles and the environment name (the API lists neither environments nor platforms). */
async function localValues(ctx: Context, key: 'envId' | 'platform', variable: string): Promise<string[]> {
  const store = await ctx.profiles();
  const values = store.names().map((name) => store.get(name)?.[key]);
  values.push(ctx.io.env[variable]);
  return values.filter((value): value is string => typeof value === 'string' && value.trim() !== '');
}

async function fromService({ kind, assetId }: CandidatesRequest, ctx: Context, found: Set<string>): Promise<void> {
  const settings = await ctx.settings();
  // No key: the service would refuse, and clientFor would warn.
  if (!settings.get('baseUrl') || !settings.get('domainId') || !settings.get('apiKey')) return;
  const api = await ctx.clientFor({ ...settings, timeoutMs: SERVICE_CANDIDATES_TIMEOUT_MS, retries: 0 });
  const add = (values: Iterable<string>) => {
    for (const value of values) if (value !== '') found.add(value);
  };
  const assets = () => fetchAll<Asset>(api, api.path('va')).then((list) => list.map((asset) => asset.assetId));
  const collections = () => fetchAll<Collection>(api, api.path('vc')).then((list) => list.filter((c) => !c.deleted));
  switch (kind) {
    case 'assets':
      return add(await assets());
    case 'collections':
      return add((await collections()).map((c) => c.collectionId));
    case 'ids':
      await Promise.all([assets().then(add), collections().then((list) => add(list.map((c) => c.collectionId)))]);
      return;
    case 'versions': {
      if (!assetId) return;
      // The versions of the platform of the line or the profile, when one is set: those are the ones a deploy takes.
      const platform = settings.get('platform');
      return add((await listAllVersions(api, assetId)).filter((v) => !platform || v.targetPlatform === platform).map((v) => v.versionId));
    }
    case 'envs':
      // The environments the service shows: those of the deployment records of each asset and collection.
      await Promise.all([
        assets().then((ids) => each(ids, async (id) => add((await listRecords(api, id)).map((record) => record.envId)))),
        collections().then((list) => each(list, async (c) => add(Object.keys(deploymentsFrom(await readDeploymentStatus(api, c.collectionId)))))),
      ]);
      return;
    case 'platforms':
      // The platforms of every version and of every collection.
      await Promise.all([
        assets().then((ids) => each(ids, async (id) => add((await listAllVersions(api, id)).map((v) => v.targetPlatform)))),
        collections().then((list) => add(list.map((c) => c.targetPlatform))),
      ]);
      return;
    default:
      return;
  }
}

/** `read` of each value, AT_ONCE at a time; a read that fails is skipped (the others still add theirs). */
async function each<T>(values: T[], read: (value: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < values.length) {
      const value = values[next++]!;
      await read(value).catch(() => undefined);
    }
  };
  await Promise.all(Array.from({ length: Math.min(AT_ONCE, values.length) }, worker));
}
