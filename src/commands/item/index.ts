// `ahs item ...`: declarations only; each verb's logic loads when it runs.
import { arg, command, defineCommand, flag, group, pagingFlags, wholeNumber } from '../define.js';

const collectionId = arg.optional('COLLECTION_ID', 'collection id (picked from a list in a terminal)');
const itemId = arg.optional('ITEM_ID', 'item id (picked from a list in a terminal)');

export const uploadSpec = defineCommand({
  name: 'upload',
  summary: 'upload files into a collection, several at once (a rejected file does not stop the others)',
  args: {
    collectionId,
    files: arg.variadic('FILE', 'files to upload (asked for in a terminal)'),
  },
  flags: {
    type: flag.text('code', "asset type code of the items (one of the collection's allowed types, or 9999 = Other)"),
    name: flag.text('name', 'item name (only with one file; default: the file name)'),
    concurrency: flag.parsed('n', 'files uploaded at the same time (default 4)', wholeNumber('--concurrency', 1)),
  },
  examples: [
    'ahs item upload launch-pack dist/*.zip --type 1001',
    '# one file under another name',
    'ahs item upload launch-pack build/config.json --type 9999 --name config.json',
  ],
  notes: 'A file the service rejects does not stop the others: the output ends with "N of M uploaded; failed: ..." and the exit code is 1.',
});

export const getSpec = defineCommand({
  name: 'get',
  summary: 'show an item of a collection',
  args: { collectionId, itemId },
  examples: ['ahs item get launch-pack item-3f2a', 'ahs item get launch-pack item-3f2a --json'],
});

export const listSpec = defineCommand({
  name: 'list',
  summary: "list a collection's items, optionally by creation date",
  args: { collectionId },
  flags: {
    since: flag.text('date', 'created at or after DATE (YYYY-MM-DD or ISO 8601)'),
    until: flag.text('date', 'created at or before DATE (a bare date includes the whole day)'),
    ...pagingFlags,
  },
  examples: ['ahs item list launch-pack', '# the items added in March 2026', 'ahs item list launch-pack --since 2026-03-01 --until 2026-03-31 --all'],
});

export const removeSpec = defineCommand({
  name: 'remove',
  summary: 'remove an item from a collection (removed for good if it was its only collection)',
  args: { collectionId, itemId },
  examples: ['ahs item remove launch-pack item-3f2a', '# in CI: no prompt', 'ahs item remove launch-pack item-3f2a --yes'],
});

export const item = group('item', 'items: the files inside a collection', [
  command(uploadSpec, () => import('./upload.js')),
  command(getSpec, () => import('./get.js')),
  command(listSpec, () => import('./list.js')),
  command(removeSpec, () => import('./remove.js')),
]);
