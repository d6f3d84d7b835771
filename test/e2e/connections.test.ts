// How many TCP connections a command opens: one pool per host, at most the
// concurrency in connections (issue 21). A counting TCP relay stands in front
// of the emulator (API and delivery on one port) and counts the connections
// it accepts during the run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { harness, type Harness } from './helpers.js';

let h: Harness;
let relay: { url: string; accepted: () => number; mostAtOnce: () => number; close: () => Promise<void> };
const id = 'many-small';
const ITEMS = 40;

/** Forwards every connection to `target`, counting them. */
async function countingRelay(target: string): Promise<typeof relay> {
  const { hostname, port } = new URL(target);
  let accepted = 0;
  let atOnce = 0;
  let mostAtOnce = 0;
  const open = new Set<Socket>();
  const server: Server = createServer((socket) => {
    accepted++;
    mostAtOnce = Math.max(mostAtOnce, ++atOnce);
    socket.once('close', () => atOnce--);
    const upstream = connect(Number(port), hostname);
    for (const end of [socket, upstream]) {
      open.add(end);
      end.on('error', () => {}).on('close', () => open.delete(end));
    }
    socket.pipe(upstream).pipe(socket);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    accepted: () => accepted,
    mostAtOnce: () => mostAtOnce,
    close: async () => {
      for (const socket of open) socket.destroy();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}

beforeAll(async () => {
  h = await harness();
  const files = await Promise.all(Array.from({ length: ITEMS }, (_, index) => h.file(`small-${index}.txt`, `file ${index}\n`)));
  expect((await h.ahs(['collection', 'create', id, '--name', 'Many small', '--allowed-types', '1001', '--max-assets', '100'])).exitCode).toBe(0);
  expect((await h.ahs(['item', 'upload', id, ...files, '--type', '1001'])).exitCode).toBe(0);
  expect((await h.ahs(['collection-deploy', id, '--env', 'dev'])).exitCode).toBe(0);
  relay = await countingRelay(h.emu.baseUrl);
});
afterAll(async () => {
  await relay?.close();
  await h?.close();
});

describe('connections', () => {
  it(`fetch of ${ITEMS} small items with --concurrency 8 opens at most 9 connections (8 downloads, 1 for the delivery document)`, async () => {
    const dir = join(h.dir, 'out');
    // By the delivery document's URL (the collection's own downloadUrl names the emulator's port, not the relay's).
    const url = `${relay.url}/api/vi/demo/vc/${id}/dev`;
    const run = await h.ahs(['fetch', '--url', url, '--dir', dir, '--concurrency', '8'], { env: { AHS_BASE_URL: relay.url, AHS_DELIVERY_URL: relay.url } });
    expect(run.stderr).toMatch(new RegExp(`${ITEMS} downloaded, 0 skipped, 0 failed`));
    expect(run.exitCode).toBe(0);
    expect(await readdir(dir)).toHaveLength(ITEMS);
    expect(relay.accepted()).toBeLessThanOrEqual(9);
  });

  it(`item sync of ${ITEMS} new small files (8 in flight): a connection of its own for each upload (a write never goes on a kept-alive one), 2 for the reads sent at once before them; at most 8 uploads' open at once, and 8 opened ahead`, async () => {
    const target = 'many-synced';
    expect((await h.ahs(['collection', 'create', target, '--name', 'Many synced', '--allowed-types', '1001', '--max-assets', '100'])).exitCode).toBe(0);
    const before = relay.accepted();
    const run = await h.ahs(['item', 'sync', target, h.dir, '--type', '1001', '--pattern', 'small-*', '--json'], { env: { AHS_BASE_URL: relay.url } });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.json().uploaded).toHaveLength(ITEMS);
    // Reads and writes go through two pools (src/http/transport.ts): reads' connections kept alive, each write on its own.
    // (The reads' pool may open a third beside its two when a read is sent as another's answer frees one.)
    expect(relay.accepted() - before).toBeLessThanOrEqual(ITEMS + 4);
    expect(relay.mostAtOnce()).toBeLessThanOrEqual(2 + 8 + 8);
  });
});
