import type { Invocation } from '../lazy.js';
import type { Context } from '../../context.js';

interface Options {
  active?: boolean;
  inactive?: boolean;
}

export async function run({ args, opts }: Invocation<Options>, ctx: Context): Promise<void> {
  const api = await ctx.api();
  const out = await ctx.output();
  const active = opts.active ? 'true' : opts.inactive ? 'false' : undefined;
  const answer = await api.get<{ counts: number }>(api.path('va', args[0]!, 'version-count'), { active });
  out.print(answer, (doc) => String(doc.counts));
}
