// Missing COLLECTION_ID / ITEM_ID / environment: in a terminal they are picked
// from lists read from the service; elsewhere a usage error naming the
// argument (Context.need).
import type { Context } from '../io/context.js';
import type { Source } from '../config/settings.js';
import { NotFoundError, UsageError } from '../errors.js';
import { isJournalCollection } from '../service/journal.js';
import { fetchAll } from '../http/paging.js';
import { OTHER_ASSET_TYPE } from '../rules/index.js';
import { collectionId as collectionIdSchema, type Collection } from '../rules/schemas.js';
import { itemLabel } from '../io/views/collections.js';
import { isFile } from './pick-file.js';
import { deploymentsFrom, listItems, readCollection, readDeploymentStatus } from '../service/collections.js';

export { actingUser } from './acting-user.js';

/** The collection id argument, or (in a terminal) a searchable pick of the collections. */
export async function collectionArg(ctx: Context, value: string | undefined, options: { includeDeleted?: boolean; message?: string } = {}): Promise<string> {
  return ctx.need<string>(value, {
    flag: 'COLLECTION_ID',
    message: options.message ?? 'Collection',
    schema: collectionIdSchema,
    choices: async () => {
      const api = await ctx.api();
      const all = await fetchAll<Collection>(api, api.path('vc'));
      return all
        .filter((c) => options.includeDeleted || !c.deleted)
        .map((c) => ({
          name: `${c.collectionName} (${c.collectionId})${c.deleted ? ' [deleted]' : ''}${isJournalCollection(c) ? ' [ahs journal: not content]' : ''} · ${c.assetItems?.length ?? 0} item(s)`,
          value: c.collectionId,
        }));
    },
  });
}

export async function itemArg(ctx: Context, collectionId: string, value: string | undefined): Promise<string> {
  return ctx.need<string>(value, {
    flag: 'ITEM_ID',
    message: 'Item',
    choices: async () => {
      const api = await ctx.api();
      const items = await listItems(api, collectionId);
      return items.map((item) => ({ name: itemLabel(item), value: item.assetItemId }));
    },
  });
}

/** --type of the items: as given, or (in a terminal) picked among the collection's allowed types and 9999 (Other). */
export async function assetTypeArg(ctx: Context, collectionId: string, value: string | undefined): Promise<string> {
  return ctx.need(value, {
    flag: '--type',
    message: 'Asset type of the items',
    choices: async () => {
      const api = await ctx.api();
      const collection = await readCollection(api, collectionId);
      const codes = [...new Set([...(collection?.allowedAssetTypes ?? []), OTHER_ASSET_TYPE])];
      return codes.map((code) => ({ name: code === OTHER_ASSET_TYPE ? `${code} (Other)` : code, value: code }));
    },
  });
}

/** FILE...: as given, or (in a terminal) asked for, each path checked at the prompt. */
export async function filesArg(ctx: Context, files: string[]): Promise<string[]> {
  if (files.length > 0) return files;
  const answer = await ctx.need<string>(undefined, {
    flag: 'FILE',
    message: 'Files to upload (paths separated by spaces)',
    validate: (value) => {
      const paths = splitPaths(value);
      if (paths.length === 0) return 'give one or more files';
      const unreadable = paths.find((path) => !isFile(path));
      return unreadable ? `${unreadable} is not a file` : true;
    },
  });
  return splitPaths(answer);
}

function splitPaths(value: string): string[] {
  return value.split(/\s+/).filter(Boolean);
}

/**
 * The environment: --env / AHS_ENV / profile, else (in a terminal) a pick
 * among `preferred` (e.g. where the collection is Live), else a usage error.
 */
export async function envArg(ctx: Context, preferred?: () => Promise<string[]>, message = 'Environment'): Promise<string> {
  const settings = await ctx.settings();
  const value = settings.get('envId');
  if (value) return value;
  return ctx.setting('envId', {
    message,
    choices: preferred ? async () => (await preferred()).map((envId) => ({ name: envId, value: envId })) : undefined,
  });
}

export async function liveEnvs(ctx: Context, collectionId: string): Promise<string[]> {
  const api = await ctx.api();
  const states = deploymentsFrom(await readDeploymentStatus(api, collectionId));
  return Object.entries(states)
    .filter(([, state]) => state === 'LIVE')
    .map(([envId]) => envId);
}

/**
 * The environment of a command that needs the collection Live there: --env /
 * AHS_ENV / profile, else (in a terminal) a pick among the environments where
 * it is Live. When there is nothing to pick, say why: the collection does not
 * exist (exit 4), or it is Live nowhere (exit 2, with how to deploy it).
 */
export async function liveEnvArg(ctx: Context, collectionId: string, message: string): Promise<string> {
  const settings = await ctx.settings();
  if (settings.get('envId') || !ctx.io.canPrompt) return envArg(ctx, undefined, message);
  const live = await liveEnvs(ctx, collectionId);
  if (live.length === 0) {
    const api = await ctx.api();
    if (!(await readCollection(api, collectionId))) throw new NotFoundError(`collection ${collectionId} not found`);
    throw new UsageError(`collection ${collectionId} is not Live in any environment: deploy it with \`ahs collection-deploy ${collectionId} --env ENV\`, or pass --env`);
  }
  return envArg(ctx, async () => live, message);
}

/** Where the environment of a collection deploy came from (for the hint of a 403). */
export type EnvSource = Source | 'prompt' | undefined;

/**
 * The environment of a collection deploy: --env / AHS_ENV / profile; else, in
 * a terminal, asked for (a domain-wide key must name one, and an
 * environment-scoped key may name its own), picked among the domain's
 * environments when the collection's deployment status lists them. Outside a
 * terminal, none: an environment-scoped key deploys to its own.
 */
export async function deployEnvArg(ctx: Context, collectionId: string): Promise<{ envId: string | undefined; source: EnvSource }> {
  const resolved = (await ctx.settings()).resolve('envId');
  if (resolved.value || !ctx.io.canPrompt) return { envId: resolved.value, source: resolved.source };
  const known = (await readDeploymentStatus(await ctx.api(), collectionId))?.items.map((row) => row.envId) ?? [];
  const envId = await envArg(ctx, known.length > 0 ? async () => known : undefined, 'Environment to deploy to');
  return { envId, source: 'prompt' };
}
