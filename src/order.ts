// The order ahs lists and compares names, ids and timestamps in: by UTF-16
// code units, as `LC_ALL=C sort` does. The same on every machine: a locale
// order (localeCompare) follows LANG, so a CI job and a laptop could print
// the same table in two orders; and localeCompare's first call loads ICU's
// collation, 5 ms of item sync's last step (issue 21).

/** Compares two strings by code units: negative, zero or positive, for Array.prototype.sort. */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
