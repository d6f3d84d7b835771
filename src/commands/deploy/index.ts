import type { RegisterGroup } from '../lazy.js';

export const registerDeploy: RegisterGroup = (_program, _action) => {
  // not yet implemented
};
