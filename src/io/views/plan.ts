// The plan document rendered for people (issue 31): every line is made here
// from the changes' values ({address, action, before, after}), never stored
// in the document. Used by `ahs plan` / `ahs show` (with the requests and
// predictions) and by the GitHub step summary.
import type { ChangeAction, PlannedChange } from '../../plan/saved.js';

export const KNOWN = '(known after apply)';

/** + adds, ~ changes in place, - takes away (a deploy to OFFLINE included). */
export function symbolOf(change: Pick<PlannedChange, 'action' | 'after'>): '+' | '~' | '-' {
  if (change.action === 'create' || change.action === 'upload') return '+';
  if (change.action === 'delete' || change.action === 'remove' || change.action === 'undeploy') return '-';
  if (change.action === 'deploy' && change.after?.state === 'OFFLINE') return '-';
  return '~';
}

/** How a change counts in "Plan: N to create, M to change, K to remove". */
export function tallyOf(action: ChangeAction): 'create' | 'change' | 'remove' {
  if (action === 'create' || action === 'upload') return 'create';
  if (action === 'delete' || action === 'remove' || action === 'undeploy') return 'remove';
  return 'change';
}

export function tally(changes: ReadonlyArray<Pick<PlannedChange, 'action'>>): { create: number; change: number; remove: number } {
  const counts = { create: 0, change: 0, remove: 0 };
  for (const change of changes) counts[tallyOf(change.action)]++;
  return counts;
}

export function planSummaryLine(steps: number, changes: ReadonlyArray<Pick<PlannedChange, 'action'>>): string {
  if (steps === 0) return 'No changes: the service holds what the file says.';
  const { create, change, remove } = tally(changes);
  return `Plan: ${create} to create, ${change} to change, ${remove} to remove (${steps} request(s)).`;
}

export function showValue(value: unknown): string {
  if (value === undefined || value === null) return '(none)';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The header of a change: "~ channel.app.ios.prod deploy 1.4.2". */
export function changeHeader(change: PlannedChange): string {
  return `${change.address} ${change.action}${change.name ? ` ${change.name}` : ''}`;
}

/**
 * The fields of a change, one line each: `field: before → after` where it
 * changes, `field: value` for what is created or removed; a value the
 * service assigns is "(known after apply)".
 */
export function fieldLines(change: PlannedChange): string[] {
  const unknown = new Set(change.unknownAfter ?? []);
  const after = (key: string) => (unknown.has(key) ? KNOWN : showValue(change.after?.[key]));
  if (change.before === null) return Object.keys(change.after ?? {}).map((key) => `${key}: ${after(key)}`);
  if (change.after === null) return Object.keys(change.before).map((key) => `${key}: ${showValue(change.before![key])}`);
  const keys = [...new Set([...Object.keys(change.before), ...Object.keys(change.after)])];
  const lines: string[] = [];
  for (const key of keys) {
    const was = showValue(change.before[key]);
    const will = after(key);
    // A deploy of a version this plan uploads: the version it moves is the one uploaded, whatever its id.
    if (key === 'version' && unknown.has(key) && change.before[key] === null) {
      lines.push(`${key}: ${KNOWN}`);
      continue;
    }
    if (was === will) {
      // The subject of the change (the version a deploy moves) is named even when it stays.
      if (key === 'version') lines.push(`${key}: ${was}`);
      continue;
    }
    lines.push(`${key}: ${was} → ${will}`);
  }
  if (change.compared) lines.push(`(differs by ${change.compared === 'content' ? 'content: SHA-256' : 'size'})`);
  return lines;
}

/** One line per change, for a summary table: the fields that change, joined. */
export function changeText(change: PlannedChange): string {
  return fieldLines(change).join('; ');
}
