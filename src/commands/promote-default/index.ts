import type { RegisterGroup } from '../lazy.js';

export const registerPromoteDefault: RegisterGroup = (_program, _action) => {
  // not yet implemented
};
