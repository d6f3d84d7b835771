// Types of the undici modules src/http/undici.ts imports by path (undici
// publishes types for its index only).
declare module 'undici/lib/dispatcher/agent.js' {
  export { Agent as default } from 'undici';
}
declare module 'undici/lib/dispatcher/env-http-proxy-agent.js' {
  export { EnvHttpProxyAgent as default } from 'undici';
}
declare module 'undici/lib/dispatcher/dispatcher.js' {
  export { Dispatcher as default } from 'undici';
}
declare module 'undici/lib/api/index.js' {
  const api: Record<string, unknown>;
  export default api;
}
declare module 'undici/lib/core/connect.js' {
  export { buildConnector as default } from 'undici';
}
