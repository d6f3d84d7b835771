import type { RegisterGroup } from '../lazy.js';

export const registerProfile: RegisterGroup = (_program, _action) => {
  // not yet implemented
};
