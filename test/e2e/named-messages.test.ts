// Messages that name the right thing (issue 48): each as a person or a script
// meets it, with the exit code of cli.md's table and the exact line.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer } from 'node:net';
import { harness, uid, DEMO_API_KEY, DEMO_USER, type Harness } from './helpers.js';
import { createClient } from '../../src/library/index.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h?.close());

/** A port where nothing listens: bound, then closed again. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('messages that name what is wrong', () => {
  it('rollout of a missing asset names the asset (exit 4)', async () => {
    const id = uid('nope');
    const r = await h.ahs(['rollout', id, 'WEB1', '--platform', 'web', '--waves', 'dev,prod']);
    expect(r.exitCode).toBe(4);
    expect(r.stderr).toBe(`error: asset ${id} not found`);
  });

  it('apply of a file that is not a plan says so before asking for --yes (exit 2)', async () => {
    const path = await h.file('garbage.plan', 'garbage\n');
    const r = await h.ahs(['apply', path]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe(`error: ${path} is not a saved plan: not JSON (Unexpected token 'g', "garbage\\n" is not valid JSON); write one with ahs plan --out ${path}`);
  });

  it('a release conflict states both sizes in one unit (exit 5)', async () => {
    const id = uid('conf');
    await h.createAsset(id);
    const first = await h.ahs(['release', id, await h.file('app-3.zip', Buffer.alloc(30_000, 3)), '--platform', 'ios', '--env', 'prod', '--name', '3.0']);
    expect(first.exitCode, first.stderr).toBe(0);
    const r = await h.ahs(['release', id, await h.file('app-4.zip', Buffer.alloc(40_000, 4)), '--platform', 'ios', '--env', 'prod', '--name', '3.0']);
    expect(r.exitCode).toBe(5);
    expect(r.stderr).toBe(`error: ios version IOS1 of ${id} is already named 3.0, with app-3.zip of 30.0 KB, not app-4.zip of 40.0 KB; nothing was written: release under another --name`);
  });

  it('too many arguments name the command\'s own and the word left over, on one line (exit 2)', async () => {
    const r = await h.ahs(['item', 'remove', 'pack', 'item-1', 'item-2']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe("error: ahs item remove takes COLLECTION_ID ITEM_ID: 'item-2' is one argument too many; run with --help for usage");
    const json = await h.ahs(['item', 'remove', 'pack', 'item-1', 'item-2', '--json']);
    expect(json.errJson()).toMatchObject({ type: 'urn:ahs:usage', title: "ahs item remove takes COLLECTION_ID ITEM_ID: 'item-2' is one argument too many" });
  });

  it('emulator env for a port where nothing listens prints the settings and says so', async () => {
    const port = await closedPort();
    const r = await h.ahs(['emulator', 'env', '--port', String(port)]);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe(`export AHS_BASE_URL=http://127.0.0.1:${port} AHS_DELIVERY_URL=http://127.0.0.1:${port} AHS_DOMAIN=demo AHS_API_KEY=demo-key AHS_USER=owner@demo.test`);
    expect(r.stderr).toBe(`warning: nothing listens on 127.0.0.1:${port} (connection refused): start the emulator there with ahs emulator start --port ${port}`);
    const live = await h.ahs(['emulator', 'env', '--port', new URL(h.emu.baseUrl).port]);
    expect(live.stderr).toBe('');
  });

  it('a 0-byte version upload is warned of before it is sent', async () => {
    const id = uid('empty');
    await h.createAsset(id);
    const path = await h.file('empty.zip', '');
    const r = await h.ahs(['version', 'upload', id, path, '--platform', 'ios', '--name', '0']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr.split('\n')[0]).toBe(`warning: ${path} is empty (0 bytes): a version cannot be replaced once uploaded (check the step that built it; ahs version delete removes one deployed nowhere)`);
  });
});

describe('ahs help globals and the behaviour agree', () => {
  it('says a setting flag with no use is refused, and lists the settings each command uses; asset list --env is refused as it says', async () => {
    const help = await h.ahs(['help', 'globals']);
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toContain('one that a command has no use for is refused (exit 2, naming it)');
    expect(help.stdout).toMatch(/^ {2}asset list +--profile, --base-url, --domain$/m);
    expect(help.stdout).toMatch(/^ {2}deploy +.*--platform, --env/m);
    const refused = await h.ahs(['asset', 'list', '--env', 'prod']);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('--env');
  });
});

describe('the library speaks its own words', () => {
  it('a service that cannot be reached names the client\'s baseUrl, not a CLI flag', async () => {
    const port = await closedPort();
    const client = createClient({ baseUrl: `http://127.0.0.1:${port}`, domainId: 'demo', apiKey: DEMO_API_KEY, user: DEMO_USER, retries: 0 });
    try {
      const error = (await client.assets.get('anything').catch((caught: unknown) => caught)) as Error;
      expect(error.name).toBe('NetworkError');
      expect(error.message).toBe(`could not reach http://127.0.0.1:${port}: connection refused (ECONNREFUSED); check the address (the client's baseUrl, deliveryUrl for downloads) and that the service is up`);
    } finally {
      await client.close();
    }
  });
});
