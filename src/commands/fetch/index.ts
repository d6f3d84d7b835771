// `ahs fetch`: download a deployed collection's items (or browse, in a terminal).
import { arg, command, defineCommand, flag, wholeNumber, SERVICE } from '../define.js';
import { MAX_NAME_BYTES } from '../../transfer/safe-name.js';

export const fetchSpec = defineCommand({
  name: 'fetch',
  uses: [...SERVICE, 'env', 'deliveryUrl'],
  summary: 'download the items of a deployed collection into a folder (no arguments, in a terminal: browse and pick)',
  args: {
    collectionId: arg.optional('COLLECTION_ID', 'collection to download (browsed and picked in a terminal when omitted)'),
  },
  flags: {
    url: flag.text('downloadUrl', 'fetch from a deployed collection URL directly (no key needed unless secured)'),
    dir: flag.text('dir', 'target folder (default: a folder named after the collection)'),
    item: flag.list('itemId', 'only these items (repeatable)'),
    pattern: flag.list('glob', 'only items whose name matches a glob: * ? [abc] (repeatable; quote it for the shell)'),
    skipExisting: flag.bool('keep a file (or a symbolic link, not followed) already at an item\'s name as it is (default: overwrite it)'),
    concurrency: flag.parsed('n', 'files downloaded at the same time (default 8)', wholeNumber('--concurrency', 1)),
    manifest: flag.bool('print the delivery document instead of downloading'),
    verify: flag.text('SHA256SUMS', 'check each file against its line of a sums file (as sha256sum -c reads it) before it takes its name; a file whose digest differs fails and the copy already there stays'),
  },
  examples: [
    'ahs fetch my-collection --env prod --dir ./assets',
    '# only the images; a re-run keeps what is already there',
    'ahs fetch my-collection --env prod --dir ./assets --pattern \'*.png\' --pattern \'*.jpg\' --skip-existing',
    'ahs fetch --url "$(ahs collection url my-collection --env prod)" --dir ./assets --json',
    '# only the bytes that were published: each file checked against SHA256SUMS',
    'ahs fetch my-collection --env prod --dir ./assets --verify SHA256SUMS',
  ],
  notes: [
    'The environment comes from --env (AHS_ENV, the profile); in a terminal you can pick one where the collection is Live.',
    'Files are written under temporary names and renamed when complete, so a file at an item\'s name is replaced whole',
    '(or kept, with --skip-existing). Partial files of an earlier interrupted run in the folder are removed at the start;',
    'those of another fetch still writing into the same folder are left alone. Ctrl-C removes this run\'s partial files',
    '(exit 130). A redirect or error answer for a file fails that file; the others still arrive, and any failure is exit 1,',
    'or 6 when every failure was the network\'s (no answer, a cut connection: run again later). A folder the run created',
    'is removed again when nothing landed in it.',
    '',
    'Each file is written under its item\'s name exactly (a leading dot, quotes, $, &, spaces and non-ASCII included)',
    'unless that name cannot be a file name here: a / (and \\ on Windows), . or .., a control character (or an invisible',
    'bidi or zero-width one), what the OS reserves (Windows: < > : " | ? *, CON, NUL..., trailing dots and spaces), a name',
    `over ${MAX_NAME_BYTES} bytes, or the name of ahs's own temporary files (.NAME.ahs-partial-...); two items of one name get " (2)".`,
    'Only then is it renamed: a warning names the item, its file name and why, and its JSON row has "renamed": {"from",',
    '"reason"}. item sync warns at upload of such a name, and verify maps names as fetch does.',
    '',
    'With --verify SHA256SUMS (read as sha256sum -c reads it: "<hex>  <name>", "<hex> *<name>", "SHA256 (<name>) = <hex>") each file is',
    'hashed as it streams to disk (no second read) and takes its name only when its SHA-256 is the one listed; a file',
    'whose digest differs, or that the sums file does not list, fails (exit 1) and the copy already at its name stays.',
    'A line naming a folder (sha256sum dist/* writes "dist/a.txt") is the line of the file of its base name (a.txt)',
    'unless another folder\'s line has that base name too; the output says which lines were matched so.',
    '',
    'JSON: {"collectionId", "envId", "dir", "downloaded": [{"id", "name", "path", "bytes", "renamed"?}],',
    '"skipped": [{"id", "name", "path", "reason"}], "failed": [{"id", "name", "error"}]} (id: the item id; name: the file',
    'name in DIR; path: where it is). With --manifest: the delivery document unchanged.',
  ].join('\n'),
});

export const fetch = command(fetchSpec, () => import('./fetch.js'));
