// Confirmations that tell the whole story (issue 24): a collection delete
// the service would refuse (LIVE somewhere) is refused before any question,
// with the commands that free it, as version delete does; the question of an
// item remove says when the collection is LIVE. Terminal runs go through a
// pty; keys are typed once their prompt is on screen.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, hasScript, runInPty, uid, type Harness, type PtyStep } from './helpers.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
afterAll(async () => h?.close());

/** A collection with one item, LIVE in dev; its id and the item's. */
async function liveCollection(): Promise<{ id: string; item: string }> {
  const id = uid('conf');
  expect((await h.ahs(['collection', 'create', id, '--name', 'n', '--allowed-types', '9999'])).exitCode).toBe(0);
  const up = await h.ahs(['item', 'upload', id, await h.file(`${id}.json`, '{}'), '--type', '9999', '--json']);
  expect(up.exitCode, up.stderr).toBe(0);
  expect((await h.ahs(['collection-deploy', id, '--env', 'dev'])).exitCode).toBe(0);
  return { id, item: up.json().uploaded[0].assetItemId };
}

function inPty(args: string[], steps: PtyStep[]) {
  return runInPty({ ...h.env, COLUMNS: '100' }, args, steps);
}

describe('collection delete of a LIVE collection', () => {
  it('with --yes: refused before sending, naming the command that takes it OFFLINE (exit 1)', async () => {
    const { id } = await liveCollection();
    const r = await h.ahs(['collection', 'delete', id, '--yes']);
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain('nothing was sent');
    expect(r.stderr).toContain(`first ahs collection-deploy ${id} --state OFFLINE --env dev`);
    expect((await h.call('GET', `/vc/${id}`)).body.deleted).toBe(false);
  });

  it.skipIf(!hasScript)('in a terminal: no question is asked, the refusal comes first', async () => {
    const { id } = await liveCollection();
    const { code, screen } = await inPty(['collection', 'delete', id], []);
    expect(code).toBe(1);
    expect(screen).not.toContain('Delete collection');
    expect(screen).toContain(`ahs collection-deploy ${id} --state OFFLINE --env dev`);
    expect((await h.call('GET', `/vc/${id}`)).body.deleted).toBe(false);
  });
});

describe.skipIf(!hasScript)('item remove in a terminal', () => {
  it('the question names the item and says the collection is LIVE; declined, nothing is removed (exit 2)', async () => {
    const { id, item } = await liveCollection();
    const { code, screen } = await inPty(['item', 'remove', id, item], [[/gone for good/, 'n\r']]);
    expect(code).toBe(2);
    // By name, as a person knows it, with its id.
    expect(screen.replace(/\s+/g, ' ')).toContain(`Remove item ${id}.json (${item}) from ${id}?`);
    // The prompt wraps at the terminal's width.
    expect(screen.replace(/\s+/g, ' ')).toContain(`${id} is LIVE in dev: the item leaves its delivery there at once`);
    expect((await h.call('GET', `/vc/${id}/items/${item}`)).status).toBe(200);
  });
});
