// asset search [TEXT] [--page N] [--page-size N]
import type { Run } from '../define.js';
import type { searchSpec } from './index.js';

interface SearchHit {
  _id: string;
  _score: number | null;
  _source: { assetId: string; assetName: string; assetType: string; description?: string; secured: boolean; active: boolean; updatedAt: string };
}
interface SearchAnswer {
  results: { pageSize: number; total: number; hits: SearchHit[] };
}

export const run: Run<typeof searchSpec> = async (options, ctx) => {
  const api = await ctx.api();
  const out = await ctx.output();
  const answer = await api.get<SearchAnswer>(api.path('va', 'search'), { text: options.text, page: options.page, pageSize: options.pageSize });
  const hits = answer?.results?.hits ?? [];
  out.print(answer, (_doc, kit) => {
    if (hits.length === 0) {
      out.info('no matches');
      return undefined;
    }
    const total = answer.results.total;
    if (total > hits.length) out.info(`${hits.length} of ${total} matches; --page N for more`);
    return kit.table(
      [
        { header: 'ASSET ID', get: (h: SearchHit) => h._source.assetId },
        { header: 'NAME', get: (h) => h._source.assetName },
        { header: 'TYPE', get: (h) => h._source.assetType },
        { header: 'DESCRIPTION', get: (h) => h._source.description ?? '' },
        { header: 'ACTIVE', get: (h) => h._source.active },
        { header: 'SCORE', get: (h) => h._score ?? '' },
      ],
      hits,
    );
  });
};
