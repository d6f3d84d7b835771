// What a handler works with: the request, the caller's domain and key, the
// domain's data, and the emulator (store, fixture, URLs).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApiKeyFixture, DomainFixture, Fixture } from './fixture.js';
import type { DomainState, Frozen } from './state.js';
import type { Store } from './store.js';
import type { Deployments } from './deployments.js';
import type { Variation } from './variation.js';

export interface Emulator {
  readonly fixture: Fixture;
  readonly store: Store;
  /** Where the API is served, e.g. http://127.0.0.1:PORT */
  baseUrl: string;
  /** Where the delivery network is served (the same server, unless a variation moves it). */
  deliveryUrl: string;
  /** Channels and collection environments with a deployment running. */
  readonly deployments: Deployments;
  /** The silent choices this emulator makes (emulator.md, "Variations"). */
  readonly variation: Variation;
  /** The service's clock minus the machine's (emulator.md, "A clock of its own"); the variation's at start, movable while it runs. */
  clock: { offsetMs: number };
  log(line: string): void;
}

export interface RequestContext {
  emu: Emulator;
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  query: URLSearchParams;
  domainId: string;
  domain: DomainFixture;
  /** The domain's data, read only: change it through `emu.store`. */
  data: Frozen<DomainState>;
  key: ApiKeyFixture;
}
