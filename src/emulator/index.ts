// The emulator as a function: `startEmulator()` serves a spec-faithful Asset
// Hosting Service on a real socket (port 0 by default, for tests) and returns
// its URLs and a close(). `ahs emulator start` is a thin wrapper around it.
import { resolve } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Emulator } from './context.js';
import { loadFixture, type Fixture, type FixtureConfig } from './fixture.js';
import { createEmulatorServer } from './server.js';
import { DiskStore, MemoryStore, type Store } from './store.js';

export { DataDirError } from './store.js';

export {
  DEMO_API_KEY,
  DEMO_ASSET_TYPES,
  DEMO_DOMAIN,
  DEMO_ENVIRONMENTS,
  DEMO_FIXTURE,
  DEMO_PLATFORMS,
  DEMO_USER,
  FixtureError,
  loadFixture,
  parseFixture,
  type DomainFixture,
  type Fixture,
  type FixtureConfig,
} from './fixture.js';

export interface EmulatorOptions {
  /** Interface to bind; default 127.0.0.1. */
  host?: string;
  /** Port; default 0 (an ephemeral port). */
  port?: number;
  /** The fixture, or the path of its JSON file; default the built-in demo fixture. */
  config?: FixtureConfig | string;
  /** Persist metadata and files here; default memory plus a temporary folder. */
  dataDir?: string;
  /** One line per request and per unexpected error. */
  log?: (line: string) => void;
}

export interface RunningEmulator {
  /** API base URL, e.g. http://127.0.0.1:PORT (paths /api/v2/...). */
  baseUrl: string;
  /** Delivery URL (the same server; paths /api/vi/...). */
  deliveryUrl: string;
  fixture: Fixture;
  /** Stops accepting, lets in-flight requests finish, flushes the store. */
  close(): Promise<void>;
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const fixture = await loadFixture(options.config);
  const store: Store = options.dataDir ? await DiskStore.open(resolve(options.dataDir)) : await MemoryStore.create();
  const emu: Emulator = {
    fixture,
    store,
    baseUrl: '',
    deliveryUrl: '',
    midDeployment: new Set(),
    log: options.log ?? (() => undefined),
  };
  const { server, close } = createEmulatorServer(emu);
  const host = options.host ?? '127.0.0.1';
  try {
    await new Promise<void>((resolveListen, rejectListen) => {
      server.once('error', rejectListen);
      server.listen(options.port ?? 0, host, () => {
        server.off('error', rejectListen);
        resolveListen();
      });
    });
  } catch (error) {
    await store.close();
    throw error;
  }
  const address = server.address() as AddressInfo;
  emu.baseUrl = `http://${urlHost(host, address)}:${address.port}`;
  emu.deliveryUrl = emu.baseUrl;
  let closed: Promise<void> | undefined;
  return {
    baseUrl: emu.baseUrl,
    deliveryUrl: emu.deliveryUrl,
    fixture,
    close: () =>
      (closed ??= (async () => {
        try {
          await close();
        } finally {
          await store.close();
        }
      })()),
  };
}

// A wildcard bind is reached through the loopback address.
function urlHost(host: string, address: AddressInfo): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::') return '[::1]';
  const actual = address.address;
  return actual.includes(':') ? `[${actual}]` : actual === host ? host : actual;
}
