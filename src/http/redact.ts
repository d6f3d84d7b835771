// Keeps secrets out of every line the CLI writes: traces, errors, messages.
// main() wraps the IO's out and err with one Redactor (io/streams.ts
// redactedIO), so every line ahs prints passes through redact().
//
// A server may echo the key in any encoding (a 403 body that quotes the
// request URL-encoded, a JSON body with `\/` or `\"`, an HTML page with
// `&quot;`), and ahs may re-encode what it prints (JSON output). So each
// secret is looked for as a fixed set of literal texts: the forms real
// encoders give it (raw, percent-encoded, JSON-escaped, HTML entities), each
// of them encoded once more (double URL-encoding, JSON in JSON, `&amp;quot;`),
// for the secret itself and for its base64 (standard and url-safe, whole and
// at its three alignments inside a longer text) and hex. Found with indexOf:
// linear in the text, nothing to back off from, nothing withheld.

export class Redactor {
  private secrets = new Set<string>();
  private forms: string[] | undefined;
  add(secret: string | undefined): void {
    if (!secret || secret.length < 4 || this.secrets.has(secret)) return;
    this.secrets.add(secret);
    this.forms = undefined;
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
    this.forms ??= [...new Set([...this.secrets].flatMap(formsOf))].filter((form) => form.length >= 4);
    // Every place a form occurs, as [start, end): each form's occurrences left to right, none overlapping
    // another of the same form (an overlapping one is partly covered by the one before).
    const found: Array<[number, number]> = [];
    for (const form of this.forms) {
      for (let at = text.indexOf(form); at !== -1; at = text.indexOf(form, at + form.length)) found.push([at, at + form.length]);
    }
    if (found.length === 0) return text;
    found.sort((a, b) => a[0] - b[0] || b[1] - a[1]);
    // Overlapping places become one `***`; places side by side stay two.
    let out = '';
    let end = 0;
    for (const [start, stop] of found) {
      if (start < end) end = Math.max(end, stop);
      else [out, end] = [`${out}${text.slice(end, start)}***`, stop];
    }
    return out + text.slice(end);
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

type Encoder = (text: string) => string;

const hex = (code: number, digits: number, upper: boolean) => {
  const text = code.toString(16).padStart(digits, '0');
  return upper ? text.toUpperCase() : text;
};
/** Each character not kept as its UTF-8 bytes in %XX; a space as `+` when asked. */
const percent =
  (keep: RegExp, upper: boolean, plus: boolean): Encoder =>
  (text) =>
    text.replace(keep, (c) => (plus && c === ' ' ? '+' : upper ? encodeURIComponent(c).replace(/[!'()*~]/g, (k) => `%${hex(k.charCodeAt(0), 2, true)}`) : percent(keep, true, plus)(c).toLowerCase()));
/** What encodeURIComponent, encodeURI, form encoding and RFC 3986 encoders (with and without `/`) leave as is. */
const KEEP = [/[^\w.!~*'()-]/gu, /[^\w.!~*'();,/?:@&=+$#-]/gu, /[^\w.*-]/gu, /[^\w.~-]/gu, /[^\w.~/-]/gu];
const PERCENT: Encoder[] = KEEP.flatMap((keep) => [true, false].flatMap((upper) => [percent(keep, upper, false), percent(keep, upper, true)]));

const json: Encoder = (text) => JSON.stringify(text).slice(1, -1);
const slashes: Encoder = (text) => json(text).replace(/\//g, '\\/');
/** `\uXXXX` for every character beyond ASCII (PHP, Python), or for every character. */
const unicode =
  (every: boolean, upper: boolean): Encoder =>
  (text) =>
    (every ? json : slashes)(text).replace(every ? /[^\\]|\\./g : /[^\x20-\x7e]/g, (c) => (c.length > 1 ? c : `\\u${hex(c.charCodeAt(0), 4, upper)}`));
const JSON_FORMS: Encoder[] = [json, slashes, unicode(false, false), unicode(false, true), unicode(true, false), unicode(true, true)];

const NAMED: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
const named =
  (apostrophe: string): Encoder =>
  (text) =>
    text.replace(/[&<>"']/g, (c) => NAMED[c] ?? apostrophe);
/** Every character but letters and digits as a numeric entity. */
const numeric =
  (form: (code: number) => string): Encoder =>
  (text) =>
    text.replace(/[^A-Za-z0-9]/gu, (c) => `&#${form(c.codePointAt(0)!)};`);
const HTML: Encoder[] = [named('&#39;'), named('&apos;'), named("'"), numeric(String), numeric((code) => `x${hex(code, 1, true)}`), numeric((code) => `x${hex(code, 1, false)}`)];

const identity: Encoder = (text) => text;
const ENCODERS = [identity, ...PERCENT, ...JSON_FORMS, ...HTML];
/** What may encode a form once more: double URL-encoding, JSON in JSON, HTML-escaped entities. */
const OUTER = [identity, PERCENT[0]!, PERCENT[2]!, PERCENT[5]!, json, slashes, HTML[0]!];

/**
 * encodedForms, made once per secret in this process: ~3 ms each time
 * (thousands of encodings), and a library client or the tests' in-process
 * runs make a Redactor per call with the same key.
 */
const FORMS = new Map<string, string[]>();
function formsOf(secret: string): string[] {
  let forms = FORMS.get(secret);
  if (!forms) {
    // A long-lived process that meets many keys keeps a few, not all.
    if (FORMS.size >= 16) FORMS.clear();
    FORMS.set(secret, (forms = encodedForms(secret)));
  }
  return forms;
}

/** The texts a secret may be found as. */
function encodedForms(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const texts = [secret, bytes.toString('hex'), bytes.toString('hex').toUpperCase()];
  for (const alphabet of ['base64', 'base64url'] as const) {
    const whole = bytes.toString(alphabet);
    texts.push(whole, whole.replace(/=+$/, ''));
    // Inside a longer text, the key starts 0, 1 or 2 bytes after a group of three: its characters that depend on it alone.
    for (const offset of [0, 1, 2]) {
      const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString(alphabet);
      texts.push(encoded.slice(Math.ceil((8 * offset) / 6), Math.floor((8 * (offset + bytes.length)) / 6)));
    }
  }
  const inner = new Set(texts.flatMap((text) => ENCODERS.map((encode) => encode(text))));
  return [...inner].flatMap((text) => OUTER.map((encode) => encode(text)));
}
