// ahs item list COLLECTION_ID [--since DATE] [--until DATE] [--page N] [--page-size N] [--all]
import { nameOf, type Run } from '../define.js';
import { listSpec } from './index.js';
import { UsageError } from '../../errors.js';
import type { Item } from '../../rules/schemas.js';
import { listPages, pageFooter } from '../../http/paging.js';
import { readNamingCollection, vcPath } from '../../service/collections.js';
import { collectionArg } from '../../pickers/pick-collection.js';
import { itemColumns } from '../../io/views/collections.js';

export const run: Run<typeof listSpec> = async (options, ctx) => {
  const startDate = options.since === undefined ? undefined : parseDate(nameOf(listSpec, 'since'), options.since, 'start');
  const endDate = options.until === undefined ? undefined : parseDate(nameOf(listSpec, 'until'), options.until, 'end');
  if (startDate && endDate && startDate > endDate) throw new UsageError(`--since ${options.since} is after --until ${options.until}`);
  const collectionId = await collectionArg(ctx, options.collectionId);
  const api = await ctx.api();
  const { doc, rows, merged } = await readNamingCollection(api, collectionId, () =>
    listPages<Item>(api, vcPath(api, collectionId, 'items'), { page: options.page, pageSize: options.pageSize, all: options.all, query: { startDate, endDate } }),
  );
  (await ctx.output()).list(doc, rows, itemColumns, pageFooter(doc, merged));
};

/**
 * YYYY-MM-DD (UTC; as an end, the whole day is included) or any ISO 8601
 * date-time -> an ISO timestamp for startDate/endDate.
 */
function parseDate(flag: string, value: string, edge: 'start' | 'end'): string {
  const bare = /^\d{4}-\d{2}-\d{2}$/.test(value);
  const time = Date.parse(bare ? `${value}T00:00:00.000Z` : value);
  if (!Number.isFinite(time) || !isCalendarDay(value)) {
    throw new UsageError(`${flag} must be a date, YYYY-MM-DD or ISO 8601 (got ${JSON.stringify(value)})`);
  }
  const at = bare && edge === 'end' ? time + 86_400_000 - 1 : time;
  return new Date(at).toISOString();
}

/** The YYYY-MM-DD at the start of `value` is a day of the calendar (Date.parse takes 2024-02-30 as 1 March). */
function isCalendarDay(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}
