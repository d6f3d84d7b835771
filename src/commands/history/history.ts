// ahs history [ID] [--platform] [--env] [--since] [--until] [--limit]
import type { Run } from '../define.js';
import type { historySpec } from './index.js';
import { UsageError } from '../../errors.js';
import { markDisagreements, readDefault, readHistory, unreadableLine, type HistoryChange, type HistoryEntry } from '../../service/history.js';
import { isUnreadable, type UnreadableEntry } from '../../service/journal.js';
import { requireJournal } from '../../service/journal-setting.js';

export const run: Run<typeof historySpec> = async (options, ctx) => {
  if (options.since && options.until && options.since > options.until) throw new UsageError(`--since (${options.since.toISOString()}) is after --until (${options.until.toISOString()}): nothing can be in that range`);
  const journalId = await requireJournal(ctx, 'history');
  const api = await ctx.api();
  // As every setting: the flag, then AHS_PLATFORM / AHS_ENV, then the profile.
  const settings = await ctx.settings();
  const platform = settings.get('platform');
  const env = settings.get('envId');
  // One channel named: its Default is read beside the journal, not after it.
  const known = new Map<string, Promise<string | null>>();
  if (options.id && platform && env) {
    const read = readDefault(api, options.id, platform, env);
    read.catch(() => undefined);
    known.set(`channel.${options.id}.${platform}.${env}`, read);
  }
  const entries: HistoryEntry[] = [];
  const unreadable: UnreadableEntry[] = [];
  for await (const entry of readHistory(ctx, journalId, {
    id: options.id,
    platform,
    envId: env,
    since: options.since,
    until: options.until,
    limit: options.limit,
  })) {
    if (isUnreadable(entry)) unreadable.push(entry);
    else entries.push(entry);
  }
  const disagreements = await markDisagreements(api, entries, known);
  const out = await ctx.output();
  // A filter the command line did not give (the profile's platform, AHS_ENV) narrows the team's history: said.
  const implied = (['platform', 'envId'] as const).flatMap((name) => {
    const { value, source } = settings.resolve(name);
    if (!value || (source !== 'profile' && source !== 'env')) return [];
    const from = source === 'profile' ? `the profile ${settings.profileName ?? ''}`.trimEnd() : name === 'platform' ? 'AHS_PLATFORM' : 'AHS_ENV';
    return [`${name === 'platform' ? 'platform' : 'environment'} ${value} (from ${from})`];
  });
  if (implied.length > 0) out.info(`history narrowed to the changes of ${implied.join(' and ')}; --${implied.length > 1 ? 'platform and --env name others' : implied[0]!.startsWith('platform') ? 'platform names another' : 'env names another'}`);
  for (const entry of unreadable) out.warn(unreadableLine(entry));
  const envelope = { totalResults: entries.length, pageNumber: 1, pageSize: entries.length, results: entries, ...(unreadable.length ? { unreadable } : {}) };
  out.print(envelope, (doc, kit) => {
    if (doc.results.length === 0) return `the journal ${journalId} holds no ${unreadable.length ? 'readable ' : ''}entry${options.id ? ` about ${options.id}` : ''} in that range`;
    // An entry's changes, a row each; a rollout's halt, resume, abort or supersede also said beside the changes it made.
    const rows = doc.results.flatMap((entry) => {
      const said = entry.changes.length > 0 && entry.rollout && SAID_BESIDE.has(entry.rollout.action) ? [undefined] : [];
      return [...(entry.changes.length ? entry.changes : [undefined]), ...said].map((change, index) => ({ entry, change, first: index === 0 }));
    });
    const table = kit.table(
      [
        { header: 'TIME', get: (row: (typeof rows)[number]) => (row.first ? row.entry.createdAt : '') },
        { header: 'ACTOR', get: (row) => (row.first ? row.entry.createdBy : '') },
        { header: 'COMMAND', get: (row) => (row.first ? commandText(row.entry) : '') },
        // The column a person reads history for: the others give up room first.
        { header: 'CHANGE', get: (row) => (row.change ? changeText(row.change) : controlText(row.entry)), keep: true },
        { header: 'OUTCOME', get: (row) => (row.first ? `${row.entry.outcome}${row.entry.exitCode ? ` (exit ${row.entry.exitCode})` : ''}` : '') },
        { header: 'CI RUN', get: (row) => (row.first ? (row.entry.ci?.runUrl ?? '-') : '') },
      ],
      rows,
    );
    const marks = disagreements.map((d) => `! ${d.address}: the journal's last change made the Default ${String(d.journal)}, the service shows ${String(d.current)}: changed outside ahs`);
    return [table, ...marks].join('\n');
  });
};

const SAID_BESIDE = new Set(['halt', 'resume', 'abort', 'supersede']);

/** The command, and a write let through a freeze with --break-glass marked as such (its changes fill the row). */
function commandText(entry: HistoryEntry): string {
  const control = entry.apiVersion === 'ahs/journal/v2' ? entry.control : undefined;
  return control?.action === 'break-glass' ? `${entry.command} --break-glass (${control.reason ?? 'no reason'})` : entry.command;
}

/** A row of an entry that changed no address: what change control or the rollout did ("-" when neither says). */
function controlText(entry: HistoryEntry): string {
  const control = entry.apiVersion === 'ahs/journal/v2' ? entry.control : undefined;
  if (control) return `${control.action} ${control.target}${control.until ? ` until ${control.until}` : ''}`;
  return entry.rollout ? rolloutText(entry.rollout) : '-';
}

/**
 * A rollout's own record, in words: an intent is written before a promotion
 * is sent (the promotion's entry follows it), a halt names its check, a
 * supersede the version that took over. Shown rather than "-", which read as
 * an applied change of nothing.
 */
function rolloutText(rollout: NonNullable<HistoryEntry['rollout']>): string {
  const of = `rollout of ${rollout.version} (${rollout.asset}/${rollout.platform})`;
  const before = rollout.previousDefault ? `, its Default was ${rollout.previousDefault}` : '';
  switch (rollout.action) {
    case 'intent':
      return `${of}: promoting ${rollout.wave}${before} (the promotion's own entry follows)`;
    case 'halt':
      return `${of}: halted at ${rollout.wave}${rollout.check ? ` (the check ${rollout.check.phase === 'before' ? 'before promoting' : 'after promoting'} exited ${rollout.check.exitCode}: ${rollout.check.command})` : ''}`;
    case 'resume':
      return `${of}: resumed at ${rollout.wave} (--resume; the check passed)`;
    case 'abort':
      return `${of}: aborted${rollout.wave === '*' ? '' : ` at ${rollout.wave}`}`;
    case 'supersede':
      return `${of}: superseded${rollout.by ? ` by ${rollout.by}` : ''}`;
    case 'promote':
      return `${of}: ${rollout.wave} promoted${rollout.recovered ? ' (recorded by a later run)' : ''}`;
    case 'live':
      return `${of}: ${rollout.wave} LIVE`;
  }
}

function value(v: unknown, unknown: string[] = [], unread = '(known after apply)'): string {
  if (v === null || v === undefined) return '(none)';
  if (typeof v !== 'object') return String(v);
  const shown = (key: string, x: unknown) => (x === null || x === undefined ? (unknown.includes(key) ? unread : '(none)') : typeof x === 'object' ? JSON.stringify(x) : String(x));
  const entries = Object.entries(v as Record<string, unknown>);
  // Fields nobody read before the write (absent from the value) are shown as such.
  const unreadOnly = unknown.filter((key) => !(key in (v as Record<string, unknown>)));
  const all = [...entries, ...unreadOnly.map((key) => [key, undefined] as [string, unknown])];
  if (all.length === 0) return '(none)';
  return all.length === 1 ? shown(all[0]![0], all[0]![1]) : all.map(([k, x]) => `${k}=${shown(k, x)}`).join(' ');
}

function changeText(change: HistoryChange): string {
  const mark = change.disagrees ? ` (now ${value(change.current)}: changed outside ahs)` : '';
  return `${change.address}: ${value(change.before, change.unknownBefore, '(not read)')} → ${value(change.after, change.unknownAfter)}${mark}`;
}
