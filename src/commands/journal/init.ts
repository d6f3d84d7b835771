// ahs journal init [COLLECTION_ID] [--env E]: the operation (src/operations/journal-init.ts)
// starts the journal; this parses, records the journal in the profile and renders.
import type { Run } from '../define.js';
import { nameOf } from '../define.js';
import { initSpec } from './index.js';
import { collectionCreateBody } from '../../rules/schemas.js';
import { actingUser } from '../../pickers/acting-user.js';
import { DEFAULT_JOURNAL_ID } from '../../service/journal.js';
import { initJournal } from '../../operations/journal-init.js';

export const run: Run<typeof initSpec> = async (options, ctx) => {
  const collectionId = await ctx.need(options.collectionId ?? DEFAULT_JOURNAL_ID, {
    flag: nameOf(initSpec, 'collectionId'),
    message: 'Journal collection id',
    schema: collectionCreateBody().shape.collectionId,
  });
  const envId = await ctx.setting('envId', { message: 'Environment the journal is read in' });
  const user = await actingUser(ctx);
  const result = await initJournal(ctx, { collectionId, envId, user });
  const settings = await ctx.settings();
  const profileName = settings.profileName;
  const store = await ctx.profiles();
  const out = await ctx.output();
  const hasProfile = profileName !== undefined && store.get(profileName) !== undefined;
  const wouldRecord = `profile ${profileName} would record its writes in ${collectionId} (setting journal); dry run: not written`;
  // A dry run with writes to send: the executor printed the prediction; it changes nothing, the profile included.
  if (!result) {
    if (hasProfile) out.info(wouldRecord);
    return;
  }
  if (hasProfile && !result.dryRun) await store.put(profileName, { ...store.get(profileName)!, journal: collectionId });
  const report = { journal: collectionId, envId, profile: profileName ?? null, created: result.created, deployed: result.deployed };
  out.print(report, (r, kit) => {
    out.success(
      !result.wrote ? `the journal ${collectionId} is ready (read in ${envId}); nothing to change` : `the journal ${collectionId} is ready: ${result.created ? 'created, ' : ''}${result.deployed ? '' : 'already '}LIVE in ${envId}`,
    );
    if (result.raced) out.info(`another run was initialising ${collectionId} at the same time: this one read it again and did what was left`);
    if (profileName && result.dryRun) out.info(wouldRecord);
    else if (profileName) out.info(`profile ${profileName} records its writes in ${collectionId} from now on (setting journal)`);
    else if (collectionId === DEFAULT_JOURNAL_ID) out.info(`no profile in use: every run in this domain records in ${collectionId} with no setting (it is the domain's ${DEFAULT_JOURNAL_ID}); --no-journal or AHS_JOURNAL= turn it off for a run`);
    else out.info(`no profile in use: give the journal with --journal ${collectionId} or AHS_JOURNAL=${collectionId}`);
    return kit.record(r, [
      { label: 'journal', get: (v) => v.journal },
      { label: 'environment', get: (v) => v.envId },
      { label: 'profile', get: (v) => v.profile ?? '(none)' },
    ]);
  });
};
