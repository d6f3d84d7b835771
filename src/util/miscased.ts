// A value that differs from a known id only by case: a usage error suggesting the id.
import { UsageError } from '../errors.js';

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
