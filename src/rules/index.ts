// The service's rules, pure: no I/O, no HTTP. Used by the CLI's --dry-run to
// predict an answer and by the emulator to give it.
export * from './decision.js';
export * from './rejections.js';
export * from './defaults.js';
export * from './version-deploy.js';
export * from './assets.js';
export * from './collections.js';
export * from './access.js';
