// ahs collection list [--page N] [--page-size N] [--all] [--deleted|--no-deleted]
import type { Run } from '../define.js';
import type { listSpec } from './index.js';
import type { Collection } from '../../rules/schemas.js';
import { listPages, pageFooter } from '../../http/paging.js';
import { listEnvelope } from '../../io/output.js';
import { isJournalCollection } from '../../service/journal.js';

export const run: Run<typeof listSpec> = async (options, ctx) => {
  const api = await ctx.api();
  const { doc, rows, merged } = await listPages<Collection>(api, api.path('vc'), { page: options.page, pageSize: options.pageSize, all: options.all });
  const out = await ctx.output();
  const filter = options.deleted;
  const shown = filter === undefined ? rows : rows.filter((c) => Boolean(c.deleted) === filter);
  // A filter changes the list, so json gets the CLI's envelope for it.
  const json = filter === undefined ? doc : listEnvelope(shown);
  const s = out.kit.style;
  out.list(
    json,
    shown,
    [
      { header: 'COLLECTION', get: (c: Collection) => c.collectionId },
      { header: 'NAME', get: (c: Collection) => c.collectionName },
      // The journal is not content (cli.md, "Memory"): marked as such.
      { header: 'STATUS', get: (c: Collection) => `${c.deleted ? s.red('deleted') : 'active'}${isJournalCollection(c) ? ' (ahs journal)' : ''}` },
      { header: 'ITEMS', get: (c: Collection) => `${c.assetItems?.length ?? 0}/${c.maxAssets}` },
      { header: 'TYPES', get: (c: Collection) => c.allowedAssetTypes },
      { header: 'PLATFORM', get: (c: Collection) => c.targetPlatform },
      { header: 'UPDATED', get: (c: Collection) => c.updatedAt },
    ],
    filter === undefined ? pageFooter(doc, merged) : `${shown.length} of ${rows.length} shown (${filter ? 'deleted only' : 'not deleted'})${merged ? '' : '; --all to filter every page'}`,
  );
};
