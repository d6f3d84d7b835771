import type { RegisterGroup } from '../lazy.js';

export const registerFetch: RegisterGroup = (_program, _action) => {
  // not yet implemented
};
