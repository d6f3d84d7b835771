// `ahs collection-deploy COLLECTION_ID [--state LIVE|OFFLINE] [--idempotent] | --reconcile`
import { arg, command, defineCommand, flag, SERVICE } from '../define.js';

export const collectionDeploySpec = defineCommand({
  name: 'collection-deploy',
  uses: [...SERVICE, 'env', 'user'],
  summary:
    "deploy a collection LIVE or OFFLINE in an environment (the API key's own, or --env with a domain-wide key); --reconcile re-runs every Live deployment",
  args: {
    collectionId: arg.optional('COLLECTION_ID', 'collection id (picked from a list in a terminal)'),
  },
  flags: {
    state: flag.choiceOr('state', ['LIVE', 'OFFLINE'], 'LIVE', 'target state', { hints: { DEFAULT: 'a collection has no Default, only LIVE and OFFLINE' } }),
    idempotent: flag.bool('already in that state: say so, send nothing, exit 0'),
    // --state given with --reconcile is refused (every Live deployment stays Live); its default is not "given".
    reconcile: flag.bool('re-run the Live deployment in every environment where it is Live (publishes items added since)', { conflicts: ['idempotent', 'state'] }),
  },
  examples: [
    'ahs collection-deploy launch-pack --env staging',
    '# take it offline, and succeed on a CI re-run',
    'ahs collection-deploy launch-pack --env prod --state OFFLINE --idempotent',
    '# publish the items added since the last deploy, wherever it is Live',
    'ahs collection-deploy launch-pack --reconcile',
  ],
  notes:
    "An environment-scoped API key deploys to its own environment only: naming another with --env is refused (403).\nA domain-wide key needs --env (or AHS_ENV / the profile's envId); in a terminal it is asked for.",
});

export const collectionDeploy = command(collectionDeploySpec, () => import('./deploy.js'));
