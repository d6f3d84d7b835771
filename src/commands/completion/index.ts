import type { RegisterGroup } from '../lazy.js';

export const registerCompletion: RegisterGroup = (_program, _action) => {
  // not yet implemented
};
