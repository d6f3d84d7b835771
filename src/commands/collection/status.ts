// ahs collection status COLLECTION_ID: per environment, the live, offline and
// undeployed items.
import type { Run } from '../define.js';
import type { statusSpec } from './index.js';
import type { CollectionDeploymentStatus } from '../../rules/schemas.js';
import { deploymentsFrom, readCollection, readDeploymentStatus } from '../../service/collections.js';
import { collectionArg } from '../../pickers/pick-collection.js';
import { NotFoundError } from '../../errors.js';

/** Ids listed in a cell before it shows their count instead. */
const SHOWN_IDS = 2;

export const run: Run<typeof statusSpec> = async (options, ctx) => {
  const collectionId = await collectionArg(ctx, options.collectionId);
  const api = await ctx.api();
  let status = await readDeploymentStatus(api, collectionId);
  if (!status) {
    // 404 means "missing or never deployed": tell them apart.
    const collection = await readCollection(api, collectionId);
    if (!collection) throw new NotFoundError(`collection ${collectionId} not found`);
    status = { collectionId, collectionName: collection.collectionName, items: [] } satisfies CollectionDeploymentStatus;
  }
  const out = await ctx.output();
  const states = deploymentsFrom(status);
  out.print(status, (doc, kit) => {
    if (doc.items.length === 0) return `${doc.collectionName} (${doc.collectionId}) is not deployed in any environment`;
    // A person reads counts; the ids are for --wide (and a pipe, and --json).
    const counted = (list: string[]) => kit.terminal && !options.wide && list.length > SHOWN_IDS;
    const ids = (list: string[]) => {
      if (list.length === 0) return kit.terminal ? kit.style.dim('-') : '-';
      return counted(list) ? `${list.length} items` : `${list.length}: ${list.join(', ')}`;
    };
    const table = kit.table(
      [
        { header: 'ENV', get: (row: CollectionDeploymentStatus['items'][number]) => row.envId },
        { header: 'STATE', get: (row) => kit.state(states[row.envId] ?? 'not deployed') },
        { header: 'LIVE', get: (row) => ids(row.live) },
        { header: 'OFFLINE', get: (row) => ids(row.offline) },
        { header: 'UNDEPLOYED', get: (row) => ids(row.undeployed) },
      ],
      doc.items,
    );
    const pending = doc.items.filter((row) => states[row.envId] === 'LIVE' && row.undeployed.length > 0);
    const hint = pending.length ? `\n${pending.map((r) => r.envId).join(', ')}: items added since the last deploy; \`ahs collection-deploy ${doc.collectionId} --reconcile\` publishes them` : '';
    const wide = doc.items.some((row) => [row.live, row.offline, row.undeployed].some(counted)) ? '\nitem ids: --wide, or --json' : '';
    return `${doc.collectionName} (${doc.collectionId})\n${table}${hint}${wide}`;
  });
};
