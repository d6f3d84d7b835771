// The `size` string of a version ("512 B", "1.5 KB", "12.3 MB", "1.05 MiB"):
// the spec fixes only "a number plus unit suffix", so ahs reads any decimal
// (KB, MB: 1000) or binary (KiB, MiB: 1024) unit and compares within the
// rounding the string shows (cli.md, release).
const UNITS: Record<string, number> = {
  b: 1,
  byte: 1,
  bytes: 1,
  kb: 1e3,
  mb: 1e6,
  gb: 1e9,
  tb: 1e12,
  kib: 2 ** 10,
  mib: 2 ** 20,
  gib: 2 ** 30,
  tib: 2 ** 40,
};

export interface ReadSize {
  /** The size in bytes the string stands for. */
  bytes: number;
  /** The true size is less than this far from `bytes`, given the digits shown (one unit of the last digit: rounded or truncated). */
  tolerance: number;
}

/** Reads a size string; undefined when it is not a number and a known unit. */
export function readSize(text: string): ReadSize | undefined {
  const match = /^\s*(\d+(?:[.,](\d+))?)\s*([a-z]+)?\s*$/i.exec(text);
  if (!match) return undefined;
  const unit = UNITS[(match[3] ?? 'b').toLowerCase()];
  if (unit === undefined) return undefined;
  const decimals = match[2]?.length ?? 0;
  const value = Number(match[1]!.replace(',', '.'));
  return { bytes: value * unit, tolerance: unit * 10 ** -decimals };
}

/** The service's size string agrees with a byte count, within its rounding. */
export function sizeAgrees(text: string, bytes: number): boolean {
  const read = readSize(text);
  if (!read) return false;
  return Math.abs(read.bytes - bytes) < read.tolerance;
}

/**
 * A byte count written in the unit and the digits of a size string
 * ("30.0 KB", 40000 -> "40.0 KB"), so that a message compares like with
 * like; a string that cannot be read: "40000 bytes".
 */
export function sizeLike(text: string | null | undefined, bytes: number): string {
  const match = /^\s*\d+(?:[.,](\d+))?(\s*)([a-z]+)?\s*$/i.exec(text ?? '');
  const unit = match ? UNITS[(match[3] ?? 'b').toLowerCase()] : undefined;
  if (!match || unit === undefined) return `${bytes} bytes`;
  const decimals = match[1]?.length ?? 0;
  const separator = text!.includes(',') ? ',' : '.';
  return `${(bytes / unit).toFixed(decimals).replace('.', separator)}${match[2]}${match[3] ?? ''}`;
}
