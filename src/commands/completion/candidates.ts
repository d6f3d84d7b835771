// `ahs completion SHELL --candidates KIND`: the values a script offers at
// <TAB>, one a line. Profile names come from the config; ids from the service
// with the settings of the line (--profile, AHS_*, the current profile),
// within a short budget. Any failure (no settings, no network, a refusal, too
// slow) offers nothing, silently: a completion must never print an error.
import type { Context } from '../../context.js';
import { fetchAll } from '../../http/paging.js';
import { listAllVersions } from '../../service/assets.js';
import type { Asset, Collection } from '../../rules/schemas.js';
import { SERVICE_CANDIDATES_TIMEOUT_MS, type DynamicValues } from '../../docs/shells.js';

export interface CandidatesRequest {
  kind: DynamicValues;
  /** The asset whose versions to list (`versions:ASSET_ID`). */
  assetId?: string;
}

export async function candidates(request: CandidatesRequest, ctx: Context): Promise<string[]> {
  if (request.kind === 'profiles') return (await ctx.profiles()).names();
  if (request.kind === 'envs') return localValues(ctx, 'envId', 'AHS_ENV');
  if (request.kind === 'platforms') return localValues(ctx, 'platform', 'AHS_PLATFORM');
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<string[]>((resolve) => {
    timer = setTimeout(() => resolve([]), SERVICE_CANDIDATES_TIMEOUT_MS);
  });
  try {
    const ids = fromService(request, ctx).then((found) => found.sort(), () => []);
    return await Promise.race([ids, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** Every value of a setting the profiles and the environment name, each once, sorted (no network: the API lists neither). */
async function localValues(ctx: Context, key: 'envId' | 'platform', variable: string): Promise<string[]> {
  const store = await ctx.profiles();
  const values = store.names().map((name) => store.get(name)?.[key]);
  values.push(ctx.io.env[variable]);
  return [...new Set(values.filter((value): value is string => typeof value === 'string' && value.trim() !== ''))].sort();
}

async function fromService({ kind, assetId }: CandidatesRequest, ctx: Context): Promise<string[]> {
  const settings = await ctx.settings();
  // No key: the service would refuse, and clientFor would warn.
  if (!settings.get('baseUrl') || !settings.get('domainId') || !settings.get('apiKey')) return [];
  const api = await ctx.clientFor({ ...settings, timeoutMs: SERVICE_CANDIDATES_TIMEOUT_MS, retries: 0 });
  switch (kind) {
    case 'assets':
      return (await fetchAll<Asset>(api, api.path('va'))).map((asset) => asset.assetId);
    case 'collections':
      return (await fetchAll<Collection>(api, api.path('vc'))).filter((c) => !c.deleted).map((c) => c.collectionId);
    case 'versions':
      return assetId ? (await listAllVersions(api, assetId)).map((v) => v.versionId) : [];
    default:
      return [];
  }
}
