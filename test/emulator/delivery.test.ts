// Delivery: the collection document, item and version bytes, apikey only
// for secured content; plus multipart streaming of larger files.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { request } from 'undici';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { answer, Client, DEMO_API_KEY, DEMO_USER, isProblem, withEmulator } from './helpers.js';

let emu: RunningEmulator;
let api: Client;
beforeAll(async () => {
  ({ emu, client: api } = await withEmulator());
});
afterAll(() => emu.close());

const U = DEMO_USER;
const get = async (url: string, apikey?: string) => answer(await fetch(url, apikey ? { headers: { apikey } } : {}));
const bytes = async (url: string, apikey?: string) => Buffer.from(await (await fetch(url, apikey ? { headers: { apikey } } : {})).arrayBuffer());

describe('collection delivery', () => {
  it('round trip: uploaded bytes equal downloaded bytes (secured collection needs a key)', async () => {
    await api.createCollection('secure');
    const payloads = [randomBytes(3000), randomBytes(1), Buffer.from('{"hello":"world"}')];
    const ids: string[] = [];
    for (const [index, payload] of payloads.entries()) {
      const res = await api.uploadItem('secure', payload, { assetItemName: `part${index}` }, `part${index}.bin`);
      expect(res.status, res.text).toBe(201);
      ids.push(res.body.assetItemId);
    }
    const deployed = await api.post('/vc/secure/deployments', { state: 'LIVE', createdBy: U, envId: 'dev' });
    expect(isProblem(await get(deployed.body.downloadUrl), 403)).toBe(true);
    expect(isProblem(await get(deployed.body.downloadUrl, 'wrong'), 403)).toBe(true);
    const doc = await get(deployed.body.downloadUrl, DEMO_API_KEY);
    expect(doc.status).toBe(200);
    expect(doc.body).toMatchObject({ collectionId: 'secure', domainId: 'demo', envId: 'dev', secured: true, localCacheControl: false, localCacheMaxAge: 30, targetPlatform: 'generic', downloadUrl: '/demo/vc/secure/dev' });
    expect(doc.body.anchorAsset.assetItemId).toBe(ids[0]);
    expect(doc.body.assetItemUrls.map((e: any) => e.assetItemId)).toEqual(ids);
    for (const [index, entry] of doc.body.assetItemUrls.entries()) {
      expect(entry.downloadUrl.startsWith('/')).toBe(true);
      const url = `${emu.deliveryUrl}/api/vi${entry.downloadUrl}`;
      expect(isProblem(await get(url), 403)).toBe(true);
      expect((await bytes(url, DEMO_API_KEY)).equals(payloads[index]!)).toBe(true);
    }
    // Removing an item drops it from the document and its URL.
    const gone = doc.body.assetItemUrls[1];
    await api.delete(`/vc/secure/items/${ids[1]}`, { deletedBy: U });
    const after = await get(deployed.body.downloadUrl, DEMO_API_KEY);
    expect(after.body.assetItemUrls).toHaveLength(2);
    expect(isProblem(await get(`${emu.deliveryUrl}/api/vi${gone.downloadUrl}`, DEMO_API_KEY), 404)).toBe(true);
  });

  it('unsecured collections need no key; the document resolves only while LIVE', async () => {
    await api.createCollection('open', { secured: false });
    await api.uploadItem('open', 'public');
    const deployed = await api.post('/vc/open/deployments', { state: 'LIVE', createdBy: U, envId: 'prod' });
    const doc = await get(deployed.body.downloadUrl);
    expect(doc.status).toBe(200);
    expect((await bytes(`${emu.deliveryUrl}/api/vi${doc.body.assetItemUrls[0].downloadUrl}`)).toString()).toBe('public');
    await api.post('/vc/open/deployments', { state: 'OFFLINE', updatedBy: U, envId: 'prod' });
    expect(isProblem(await get(deployed.body.downloadUrl), 404)).toBe(true);
  });
});

describe('version delivery', () => {
  it('streams LIVE and DEFAULT versions; OFFLINE ones are gone; apikey only when secured', async () => {
    await api.createAsset('open-asset', { secured: false });
    const payload = randomBytes(5000);
    await api.uploadVersion('open-asset', 'web', payload, {}, 'app.js');
    await api.deploy('open-asset', 'WEB1', 'web', { envId: 'dev', intent: 'LIVE', createdBy: U });
    const [entry] = (await api.get('/va/open-asset/asset-urls')).body.results;
    const response = await fetch(entry.downloadUrl);
    expect(response.headers.get('content-length')).toBe('5000');
    expect(Buffer.from(await response.arrayBuffer()).equals(payload)).toBe(true);
    await api.deploy('open-asset', 'WEB1', 'web', { envId: 'dev', intent: 'DEFAULT', updatedBy: U });
    expect((await bytes(`${emu.deliveryUrl}/api/vi/demo/va/open-asset/web/dev/default`)).equals(payload)).toBe(true);

    await api.createAsset('closed-asset');
    await api.uploadVersion('closed-asset', 'ios', 'secret');
    await api.deploy('closed-asset', 'IOS1', 'ios', { envId: 'dev', intent: 'LIVE', createdBy: U });
    const [closed] = (await api.get('/va/closed-asset/asset-urls')).body.results;
    expect(isProblem(await get(closed.downloadUrl), 403)).toBe(true);
    expect((await bytes(closed.downloadUrl, DEMO_API_KEY)).toString()).toBe('secret');
    await api.deploy('closed-asset', 'IOS1', 'ios', { envId: 'dev', intent: 'OFFLINE', updatedBy: U });
    expect(isProblem(await get(closed.downloadUrl, DEMO_API_KEY), 404)).toBe(true);
  });
});

describe('multipart streaming', () => {
  it('takes a multi-megabyte file sent in chunks, with fields after the file', async () => {
    await api.createAsset('streamed');
    const boundary = '----ahs-test-boundary';
    const size = 8 * 1024 * 1024;
    const chunk = randomBytes(64 * 1024);
    async function* body() {
      yield Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="assetFile"; filename="big.zip"\r\nContent-Type: application/zip\r\n\r\n`);
      for (let sent = 0; sent < size; sent += chunk.length) yield chunk;
      yield Buffer.from(`\r\n--${boundary}\r\nContent-Disposition: form-data; name="versionName"\r\n\r\nbig\r\n`);
      yield Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="createdBy"\r\n\r\n${U}\r\n--${boundary}--\r\n`);
    }
    const res = await request(`${emu.baseUrl}/api/v2/demo/va/streamed/versions?targetPlatformId=android`, {
      method: 'POST',
      headers: { apikey: DEMO_API_KEY, 'content-type': `multipart/form-data; boundary=${boundary}` },
      body: Readable.from(body()),
    });
    const created = (await res.body.json()) as any;
    expect(res.statusCode, JSON.stringify(created)).toBe(201);
    expect(created).toMatchObject({ versionId: 'AND1', versionName: 'big', fileName: 'big.zip', size: '8.4 MB' });
    await api.deploy('streamed', 'AND1', 'android', { envId: 'dev', intent: 'LIVE', createdBy: U });
    const [entry] = (await api.get('/va/streamed/asset-urls')).body.results;
    const download = await bytes(entry.downloadUrl, DEMO_API_KEY);
    expect(download.length).toBe(size);
    expect(download.subarray(0, chunk.length).equals(chunk)).toBe(true);
    expect(download.subarray(size - chunk.length).equals(chunk)).toBe(true);
  });

  it('rejects a malformed multipart body with 400', async () => {
    await api.createAsset('malformed');
    const res = await request(`${emu.baseUrl}/api/v2/demo/va/malformed/versions?targetPlatformId=ios`, {
      method: 'POST',
      headers: { apikey: DEMO_API_KEY, 'content-type': 'multipart/form-data' },
      body: 'garbage',
    });
    expect(res.statusCode).toBe(400);
    await res.body.dump();
  });
});
