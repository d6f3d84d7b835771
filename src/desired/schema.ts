// The desired-state file's schema lives in src/rules/desired.ts (below the
// operations: `ahs export` returns its types); the desired layer reads it here.
export * from '../rules/desired.js';
