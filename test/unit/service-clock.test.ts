// Settling a lost answer compares the service's createdAt with when the
// command started, on the service's clock (its Date headers), so a machine
// whose clock is off by an hour still settles right.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/http/client.js';

const SKEW_MS = 3_600_000; // the service's clock is an hour ahead of this machine's
let url: string;
const server = createServer((_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json', date: new Date(Date.now() + SKEW_MS).toUTCString() }).end('{"ok":true}');
});
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

describe('ApiClient.madeSince', () => {
  it('reads the service\'s timestamps on its own clock, learnt from its Date header', async () => {
    const api = new ApiClient({ baseUrl: url, domainId: 'd', timeoutMs: 5000, retries: 0 });
    try {
      const started = Date.now();
      await api.get('/anything');
      const createdNow = new Date(Date.now() + SKEW_MS).toISOString(); // made by this command, on the service's clock
      const createdBefore = new Date(started + SKEW_MS - 120_000).toISOString(); // two minutes before the command
      expect(api.madeSince(createdNow, started)).toBe(true);
      expect(api.madeSince(createdBefore, started)).toBe(false);
      // Read naively on this machine's clock, the earlier one would pass for this command's.
      expect(Date.parse(createdBefore) >= started).toBe(true);
    } finally {
      await api.destroy();
    }
  });
});
