// The acting user (createdBy, deletedBy...): a setting, asked for in a terminal.
// A module of its own, without the pickers' schemas (pick-collection.ts):
// item sync asks for it before it loads zod (commands/item/sync.ts).
import type { Context } from '../io/context.js';

export async function actingUser(ctx: Context): Promise<string> {
  return ctx.setting('user', { message: 'Acting user e-mail (an admin or owner of the domain)' });
}
