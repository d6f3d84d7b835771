// The emulator as a function: `startEmulator()` serves a spec-faithful Asset
// Hosting Service on a real socket (port 0 by default, for tests) and returns
// its URLs and a close(). `ahs emulator start` is a thin wrapper around it.
import { resolve } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import type { Emulator } from './context.js';
import { Deployments, type DeploymentHold } from './deployments.js';
import { loadFixture, type Fixture, type FixtureConfig } from './fixture.js';
import { createEmulatorServer, DEFAULT_LIMITS, type EmulatorServer, type RequestLimits } from './server.js';
import { DiskStore, MemoryStore, type Store } from './store.js';
import { resolveVariation, type Variation, type VariationConfig } from './variation.js';

export { DataDirError } from './store.js';
export { DEFAULT_LIMITS, type RequestLimits } from './server.js';
export { ALL_VARIATIONS, ALTERNATE_TITLES, DEFAULT_VARIATION, OTHER_VARIATIONS, type Variation, type VariationConfig } from './variation.js';
export type { DeploymentHold } from './deployments.js';
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
  /** Variations over the fixture's own `variation` (e.g. ALL_VARIATIONS). */
  variation?: VariationConfig;
  /** Persist metadata and files here; default memory plus a temporary folder. */
  dataDir?: string;
  /** One line per request and per unexpected error. */
  log?: (line: string) => void;
  /** Time limits of requests and of close() over DEFAULT_LIMITS (tests use short ones). */
  limits?: Partial<RequestLimits>;
}

export interface RunningEmulator {
  /** API base URL, e.g. http://127.0.0.1:PORT (paths /api/v2/...). */
  baseUrl: string;
  /** Delivery URL (paths /api/vi/...): the same server, or its own port and prefix with the `deliveryPrefix` variation. */
  deliveryUrl: string;
  fixture: Fixture;
  /** The silent choices in force. */
  variation: Variation;
  /**
   * From now on every version or collection deployment stays in progress
   * (a deploy to the same channel gets the 500) until the returned function
   * is called; `await hold.held()` waits until one is held. `matches`
   * narrows it to the deployments whose key (JSON of
   * `['channel', domain, asset, platform, env]` or of a collection's) it
   * accepts: the others go through.
   */
  holdDeployments(matches?: (key: string) => boolean): DeploymentHold;
  /**
   * Moves the service's clock (a test-only control): from now on every
   * createdAt, updatedAt and Date header is `offsetMs` from the machine's
   * clock. `advanceClock(ms)` moves it on by `ms`.
   */
  setClockOffset(offsetMs: number): void;
  advanceClock(ms: number): void;
  /** Stops accepting, lets in-flight requests finish (cut after `shutdownGraceMs`), flushes the store. */
  close(): Promise<void>;
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const fixture = await loadFixture(options.config);
  const variation = resolveVariation(fixture.variation, options.variation);
  const store: Store = options.dataDir ? await DiskStore.open(resolve(options.dataDir)) : await MemoryStore.create();
  const emu: Emulator = {
    fixture,
    store,
    variation,
    baseUrl: '',
    deliveryUrl: '',
    deployments: new Deployments(fixture.deployDelayMs),
    clock: { offsetMs: variation.clockOffsetMs },
    log: options.log ?? (() => undefined),
  };
  const host = options.host ?? '127.0.0.1';
  const limits: RequestLimits = { ...DEFAULT_LIMITS, ...options.limits };
  const prefix = variation.deliveryPrefix;
  const servers: EmulatorServer[] = [];
  try {
    if (prefix === undefined) {
      const both = createEmulatorServer(emu, { api: true, deliveryPrefix: '' }, limits);
      servers.push(both);
      emu.baseUrl = await listen(both.server, host, options.port ?? 0);
      emu.deliveryUrl = emu.baseUrl;
    } else {
      const api = createEmulatorServer(emu, { api: true }, limits);
      servers.push(api);
      emu.baseUrl = await listen(api.server, host, options.port ?? 0);
      const delivery = createEmulatorServer(emu, { api: false, deliveryPrefix: prefix }, limits);
      servers.push(delivery);
      emu.deliveryUrl = `${await listen(delivery.server, host, 0)}${prefix}`;
    }
  } catch (error) {
    await Promise.all(servers.map((server) => (server.server.listening ? server.close() : undefined)));
    await store.close();
    throw error;
  }
  let closed: Promise<void> | undefined;
  return {
    baseUrl: emu.baseUrl,
    deliveryUrl: emu.deliveryUrl,
    fixture,
    variation,
    holdDeployments: (matches) => emu.deployments.holdDeployments(matches),
    setClockOffset: (offsetMs) => {
      emu.clock.offsetMs = offsetMs;
    },
    advanceClock: (ms) => {
      emu.clock.offsetMs += ms;
    },
    close: () =>
      (closed ??= (async () => {
        try {
          await Promise.all(servers.map((server) => server.close()));
        } finally {
          await store.close();
        }
      })()),
  };
}

/** Listens and answers the server's base URL. */
async function listen(server: Server, host: string, port: number): Promise<string> {
  await new Promise<void>((resolveListen, rejectListen) => {
    server.once('error', rejectListen);
    server.listen(port, host, () => {
      server.off('error', rejectListen);
      resolveListen();
    });
  });
  const address = server.address() as AddressInfo;
  return `http://${urlHost(host, address)}:${address.port}`;
}

// A wildcard bind is reached through the loopback address.
function urlHost(host: string, address: AddressInfo): string {
  if (host === '0.0.0.0' || host === '') return '127.0.0.1';
  if (host === '::') return '[::1]';
  const actual = address.address;
  return actual.includes(':') ? `[${actual}]` : actual === host ? host : actual;
}
