// `ahs item ...`: flags only; each verb's logic loads when it runs.
import type { RegisterGroup } from '../legacy.js';
import { pagingOptions, parsePositiveInt } from '../legacy.js';

export const registerItem: RegisterGroup = (program, action) => {
  const group = program.command('item').description('items: the files inside a collection');

  group
    .command('upload')
    .description('upload files into a collection, several at once (a rejected file does not stop the others)')
    .argument('[COLLECTION_ID]')
    .argument('[FILE...]', 'files to upload')
    .option('--type <code>', 'asset type code of the items (one of the collection\'s allowed types, or 9999 = Other)')
    .option('--name <name>', 'item name (only with one file; default: the file name)')
    .option('--concurrency <n>', 'files uploaded at the same time (default 4)', parsePositiveInt('--concurrency'))
    .action(action(() => import('./upload.js')));

  group
    .command('get')
    .description('show an item of a collection')
    .argument('[COLLECTION_ID]')
    .argument('[ITEM_ID]')
    .action(action(() => import('./get.js')));

  const itemList = group
    .command('list')
    .description('list a collection\'s items, optionally by creation date')
    .argument('[COLLECTION_ID]')
    .option('--since <date>', 'created at or after DATE (YYYY-MM-DD or ISO 8601)')
    .option('--until <date>', 'created at or before DATE (a bare date includes the whole day)');
  pagingOptions(itemList).action(action(() => import('./list.js')));

  group
    .command('remove')
    .description('remove an item from a collection (removed for good if it was its only collection)')
    .argument('[COLLECTION_ID]')
    .argument('[ITEM_ID]')
    .action(action(() => import('./remove.js')));
};

export const item = { kind: 'legacy', register: registerItem } as const;
