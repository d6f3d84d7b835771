import type { RegisterGroup } from '../lazy.js';

export const registerCollection: RegisterGroup = (_program, _action) => {
  // not yet implemented
};
