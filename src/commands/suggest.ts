// "Did you mean …?" for a mistyped command: a real command the word begins
// (`promote` → promote-default), else the nearest by edit distance, so that
// `ahs promote` never suggests `profile`.

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

// refuseMiscased moved below the operations (asset status uses it).
export { refuseMiscased } from '../util/miscased.js';
