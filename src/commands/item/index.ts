// `ahs item ...`: declarations only; each verb's logic loads when it runs.
import { arg, command, defineCommand, flag, group, pagingFlags, SERVICE, wholeNumber } from '../define.js';

const collectionId = arg.optional('COLLECTION_ID', 'collection id (picked from a list in a terminal)');
const itemId = arg.optional('ITEM_ID', 'item id (picked from a list in a terminal)');

export const uploadSpec = defineCommand({
  name: 'upload',
  uses: [...SERVICE, 'user'],
  summary: 'upload files into a collection, several at once (a rejected file does not stop the others)',
  args: {
    collectionId,
    files: arg.variadic('FILE', 'files to upload (asked for in a terminal)'),
  },
  flags: {
    type: flag.text('code', "asset type code of the items (one of the collection's allowed types, or 9999 = Other)"),
    name: flag.text('name', 'item name (only with one file; default: the file name)'),
    concurrency: flag.parsed('n', 'files uploaded at the same time (default 8)', wholeNumber('--concurrency', 1)),
  },
  examples: [
    'ahs item upload launch-pack dist/*.zip --type 1001',
    '# one file under another name',
    'ahs item upload launch-pack build/config.json --type 9999 --name config.json',
  ],
  notes: 'A file the service rejects does not stop the others: the output ends with "N of M uploaded; failed: ..." and the exit code is 1.',
});

export const syncSpec = defineCommand({
  name: 'sync',
  uses: [...SERVICE, 'user', 'deliveryUrl'],
  summary: 'make a collection hold the files of a folder: upload new files, replace changed ones, --delete the others',
  description:
    'Each regular file at the top of DIR is matched with the item of its name: a file with no item is uploaded, an item whose byte size differs from its file is replaced (the new item uploaded, then the old one removed), an item of the same size is left as it is. With --checksum, an item Live in an environment is compared by content instead: what the delivery network serves is downloaded (in parallel, hashed as it streams, never written) and its SHA-256 compared with the file\'s. A re-run on an unchanged folder sends no write.',
  args: {
    collectionId: arg.required('COLLECTION_ID', 'collection to sync into'),
    dir: arg.required('DIR', 'folder whose files the collection should hold (its top level; subfolders are not read)'),
  },
  flags: {
    type: flag.text('code', "asset type code of the uploaded items (one of the collection's allowed types, or 9999 = Other)"),
    delete: flag.bool('remove the items that have no file of their name in DIR (done before any upload; destructive: lists them and asks in a terminal, needs --yes elsewhere)'),
    followLinks: flag.bool('follow symbolic links in DIR to the files they point to (without it, a link is skipped and named in the output; with it, a link to nothing, in a loop or to a folder is skipped and named with why)'),
    pattern: flag.list('glob', 'only files (and, with --delete, items) whose name matches a glob: * ? [abc] (repeatable; quote it for the shell)'),
    reconcile: flag.bool('at the end, re-run the Live deployments of the collection (when the sync changed something), publishing the new items'),
    checksum: flag.bool('compare content by SHA-256: items Live in an environment are downloaded through the delivery network and hashed; the others are compared by size'),
  },
  examples: [
    'ahs item sync launch-pack dist/ --type 1001',
    '# mirror exactly (remove what is not in the folder), then publish where it is Live',
    'ahs item sync launch-pack dist/ --type 1001 --delete --reconcile --yes',
    "ahs item sync launch-pack dist/ --type 1001 --pattern '*.zip' --dry-run",
    '# an edit that keeps the size is seen too (Live items compared by content)',
    'ahs item sync launch-pack dist/ --type 1001 --checksum',
  ],
  notes: [
    'A changed file is one whose byte size differs from its item\'s: without --checksum an edit that keeps the size is',
    'not detected. --checksum compares by SHA-256 the items Live in an environment (the service gives no checksum, so',
    'they are downloaded); the others are still compared by size. stderr says which rule decided for how many files',
    '("12 compared by content, 3 by size").',
    '',
    'It never takes the collection over maxAssets: removals (--delete) come first, replacements upload the new item',
    'before removing the old one while there is room, and remove the old one first when the collection is full (the',
    'output says so). When the new files cannot fit even so, nothing is sent (exit 1). Several items of one name: the',
    'one of the same size (else the newest) is the file\'s; the others count as items with no file.',
    '',
    'A file the service refuses does not stop the others; any failure is exit 1, and a re-run carries on from what',
    'was done. --reconcile is skipped when nothing changed, when something failed, or when the collection is Live',
    'nowhere (each said on stderr; ahs collection-deploy COLLECTION_ID --reconcile runs it alone).',
    '',
    'JSON: {"uploaded": [item], "replaced": [{"old": itemId, "new": item, "removedFirst"}], "removed": [itemId],',
    '"unchanged": [name], "failed": [{"file", "error"}], "compared": {"content", "size", "checksum"}}; with --reconcile also "reconciled": true or false (a refused',
    'reconcile is in "failed" with "file": null). Half a replacement that failed is in "failed", and what it did in',
    '"uploaded" or "removed".',
  ].join('\n'),
});

export const getSpec = defineCommand({
  name: 'get',
  uses: SERVICE,
  summary: 'show an item of a collection',
  args: { collectionId, itemId },
  examples: ['ahs item get launch-pack item-3f2a', 'ahs item get launch-pack item-3f2a --json'],
});

export const listSpec = defineCommand({
  name: 'list',
  uses: SERVICE,
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
  uses: [...SERVICE, 'user'],
  summary: 'remove an item from a collection (removed for good if it was its only collection)',
  args: { collectionId, itemId },
  examples: ['ahs item remove launch-pack item-3f2a', '# in CI: no prompt', 'ahs item remove launch-pack item-3f2a --yes'],
});

export const item = group('item', 'items: the files inside a collection', [
  command(uploadSpec, () => import('./upload.js')),
  command(syncSpec, () => import('./sync.js')),
  command(getSpec, () => import('./get.js')),
  command(listSpec, () => import('./list.js')),
  command(removeSpec, () => import('./remove.js')),
]);
