// A missing profile NAME: picked from the stored profiles in a terminal, a
// usage error naming NAME elsewhere.
import type { Context } from '../../context.js';
import type { ProfileStore } from '../../config/profiles.js';
import { UsageError } from '../../errors.js';

export function pickProfile(ctx: Context, store: ProfileStore, given: string | undefined, message: string): Promise<string> {
  return ctx.need(given, {
    flag: 'NAME',
    message,
    choices: async () => {
      const names = store.names();
      if (names.length === 0) throw new UsageError('NAME is required: there are no profiles yet (add one with ahs profile add NAME)');
      const current = store.current();
      return names.map((n) => ({ name: n === current ? `${n}  (current)` : n, value: n }));
    },
  });
}
