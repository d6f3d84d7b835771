// ahs profile check [NAME]: asks the service whether the key is accepted, with
// a cheap read of the domain's asset list (pageSize 1). 403 means refused
// (exit 3). What it cannot verify, it does not claim: a key's environment
// scope is not visible through the API.
import type { Run } from '../define.js';
import type { checkSpec } from './index.js';
import { resolveSettings } from '../../config/settings.js';
import { UsageError } from '../../errors.js';
import { isApiError, type ApiClient } from '../../http/client.js';
import { readCollection, vcPath } from '../../service/collections.js';
import { journalMark, parseJournalDescription } from '../../service/journal.js';
import { choiceText, journalChoice, type JournalChoice } from '../../service/journal-setting.js';

/** Whether the journal in use is a marked journal, there and readable through its delivery document's deployment (what history needs); and why it is the one. */
async function journalReach(api: ApiClient, choice: JournalChoice) {
  const id = choice.id;
  const why = choiceText(choice);
  if (!id) return null;
  try {
    const collection = await readCollection(api, id);
    const mark = journalMark(id, collection);
    // No setting and no ahs-journal in the domain: no journal, not a fault.
    if (!mark.marked && choice.source === 'default') return null;
    if (!mark.marked && mark.absent) return { id, why, reachable: false, envId: null, problem: `no collection ${id}: start it with ahs journal init ${id} --env ENV` };
    if (!mark.marked) return { id, why, reachable: false, envId: null, problem: `${mark.why}: nothing is recorded in it; start a journal with ahs journal init --env ENV, or fix ${choice.setting}` };
    const { envId } = parseJournalDescription(collection!.description);
    if (!envId) return { id, why, reachable: false, envId: null, problem: `${id} names no environment it is read in: run ahs journal init ${id} --env ENV` };
    await api.get(vcPath(api, id, 'deployments', envId));
    return { id, why, reachable: true, envId, problem: null };
  } catch (error) {
    return { id, why, reachable: false, envId: null, problem: (error as Error).message };
  }
}

export const run: Run<typeof checkSpec> = async (options, ctx) => {
  const store = await ctx.profiles();
  const out = await ctx.output();
  const settings = options.name ? resolveSettings({ ...ctx.globals, profile: options.name }, ctx.io.env, store) : await ctx.settings();
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
  try {
    await api.get(api.path('va'), { pageNumber: 1, pageSize: 1 });
  } catch (error) {
    if (isApiError(error, 403)) {
      // Name the key that was sent: AHS_API_KEY overrides the profile's.
      const whose = keySource === 'AHS_API_KEY' ? ' from AHS_API_KEY' : settings.profileName ? ` of profile ${settings.profileName}` : '';
      out.warn(`the service refused the API key${whose} for domain ${domainId}`);
    }
    throw error;
  }
  const choice = journalChoice(settings);
  const journal = await journalReach(api, choice);
  if (journal && !journal.reachable) out.warn(`the journal ${journal.id} is not reachable: ${journal.problem}`);
  const report = {
    profile: settings.profileName ?? null,
    baseUrl: api.baseUrl,
    domainId,
    envId: env.value ?? null,
    apiKeySource: keySource,
    accepted: true,
    envScopeVerified: false,
    journal,
  };
  out.print(report, (r, kit) => {
    out.success(`API key accepted for domain ${r.domainId}`);
    out.info("the key's environment scope is not visible through the API: a key limited to other environments is refused there (403)");
    return kit.record(r, [
      { label: 'profile', get: (v) => v.profile ?? '(none: environment variables)' },
      { label: 'base URL', get: (v) => v.baseUrl },
      { label: 'domain', get: (v) => `${v.domainId} (key accepted)` },
      { label: 'environment', get: (v) => (v.envId ? `${v.envId} (from ${env.source}; not checked against the key)` : '(not set)') },
      { label: 'key', get: (v) => `accepted (from ${v.apiKeySource === 'profile' ? 'the profile' : 'AHS_API_KEY'})` },
      {
        label: 'journal',
        get: (v) =>
          !v.journal
            ? choice.source === 'off'
              ? `(none: turned off for this run by ${choice.setting})`
              : choice.source === 'default'
                ? `(none: no journal setting, and the domain has no ${choice.id} marked as a journal: writes are not recorded; ahs journal init --env ENV starts one)`
                : '(none: writes are not recorded; ahs journal init --env ENV starts one)'
            : v.journal.reachable
              ? `${v.journal.why}: reachable, read in ${v.journal.envId}`
              : `${v.journal.why}: NOT reachable: ${v.journal.problem}`,
      },
    ]);
  });
};
