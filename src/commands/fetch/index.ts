// `ahs fetch`: download a deployed collection's items (or browse, in a terminal).
import type { RegisterGroup } from '../legacy.js';
import { parsePositiveInt } from '../legacy.js';

export const registerFetch: RegisterGroup = (program, action) => {
  program
    .command('fetch')
    .description('download the items of a deployed collection into a folder (no arguments, in a terminal: browse and pick)')
    .argument('[COLLECTION_ID]')
    .option('--url <downloadUrl>', 'fetch from a deployed collection URL directly (no key needed unless secured)')
    .option('--dir <dir>', 'target folder (default: a folder named after the collection)')
    .option('--item <itemId...>', 'only these items (repeatable)')
    .option('--concurrency <n>', 'files downloaded at the same time (default 8)', parsePositiveInt('--concurrency'))
    .option('--manifest', 'print the delivery document instead of downloading')
    .option('--force', 'overwrite existing files of the same name and size')
    .addHelpText(
      'after',
      '\nThe environment comes from --env (AHS_ENV, the profile); in a terminal you can pick one where the collection is Live.\nFiles are written under temporary names and renamed when complete; Ctrl-C removes partial files (exit 130).',
    )
    .action(action(() => import('./fetch.js')));
};

export const fetch = { kind: 'legacy', register: registerFetch } as const;
