import type { RegisterGroup } from '../lazy.js';

export const registerVersion: RegisterGroup = (_program, _action) => {
  // not yet implemented
};
