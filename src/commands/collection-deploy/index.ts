import type { RegisterGroup } from '../lazy.js';

export const registerCollectionDeploy: RegisterGroup = (_program, _action) => {
  // not yet implemented
};
