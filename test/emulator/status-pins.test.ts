// One request for each rejection no other emulator test pinned, over real
// HTTP: the status on the wire, the title of the rules' constructor (so the
// answer is that rejection and no other), and the constructor's kind.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Rejection, RejectionKind } from '../../src/rules/index.js';
import * as rejections from '../../src/rules/rejections.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { answer, Client, DEMO_API_KEY, DEMO_USER, isProblem, parseRaw, rawRequest, withEmulator, type Answer } from './helpers.js';

let emu: RunningEmulator;
let client: Client;
let quiet: RunningEmulator;
let dataDir: string;
let noActor: { emu: RunningEmulator; client: Client };

beforeAll(async () => {
  ({ emu, client } = await withEmulator({ limits: { headersTimeoutMs: 200 } }));
  await client.createAsset('game');
  await client.uploadVersion('game', 'ios');
  await client.createCollection('bag');
  await client.uploadItem('bag');
  // A domain whose only owner was later switched off: its collection was made while she could act.
  dataDir = await mkdtemp(join(tmpdir(), 'ahs-emu-pins-'));
  const domain = { domainId: 'quiet', apiKeys: [{ key: 'quiet-key' }], environments: ['dev'], targetPlatforms: ['generic'], assetTypes: [{ code: '1001' }] };
  const before = await withEmulator({ dataDir, config: { domains: [{ ...domain, users: [{ email: 'gone@quiet.test', role: 'owner', active: true }] }] } });
  const made = await new Client(before.emu, 'quiet', 'quiet-key').createCollection('shelf', { createdBy: 'gone@quiet.test' });
  expect(made.status).toBe(201);
  await before.emu.close();
  quiet = (await withEmulator({ dataDir, config: { domains: [{ ...domain, users: [{ email: 'gone@quiet.test', role: 'owner', active: false }] }] } })).emu;
  noActor = { emu: quiet, client: new Client(quiet, 'quiet', 'quiet-key') };
});
afterAll(async () => {
  await emu.close();
  await quiet.close();
  await rm(dataDir, { recursive: true, force: true });
});

function json(method: string, path: string, text: string): Promise<Answer> {
  return fetch(client.url(path), { method, headers: { apikey: DEMO_API_KEY, 'content-type': 'application/json' }, body: text }).then((res) => answer(res));
}

function form(parts: string[], boundary = 'pin-boundary'): string {
  return `${parts.map((part) => `--${boundary}\r\n${part}`).join('')}--${boundary}--\r\n`;
}

/** A multipart upload of a version written by hand (odd bytes a FormData would escape). */
async function rawUpload(body: string, contentType = 'multipart/form-data; boundary=pin-boundary'): Promise<Answer> {
  const { text } = await rawRequest(
    emu.baseUrl,
    `POST /api/v2/demo/va/game/versions?targetPlatformId=ios HTTP/1.1\r\nHost: emulator\r\napikey: ${DEMO_API_KEY}\r\nConnection: close\r\n` +
      `Content-Type: ${contentType}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
  return fromRaw(text);
}

function fromRaw(text: string): Answer {
  const raw = parseRaw(text);
  return { status: raw.status, body: raw.body, text, headers: new Headers() };
}

const field = (name: string, value: string) => `Content-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;

interface Pin {
  /** The request, in words. */
  request: string;
  send: () => Promise<Answer>;
  rejection: Rejection;
  status: number;
  kind: RejectionKind;
}

const PINS: Pin[] = [
  {
    request: 'POST /vc with a targetPlatform the domain lacks',
    send: () => client.createCollection('pin-platform', { targetPlatform: 'playstation' }),
    rejection: rejections.unknownCollectionPlatform('playstation', 'demo', ['generic', 'ios', 'android', 'web']),
    status: 400,
    kind: 'unknown-reference',
  },
  {
    // The schema refuses the state before the rules' collectionStateInvalid can: same status, same kind.
    request: 'POST /vc/{id}/deployments with state BOGUS',
    send: () => client.post('/vc/bag/deployments', { envId: 'dev', state: 'BOGUS', createdBy: DEMO_USER }),
    rejection: rejections.invalidFields(['state must be LIVE or OFFLINE (got "BOGUS")']),
    status: rejections.collectionStateInvalid('BOGUS').status,
    kind: rejections.collectionStateInvalid('BOGUS').kind,
  },
  {
    request: 'GET delivery /va/{id}/{platform}/{env}/default with no Default there',
    send: () => fetch(`${emu.deliveryUrl}/api/vi/demo/va/game/ios/dev/default`, { headers: { apikey: DEMO_API_KEY } }).then((res) => answer(res)),
    rejection: rejections.noDefaultVersion('game', 'ios', 'dev'),
    status: 404,
    kind: 'not-found',
  },
  {
    request: 'GET delivery of a domain the fixture lacks',
    send: () => fetch(`${emu.deliveryUrl}/api/vi/elsewhere/vc/bag/dev`).then((res) => answer(res)),
    rejection: rejections.deliveryDomainNotFound('elsewhere'),
    status: 404,
    kind: 'unknown-reference',
  },
  {
    request: 'PATCH /va (a path that takes GET and POST)',
    send: () => client.patch('/va', {}),
    rejection: rejections.methodNotAllowed('PATCH', '/api/v2/demo/va'),
    status: 405,
    kind: 'validation',
  },
  {
    request: 'PATCH /vc/{id} without updatedBy in a domain with no active admin or owner',
    send: () => noActor.client.patch('/vc/shelf', { description: 'x' }),
    rejection: rejections.noActingUserInDomain('quiet'),
    status: 400,
    kind: 'validation',
  },
  {
    request: 'POST /va with a body that is not JSON',
    send: () => json('POST', '/va', '{"assetId": '),
    rejection: rejections.jsonBodyInvalid(),
    status: 400,
    kind: 'validation',
  },
  {
    request: 'POST /va with a JSON array',
    send: () => json('POST', '/va', '[1, 2]'),
    rejection: rejections.jsonBodyNotObject(),
    status: 400,
    kind: 'validation',
  },
  {
    request: 'POST /va with 2 MB of JSON',
    send: () => json('POST', '/va', JSON.stringify({ assetId: 'big', assetName: 'x'.repeat(2 * 1024 * 1024) })),
    rejection: rejections.jsonBodyTooLarge(1024 * 1024),
    status: 400,
    kind: 'validation',
  },
  {
    request: 'POST /va with JSON nested 1000 deep',
    send: () => json('POST', '/va', `${'{"a":'.repeat(1000)}1${'}'.repeat(1000)}`),
    rejection: rejections.jsonBodyTooDeep(32),
    status: 400,
    kind: 'validation',
  },
  {
    request: 'GET /va?pageSize=0',
    send: () => client.get('/va?pageSize=0'),
    rejection: rejections.queryParamInvalid('pageSize', '0', 'an integer 1 or more'),
    status: 400,
    kind: 'validation',
  },
  {
    request: 'GET /va/{id}/version-count?active=maybe',
    send: () => client.get('/va/game/version-count?active=maybe'),
    rejection: rejections.queryParamInvalid('active', 'maybe', 'true or false'),
    status: 400,
    kind: 'validation',
  },
  {
    request: 'GET /vc/{id}/items?startDate=yesterday',
    send: () => client.get('/vc/bag/items?startDate=yesterday'),
    rejection: rejections.queryParamInvalid('startDate', 'yesterday', 'an ISO 8601 date or timestamp'),
    status: 400,
    kind: 'validation',
  },
  {
    request: 'GET /va?pageSize=%E0%A4%A (a malformed escape in the query)',
    send: () => client.get('/va?pageSize=%E0%A4%A'),
    rejection: rejections.percentEncodingInvalid('query parameter', 'pageSize=%E0%A4%A'),
    status: 400,
    kind: 'validation',
  },
  {
    request: 'GET /api/v2/%E0%A4%A/va (a malformed escape in the path)',
    send: () => fetch(`${emu.baseUrl}/api/v2/%E0%A4%A/va`, { headers: { apikey: DEMO_API_KEY } }).then((res) => answer(res)),
    rejection: rejections.percentEncodingInvalid('path segment', '%E0%A4%A'),
    status: 400,
    kind: 'validation',
  },
  {
    request: 'a version upload whose file name holds ESC',
    send: () => rawUpload(form([field('versionName', 'v'), field('createdBy', DEMO_USER), `Content-Disposition: form-data; name="assetFile"; filename="a\x1b[31m.zip"\r\n\r\nhi\r\n`])),
    rejection: rejections.multipartMalformed('Malformed part header'),
    status: 400,
    kind: 'validation',
  },
  {
    request: 'a version upload whose part header holds a NUL byte',
    send: () => rawUpload(form([field('versionName', 'v'), `Content-Disposition: form-data; name="assetFile"; filename="a\x00.zip"\r\n\r\nhi\r\n`])),
    rejection: rejections.multipartMalformed('Malformed part header'),
    status: 400,
    kind: 'validation',
  },
  {
    request: 'a version upload declared multipart without a boundary',
    send: () => rawUpload('hi', 'multipart/form-data'),
    rejection: rejections.multipartMalformed('Multipart: Boundary not found'),
    status: 400,
    kind: 'validation',
  },
  {
    request: 'a version upload without its file part',
    send: () => rawUpload(form([field('versionName', 'v'), field('createdBy', DEMO_USER)])),
    rejection: rejections.noFileUploaded(),
    status: 400,
    kind: 'validation',
  },
  {
    request: 'a request whose header value holds a control byte',
    send: async () => fromRaw((await rawRequest(emu.baseUrl, `GET /api/v2/demo/va HTTP/1.1\r\nHost: emulator\r\napikey: demo\x01key\r\n\r\n`)).text),
    rejection: rejections.requestMalformed('invalid header token'),
    status: 400,
    kind: 'validation',
  },
  {
    request: 'a request whose headers exceed what Node takes',
    send: async () => fromRaw((await rawRequest(emu.baseUrl, `GET /api/v2/demo/va HTTP/1.1\r\nHost: emulator\r\nx-big: ${'a'.repeat(20_000)}\r\n\r\n`)).text),
    rejection: rejections.requestHeadersTooLarge(),
    status: 431,
    kind: 'validation',
  },
  {
    request: 'a request whose headers stop halfway (headersTimeoutMs 200)',
    send: async () => fromRaw((await rawRequest(emu.baseUrl, `GET /api/v2/demo/va HTTP/1.1\r\nHost: emulator\r\napik`)).text),
    rejection: rejections.requestTimedOut(),
    status: 408,
    kind: 'validation',
  },
];

describe('status pins', () => {
  it.each(PINS.map((pin) => [pin.request, pin] as const))('%s', async (_request, pin) => {
    const res = await pin.send();
    expect({ status: res.status, title: res.body?.title }).toEqual({ status: pin.status, title: pin.rejection.title });
    expect(isProblem(res, pin.status)).toBe(true);
    expect({ status: pin.rejection.status, kind: pin.rejection.kind }).toEqual({ status: pin.status, kind: pin.kind });
  });
});
