// The forms a server (or ahs's own output) may give an API key: each must be
// redacted wherever ahs prints it (src/http/redact.ts).

/** Keys holding what encoders treat specially: a quote, a slash, a plus, a space, a percent, non-ASCII. */
export const HOSTILE_KEYS = ['k"ey/with+plus and%25sp', 'clé/ü"日本+ 100%', 'AbC/dEf+GhI=JkL&lt;<x>'];

export function keyEncodings(key: string): Record<string, string> {
  const json = JSON.stringify(key).slice(1, -1);
  const bytes = Buffer.from(key, 'utf8');
  const entityOf = (char: string, form: 'hex' | 'dec') => (/[A-Za-z0-9]/.test(char) ? char : form === 'hex' ? `&#x${char.codePointAt(0)!.toString(16).toUpperCase()};` : `&#${char.codePointAt(0)};`);
  return {
    literal: key,
    encodeURIComponent: encodeURIComponent(key),
    encodeURI: encodeURI(key),
    'lower-case percent-hex': encodeURIComponent(key).replace(/%[0-9A-F]{2}/g, (hex) => hex.toLowerCase()),
    'double URL-encoded': encodeURIComponent(encodeURIComponent(key)),
    form: new URLSearchParams({ k: key }).toString().slice(2),
    'JSON-escaped': json,
    'JSON with \\/': json.replace(/\//g, '\\/'),
    'JSON ASCII-only (PHP)': json.replace(/\//g, '\\/').replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
    'JSON in JSON': JSON.stringify(json).slice(1, -1),
    base64: bytes.toString('base64'),
    base64url: bytes.toString('base64url'),
    'base64 in a URL': encodeURIComponent(bytes.toString('base64')),
    hex: bytes.toString('hex'),
    'upper-case hex': bytes.toString('hex').toUpperCase(),
    'HTML named entities': key.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;'),
    'HTML hex entities': [...key].map((c) => entityOf(c, 'hex')).join(''),
    'HTML decimal entities': [...key].map((c) => entityOf(c, 'dec')).join(''),
  };
}
