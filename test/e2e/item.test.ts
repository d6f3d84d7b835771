// item upload dry-runs (predicted with src/rules, nothing sent) and limits.
import { PassThrough, Readable, Writable } from 'node:stream';
import { main } from '../../src/main.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, hasScript, runInPty, stubServer, type Harness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
  expect((await h.ahs(['collection', 'create', 'small', '--name', 'Small', '--allowed-types', '1001', '--max-assets', '1'])).exitCode).toBe(0);
});
afterAll(async () => {
  await h?.close();
});

describe('item upload --dry-run', () => {
  it('predicts each file in turn: the second one is over maxAssets; nothing is sent', async () => {
    const a = await h.file('a.zip', 'a');
    const b = await h.file('b.zip', 'b');
    const run = await h.ahs(['item', 'upload', 'small', a, b, '--type', '1001', '--dry-run', '--json']);
    expect(run.exitCode).toBe(1);
    const doc = run.json();
    expect(doc.dryRun).toBe(true);
    // One request per file: those before the last predicted are in `before`, with their own predictions.
    expect(doc.before.map((u: { request: { body: { assetItemName: string } }; predicted: { status: number } }) => [u.request.body.assetItemName, u.predicted.status])).toEqual([['a.zip', 201]]);
    expect(doc.request.body.assetItemName).toBe('b.zip');
    expect(doc.predicted.status).toBe(400);
    expect(doc.predicted.error.title).toMatch(/item limit/);
    expect((await h.ahs(['item', 'list', 'small', '--json'])).json().totalResults).toBe(0);
  });

  it('predicts a type the collection does not allow; 9999 (Other) is always allowed', async () => {
    const a = await h.file('c.zip', 'c');
    const bad = await h.ahs(['item', 'upload', 'small', a, '--type', '2002', '--dry-run', '--json']);
    expect(bad.exitCode).toBe(1);
    expect(bad.json().predicted.error.title).toMatch(/not allowed/);
    const other = await h.ahs(['item', 'upload', 'small', a, '--type', '9999', '--dry-run', '--json']);
    expect(other.exitCode).toBe(0);
    expect(other.json().predicted.status).toBe(201);
  });

  it('a missing collection is exit 4, in the dry-run and for real', async () => {
    const a = await h.file('d.zip', 'd');
    expect((await h.ahs(['item', 'upload', 'nope', a, '--type', '1001', '--dry-run'])).exitCode).toBe(4);
    const real = await h.ahs(['item', 'upload', 'nope', a, '--type', '1001', '--json']);
    expect(real.exitCode).toBe(4);
    expect(real.json().failed[0].error.status).toBe(400);
  });

  it('without --type and without a terminal: usage error naming --type', async () => {
    const a = await h.file('e.zip', 'e');
    const run = await h.ahs(['item', 'upload', 'small', a]);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toMatch(/--type/);
  });
});

describe('dry-run == real run', () => {
  it('item remove from a soft-deleted collection: the service\'s 400, exit 1 in both (not "not found")', async () => {
    expect((await h.ahs(['collection', 'create', 'gone-soon', '--name', 'Gone soon', '--allowed-types', '1001'])).exitCode).toBe(0);
    const up = await h.ahs(['item', 'upload', 'gone-soon', await h.file('g.zip', 'g'), '--type', '1001', '--json']);
    const itemId = up.json().uploaded[0].assetItemId as string;
    expect((await h.ahs(['collection', 'delete', 'gone-soon', '--yes'])).exitCode).toBe(0);
    const dry = await h.ahs(['item', 'remove', 'gone-soon', itemId, '--dry-run', '--json']);
    expect(dry.json().predicted.status).toBe(400);
    expect(dry.exitCode).toBe(1);
    const real = await h.ahs(['item', 'remove', 'gone-soon', itemId, '--yes', '--json']);
    expect(real.errJson()).toMatchObject({ status: 400, title: dry.json().predicted.error.title });
    expect(real.exitCode).toBe(1);
    // A collection that does not exist still is exit 4.
    expect((await h.ahs(['item', 'remove', 'no-such', itemId, '--yes'])).exitCode).toBe(4);
  });

  it('collection update --anchor naming an item not in the collection: predicted 400 as the service answers', async () => {
    expect((await h.ahs(['collection', 'create', 'anchored', '--name', 'Anchored', '--allowed-types', '1001'])).exitCode).toBe(0);
    const up = await h.ahs(['item', 'upload', 'anchored', await h.file('h.zip', 'h'), '--type', '1001', '--json']);
    const itemId = up.json().uploaded[0].assetItemId as string;
    const dry = await h.ahs(['collection', 'update', 'anchored', '--anchor', 'item-nope', '--dry-run', '--json']);
    const real = await h.ahs(['collection', 'update', 'anchored', '--anchor', 'item-nope', '--json']);
    expect(real.errJson().status).toBe(400);
    expect(dry.json().predicted).toMatchObject({ status: 400, error: { title: real.errJson().title } });
    expect(dry.exitCode).toBe(real.exitCode);
    // A member is fine.
    expect((await h.ahs(['collection', 'update', 'anchored', '--anchor', itemId, '--dry-run', '--json'])).json().predicted.status).toBe(200);
  });
});

describe('item upload progress', () => {
  it('in CI: plain periodic lines on stderr naming the files in flight and the total, a line per finished file; stdout is the JSON alone', async () => {
    expect((await h.ahs(['collection', 'create', 'progress', '--name', 'Progress', '--allowed-types', '1001'])).exitCode).toBe(0);
    // The service holds the uploads' answers until a periodic line has named both files in flight: no sleep, no timing window.
    let sawLine!: () => void;
    const lineSeen = new Promise<void>((resolve) => (sawLine = resolve));
    const slow = await stubServer(async (req) => {
      if (req.method === 'POST' && /\/items$/.test(req.url ?? '')) await lineSeen;
      return false;
    }, h.emu.baseUrl);
    let stderr = '';
    const err = new Writable({
      write(chunk: Buffer, _encoding, done) {
        stderr += chunk.toString('utf8');
        if (/in flight: p1\.zip 100%, p2\.zip 100%/.test(stderr)) sawLine();
        done();
      },
    });
    try {
      const a = await h.file('p1.zip', 'a'.repeat(3000));
      const b = await h.file('p2.zip', 'b'.repeat(5000));
      const out = new PassThrough();
      let stdout = '';
      out.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
      const env = { ...h.env, AHS_BASE_URL: slow.url, AHS_PROGRESS_INTERVAL: '0.02' };
      const io = { out, err, in: Readable.from([]), outIsTTY: false, errIsTTY: false, inIsTTY: false, color: false, errColor: false, canPrompt: false, ci: true, env };
      const exitCode = await main(['item', 'upload', 'progress', a, b, '--type', '1001', '--json'], { io });
      expect(exitCode).toBe(0);
      expect(JSON.parse(stdout).uploaded).toHaveLength(2);
      expect(stderr).toMatch(/^uploading 2 files: 100% \(8\.0 KB \/ 8\.0 KB, .*\/s\), 0\/2 files done; in flight: p1\.zip 100%, p2\.zip 100%$/m);
      expect(stderr).toMatch(/^✓ .*p1\.zip → item-/m);
      expect(stderr).toMatch(/^✓ .*p2\.zip → item-/m);
      expect(stderr).not.toContain('\x1b');
    } finally {
      await slow.close();
    }
  });
});

describe('what the service refuses about a collection that exists is exit 1, with its message', () => {
  it('collection create with an unknown asset type: 400, exit 1 (not "not found")', async () => {
    const run = await h.ahs(['collection', 'create', 'c1', '--name', 'C1', '--allowed-types', '4242']);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toMatch(/^error: allowedAssetTypes: asset type 4242 not found in domain demo.* \(HTTP 400\)$/m);
  });

  it('collection-deploy to an unknown environment: 400, exit 1', async () => {
    expect((await h.ahs(['collection', 'create', 'envs', '--name', 'Envs', '--allowed-types', '1001'])).exitCode).toBe(0);
    expect((await h.ahs(['item', 'upload', 'envs', await h.file('envs.zip', 'e'), '--type', '1001'])).exitCode).toBe(0);
    const run = await h.ahs(['collection-deploy', 'envs', '--env', 'nosuch', '--json']);
    expect(run.exitCode).toBe(1);
    expect(run.errJson()).toMatchObject({ status: 400, title: expect.stringMatching(/^Environment nosuch not found/) });
  });
});

describe('item upload: a partial failure ends with one summary line', () => {
  it('text: "N of M uploaded; failed: FILE (HTTP 400: ...)", no warnings; json: the first failure\'s body alone as the error', async () => {
    // The service refuses the second upload (the rules could not tell: another writer filled the collection).
    const title = 'Collection partial has reached its item limit (maxAssets 1); raise maxAssets or remove items first';
    let posts = 0;
    const stub = await stubServer((req, res) => {
      if (req.method !== 'POST' || !/\/items$/.test(req.url ?? '') || ++posts % 2 === 1) return false;
      res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ type: 'https://errors.asset-hosting.example/problem', title, status: 400, detail: title }));
      return true;
    }, h.emu.baseUrl);
    try {
      for (const id of ['partial', 'partial-json']) expect((await h.ahs(['collection', 'create', id, '--name', id, '--allowed-types', '1001'])).exitCode).toBe(0);
      const a = await h.file('ok.zip', 'a');
      const over = await h.file('over.zip', 'b');
      const env = { AHS_BASE_URL: stub.url };
      const text = await h.ahs(['item', 'upload', 'partial', a, over, '--type', '1001', '--concurrency', '1'], { env });
      expect(text.exitCode).toBe(1);
      expect(text.stderr).not.toMatch(/warning:/);
      const errors = text.stderr.split('\n').filter((line) => line.startsWith('error:'));
      expect(errors).toEqual([`error: 1 of 2 uploaded; failed: ${over} (HTTP 400: ${title})`]);
      const json = await h.ahs(['item', 'upload', 'partial-json', a, over, '--type', '1001', '--concurrency', '1', '--json'], { env });
      expect(json.exitCode).toBe(1);
      expect(json.stderr).not.toMatch(/warning:|error:/);
      expect(json.errJson()).toEqual(json.json().failed[0].error);
    } finally {
      await stub.close();
    }
  });

  it('more files than the collection has room for: refused before anything is sent, naming the room left', async () => {
    expect((await h.ahs(['collection', 'create', 'roomy', '--name', 'roomy', '--allowed-types', '1001', '--max-assets', '2'])).exitCode).toBe(0);
    const files = [await h.file('r1.zip', '1'), await h.file('r2.zip', '2'), await h.file('r3.zip', '3')];
    const run = await h.ahs(['item', 'upload', 'roomy', ...files, '--type', '1001']);
    expect(run.exitCode).toBe(1);
    expect(run.stderr).toMatch(/^error: nothing was sent: the service would answer 400: .*roomy has room for 2 more item\(s\) \(maxAssets 2\) and 3 file\(s\) were given/m);
    expect((await h.ahs(['item', 'list', 'roomy', '--json'])).json().totalResults).toBe(0);
  });
});

describe.skipIf(!hasScript)('in a terminal, what is missing is asked for', () => {
  it('item upload without FILE asks for the files', async () => {
    const a = await h.file('asked-1.zip', 'a');
    const b = await h.file('asked-2.zip', 'b');
    expect((await h.ahs(['collection', 'create', 'asked', '--name', 'Asked', '--allowed-types', '1001'])).exitCode).toBe(0);
    const { code, screen } = await runInPty(h.env, ['item', 'upload', 'asked', '--type', '1001'], [[/Files to upload/, `${a} /no/such.zip\r`], [/\/no\/such\.zip is not a file/, `${'\x7f'.repeat(' /no/such.zip'.length)} ${b}\r`]]);
    expect(code).toBe(0);
    expect(screen).toMatch(/uploaded 2 file\(s\) to asked/);
    expect((await h.ahs(['item', 'list', 'asked', '--json'])).json().totalResults).toBe(2);
  });

  it('collection-deploy without an environment asks for it (a domain-wide key must name one)', async () => {
    expect((await h.ahs(['collection', 'create', 'ask-env', '--name', 'Ask env', '--allowed-types', '1001'])).exitCode).toBe(0);
    expect((await h.ahs(['item', 'upload', 'ask-env', await h.file('ask-env.zip', 'e'), '--type', '1001'])).exitCode).toBe(0);
    const { code, screen } = await runInPty(h.env, ['collection-deploy', 'ask-env'], [[/Environment to deploy to/, 'staging\r']], { unset: ['AHS_ENV'] });
    expect(code).toBe(0);
    expect(screen).toMatch(/collection ask-env is LIVE in staging/);
  });
});

describe('item upload of a name already in the collection', () => {
  it('warns that it adds a second item of that name, and points to item sync', async () => {
    expect((await h.ahs(['collection', 'create', 'twice', '--name', 'Twice', '--allowed-types', '1001'])).exitCode).toBe(0);
    const file = await h.file('config.zip', 'one');
    const first = await h.ahs(['item', 'upload', 'twice', file, '--type', '1001']);
    expect(first.exitCode).toBe(0);
    expect(first.stderr).not.toContain('warning');
    const again = await h.ahs(['item', 'upload', 'twice', file, '--type', '1001']);
    expect(again.exitCode).toBe(0);
    expect(again.stderr).toMatch(/warning: twice already has an item named config\.zip \(item-\d+\): this upload adds another of the same name; to replace instead, use ahs item sync twice DIR/);
  });
});
