// Asks the service whether the key is accepted: a cheap read of the domain's
// asset list (pageSize 1). 403 means refused (exit 3).
import type { Invocation } from '../legacy.js';
import type { Context } from '../../context.js';
import { resolveSettings } from '../../config/settings.js';
import { UsageError } from '../../errors.js';
import { isApiError } from '../../http/client.js';

export async function run({ args }: Invocation, ctx: Context): Promise<void> {
  const store = await ctx.profiles();
  const out = await ctx.output();
  const settings = args[0] ? resolveSettings({ ...ctx.globals, profile: args[0] }, ctx.io.env, store) : await ctx.settings();
  const apiKey = settings.get('apiKey');
  if (!apiKey) throw new UsageError(`no API key${settings.profileName ? ` in profile ${settings.profileName}` : ''}: add one with ahs profile add NAME --api-key-stdin, or set AHS_API_KEY`);
  const api = await ctx.clientFor(settings);
  const domainId = settings.require('domainId');
  const env = settings.resolve('envId');
  const keySource = settings.resolve('apiKey').source === 'env' ? 'AHS_API_KEY' : 'profile';
  if (keySource === 'AHS_API_KEY' && settings.profileName) {
    // flag > env > profile: the key checked is the one every command would send, not the profile's own.
    out.warn(
      `AHS_API_KEY is set and overrides ${settings.profile?.apiKey ? 'the key of' : 'the (missing) key of'} profile ${settings.profileName}: checking the AHS_API_KEY key (unset AHS_API_KEY to check the profile's own)`,
    );
  }
  const report = {
    profile: settings.profileName ?? null,
    baseUrl: api.baseUrl,
    domainId,
    envId: env.value ?? null,
    apiKeySource: keySource,
    accepted: true,
  };
  try {
    await api.get(api.path('va'), { pageNumber: 1, pageSize: 1 });
  } catch (error) {
    if (isApiError(error, 403)) {
      out.warn(`the service refused the API key${settings.profileName ? ` of profile ${settings.profileName}` : ''} for domain ${domainId}`);
    }
    throw error;
  }
  out.print(report, (r, kit) => {
    out.success(`API key accepted for domain ${r.domainId}${r.envId ? `, environment ${r.envId} (${env.source})` : ''}`);
    return kit.record(r, [
      { label: 'profile', get: (v) => v.profile ?? '(none: environment variables)' },
      { label: 'base URL', get: (v) => v.baseUrl },
      { label: 'domain', get: (v) => v.domainId },
      { label: 'environment', get: (v) => v.envId ?? '(not set)' },
      { label: 'key', get: (v) => `accepted (from ${v.apiKeySource === 'profile' ? 'the profile' : 'AHS_API_KEY'})` },
    ]);
  });
}
