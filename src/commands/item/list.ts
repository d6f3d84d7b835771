// ahs item list COLLECTION_ID [--since DATE] [--until DATE] [--page N] [--page-size N] [--all]
import type { Invocation } from '../legacy.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import type { Item } from '../../rules/schemas.js';
import { listPages, pageFooter } from '../../http/paging.js';
import { vcPath } from '../../service/collections.js';
import { collectionArg } from '../../service/pick-collection.js';
import { itemColumns } from '../../io/views/collections.js';

interface Opts {
  since?: string;
  until?: string;
  page?: number;
  pageSize?: number;
  all?: boolean;
}

export async function run({ args, opts }: Invocation<Opts>, ctx: Context): Promise<void> {
  const startDate = opts.since === undefined ? undefined : parseDate('--since', opts.since, 'start');
  const endDate = opts.until === undefined ? undefined : parseDate('--until', opts.until, 'end');
  if (startDate && endDate && startDate > endDate) throw new UsageError(`--since ${opts.since} is after --until ${opts.until}`);
  const collectionId = await collectionArg(ctx, args[0]);
  const api = await ctx.api();
  const { doc, rows, merged } = await listPages<Item>(api, vcPath(api, collectionId, 'items'), {
    page: opts.page,
    pageSize: opts.pageSize,
    all: opts.all,
    query: { startDate, endDate },
    notFound: true,
  });
  (await ctx.output()).list(doc, rows, itemColumns, pageFooter(doc, merged));
}

/**
 * YYYY-MM-DD (UTC; as an end, the whole day is included) or any ISO 8601
 * date-time -> an ISO timestamp for startDate/endDate.
 */
export function parseDate(flag: string, value: string, edge: 'start' | 'end'): string {
  const bare = /^\d{4}-\d{2}-\d{2}$/.test(value);
  const time = Date.parse(bare ? `${value}T00:00:00.000Z` : value);
  if (!Number.isFinite(time) || !/^\d{4}-\d{2}-\d{2}/.test(value)) {
    throw new UsageError(`${flag} must be a date, YYYY-MM-DD or ISO 8601 (got ${JSON.stringify(value)})`);
  }
  const at = bare && edge === 'end' ? time + 86_400_000 - 1 : time;
  return new Date(at).toISOString();
}
