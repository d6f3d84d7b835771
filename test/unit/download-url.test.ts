import { describe, expect, it } from 'vitest';
import { deliveryBaseOf, deliveryDocumentUrl, deliveryFileUrl } from '../../src/service/delivery.js';

describe('deliveryFileUrl: {deliveryUrl}/api/vi{downloadUrl}', () => {
  it.each([
    ['http://cdn.test', '/demo/vc/c1/dev/items/i1/a.txt', 'http://cdn.test/api/vi/demo/vc/c1/dev/items/i1/a.txt'],
    ['http://cdn.test/', 'demo/x', 'http://cdn.test/api/vi/demo/x'],
    ['https://cdn.test/base/', '/x?sig=1', 'https://cdn.test/base/api/vi/x?sig=1'],
    // A download URL keeps its path from /api/vi/ on; everything before it is the delivery URL (cli.md, "Reading the service").
    ['https://cdn.example/assets', 'https://cdn.example/assets/api/vi/demo/vc/c1/dev/items/i1/a.txt', 'https://cdn.example/assets/api/vi/demo/vc/c1/dev/items/i1/a.txt'],
    ['https://alias.test/edge', 'https://cdn.example/assets/api/vi/demo/x?sig=2', 'https://alias.test/edge/api/vi/demo/x?sig=2'],
    ['https://cdn.example/assets', 'https://cdn.example/assets/api/vi/demo/vc/api/vi/items/i1/a', 'https://cdn.example/assets/api/vi/demo/vc/api/vi/items/i1/a'],
    ['https://cdn.example/assets', '/api/vi/demo/vc/c1/dev/items/i1/a.txt', 'https://cdn.example/assets/api/vi/demo/vc/c1/dev/items/i1/a.txt'],
    ['https://cdn.example/assets', '/assets/api/vi/demo/x', 'https://cdn.example/assets/api/vi/demo/x'],
    // The spec's form, whose path happens to hold /api/vi/ (a collection "api" in an environment "vi"): a path like any other.
    ['https://cdn.example/assets', '/demo/vc/api/vi/items/i1/a', 'https://cdn.example/assets/api/vi/demo/vc/api/vi/items/i1/a'],
    ['http://cdn.test', 'http://other.test/elsewhere/x', 'http://cdn.test/api/vi/elsewhere/x'],
    // An absolute URL already on the delivery URL (its whole prefix) is used as it is, /api/vi or not (issue 45).
    ['https://cdn.example/assets', 'https://cdn.example/assets/pub/demo/x.zip?sig=3', 'https://cdn.example/assets/pub/demo/x.zip?sig=3'],
    ['https://cdn.example/assets/', 'https://cdn.example/assets/pub/x', 'https://cdn.example/assets/pub/x'],
    // Not at a segment's end, another port or scheme, or climbing out: the /api/vi rule.
    ['https://cdn.example/assets', 'https://cdn.example/assetsX/pub/a', 'https://cdn.example/assets/api/vi/assetsX/pub/a'],
    ['https://cdn.example/assets', 'http://cdn.example/assets/pub/a', 'https://cdn.example/assets/api/vi/assets/pub/a'],
    ['https://cdn.example/assets', 'https://cdn.example:8443/assets/pub/a', 'https://cdn.example/assets/api/vi/assets/pub/a'],
    ['https://cdn.example/assets', 'https://cdn.example/assets/../api/vi/demo/x', 'https://cdn.example/assets/api/vi/demo/x'],
  ])('%s + %s', (base, path, expected) => {
    expect(deliveryFileUrl(base, path)).toBe(expected);
  });

  it.each(['//evil.test/x', 'http://evil.test/x', '\\\\evil.test\\x'])('a hostile path %j stays on the delivery host', (path) => {
    const url = new URL(deliveryFileUrl('http://cdn.test', path));
    expect(url.host).toBe('cdn.test');
    expect(url.protocol).toBe('http:');
    expect(url.pathname.startsWith('/api/vi/')).toBe(true);
  });

  it.each(['/../../../api/v2/demo/vc', '/x/../../v2/demo', '/%2e%2e/%2E%2E/api/v2', '/..', '..', '/api/vi/%2e%2e/v2'])('refuses %j, which would climb out of /api/vi', (path) => {
    expect(() => deliveryFileUrl('http://cdn.test', path)).toThrow(/leaves the delivery path/);
  });
});

describe('deliveryDocumentUrl: a deployed URL already on the delivery URL', () => {
  it('is used as it is: the prefix is not doubled (a CDN at https://cdn.example/cdn/x giving URLs without /api/vi)', () => {
    expect(deliveryDocumentUrl('https://cdn.example/cdn/x/pub/demo/vc/c1/dev', 'https://api.example', 'https://cdn.example/cdn/x')).toBe('https://cdn.example/cdn/x/pub/demo/vc/c1/dev');
    expect(deliveryDocumentUrl('https://cdn.example/cdn/x/api/vi/demo/vc/c1/dev', 'https://api.example', 'https://cdn.example/cdn/x')).toBe('https://cdn.example/cdn/x/api/vi/demo/vc/c1/dev');
    // Elsewhere: its path from /api/vi/ on goes on the delivery URL, as before.
    expect(deliveryDocumentUrl('https://origin.example/api/vi/demo/vc/c1/dev', 'https://api.example', 'https://cdn.example/cdn/x')).toBe('https://cdn.example/cdn/x/api/vi/demo/vc/c1/dev');
  });
});

describe('deliveryBaseOf: the {deliveryUrl} of a deployed URL', () => {
  it.each([
    ['http://cdn.test/api/vi/demo/vc/c1/dev', 'http://cdn.test'],
    ['http://cdn.test:8081/cdn/api/vi/demo/vc/c1/dev', 'http://cdn.test:8081/cdn'],
    ['https://cdn.test/a/b/api/vi/demo/vc/c1/dev?x=1', 'https://cdn.test/a/b'],
    ['https://cdn.test/elsewhere/c1', 'https://cdn.test'],
  ])('%s -> %s', (url, expected) => {
    expect(deliveryBaseOf(new URL(url))).toBe(expected);
  });
});

describe('deliveryDocumentUrl: the deployed URL on the configured delivery host', () => {
  it.each([
    // A delivery URL set: its scheme, host and prefix replace the service's, the path and query kept.
    ['http://cdn.real:8081/cdn/api/vi/demo/vc/c1/dev', 'https://alias.test/edge', 'https://alias.test/edge/api/vi/demo/vc/c1/dev'],
    ['https://cdn.real/api/vi/demo/vc/c1/dev?sig=abc', 'http://alias.test:9000/', 'http://alias.test:9000/api/vi/demo/vc/c1/dev?sig=abc'],
    ['https://user:pw@cdn.real/p/api/vi/demo/vc/c1/dev', 'https://alias.test', 'https://alias.test/api/vi/demo/vc/c1/dev'],
    // A relative deployed URL is the API's; none set: the URL as served.
    ['/api/vi/demo/vc/c1/dev', 'http://alias.test/x', 'http://alias.test/x/api/vi/demo/vc/c1/dev'],
    ['http://cdn.real:8081/cdn/api/vi/demo/vc/c1/dev', 'http://cdn.real:8081/cdn', 'http://cdn.real:8081/cdn/api/vi/demo/vc/c1/dev'],
  ])('%s on %s', (downloadUrl, base, expected) => {
    expect(deliveryDocumentUrl(downloadUrl, 'http://api.test', base)).toBe(expected);
  });
});
