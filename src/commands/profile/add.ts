import type { Invocation } from '../legacy.js';
import type { Context } from '../../context.js';
import { validateProfileName, type Profile } from '../../config/profiles.js';
import { UsageError } from '../../errors.js';
import { readLine } from '../../io/stdin.js';
import { profileView, renderProfile } from './view.js';

interface Options {
  apiKeyStdin?: boolean;
  use?: boolean;
}

export async function run({ args, opts }: Invocation<Options>, ctx: Context): Promise<void> {
  const name = validateProfileName(await ctx.need(args[0], { flag: 'NAME', message: 'Profile name' }));
  const store = await ctx.profiles();
  const out = await ctx.output();
  const g = ctx.globals;
  const existing = store.get(name);
  const given: Profile = {
    baseUrl: g.baseUrl,
    deliveryUrl: g.deliveryUrl,
    domainId: g.domain,
    envId: g.env,
    platform: g.platform,
    user: g.user,
  };
  for (const [key, value] of Object.entries({ baseUrl: given.baseUrl, deliveryUrl: given.deliveryUrl })) {
    if (value !== undefined && !/^https?:\/\/[^\s]+$/i.test(value)) throw new UsageError(`--${key === 'baseUrl' ? 'base-url' : 'delivery-url'} must be an http(s) URL (got ${JSON.stringify(value)})`);
  }
  if (opts.apiKeyStdin) {
    if (ctx.io.inIsTTY && ctx.io.canPrompt) {
      given.apiKey = (await (await ctx.prompter()).secret('API key')).trim();
    } else {
      const line = (await readLine(ctx.io.in)).trim();
      if (!line) throw new UsageError('--api-key-stdin: stdin gave no key (empty line or end of input)');
      given.apiKey = line;
    }
  } else if (ctx.io.env.AHS_API_KEY?.trim()) {
    given.apiKey = ctx.io.env.AHS_API_KEY.trim();
  }
  const merged: Profile = { ...existing, ...Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)) };
  // In a terminal, ask for what a profile needs to be useful.
  if (ctx.io.canPrompt) {
    const p = await ctx.prompter();
    merged.baseUrl ??= await p.input('API base URL', { validate: (v) => (/^https?:\/\/\S+$/i.test(v) ? true : 'an http(s) URL') });
    merged.domainId ??= await p.input('Domain id');
    merged.user ??= await p.input('Acting user e-mail', { validate: (v) => (/^[^\s@]+@[^\s@]+$/.test(v) ? true : 'an e-mail address') });
    merged.apiKey ??= (await p.secret('API key')).trim();
  }
  const becameCurrent = await store.put(name, merged, opts.use);
  ctx.redactor.add(merged.apiKey);
  const current = store.current() === name;
  const view = profileView(name, merged, current);
  if (out.json) out.print(view);
  else {
    out.success(`${existing ? 'Updated' : 'Added'} profile ${name}${becameCurrent ? ' (now the current profile)' : ''}`);
    out.print(view, renderProfile);
  }
  if (!merged.apiKey) out.warn(`profile ${name} has no API key: add one with --api-key-stdin or set AHS_API_KEY`);
}
