// "Did you mean …?" for a mistyped command: a real command the word begins
// (`promote` → promote-default), else the nearest by edit distance, so that
// `ahs promote` never suggests `profile`.
import { UsageError } from '../errors.js';

export function nearest(word: string, candidates: readonly string[]): string | undefined {
  const lower = word.toLowerCase();
  const prefixed = candidates.filter((name) => name.startsWith(lower) || name.split('-').some((part) => part === lower));
  if (prefixed.length === 1) return prefixed[0];
  let best: { name: string; distance: number } | undefined;
  for (const name of prefixed.length > 1 ? prefixed : candidates) {
    const distance = editDistance(lower, name);
    if (!best || distance < best.distance) best = { name, distance };
  }
  if (!best) return undefined;
  const limit = prefixed.length > 1 ? Infinity : Math.max(2, Math.floor(word.length / 3));
  return best.distance <= limit ? best.name : undefined;
}

/** Optimal string alignment distance (a swap of two neighbours counts as one edit). */
export function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(rows[i - 1]![j]! + 1, rows[i]![j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, rows[i - 2]![j - 2]! + 1);
      rows[i]![j] = value;
    }
  }
  return rows[a.length]![b.length]!;
}

/**
 * Ids are case-sensitive (the spec's ids are strings), so `--env PROD` finds
 * nothing where the environment is `prod`: an answer that looks right and is
 * wrong. A value that matches none of `known` exactly but one ignoring case
 * is a usage error suggesting that spelling.
 */
export function refuseMiscased(flag: string, value: string | undefined, known: Iterable<string>, where: string): void {
  if (value === undefined) return;
  const ids = [...new Set(known)];
  if (ids.includes(value)) return;
  const match = ids.find((id) => id.toLowerCase() === value.toLowerCase());
  if (match === undefined) return;
  throw new UsageError(`${flag} ${value} matches nothing in ${where}; did you mean ${flag} ${match}? (ids are case-sensitive)`);
}
