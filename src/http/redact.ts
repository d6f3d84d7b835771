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
// redact-match.ts finds them (no RegExp: compiling one cost up to 40 ms).
import { type Alternative, type Atom, anyCase, exactly, type Form, FormMatcher, repeated, type Unit, unit } from './redact-match.js';

export class Redactor {
  private secrets = new Set<string>();
  private matcher: FormMatcher | undefined;
  add(secret: string | undefined): void {
    if (!secret || secret.length < 4 || this.secrets.has(secret)) return;
    this.secrets.add(secret);
    this.matcher = undefined;
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
    this.matcher ??= new FormMatcher([...this.secrets].flatMap(encodedForms));
    return this.matcher.replace(text, '***');
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

/** The forms of the key itself and of its base64, base64url and hex. */
function encodedForms(secret: string): Form[] {
  const bytes = Buffer.from(secret, 'utf8');
  const base64 = bytes.toString('base64').replace(/=+$/, '');
  const base64url = bytes.toString('base64url');
  const hex = bytes.toString('hex');
  const form = (text: string, hexDigits = false): Form => [...text].map((c) => charUnit(c, hexDigits));
  // Padding is no secret, but a `***==` reads like a clue: it goes too.
  const padding = unit(charUnit('=').alternatives, 0, 2);
  return [form(secret), [...form(base64), padding], base64url === base64 ? [] : form(base64url), form(hex, true)].filter((forms) => forms.length > 0);
}

const NAMED_ENTITIES: Record<string, string> = { '"': 'quot', '&': 'amp', '<': 'lt', '>': 'gt', "'": 'apos', '/': 'sol' };
const SHORT_ESCAPES: Record<string, string> = { '\b': 'b', '\f': 'f', '\n': 'n', '\r': 'r', '\t': 't', '\u001b': 'e' };

/** Units already built: a key's base64 and hex repeat few characters, and a secret added later (a URL's password) rebuilds the matcher from them. */
const UNITS = new Map<string, Unit>();

function charUnit(char: string, hexDigit = false): Unit {
  const id = `${hexDigit ? 'h' : 'c'}${char}`;
  let built = UNITS.get(id);
  if (!built) UNITS.set(id, (built = charForms(char, hexDigit)));
  return built;
}

// The atoms every character's forms share, built once.
const PERCENT = [exactly('%'), repeated('25', 0)];
const BACKSLASHES = repeated('\\', 1);
const ANY_BACKSLASHES = repeated('\\', 0);
const U = exactly('u');
const X = exactly('x');
const AMP = [exactly('&'), repeated('amp;', 0)];
const DECIMAL = [...AMP, exactly('#'), repeated('0', 0)];
const HEX = [...AMP, exactly('#'), anyCase('x'), repeated('0', 0)];
const SEMICOLON = exactly(';');

/**
 * One character of a secret in every form it may take in what ahs prints,
 * in the order they are tried (redact-match.ts).
 */
function charForms(char: string, hexDigit: boolean): Unit {
  // Longer forms first: the key's last character `%` must take `%25` whole, not stop at its `%`.
  const forms: Alternative[] = [];
  // Percent-encoding of each UTF-8 byte, either case, double-encoded too (%2522).
  const percent: Atom[] = [];
  for (const byte of Buffer.from(char, 'utf8')) percent.push(...PERCENT, hexNumber(byte, 2));
  forms.push(percent);
  if (char === ' ') forms.push([exactly('+')]);
  // JSON \uXXXX (a surrogate pair beyond the BMP), and \xNN, \e, \n of escapeControls and JSON.
  const unicode: Atom[] = [];
  for (let i = 0; i < char.length; i++) unicode.push(BACKSLASHES, U, hexNumber(char.charCodeAt(i), 4));
  forms.push(unicode);
  const code = char.codePointAt(0)!;
  if (code < 0x100) forms.push([BACKSLASHES, X, hexNumber(code, 2)]);
  if (SHORT_ESCAPES[char]) forms.push([BACKSLASHES, exactly(SHORT_ESCAPES[char])]);
  // HTML entities, decimal and hex, possibly escaped again (&amp;quot;).
  forms.push([...DECIMAL, exactly(`${code};`)]);
  forms.push([...HEX, hexNumber(code, 1), SEMICOLON]);
  if (NAMED_ENTITIES[char]) forms.push([...AMP, exactly(`${NAMED_ENTITIES[char]};`)]);
  // Literal, or JSON-escaped (`\"`, `\/`, `\\`) once or nested: any backslashes before it.
  forms.push([ANY_BACKSLASHES, hexDigit && isHexLetter(char) ? anyCase(char) : exactly(char)]);
  return unit(forms);
}

/** A number in hex of at least `digits` digits, each letter in either case. */
function hexNumber(value: number, digits: number): Atom {
  return anyCase(value.toString(16).padStart(digits, '0'));
}

function isHexLetter(char: string): boolean {
  return (char >= 'a' && char <= 'f') || (char >= 'A' && char <= 'F');
}
