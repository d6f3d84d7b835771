// Keeps secrets out of every line the CLI writes: traces, errors, messages.
// main() wraps the IO's out and err with one Redactor (io/streams.ts
// redactedIO), so every line ahs prints passes through redact().
export class Redactor {
  private secrets = new Set<string>();
  add(secret: string | undefined): void {
    if (secret && secret.length >= 4) this.secrets.add(secret);
  }
  /**
   * The values of option-looking tokens that carry a key (`--api-key=KEY`,
   * `--apikey KEY`): ahs has no such option, so commander echoes them in
   * its "unknown option" line.
   */
  addFromArgv(argv: readonly string[]): void {
    argv.forEach((arg, index) => {
      const match = /^--?api[-_]?key(?:=(.*))?$/i.exec(arg);
      if (match) this.add(match[1] ?? argv[index + 1]);
    });
  }
  redact(text: string): string {
    let out = text;
    for (const secret of this.secrets) out = out.split(secret).join('***');
    return out;
  }
  /**
   * A JSON value with the secrets taken out of every string in it, before it
   * is serialised: JSON escapes a key holding a quote or a backslash, and
   * redact() on the serialised text would no longer find it.
   */
  redactDeep<T>(value: T): T {
    if (typeof value === 'string') return this.redact(value) as T;
    if (Array.isArray(value)) return value.map((entry) => this.redactDeep(entry)) as T;
    if (value && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([key, entry]) => [this.redact(key), this.redactDeep(entry)])) as T;
    }
    return value;
  }
}
