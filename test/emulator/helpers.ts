// Test helpers: an emulator on port 0 and a tiny JSON/multipart client over
// real sockets (global fetch; small bodies only).
import { connect } from 'node:net';
import { startEmulator, DEMO_API_KEY, DEMO_USER, type EmulatorOptions, type RunningEmulator } from '../../src/emulator/index.js';

export { DEMO_API_KEY, DEMO_USER };
export const ERROR_TYPE = 'https://errors.asset-hosting.example/problem';

export interface Answer<T = any> {
  status: number;
  body: T;
  text: string;
  headers: Headers;
}

export class Client {
  constructor(
    readonly emu: RunningEmulator,
    readonly domain = 'demo',
    readonly apiKey: string | undefined = DEMO_API_KEY,
  ) {}

  withKey(apiKey: string | undefined, domain = this.domain): Client {
    return new Client(this.emu, domain, apiKey);
  }

  url(path: string): string {
    return `${this.emu.baseUrl}/api/v2/${this.domain}${path}`;
  }

  async call<T = any>(method: string, path: string, body?: unknown): Promise<Answer<T>> {
    const headers: Record<string, string> = {};
    if (this.apiKey !== undefined) headers.apikey = this.apiKey;
    let payload: string | FormData | undefined;
    if (body instanceof FormData) payload = body;
    else if (body !== undefined) {
      headers['content-type'] = 'application/json';
      payload = JSON.stringify(body);
    }
    const response = await fetch(this.url(path), { method, headers, ...(payload !== undefined ? { body: payload } : {}) });
    return answer<T>(response);
  }

  get<T = any>(path: string) {
    return this.call<T>('GET', path);
  }
  post<T = any>(path: string, body?: unknown) {
    return this.call<T>('POST', path, body);
  }
  put<T = any>(path: string, body?: unknown) {
    return this.call<T>('PUT', path, body);
  }
  patch<T = any>(path: string, body?: unknown) {
    return this.call<T>('PATCH', path, body);
  }
  delete<T = any>(path: string, body?: unknown) {
    return this.call<T>('DELETE', path, body);
  }

  // --- shortcuts ---

  createAsset(assetId: string, extra: Record<string, unknown> = {}) {
    return this.post('/va', { assetId, assetName: `Asset ${assetId}`, assetType: '1001', createdBy: DEMO_USER, ...extra });
  }

  uploadVersion(assetId: string, platform: string, content: string | Uint8Array = 'hello', fields: Record<string, string> = {}, fileName = 'bundle.zip') {
    const form = new FormData();
    form.set('versionName', fields.versionName ?? 'v1');
    form.set('createdBy', fields.createdBy ?? DEMO_USER);
    for (const [key, value] of Object.entries(fields)) if (key !== 'versionName' && key !== 'createdBy') form.set(key, value);
    form.set('assetFile', new Blob([content as BlobPart]), fileName);
    return this.post(`/va/${assetId}/versions?targetPlatformId=${platform}`, form);
  }

  deploy(assetId: string, versionId: string, platform: string, body: Record<string, unknown>) {
    return this.post(`/va/${assetId}/versions/${versionId}/deploy?targetPlatformId=${platform}`, body);
  }

  createCollection(collectionId: string, extra: Record<string, unknown> = {}) {
    return this.post('/vc', { collectionId, collectionName: `Collection ${collectionId}`, allowedAssetTypes: ['1001'], createdBy: DEMO_USER, ...extra });
  }

  uploadItem(collectionId: string, content: string | Uint8Array = 'item', fields: Record<string, string> = {}, fileName = 'item.json') {
    const form = new FormData();
    form.set('assetItemName', fields.assetItemName ?? 'item');
    form.set('assetType', fields.assetType ?? '1001');
    form.set('createdBy', fields.createdBy ?? DEMO_USER);
    form.set('assetFile', new Blob([content as BlobPart], { type: 'application/json' }), fileName);
    return this.post(`/vc/${collectionId}/items`, form);
  }
}

export async function answer<T = any>(response: Response): Promise<Answer<T>> {
  const text = await response.text();
  let body: any = undefined;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { status: response.status, body, text, headers: response.headers };
}

/** Asserts the spec's four-field error body. */
export function isProblem(a: Answer, status: number): boolean {
  const body = a.body;
  return (
    a.status === status &&
    body !== undefined &&
    Object.keys(body).sort().join(',') === 'detail,status,title,type' &&
    body.type === ERROR_TYPE &&
    body.status === status &&
    typeof body.title === 'string' &&
    body.title.length > 0 &&
    body.detail === body.title
  );
}

export async function withEmulator(options: EmulatorOptions = {}): Promise<{ emu: RunningEmulator; client: Client }> {
  const emu = await startEmulator(options);
  return { emu, client: new Client(emu) };
}

/** A richer fixture for error cases: roles, scoped key, file types, plan limits. */
export const ACME = {
  maxAssetsCeiling: 5000,
  domains: [
    {
      domainId: 'acme',
      users: [
        { email: 'owner@acme.test', role: 'owner', active: true },
        { email: 'admin@acme.test', role: 'admin', active: true },
        { email: 'viewer@acme.test', role: 'viewer', active: true },
        { email: 'former@acme.test', role: 'admin', active: false },
      ],
      apiKeys: [{ key: 'acme-all-key' }, { key: 'acme-prod-key', envId: 'prod' }],
      environments: ['dev', 'staging', 'prod'],
      targetPlatforms: ['generic', 'ios', 'android', 'web'],
      assetTypes: [
        { code: '1001', name: 'Bundle', active: true, allowedExtensions: ['.zip', '.js', '.json'] },
        { code: '1002', name: 'Image', active: true, allowedExtensions: ['.png', '.jpg'] },
        { code: '1003', name: 'Retired', active: false },
        { code: '9999', name: 'Other', active: true },
      ],
      plan: { maxUploadBytes: 1000, maxStorageBytes: 1_000_000 },
    },
    {
      domainId: 'other',
      users: [{ email: 'owner@other.test', role: 'owner', active: true }],
      apiKeys: [{ key: 'other-key' }],
      environments: ['dev'],
      targetPlatforms: ['generic'],
      assetTypes: [{ code: '1001', active: true }],
    },
  ],
};
export const ACME_USER = 'owner@acme.test';

/**
 * Sends raw bytes on a new connection and resolves, once the server closes
 * it, with what came back and whether the connection was reset.
 */
export function rawRequest(baseUrl: string, ...parts: (string | Buffer)[]): Promise<{ text: string; reset: boolean }> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    let text = '';
    let reset = false;
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
    socket.on('error', () => (reset = true));
    socket.on('close', () => resolve({ text, reset }));
    for (const part of parts) socket.write(part);
  });
}

/** The status and parsed JSON body of a raw HTTP/1.1 answer. */
export function parseRaw(text: string): { status: number; head: string; body: any } {
  const split = text.indexOf('\r\n\r\n');
  const head = split < 0 ? text : text.slice(0, split);
  const rest = split < 0 ? '' : text.slice(split + 4);
  let body: any;
  try {
    body = JSON.parse(rest);
  } catch {
    body = undefined;
  }
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]), head: head.toLowerCase(), body };
}
