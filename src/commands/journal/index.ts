// `ahs journal ...`: the team's shared memory of writes (cli.md, "Memory").
import { arg, command, defineCommand, group, SERVICE } from '../define.js';

export const initSpec = defineCommand({
  name: 'init',
  uses: [...SERVICE, 'env', 'user'],
  summary: 'start the journal: a collection every write is recorded in, readable in one environment, named in the profile',
  description:
    'Creates the collection COLLECTION_ID (default ahs-journal; allowed type 9999) if it does not exist, records a first entry in it, deploys it LIVE in --env (its entries are read through its delivery document there), and sets the journal setting of the profile in use. Run again, it changes only what is missing. From then on every write command whose outcome is applied or unknown appends one entry (`ahs history` reads them); without a journal everything works as before.',
  args: {
    collectionId: arg.optional('COLLECTION_ID', 'the journal collection id (default ahs-journal)'),
  },
  notes: 'JSON: {journal, envId, profile, created, deployed}. Without a profile the setting is given with --journal or AHS_JOURNAL.',
  examples: ['ahs journal init --env prod', '# a journal of its own for a team', 'ahs journal init mobile-journal --env prod --json'],
});

export const journal = group('journal', 'the shared journal of writes that `ahs history` reads', [command(initSpec, () => import('./init.js'))]);
