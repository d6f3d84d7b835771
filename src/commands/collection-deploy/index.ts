// `ahs collection-deploy COLLECTION_ID [--state LIVE|OFFLINE] [--idempotent] | --reconcile`
import { Option } from 'commander';
import type { RegisterGroup } from '../legacy.js';

export const registerCollectionDeploy: RegisterGroup = (program, action) => {
  program
    .command('collection-deploy')
    .description('deploy a collection LIVE or OFFLINE in an environment (the API key\'s own, or --env with a domain-wide key); --reconcile re-runs every Live deployment')
    .argument('[COLLECTION_ID]')
    .addOption(new Option('--state <state>', 'target state').choices(['LIVE', 'OFFLINE']).default('LIVE'))
    .option('--idempotent', 'already in that state: say so, send nothing, exit 0')
    .addOption(new Option('--reconcile', 're-run the Live deployment in every environment where it is Live (publishes items added since)').conflicts(['idempotent']))
    .addHelpText(
      'after',
      '\nAn environment-scoped API key deploys to its own environment only: naming another with --env is refused (403).\nA domain-wide key needs --env (or AHS_ENV / the profile\'s envId).',
    )
    .action(action(() => import('./deploy.js')));
};

export const collectionDeploy = { kind: 'legacy', register: registerCollectionDeploy } as const;
