// Answers are checked at their prompt (issue 13): a bad id is refused there,
// with the message its argument would get on the command line, and the prompt
// stays open until it is fixed; a trailing space (pasted ids and paths) is
// trimmed; a FILE must exist before the next question. Through a real pty,
// keys typed only once their prompt (or message) is on screen.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, hasScript, runInPty, uid, type Harness } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => {
  await h?.close();
});

const erase = (text: string) => '\x7f'.repeat(text.length);

describe('the same message on the command line and at the prompt', () => {
  it('a collection id with a space is refused before anything is asked or sent', async () => {
    const r = await h.ahs(['collection', 'create', 'bad id', '--name', 'N', '--allowed-types', '1001']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr.trim()).toBe('error: COLLECTION_ID may contain only letters, digits, _ and - (got "bad id")');
    const get = await h.ahs(['collection', 'get', 'bad id']);
    expect(get.exitCode).toBe(2);
    expect(get.stderr.trim()).toBe('error: COLLECTION_ID may contain only letters, digits, _ and - (got "bad id")');
  });
});

describe.skipIf(!hasScript)('in a terminal, each answer is checked at its prompt', () => {
  it('collection create: a bad id stays at the id prompt; a trailing space is trimmed', async () => {
    const id = uid('asked');
    const { code, screen } = await runInPty(
      h.env,
      ['collection', 'create'],
      [
        [/New collection id/, 'bad id\r'],
        // Refused at once, before the name is asked.
        [/COLLECTION_ID may contain only letters, digits, _ and - \(got "bad id"\)/, `${erase('bad id')}${id} \r`],
        [/Collection name/, 'Asked \r'],
        [/Allowed asset type codes/, ' , \r'],
        [/--allowed-types must name at least one asset type/, `${erase(' , ')}1001 \r`],
      ],
    );
    expect(screen).not.toMatch(/Collection name[\s\S]*COLLECTION_ID may contain/);
    expect(screen).toContain(`created collection ${id}`);
    expect(code).toBe(0);
    const created = await h.call('GET', `/vc/${id}`);
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ collectionId: id, collectionName: 'Asked', allowedAssetTypes: ['1001'] });
  });

  it('version upload: a missing file is refused at the FILE prompt; a trailing space is trimmed', async () => {
    const asset = uid('file');
    await h.createAsset(asset);
    const file = await h.file(`${asset}.zip`, 'bundle');
    const { code, screen } = await runInPty(
      h.env,
      ['version', 'upload', asset, '--name', 'v1', '--platform', 'ios'],
      [
        [/File to upload/, '/no/such.zip\r'],
        [/\/no\/such\.zip is not a file/, `${erase('/no/such.zip')}${file}  \r`],
      ],
    );
    expect(code).toBe(0);
    expect(screen).toMatch(/IOS1/);
    expect(await h.call('GET', `/va/${asset}/versions`)).toMatchObject({ status: 200, body: { totalResults: 1 } });
  });
});
