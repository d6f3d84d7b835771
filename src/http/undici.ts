// The parts of undici transport.ts uses, imported lazily through this
// module (a static re-export also gives esbuild's dynamic import() the named
// exports of this CommonJS package). Not undici's index: evaluating it (mock
// agents, fetch, WebSocket, cookies...) reads globalThis.Headers, which makes
// Node load its own bundled copy of undici as well, 10 to 25 ms of every
// upload's and fetch's start (issue 14). The index's one other step is the
// line below: Dispatcher's request(), stream()... methods.
import Agent from 'undici/lib/dispatcher/agent.js';
import EnvHttpProxyAgent from 'undici/lib/dispatcher/env-http-proxy-agent.js';
import Dispatcher from 'undici/lib/dispatcher/dispatcher.js';
import api from 'undici/lib/api/index.js';
import buildConnector from 'undici/lib/core/connect.js';

Object.assign(Dispatcher.prototype, api);

export { Agent, EnvHttpProxyAgent, buildConnector };
