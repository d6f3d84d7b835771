// ahs profile add NAME [--base-url] [--delivery-url] [--domain] [--env] [--platform] [--user] [--api-key-stdin] [--use]
// A local write to the config file (no service request, so no Plan).
import type { Run } from '../define.js';
import { nameOf } from '../define.js';
import { addSpec } from './index.js';
import type { Context } from '../../context.js';
import { validateProfileName, type Profile } from '../../config/profiles.js';
import { UsageError } from '../../errors.js';
import { readLine } from '../../io/stdin.js';
import { profileView, renderProfile } from './view.js';
import { DEFAULT_JOURNAL_ID } from '../../service/journal.js';

const HTTP_URL = /^https?:\/\/\S+$/i;

export const run: Run<typeof addSpec> = async (options, ctx) => {
  const name = validateProfileName(await ctx.need(options.name, { flag: nameOf(addSpec, 'name'), message: 'Profile name' }));
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
    journal: typeof g.journal === 'string' ? g.journal : undefined,
  };
  for (const [flag, value] of [['--base-url', given.baseUrl], ['--delivery-url', given.deliveryUrl]] as const) {
    if (value !== undefined && !HTTP_URL.test(value)) throw new UsageError(`${flag} must be an http(s) URL (got ${JSON.stringify(value)})`);
  }
  // Where the key came from, said when it replaces a stored one (a prompt fills it below when none came).
  let keyFrom = 'the prompt';
  if (options.apiKeyStdin) {
    given.apiKey = await keyFromStdin(ctx);
    keyFrom = 'stdin';
  } else if (ctx.io.env.AHS_API_KEY?.trim()) {
    given.apiKey = ctx.io.env.AHS_API_KEY.trim();
    keyFrom = 'AHS_API_KEY';
  }
  const merged: Profile = { ...existing, ...Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)) };
  if (ctx.io.canPrompt) await askWhatIsMissing(ctx, merged);
  const becameCurrent = await store.put(name, merged, options.use);
  ctx.redactor.add(merged.apiKey);
  const view = profileView(name, merged, store.current() === name);
  if (out.json) out.print(view);
  else {
    out.success(`${existing ? 'Updated' : 'Added'} profile ${name}${existing ? changesSaid(existing, merged, keyFrom) : ''}${becameCurrent ? ' (now the current profile)' : ''}`);
    out.print(view, renderProfile);
  }
  if (!out.json) {
    out.info(
      merged.journal
        ? `journal: ${merged.journal} (the profile's key journal; whether it is reachable: ahs profile check ${name})`
        : `journal: no journal setting, so the domain's ${DEFAULT_JOURNAL_ID} when it exists and is marked as a journal (whether it does: ahs profile check ${name}; start it with ahs journal init --env ENV)`,
    );
  }
  if (!merged.apiKey) out.warn(`profile ${name} has no API key: add one with --api-key-stdin or set AHS_API_KEY`);
};

const LABELS: Array<[keyof Profile, string]> = [
  ['baseUrl', 'base URL'],
  ['deliveryUrl', 'delivery URL'],
  ['domainId', 'domain'],
  ['envId', 'environment'],
  ['platform', 'platform'],
  ['user', 'user'],
  ['journal', 'journal'],
];

/**
 * What an update changed, said (the key never shown): an AHS_API_KEY left
 * exported from another domain replaces the stored key, which the user
 * must see (`: domain demo → acme, API key replaced (from AHS_API_KEY)`).
 */
function changesSaid(before: Profile, after: Profile, keyFrom: string): string {
  const said = LABELS.filter(([key]) => before[key] !== after[key]).map(([key, label]) => `${label} ${before[key] ?? '(none)'} → ${after[key] ?? '(none)'}`);
  if (before.apiKey !== after.apiKey) said.push(`API key ${before.apiKey ? 'replaced' : 'set'} (from ${keyFrom})`);
  return said.length > 0 ? `: ${said.join(', ')}` : ': nothing changed';
}

/** One line of stdin, trimmed (a masked prompt in a terminal); refused when empty or holding control characters. */
async function keyFromStdin(ctx: Context): Promise<string> {
  const flag = nameOf(addSpec, 'apiKeyStdin');
  const key =
    ctx.io.inIsTTY && ctx.io.canPrompt ? (await (await ctx.prompter()).secret('API key')).trim() : (await readLine(ctx.io.in)).trim();
  if (!key) throw new UsageError(`${flag}: stdin gave no key (empty line or end of input)`);
  // The service refuses such a key on every request; say so now. Never echo it.
  if (/[\u0000-\u001f\u007f-\u009f]/.test(key)) throw new UsageError(`${flag}: the key holds control characters (a tab, escape or similar); the key was not stored`);
  return key;
}

/** In a terminal: what a profile needs to be useful, then what saves questions later (Enter skips). */
async function askWhatIsMissing(ctx: Context, profile: Profile): Promise<void> {
  const p = await ctx.prompter();
  const url = (v: string) => (HTTP_URL.test(v) ? true : 'an http(s) URL');
  profile.baseUrl ??= await p.input('API base URL', { validate: url });
  profile.domainId ??= await p.input('Domain id');
  profile.user ??= await p.input('Acting user e-mail', { validate: (v) => (/^[^\s@]+@[^\s@]+$/.test(v) ? true : 'an e-mail address') });
  profile.apiKey ??= (await p.secret('API key')).trim();
  profile.deliveryUrl ??= optional(await p.input('Delivery URL (Enter to skip)', { required: false, validate: (v) => (v.trim() === '' ? true : url(v.trim())) }));
  profile.envId ??= optional(await p.input('Environment (Enter to skip)', { required: false }));
  profile.platform ??= optional(await p.input('Target platform (Enter to skip)', { required: false }));
}

function optional(answer: string): string | undefined {
  return answer.trim() || undefined;
}
