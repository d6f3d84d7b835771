// What transport.ts loads of undici, imported lazily through this module:
// esbuild gives a dynamic import() of a CommonJS package (undici) its named
// exports only through a static re-export like this one.
export { Agent, EnvHttpProxyAgent, request } from 'undici';
