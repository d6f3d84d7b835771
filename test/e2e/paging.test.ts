// --all against an emulator that caps the page size at 20 (the maxPageSize
// variation): what ahs asks for, as the emulator's request log shows it,
// and a list whole, in order, each result once (cli.md "Reading the service").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from './helpers.js';

let h: Harness;
const requests: string[] = [];
const ASSETS = 45;
const ids = Array.from({ length: ASSETS }, (_, i) => `pa-${String(i).padStart(2, '0')}`);

beforeAll(async () => {
  h = await harness({ variation: { maxPageSize: 20 }, log: (line) => requests.push(line) });
  for (const id of ids) await h.createAsset(id);
});
afterAll(async () => {
  await h?.close();
});

/** pageNumber and pageSize of each GET of the asset list, in order of arrival. */
function listReads(): string[] {
  return requests
    .filter((line) => line.startsWith('GET /api/v2/demo/va?'))
    .map((line) => new URL(line.split(' ')[1]!, 'http://x').searchParams)
    .map((query) => `${query.get('pageNumber')}@${query.get('pageSize')}`);
}

describe('--all under a page cap of 20', () => {
  it('asks for 1000, learns 20 from the envelope, then reads pages 2 and 3 at 20: every asset once, in order', async () => {
    requests.length = 0;
    const run = await h.ahs(['asset', 'list', '--all', '--json']);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.json().results.map((a: { assetId: string }) => a.assetId)).toEqual(ids);
    expect(run.json()).toMatchObject({ totalResults: ASSETS, pageNumber: 1, pageSize: ASSETS });
    expect(listReads().sort()).toEqual(['1@1000', '2@20', '3@20']);
  });

  it('--page-size sets the first request; the others ask for the size the service reported', async () => {
    requests.length = 0;
    const run = await h.ahs(['asset', 'list', '--all', '--page-size', '8', '--json']);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.json().results.map((a: { assetId: string }) => a.assetId)).toEqual(ids);
    expect(listReads().sort()).toEqual(['1@8', '2@8', '3@8', '4@8', '5@8', '6@8']);
  });
});
