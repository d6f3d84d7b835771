import type { RegisterGroup } from '../lazy.js';

export const registerEmulator: RegisterGroup = (_program, _action) => {
  // not yet implemented
};
