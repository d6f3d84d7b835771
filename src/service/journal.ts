// The journal (cli.md, "Memory: the journal and `ahs history`"): the team's
// shared memory of writes, kept in the service itself. One collection
// (allowed type 9999), marked as a journal (its description says
// "ahs journal", and it holds a first entry), Live in one environment so
// that an entry too large for its file's name can be read through its
// delivery document. Each entry is an item of its own (two runs at once
// never conflict), named by UTC time and command; its document is the
// format of ./journal-format.ts, carried by the uploaded file's name (the
// items listing returns it: a page of the listing reads up to 1,000
// entries) and by its content. The entry's time and author are the
// service's `createdAt`/`createdBy` of that item: never a runner's clock.
//
// A journal that reaches its maxAssets continues in a new collection; the
// old one's description names it (`next=ID`), and reads follow the links.
import type { ServiceContext } from './context.js';
import type { ApiClient } from '../http/client.js';
import { ApiError, ConflictError, NotFoundError, UsageError } from '../errors.js';
import type { Collection, DeliveryDocument } from '../rules/schemas.js';
import { OTHER_ASSET_TYPE } from '../rules/collections.js';
import { fetchAll } from '../http/paging.js';
import { eachLimited } from '../util/pool.js';
import { readCollection, vcPath } from './collections.js';
import { memoryMultipart } from './multipart.js';
import { deliveryBaseOf, deliveryDocumentUrl, deliveryFileUrl } from './delivery.js';
import { entryFileName, entryNonce, JOURNAL_API_VERSION, parseEntry, readFileName, type Change, type CiRun, type EntryDocument, type EntryDocumentV2 } from './journal-format.js';

export { JOURNAL_API_VERSION, entryNonce, type Change, type CiRun, type EntryDocument, type EntryDocumentV2 };
export type { RolloutField, ControlField, RolloutAction, ControlAction } from './journal-format.js';
export const DEFAULT_JOURNAL_ID = 'ahs-journal';
/** The asset type of every entry (Other). */
export const JOURNAL_ASSET_TYPE = OTHER_ASSET_TYPE;
/** How a journal collection's description starts: the mark (with a first entry) that makes it one. */
export const JOURNAL_MARK = 'ahs journal';

/** What the service says of an entry item: its time, author and place. */
export interface EntryItem {
  /** The service's createdAt of the entry's item: the entry's time. */
  createdAt: string;
  /** The service's createdBy of the entry's item: the entry's author. */
  createdBy: string;
  itemId: string;
  itemName: string;
  /** The collection that holds it (the journal, or one it continues in). */
  collectionId: string;
}

/** A journal entry as read back (ahs/journal/v1 or v2): what ahs recorded, with the service's createdAt/createdBy of it. */
export type JournalEntry = EntryDocument & EntryItem;

/** An item of the journal that is not a readable entry: shown with its id, never the basis of a decision. */
export interface UnreadableEntry extends EntryItem {
  unreadable: true;
  /** What is wrong with it (the first field that does not match the format). */
  reason: string;
}

export type EntryRead = JournalEntry | UnreadableEntry;

export function isUnreadable<T extends object>(entry: T | UnreadableEntry): entry is UnreadableEntry {
  return (entry as UnreadableEntry).unreadable === true;
}

/** What the journal's functions need of a context. */
export type JournalContext = Pick<ServiceContext, 'api' | 'settings' | 'deliveryClient' | 'signal'>;

/** The time range of a read; both ends included. */
export interface EntryRange {
  since?: Date;
  until?: Date;
}

/** The CI run an entry comes from, from GitHub Actions' variables; undefined outside it. */
export function ciRunOf(env: NodeJS.ProcessEnv): CiRun | undefined {
  const { GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: repo, GITHUB_RUN_ID: run, GITHUB_SHA: sha, GITHUB_REF: ref } = env;
  const runUrl = server && repo && run ? `${server.replace(/\/+$/, '')}/${repo}/actions/runs/${run}` : undefined;
  if (!runUrl && !sha && !ref) return undefined;
  return { ...(runUrl ? { runUrl } : {}), ...(sha ? { sha } : {}), ...(ref ? { ref } : {}) };
}

/** `2026-11-27T19:41:24.123Z release my-bundle`, at most 64 characters, safe as an item name. */
export function entryName(command: string, at: Date = new Date()): string {
  const name = `${at.toISOString()} ${command.replace(/[^A-Za-z0-9 ._-]+/g, '-')}`;
  return name.slice(0, 64).trimEnd();
}

/** The parts of a journal collection's description: the environment it is read in, the collection it continues in. */
export interface JournalLinks {
  envId?: string;
  next?: string;
}

export function describeJournal(links: JournalLinks): string {
  return [JOURNAL_MARK, links.envId ? `env=${links.envId}` : undefined, links.next ? `next=${links.next}` : undefined].filter(Boolean).join('; ');
}

export function parseJournalDescription(description: string | undefined | null): JournalLinks {
  const text = description ?? '';
  const envId = /(?:^|;\s*)env=([A-Za-z0-9_-]+)/.exec(text)?.[1];
  const next = /(?:^|;\s*)next=([A-Za-z0-9_-]+)/.exec(text)?.[1];
  return { ...(envId ? { envId } : {}), ...(next ? { next } : {}) };
}

/** Whether a collection's description marks it as a journal (or a collection a journal continues in). */
export function isJournalCollection(collection: { description?: string | null } | undefined): boolean {
  return typeof collection?.description === 'string' && collection.description.startsWith(JOURNAL_MARK);
}

/**
 * What a confirmation adds when the collection is a journal (or one a
 * journal continues in): its entries are the team's history of writes,
 * which deleting them erases. Empty for any other collection.
 */
export function historyErased(collection: { description?: string | null } | undefined): string {
  return isJournalCollection(collection) ? " It is an ahs journal: its entries are the team's history of writes (history, rollback and rollouts read them), and this erases that history." : '';
}

/** Whether `collection` is a journal ahs may append to and read: marked, not deleted, holding its first entry; else why not. */
export function journalMark(id: string, collection: Collection | undefined): { marked: true } | { marked: false; why: string; absent?: boolean } {
  if (!collection) return { marked: false, why: `there is no collection ${id}`, absent: true };
  if (collection.deleted) return { marked: false, why: `the collection ${id} is deleted` };
  if (!isJournalCollection(collection)) return { marked: false, why: `${id} is not an ahs journal (its description does not say "${JOURNAL_MARK}")` };
  if (Array.isArray(collection.assetItems) && collection.assetItems.length === 0) return { marked: false, why: `${id} holds no first entry (ahs journal init ${id} gives it one)` };
  return { marked: true };
}

/** A new entry's document: the v2 format, with its nonce. */
export function newEntry(fields: Omit<EntryDocumentV2, 'apiVersion' | 'id'>, id: string = entryNonce()): EntryDocumentV2 {
  return { apiVersion: JOURNAL_API_VERSION, id, ...fields };
}

/** What an entry item says it is, to the listing and to the upload: its name and its file's. */
export function entryUpload(doc: EntryDocumentV2, at: Date = new Date()): { assetItemName: string; fileName: string; content: string } {
  return { assetItemName: entryName(doc.command, at), fileName: entryFileName(doc), content: JSON.stringify(doc) };
}

interface ListedItem {
  assetItemId: string;
  assetItemName: string;
  createdAt: string;
  createdBy: string;
  fileName?: string;
}

/** POSTs one entry item to `collectionId`: one round trip. */
export async function postEntry(api: ApiClient, collectionId: string, doc: EntryDocumentV2, at: Date = new Date()): Promise<ListedItem> {
  const upload = entryUpload(doc, at);
  const stream = memoryMultipart({ assetItemName: upload.assetItemName, assetType: JOURNAL_ASSET_TYPE, createdBy: doc.actor }, upload.fileName, upload.content);
  return api.json<ListedItem>({ method: 'POST', path: vcPath(api, collectionId, 'items'), stream });
}

/** A 400 of the items endpoint that says the collection is full. */
function isFull(error: unknown): boolean {
  return error instanceof ApiError && error.status === 400 && /limit|maxAssets|full/i.test(`${error.message} ${JSON.stringify(error.body ?? '')}`);
}

/** The answer to a write was lost: it may have been stored. */
function answerLost(error: unknown): boolean {
  return (error as { mayHaveApplied?: unknown } | null)?.mayHaveApplied === true;
}

/**
 * Appends one entry to the journal `journalId` (or the collection it
 * continues in): one round trip while the journal has room. A full journal
 * continues in a new collection, created, deployed in the same environment
 * and linked from the full one; writers that reach the end at once all land
 * in the same continuation (its id follows from the full one's). An answer
 * lost on the way is settled by a read of the listing (the entry's nonce
 * is in its file's name): stored, or the error. `known`: the journal's
 * collection as the run already read it (its `next=` link is followed at once).
 */
export async function appendEntry(ctx: JournalContext, journalId: string, doc: EntryDocumentV2, known?: Collection): Promise<{ item: ListedItem; collectionId: string }> {
  const api = await ctx.api();
  let collectionId = parseJournalDescription(known?.description).next ?? journalId;
  /** Set once this writer continued the journal: the continuation is deployed there after its entry. */
  let deployIn: string | undefined;
  for (let hops = 0; hops < 1000; hops++) {
    const sentAt = Date.now();
    let item: ListedItem | undefined;
    try {
      item = await postEntry(api, collectionId, doc);
    } catch (error) {
      if (answerLost(error)) item = await findEntry(api, collectionId, doc.id, sentAt);
      if (!item && !isFull(error)) throw error;
    }
    if (item) {
      if (deployIn) await deployContinuation(api, collectionId, deployIn, doc.actor);
      return { item, collectionId };
    }
    const collection = await readCollection(api, collectionId);
    const links = parseJournalDescription(collection?.description);
    if (links.next) collectionId = links.next;
    else {
      collectionId = await continueJournal(api, collectionId, links, doc.actor);
      deployIn = links.envId;
    }
  }
  throw new UsageError(`the journal ${journalId} links on and on: fix its collections' descriptions (next=ID)`);
}

/** The entry of nonce `id` among the items of `collectionId` made since `sentAt` (this machine's clock, read on the service's). */
async function findEntry(api: ApiClient, collectionId: string, id: string, sentAt: number): Promise<ListedItem | undefined> {
  const since = new Date(api.serviceNow() - (Date.now() - sentAt) - 60_000).toISOString();
  const items = await fetchAll<ListedItem>(api, vcPath(api, collectionId, 'items'), { startDate: since });
  return items.find((item) => readFileName(item.fileName).id === id);
}

/** The id of the collection a full journal `id` continues in: `ahs-journal` → `ahs-journal--2` → `ahs-journal--3`. */
export function nextJournalId(id: string): string {
  const match = /^(.*)--(\d+)$/.exec(id);
  const [base, number] = match ? [match[1]!, Number(match[2]) + 1] : [id, 2];
  const suffix = `--${number}`;
  return `${base.slice(0, 50 - suffix.length)}${suffix}`;
}

/**
 * The continuation of the full journal `fullId`: created (or found created
 * by another writer that reached the end at the same time: its 409 is that
 * writer's create), deployed where the journal is read once it holds an
 * entry, and linked from the full one. Answers its id; the caller appends.
 */
async function continueJournal(api: ApiClient, fullId: string, links: JournalLinks, user: string): Promise<string> {
  const nextId = nextJournalId(fullId);
  try {
    await api.post(api.path('vc'), {
      collectionId: nextId,
      collectionName: nextId.slice(0, 50),
      description: describeJournal({ envId: links.envId }),
      allowedAssetTypes: [JOURNAL_ASSET_TYPE],
      createdBy: user,
      updatedBy: user,
    });
  } catch (error) {
    // Another writer's create came first (409), or this one's answer was lost: a read says whether it is there.
    if (!(error instanceof ConflictError || (error instanceof ApiError && error.status === 409) || answerLost(error))) throw error;
    if (!isJournalCollection(await readCollection(api, nextId))) throw error;
  }
  // The link first: a reader follows it whether or not the continuation is deployed yet.
  await api.patch(vcPath(api, fullId), { description: describeJournal({ ...links, next: nextId }), updatedBy: user });
  return nextId;
}

/**
 * Deploys a continuation LIVE where the journal is read, after its first
 * entry (a collection is deployed only with an item): only entries too
 * large for their file's name are read through it. Another writer's
 * deployment of it (400 already LIVE) is the same.
 */
export async function deployContinuation(api: ApiClient, collectionId: string, envId: string, user: string): Promise<void> {
  try {
    await api.post(vcPath(api, collectionId, 'deployments'), { state: 'LIVE', createdBy: user, envId });
  } catch (error) {
    if (!(error instanceof ApiError && (error.status === 400 || error.status === 409))) throw error;
  }
}

/** A link of a journal's chain: the collection and the environment it is read in. */
export interface ChainLink {
  collectionId: string;
  envId?: string;
  /** Its collection, as the chain's read found it. */
  collection: Collection;
}

/**
 * The chain of collections of a journal, oldest first. The first must be
 * a marked journal (./journal-format's rules): history never reads a
 * content collection as one. `first`: its collection, already being read.
 */
export async function journalChain(api: ApiClient, journalId: string, first?: Promise<Collection | undefined>): Promise<ChainLink[]> {
  const chain: ChainLink[] = [];
  const seen = new Set<string>();
  let id: string | undefined = journalId;
  while (id && !seen.has(id)) {
    seen.add(id);
    const collection: Collection | undefined = chain.length === 0 && first ? await first : await readCollection(api, id);
    if (chain.length === 0) {
      const mark = journalMark(id, collection);
      if (!mark.marked) {
        if (mark.absent) throw new NotFoundError(`the journal ${journalId} does not exist: start it with \`ahs journal init ${journalId === DEFAULT_JOURNAL_ID ? '' : journalId}\`, or fix the journal setting (--journal, AHS_JOURNAL, profile key journal)`.replace(' `,', '`,'));
        throw new UsageError(`${mark.why}: history reads only a journal; start one with \`ahs journal init\`, or fix the journal setting (--journal, AHS_JOURNAL, profile key journal)`);
      }
    }
    if (!collection || !isJournalCollection(collection)) break;
    const links = parseJournalDescription(collection.description);
    chain.push({ collectionId: id, envId: links.envId, collection });
    id = links.next;
  }
  return chain;
}

/** A journal's chain as a run read it once, for its later reads of the same journal (readEntries fills it on its first). */
export interface KnownChain {
  links?: ChainLink[];
}

/** The delivery document of a journal collection and the base its files come from. */
async function readJournalDelivery(ctx: JournalContext, api: ApiClient, collectionId: string, envId: string): Promise<{ urls: Map<string, string>; deliveryBase: string; client: ApiClient }> {
  const { downloadUrl } = await api.get<{ downloadUrl: string }>(vcPath(api, collectionId, 'deployments', envId));
  const settings = await ctx.settings();
  const configured = settings.resolve('deliveryUrl').source === 'default' ? undefined : settings.get('deliveryUrl');
  const deliveryBase = configured ?? deliveryBaseOf(new URL(downloadUrl, api.baseUrl));
  const url = deliveryDocumentUrl(downloadUrl, api.baseUrl, deliveryBase);
  // Only the entries' URLs are used: checked here, not the whole document by its schema (a journal's lists thousands).
  // One client for the document and the contents: the connections the document opened carry the contents.
  const client = await ctx.deliveryClient(deliveryBase, ENTRY_READS);
  let doc: Partial<DeliveryDocument> | null;
  try {
    doc = await client.get<Partial<DeliveryDocument> | null>(url);
  } catch (error) {
    await client.close().catch(() => undefined);
    throw error;
  }
  const entries = doc?.assetItemUrls;
  if (!Array.isArray(entries)) await client.close().catch(() => undefined);
  if (!Array.isArray(entries)) throw new UsageError(`${url} did not answer with a collection delivery document (assetItemUrls: expected an array)`);
  const urls = new Map<string, string>();
  for (const entry of entries) {
    if (entry && typeof entry.assetItemId === 'string' && typeof entry.downloadUrl === 'string') urls.set(entry.assetItemId, entry.downloadUrl);
  }
  return { urls, deliveryBase, client };
}

/** Entry contents read at once (one connection each). */
const ENTRY_READS = 32;

/** A listing of a journal collection started early, over a range at least as wide as the one it will serve. */
export interface EarlyListing {
  range: EntryRange;
  items: Promise<unknown[]>;
}

/**
 * Starts the listing of `range` over the journal's own collection now
 * (history's relative range, sent beside the collection whose Date header
 * then puts the range on the service's clock): readEntries takes it when
 * it covers the range it is given, and lists again when it does not.
 */
export async function listEarly(ctx: Pick<JournalContext, 'api'>, journalId: string, range: EntryRange): Promise<EarlyListing> {
  const api = await ctx.api();
  const items = fetchAll<unknown>(api, vcPath(api, journalId, 'items'), rangeQuery(range));
  items.catch(() => undefined);
  return { range, items };
}

/** Whether a listing of `outer` holds every item of `inner` (an open end covers any). */
export function covers(outer: EntryRange, inner: EntryRange): boolean {
  const since = !outer.since || (inner.since !== undefined && inner.since.getTime() >= outer.since.getTime());
  const until = !outer.until || (inner.until !== undefined && inner.until.getTime() <= outer.until.getTime());
  return since && until;
}

/** The listing's date parameters of a range. */
function rangeQuery(range: EntryRange): Record<string, string | undefined> {
  return { startDate: range.since?.toISOString(), endDate: range.until?.toISOString() };
}

/** An item of the listing as the journal reads it: the fields it uses, checked (the listing is untrusted too). */
function listedItem(value: unknown): ListedItem | undefined {
  const item = value as Partial<ListedItem> | null;
  if (typeof item !== 'object' || item === null || typeof item.assetItemId !== 'string' || typeof item.createdAt !== 'string' || !Number.isFinite(Date.parse(item.createdAt))) return undefined;
  return {
    assetItemId: item.assetItemId,
    assetItemName: typeof item.assetItemName === 'string' ? item.assetItemName : '',
    createdAt: item.createdAt,
    createdBy: typeof item.createdBy === 'string' ? item.createdBy : '',
    ...(typeof item.fileName === 'string' ? { fileName: item.fileName } : {}),
  };
}

/**
 * The journal's entries in `range`, newest first, readable or not: the
 * items listing's startDate/endDate picks them, and the file name of each
 * carries its document (./journal-format.ts), so a range costs the pages
 * of its listing. An entry whose name does not carry it (an ahs/journal/v1
 * entry, one too large, a name a service shortened) is read from its
 * content through the delivery document, a chunk at a time, so a reader
 * that stops early (rollback, --limit) reads no more than it needs. The
 * listing of the journal runs beside the read of its collection: a range
 * of one collection takes two rounds (collection and listing's first
 * page, its other pages). `first`: the journal's collection, when the
 * caller is already reading it; or the chain the caller read (or wants
 * filled) for several ranges of one journal, whose collections are then
 * read once.
 */
export async function* readEntries(ctx: JournalContext, journalId: string, range: EntryRange = {}, first?: Promise<Collection | undefined> | KnownChain, early?: EarlyListing): AsyncGenerator<EntryRead> {
  const api = await ctx.api();
  const list = (collectionId: string) => fetchAll<unknown>(api, vcPath(api, collectionId, 'items'), rangeQuery(range));
  // A listing of the journal's own collection started before the range was known (listEarly), used when it covers it.
  const firstList = (early && covers(early.range, range) ? early.items : list(journalId)).then(
    (items) => ({ items }),
    (error: unknown) => ({ error }),
  );
  if (early && !covers(early.range, range)) early.items.catch(() => undefined);
  // A chain this run already read (a second range of the same journal): its collections are not read again.
  const known = first instanceof Promise ? undefined : first;
  const chain = known?.links ?? (await journalChain(api, journalId, (first instanceof Promise ? first : undefined) ?? readCollection(api, journalId)));
  if (known) known.links ??= chain;
  // Newest collection first: its entries are the newest.
  for (const link of [...chain].reverse()) {
    let listed: unknown[];
    if (link.collectionId === journalId) {
      const answered = await firstList;
      if ('error' in answered) throw answered.error;
      listed = answered.items;
    } else listed = await list(link.collectionId);
    const items: ListedItem[] = [];
    for (const value of listed) {
      const item = listedItem(value);
      if (item && inRange(item.createdAt, range)) items.push(item);
    }
    if (items.length === 0) continue;
    items.sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt) || (b.assetItemId < a.assetItemId ? -1 : b.assetItemId > a.assetItemId ? 1 : 0));
    yield* readItems(ctx, api, link, items);
  }
}

async function* readItems(ctx: JournalContext, api: ApiClient, link: ChainLink, items: ListedItem[]): AsyncGenerator<EntryRead> {
  let delivery: Awaited<ReturnType<typeof readJournalDelivery>> | undefined;
  try {
    for (let at = 0; at < items.length; ) {
      // The entries up to the next that needs its content come from the names alone.
      const named: EntryRead[] = [];
      while (at < items.length) {
        const item = items[at]!;
        const fromName = readFileName(item.fileName).doc;
        if (!fromName) break;
        named.push(entryOf(fromName, item, link.collectionId));
        at++;
      }
      yield* named;
      if (at >= items.length) break;
      // A chunk of entries read from their content, at once.
      const chunk: ListedItem[] = [];
      while (at < items.length && chunk.length < ENTRY_READS && !readFileName(items[at]!.fileName).doc) chunk.push(items[at++]!);
      if (!link.envId) {
        for (const item of chunk) yield unreadable(item, link.collectionId, `its content cannot be read: the journal collection ${link.collectionId} names no environment it is read in (ahs journal init --env ENV)`);
        continue;
      }
      delivery ??= await readJournalDelivery(ctx, api, link.collectionId, link.envId);
      const { urls, deliveryBase, client } = delivery;
      const documents = new Map<string, { content: unknown } | { error: string }>();
      await eachLimited(chunk, ENTRY_READS, ctx.signal, async (item) => {
        const path = urls.get(item.assetItemId);
        if (!path) return;
        try {
          documents.set(item.assetItemId, { content: await client.get<unknown>(deliveryFileUrl(deliveryBase, path)) });
        } catch (error) {
          if (ctx.signal.aborted) throw error;
          documents.set(item.assetItemId, { error: `its content could not be read (${(error as Error).message.slice(0, 120)})` });
        }
      });
      for (const item of chunk) {
        const read = documents.get(item.assetItemId);
        if (!read) {
          yield unreadable(item, link.collectionId, `its content is not in ${link.collectionId}'s delivery document (deployed before it was added?)`);
          continue;
        }
        if ('error' in read) {
          yield unreadable(item, link.collectionId, read.error);
          continue;
        }
        const parsed = parseEntry(read.content);
        yield parsed.ok ? entryOf(parsed.doc, item, link.collectionId) : unreadable(item, link.collectionId, parsed.reason);
      }
    }
  } finally {
    await delivery?.client.close().catch(() => undefined);
  }
}

function entryOf(doc: EntryDocument, item: ListedItem, collectionId: string): JournalEntry {
  return { ...doc, createdAt: item.createdAt, createdBy: item.createdBy, itemId: item.assetItemId, itemName: item.assetItemName, collectionId };
}

function unreadable(item: ListedItem, collectionId: string, reason: string): UnreadableEntry {
  return { unreadable: true, reason, createdAt: item.createdAt, createdBy: item.createdBy, itemId: item.assetItemId, itemName: item.assetItemName, collectionId };
}

function inRange(createdAt: string, range: EntryRange): boolean {
  const time = Date.parse(createdAt);
  if (range.since && time < range.since.getTime()) return false;
  if (range.until && time > range.until.getTime()) return false;
  return true;
}

/** Whether `value` is an entry's document (of either version) by the format's schema. */
export function isEntryDocument(value: unknown): value is EntryDocument {
  return parseEntry(value).ok;
}
