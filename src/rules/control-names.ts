// The names of change control's sentinel assets (src/rules/change-control.ts
// explains them), apart from its rules: `asset list`, `export` and the
// pickers mark or leave out the sentinels, and a read must not load zod,
// which the rules' schemas need (bench/README.md: a read's start-up).

export const CONTROL_ASSET = 'ahs-control';
export const LOCK_ASSET = 'ahs-control-lock';

/** Whether an asset is one of change control's sentinels (not content). */
export function isSentinelAsset(assetId: string): boolean {
  return assetId === CONTROL_ASSET || assetId === LOCK_ASSET || assetId.startsWith(`${LOCK_ASSET}-`);
}
