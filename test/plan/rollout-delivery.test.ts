// A rollout against a service whose download URLs are relative to a delivery
// network on a host of its own (the emulator's OTHER_VARIATIONS: relative
// download URLs, the delivery network on its own port under a prefix): the
// served bytes are verified, and the check given the URL, on the delivery
// URL set, as `ahs verify` reads them; not on the API's host.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_USER, uid, type Harness } from '../e2e/helpers.js';
import { runContexts } from '../support/run-contexts.js';
import { OTHER_VARIATIONS } from '../../src/emulator/index.js';
import { startRollout } from '../../src/operations/rollout.js';

const runs = runContexts('rollout-delivery', { variation: OTHER_VARIATIONS });
let h: Harness;
beforeAll(() => {
  h = runs.h;
});

describe('rollout start over a delivery network of its own', () => {
  it('each wave promoted and verified on the delivery URL; the check gets the URL there', async () => {
    const id = uid('rd');
    await h.createAsset(id);
    const v1 = await h.uploadVersion(id, 'web', '1.0');
    expect(h.emu.deliveryUrl).not.toBe(h.emu.baseUrl);
    const log = join(h.dir, `${id}.urls`);
    const ctx = await runs.context({ AHS_JOURNAL: '' }, {}, { command: 'rollout start', arguments: [] });
    const r = await startRollout(ctx, { assetId: id, versionId: v1, platform: 'web', waves: ['dev', 'staging'], check: `echo "$AHS_ROLLOUT_PHASE $AHS_ROLLOUT_URL" >> ${log}`, user: DEMO_USER });
    expect(r.stop, ctx.io.err.text).toBeUndefined();
    expect(r.document.promoted).toEqual(['dev', 'staging']);
    expect(ctx.io.err.text).toMatch(/^staging serves WEB\d+ byte for byte \(\d+ bytes, SHA-256 [0-9a-f]{12}…, as dev\)$/m);
    const urls = readFileSync(log, 'utf8').trim().split('\n');
    expect(urls).toHaveLength(4);
    for (const line of urls) expect(line).toMatch(new RegExp(`^(before|after) ${h.emu.deliveryUrl.replace(/[.]/g, '\\.')}/api/vi/demo/va/${id}/web/(dev|staging)/${v1}/`));
    expect((await h.records(id)).filter((r) => r.endsWith('=DEFAULT'))).toEqual([`web/dev/${v1}=DEFAULT`, `web/staging/${v1}=DEFAULT`]);
  });
});
