// `ahs history`: the journal's entries, newest first (cli.md, "Memory").
import { arg, command, defineCommand, flag, wholeNumber, SERVICE, type Parser } from '../define.js';

/** A point in time; `backMs` when it was given back from now (measured again on the service's clock). */
export type PointInTime = Date & { backMs?: number };

/** An ISO date or timestamp, or a time back from now: 30m, 12h, 7d. */
export function pointInTime(flagText: string, endOfDay: boolean): Parser<PointInTime> {
  return (raw) => {
    const relative = /^\s*(\d+)\s*([mhdw])\s*$/.exec(raw);
    if (relative) {
      const unit = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 }[relative[2] as 'm' | 'h' | 'd' | 'w'];
      const backMs = Number(relative[1]) * unit;
      return Object.assign(new Date(Date.now() - backMs), { backMs });
    }
    const time = Date.parse(raw);
    if (Number.isNaN(time)) throw new Error(`${flagText} must be an ISO 8601 date or timestamp (2026-11-27, 2026-11-27T18:00:00Z) or a time back from now (30m, 12h, 7d) (got ${raw})`);
    return new Date(endOfDay && /^\d{4}-\d{2}-\d{2}$/.test(raw.trim()) ? time + 86_400_000 - 1 : time);
  };
}

export const historySpec = defineCommand({
  name: 'history',
  uses: [...SERVICE, 'platform', 'env'],
  summary: 'what the journal recorded, newest first: time, actor, command, before -> after, outcome, CI run',
  description:
    "Reads the journal's entries in the range (--since, --until: the items listing's startDate/endDate, so only those are read; a time back from now is measured on the service's clock, its Date header) from the listing's pages: an entry's file name carries it. ID narrows to the changes of one asset or collection, --platform and --env (flag, AHS_PLATFORM/AHS_ENV or the profile) to the changes of those channels (a version upload belongs to no environment: left out with --env); --limit counts the entries kept. An entry that does not match the journal's format is listed as unreadable, with its item id, and used for nothing. The times and actors are the service's own (the entry item's createdAt and createdBy). Where the service's current Default of a channel differs from the journal's last change of it, the change was made outside ahs: history marks it.",
  args: {
    id: arg.optional('ID', 'an asset id or a collection id'),
  },
  flags: {
    since: flag.parsed('when', 'entries from this time: an ISO date or timestamp, or back from now (30m, 12h, 7d)', pointInTime('--since', false)),
    until: flag.parsed('when', 'entries up to this time (a plain date includes that day)', pointInTime('--until', true)),
    limit: flag.parsed('n', 'at most this many entries (the newest)', wholeNumber('--limit', 1)),
  },
  notes:
    'JSON: a list envelope {totalResults, pageNumber: 1, pageSize, results} of entries {createdAt, createdBy, command, arguments, actor, ci, changes: [{address, before, after, current?, disagrees?}], outcome, exitCode, itemId, collectionId}, and unreadable: [{itemId, itemName, createdAt, createdBy, collectionId, reason}]. Needs a journal (ahs journal init; with no setting, the domain\'s ahs-journal).',
  examples: ['ahs history my-bundle --env prod', '# the last day, as JSON', 'ahs history --since 1d --json', 'ahs history my-bundle --platform ios --env prod --limit 5'],
});

export const history = command(historySpec, () => import('./history.js'));
