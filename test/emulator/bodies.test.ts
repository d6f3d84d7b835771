// Untrusted input the emulator will not parse: a JSON body too deep or too
// large, a malformed percent-encoding in the path or the query. Each is a
// 400 with the usual error body, never a 500 or a reset.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { answer, Client, DEMO_API_KEY, isProblem, rawRequest, withEmulator } from './helpers.js';

let emu: RunningEmulator;
let client: Client;
beforeAll(async () => {
  ({ emu, client } = await withEmulator());
  await client.createAsset('a1');
  await client.createCollection('c1');
});
afterAll(() => emu.close());

function postJson(path: string, text: string) {
  return fetch(client.url(path), { method: 'POST', headers: { apikey: DEMO_API_KEY, 'content-type': 'application/json' }, body: text });
}

const bigJson = () => JSON.stringify({ assetId: 'big', assetName: 'x'.repeat(2 * 1024 * 1024), assetType: '1001' });

describe('JSON bodies', () => {
  it.each([
    ['objects nested 5000 deep', `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}`],
    ['arrays nested 100000 deep', `${'['.repeat(100_000)}${']'.repeat(100_000)}`],
    ['an object holding arrays nested 40 deep', `{"assetId":${'['.repeat(40)}${']'.repeat(40)}}`],
  ])('%s: 400 "nested deeper", nothing created', async (_name, text) => {
    const res = await answer(await postJson('/va', text));
    expect(isProblem(res, 400)).toBe(true);
    expect(res.body.title).toBe('The JSON body is nested deeper than 32 levels');
    expect((await client.get('/va')).body.totalResults).toBe(1);
  });

  it('brackets inside strings do not count as nesting', async () => {
    const res = await client.createAsset('brackets', { assetName: '[[[[{{{{\\"'.repeat(5) });
    expect(res.status).toBe(201);
    expect((await client.delete('/va/brackets', { deletedBy: 'owner@demo.test' })).status).toBe(204);
  });

  it('2 MB: 400 at once with Connection: close, and the next request is answered at once', async () => {
    const res = await answer(await postJson('/va', bigJson()));
    expect(isProblem(res, 400)).toBe(true);
    expect(res.body.title).toBe('The JSON body is larger than 1048576 bytes');
    expect(res.headers.get('connection')).toBe('close');
    expect((await client.get('/va/a1')).status).toBe(200);
    expect((await client.get('/va/big')).status).toBe(404);
  });

  it('2 MB with its Content-Length, on a raw connection: the whole answer, then a clean close (no reset)', async () => {
    const body = Buffer.from(bigJson());
    const { text, reset } = await rawRequest(
      emu.baseUrl,
      `POST /api/v2/demo/va HTTP/1.1\r\nHost: emulator\r\napikey: ${DEMO_API_KEY}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
      body,
    );
    expect(reset).toBe(false);
    expect(text).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(text.split('\r\n\r\n')[1]!).title).toBe('The JSON body is larger than 1048576 bytes');
  });

  it('2 MB chunked (no Content-Length): refused while it arrives, the whole answer, a clean close', async () => {
    const json = Buffer.from(bigJson());
    const chunks: Buffer[] = [];
    for (let at = 0; at < json.length; at += 64 * 1024) {
      const piece = json.subarray(at, at + 64 * 1024);
      chunks.push(Buffer.from(`${piece.length.toString(16)}\r\n`), piece, Buffer.from('\r\n'));
    }
    chunks.push(Buffer.from('0\r\n\r\n'));
    const { text, reset } = await rawRequest(
      emu.baseUrl,
      `POST /api/v2/demo/va HTTP/1.1\r\nHost: emulator\r\napikey: ${DEMO_API_KEY}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`,
      Buffer.concat(chunks),
    );
    expect(reset).toBe(false);
    expect(text).toMatch(/^HTTP\/1\.1 400 /);
    expect(text.toLowerCase()).toContain('connection: close');
    expect(JSON.parse(text.split('\r\n\r\n')[1]!).title).toBe('The JSON body is larger than 1048576 bytes');
  });
});

describe('percent-encoding', () => {
  it.each([
    ['the domain', '/api/v2/%E0%A4%A/va', '%E0%A4%A'],
    ['an asset id', '/api/v2/demo/va/%E0%A4%A', '%E0%A4%A'],
    ['a version id', '/api/v2/demo/va/a1/versions/%FF', '%FF'],
    ['a collection id', '/api/v2/demo/vc/%C3%28', '%C3%28'],
    ['an item id', '/api/v2/demo/vc/c1/items/%ZZ', '%ZZ'],
    ['a delivery domain', '/api/vi/%E0%A4%A/vc/c1/dev', '%E0%A4%A'],
    ['a delivery env', '/api/vi/demo/vc/c1/%E0', '%E0'],
  ])('a malformed escape in %s: 400 naming the segment', async (_name, path, segment) => {
    const res = await answer(await fetch(`${emu.baseUrl}${path}`, { headers: { apikey: DEMO_API_KEY } }));
    expect(isProblem(res, 400)).toBe(true);
    expect(res.body.title).toBe(`The path segment ${segment} is not valid percent-encoding; encode each id and value with encodeURIComponent`);
  });

  it.each([
    ['GET', '/va?pageSize=%E0%A4%A', 'pageSize=%E0%A4%A'],
    ['GET', '/va/search?text=%FF', 'text=%FF'],
    ['POST', '/va/a1/versions?targetPlatformId=%E0%A4%A', 'targetPlatformId=%E0%A4%A'],
  ])('a malformed escape in the query of %s %s: 400 naming the parameter, never a quietly changed value', async (method, path, pair) => {
    const res = await client.call(method, path);
    expect(isProblem(res, 400)).toBe(true);
    expect(res.body.title).toBe(`The query parameter ${pair} is not valid percent-encoding; encode each id and value with encodeURIComponent`);
  });

  it('well-formed escapes still decode: an id with a space and a slash', async () => {
    expect((await client.createAsset('a b/c')).status).toBe(201);
    expect((await client.get(`/va/${encodeURIComponent('a b/c')}`)).body.assetId).toBe('a b/c');
    expect((await client.get('/va/search?text=a+b')).body.results.total).toBe(1);
  });
});
