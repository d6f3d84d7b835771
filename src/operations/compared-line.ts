// Which rule decided for how many files of an item sync (cli.md: the summary
// says it): on stderr, in the GitHub step summary and in a desired-state plan.
// Its own small module: src/io/views/collections.ts re-exports it without
// loading the sync's modules.

/** Without --checksum it warns that a same-size edit is not seen. */
export function comparedLine({ content, size, checksum }: { content: number; size: number; checksum: boolean }): string {
  if (!checksum) return `${size} compared by size: an edit that keeps a file's size is not seen (--checksum compares content)`;
  return `${content} compared by content, ${size} by size${size > 0 ? ' (items Live in no environment are compared by size)' : ''}`;
}
