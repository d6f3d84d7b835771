// Keeps secrets out of every line the CLI writes: traces, errors, messages.
// main() wraps the IO's out and err with one Redactor (io/streams.ts
// redactedIO), so every line ahs prints passes through redact().
//
// A server may echo the key in any encoding (a 403 body that quotes the
// request URL-encoded, a JSON body with `\/` or `\"`, an HTML page with
// `&quot;`), and ahs may re-encode what it prints (JSON output, escaped
// control characters). So a secret is not matched as text but as a pattern:
// each of its characters in any of the forms below, in any mix, which covers
// the literal key, encodeURIComponent, encodeURI, form encoding, JSON
// escaping (PHP's `\/` and `\u00e9` included), HTML entities and percent-hex
// in either case, nested once more or not. The key's base64, base64url and
// hex are matched the same way (they may be URL- or JSON-escaped too).
export class Redactor {
  private secrets = new Set<string>();
  private pattern: RegExp | undefined;
  add(secret: string | undefined): void {
    if (!secret || secret.length < 4 || this.secrets.has(secret)) return;
    this.secrets.add(secret);
    this.pattern = undefined;
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
    if (this.secrets.size === 0) return text;
    this.pattern ??= new RegExp([...this.secrets].flatMap(encodedForms).sort((a, b) => b.length - a.length).join('|'), 'g');
    return text.replace(this.pattern, '***');
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

/** Patterns of the key itself and of its base64, base64url and hex. */
function encodedForms(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const base64 = bytes.toString('base64').replace(/=+$/, '');
  const base64url = bytes.toString('base64url');
  const hex = bytes.toString('hex');
  const pattern = (text: string, anyCase = false) => [...text].map((c) => charPattern(c, anyCase)).join('');
  // Padding is no secret, but a `***==` reads like a clue: it goes too.
  const padding = `(?:${charPattern('=')}){0,2}`;
  return [pattern(secret), `${pattern(base64)}${padding}`, base64url === base64 ? '' : pattern(base64url), pattern(hex, true)].filter(Boolean);
}

const NAMED_ENTITIES: Record<string, string> = { '"': 'quot', '&': 'amp', '<': 'lt', '>': 'gt', "'": 'apos', '/': 'sol' };
const SHORT_ESCAPES: Record<string, string> = { '\b': 'b', '\f': 'f', '\n': 'n', '\r': 'r', '\t': 't', '\u001b': 'e' };

/** One character of a secret in every form it may take in what ahs prints. */
function charPattern(char: string, anyCase = false): string {
  // Longer forms first: the key's last character `%` must take `%25` whole, not stop at its `%`.
  const forms = new Set<string>();
  // Percent-encoding of each UTF-8 byte, either case, double-encoded too (%2522).
  forms.add([...Buffer.from(char, 'utf8')].map((byte) => `%(?:25)*${hexPattern(byte, 2)}`).join(''));
  if (char === ' ') forms.add('\\+');
  // JSON \uXXXX (a surrogate pair beyond the BMP), and \xNN, \e, \n of escapeControls and JSON.
  forms.add([...Array.from({ length: char.length }, (_, i) => char.charCodeAt(i))].map((unit) => `\\\\+u${hexPattern(unit, 4)}`).join(''));
  const code = char.codePointAt(0)!;
  if (code < 0x100) forms.add(`\\\\+x${hexPattern(code, 2)}`);
  if (SHORT_ESCAPES[char]) forms.add(`\\\\+${SHORT_ESCAPES[char]}`);
  // HTML entities, decimal and hex, possibly escaped again (&amp;quot;).
  const amp = '&(?:amp;)*';
  forms.add(`${amp}#0*${code};`);
  forms.add(`${amp}#[xX]0*${hexPattern(code, 1)};`);
  if (NAMED_ENTITIES[char]) forms.add(`${amp}${NAMED_ENTITIES[char]};`);
  // Literal, or JSON-escaped (`\"`, `\/`, `\\`) once or nested: any backslashes before it.
  const literal = anyCase && /[a-f]/i.test(char) ? `[${char.toLowerCase()}${char.toUpperCase()}]` : escapeRegExp(char);
  forms.add(`\\\\*${literal}`);
  return `(?:${[...forms].join('|')})`;
}

/** A number in hex of at least `digits` digits, each letter in either case. */
function hexPattern(value: number, digits: number): string {
  return [...value.toString(16).padStart(digits, '0')].map((d) => (/[a-f]/.test(d) ? `[${d}${d.toUpperCase()}]` : d)).join('');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}
