import type { RegisterGroup } from '../lazy.js';

export const registerItem: RegisterGroup = (_program, _action) => {
  // not yet implemented
};
