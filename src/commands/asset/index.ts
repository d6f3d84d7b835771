import type { RegisterGroup } from '../lazy.js';

export const registerAsset: RegisterGroup = (_program, _action) => {
  // not yet implemented
};
