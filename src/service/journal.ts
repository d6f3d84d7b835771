// The journal (cli.md, "Memory: the journal and `ahs history`"): the team's
// shared memory of writes, kept in the service itself. One collection
// (allowed type 9999), Live in one environment so that its entries are read
// through its delivery document; each entry is an item of its own (two runs
// at once never conflict), named by UTC time and command, whose content is
// a JSON document. The entry's time and author are the service's
// `createdAt`/`createdBy` of that item: never a runner's clock.
//
// A journal that reaches its maxAssets continues in a new collection; the
// old one's description names it (`next=ID`), and reads follow the links.
import type { ServiceContext } from './context.js';
import type { ApiClient } from '../http/client.js';
import { ApiError, NotFoundError, UsageError } from '../errors.js';
import type { Item, DeliveryDocument } from '../rules/schemas.js';
import { OTHER_ASSET_TYPE } from '../rules/collections.js';
import { fetchAll } from '../http/paging.js';
import { eachLimited } from '../util/pool.js';
import { readCollection, vcPath } from './collections.js';
import { deliveryBaseOf, deliveryDocumentUrl, deliveryFileUrl } from './delivery.js';

export const JOURNAL_API_VERSION = 'ahs/journal/v1';
export const DEFAULT_JOURNAL_ID = 'ahs-journal';
/** The asset type of every entry (Other). */
export const JOURNAL_ASSET_TYPE = OTHER_ASSET_TYPE;

/**
 * One change, in the shared address scheme (`asset.A`, `version.A.V`,
 * `channel.A.P.E`, `collection.C`, `collection.C.deployment.E`,
 * `item.C.NAME`). A value the service assigns and nobody knew is null, named
 * in `unknownAfter`.
 */
export interface Change {
  address: string;
  before: unknown;
  after: unknown;
  unknownAfter?: string[];
  /** The fields of `before` nobody read (null there): a write that read nothing first. */
  unknownBefore?: string[];
}

export interface CiRun {
  runUrl?: string;
  sha?: string;
  ref?: string;
}

/** The content of an entry: what ahs writes. */
export interface EntryDocument {
  apiVersion: typeof JOURNAL_API_VERSION;
  command: string;
  /** The command line's arguments (never the key). */
  arguments: string[];
  /** The acting user (the entry item's createdBy). */
  actor: string;
  ci?: CiRun;
  changes: Change[];
  outcome: 'applied' | 'unknown';
  exitCode: number;
  /** Free-form, filled by rollouts; kept as given. */
  rollout?: Record<string, unknown>;
}

/** An entry as read back: its document, and the service's time and author. */
export interface JournalEntry extends EntryDocument {
  /** The service's createdAt of the entry's item: the entry's time. */
  createdAt: string;
  /** The service's createdBy of the entry's item: the entry's author. */
  createdBy: string;
  itemId: string;
  itemName: string;
  /** The collection that holds it (the journal, or one it continues in). */
  collectionId: string;
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
  return ['ahs journal', links.envId ? `env=${links.envId}` : undefined, links.next ? `next=${links.next}` : undefined].filter(Boolean).join('; ');
}

export function parseJournalDescription(description: string | undefined | null): JournalLinks {
  const text = description ?? '';
  const envId = /(?:^|;\s*)env=([^;\s]+)/.exec(text)?.[1];
  const next = /(?:^|;\s*)next=([^;\s]+)/.exec(text)?.[1];
  return { ...(envId ? { envId } : {}), ...(next ? { next } : {}) };
}

/** A multipart body of one small in-memory file. */
function memoryMultipart(fields: Record<string, string>, fileName: string, content: string) {
  const boundary = `----ahsjournal${Math.random().toString(36).slice(2)}${Date.now().toString(36)}`;
  let head = '';
  for (const [name, value] of Object.entries(fields)) head += `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  head += `--${boundary}\r\nContent-Disposition: form-data; name="assetFile"; filename="${fileName}"\r\nContent-Type: application/json\r\n\r\n`;
  const whole = Buffer.concat([Buffer.from(head, 'utf8'), Buffer.from(content, 'utf8'), Buffer.from(`\r\n--${boundary}--\r\n`, 'utf8')]);
  return {
    contentType: `multipart/form-data; boundary=${boundary}`,
    length: whole.length,
    async *open() {
      yield whole;
    },
    whole: () => whole,
  };
}

/** POSTs one entry item to `collectionId`: one round trip. */
export async function postEntry(api: ApiClient, collectionId: string, doc: EntryDocument, at: Date = new Date()): Promise<Item> {
  const stream = memoryMultipart({ assetItemName: entryName(doc.command, at), assetType: JOURNAL_ASSET_TYPE, createdBy: doc.actor }, 'entry.json', JSON.stringify(doc));
  return api.json<Item>({ method: 'POST', path: vcPath(api, collectionId, 'items'), stream });
}

/** A 400 of the items endpoint that says the collection is full. */
function isFull(error: unknown): boolean {
  return error instanceof ApiError && error.status === 400 && /limit|maxAssets|full/i.test(`${error.message} ${JSON.stringify(error.body ?? '')}`);
}

/**
 * Appends one entry to the journal `journalId` (or the collection it
 * continues in): one round trip while the journal has room. A full journal
 * continues in a new collection, created, deployed in the same environment
 * and linked from the full one. Throws what the service answered.
 */
export async function appendEntry(ctx: JournalContext, journalId: string, doc: EntryDocument): Promise<{ item: Item; collectionId: string }> {
  const api = await ctx.api();
  let collectionId = journalId;
  for (let hops = 0; hops < 1000; hops++) {
    try {
      return { item: await postEntry(api, collectionId, doc), collectionId };
    } catch (error) {
      if (!isFull(error)) throw error;
    }
    const collection = await readCollection(api, collectionId);
    const links = parseJournalDescription(collection?.description);
    if (links.next) {
      collectionId = links.next;
      continue;
    }
    return continueJournal(api, collectionId, links, doc);
  }
  throw new UsageError(`the journal ${journalId} links on and on: fix its collections' descriptions (next=ID)`);
}

/** The id of the collection a full journal `id` continues in: `ahs-journal` → `ahs-journal--2` → `ahs-journal--3`. */
export function nextJournalId(id: string): string {
  const match = /^(.*)--(\d+)$/.exec(id);
  const [base, number] = match ? [match[1]!, Number(match[2]) + 1] : [id, 2];
  const suffix = `--${number}`;
  return `${base.slice(0, 50 - suffix.length)}${suffix}`;
}

async function continueJournal(api: ApiClient, fullId: string, links: JournalLinks, doc: EntryDocument): Promise<{ item: Item; collectionId: string }> {
  const nextId = nextJournalId(fullId);
  const user = doc.actor;
  if (!(await readCollection(api, nextId))) {
    await api.post(api.path('vc'), {
      collectionId: nextId,
      collectionName: nextId.slice(0, 50),
      description: describeJournal({ envId: links.envId }),
      allowedAssetTypes: [JOURNAL_ASSET_TYPE],
      createdBy: user,
      updatedBy: user,
    });
  }
  const item = await postEntry(api, nextId, doc);
  if (links.envId) await api.post(vcPath(api, nextId, 'deployments'), { state: 'LIVE', createdBy: user, envId: links.envId });
  await api.patch(vcPath(api, fullId), { description: describeJournal({ ...links, next: nextId }), updatedBy: user });
  return { item, collectionId: nextId };
}

/** The chain of collections of a journal, oldest first, with the environment each is read in. */
export async function journalChain(api: ApiClient, journalId: string): Promise<Array<{ collectionId: string; envId?: string }>> {
  const chain: Array<{ collectionId: string; envId?: string }> = [];
  const seen = new Set<string>();
  let id: string | undefined = journalId;
  while (id && !seen.has(id)) {
    seen.add(id);
    const collection = await readCollection(api, id);
    if (!collection) {
      if (chain.length === 0) throw new NotFoundError(`the journal ${journalId} does not exist: start it with \`ahs journal init ${journalId === DEFAULT_JOURNAL_ID ? '' : journalId}\`, or fix the journal setting (--journal, AHS_JOURNAL, profile key journal)`.replace(' `,', '`,'));
      break;
    }
    const links = parseJournalDescription(collection.description);
    chain.push({ collectionId: id, envId: links.envId });
    id = links.next;
  }
  return chain;
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

/** Entry contents read at once (one connection each): a day's entries in one round. */
const ENTRY_READS = 32;

/** The listing's date parameters of a range. */
function rangeQuery(range: EntryRange): Record<string, string | undefined> {
  return { startDate: range.since?.toISOString(), endDate: range.until?.toISOString() };
}

/** Entries whose content is read at once: a reader that stops early (rollback, --limit) reads no more than it needs. */
const ENTRY_CHUNK = ENTRY_READS;

/**
 * The journal's entries in `range`, newest first: the items listing's
 * startDate/endDate picks them (only those in range are read), their
 * content comes through the delivery document, read in parallel, a chunk
 * at a time. The listing of the journal runs beside the read of its
 * collection (the environment it is read in, the collection it continues
 * in): a range of one collection takes four rounds (collection and
 * listing, deployed URL, delivery document, contents). An item that is not
 * a journal entry is skipped.
 */
export async function* readEntries(ctx: JournalContext, journalId: string, range: EntryRange = {}): AsyncGenerator<JournalEntry> {
  const api = await ctx.api();
  const list = (collectionId: string) => fetchAll<Item>(api, vcPath(api, collectionId, 'items'), rangeQuery(range));
  const firstList = list(journalId).then(
    (items) => ({ items }),
    (error: unknown) => ({ error }),
  );
  const chain = await journalChain(api, journalId);
  // Newest collection first: its entries are the newest.
  for (const link of chain.reverse()) {
    let listed: Item[];
    if (link.collectionId === journalId) {
      const first = await firstList;
      if ('error' in first) throw first.error;
      listed = first.items;
    } else listed = await list(link.collectionId);
    const items = listed.filter((item) => inRange(item.createdAt, range));
    if (items.length === 0) continue;
    if (!link.envId) throw new UsageError(`the journal collection ${link.collectionId} names no environment it is read in: run \`ahs journal init ${journalId} --env ENV\` again`);
    const { urls, deliveryBase, client } = await readJournalDelivery(ctx, api, link.collectionId, link.envId);
    items.sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt) || (b.assetItemId < a.assetItemId ? -1 : 1));
    try {
      for (let at = 0; at < items.length; at += ENTRY_CHUNK) {
        const chunk = items.slice(at, at + ENTRY_CHUNK);
        const documents = new Map<string, unknown>();
        await eachLimited(chunk, ENTRY_READS, ctx.signal, async (item) => {
          const path = urls.get(item.assetItemId);
          if (!path) return;
          documents.set(item.assetItemId, await client.get<unknown>(deliveryFileUrl(deliveryBase, path)));
        });
        for (const item of chunk) {
          const content = documents.get(item.assetItemId);
          if (!isEntryDocument(content)) continue;
          yield { ...content, createdAt: item.createdAt, createdBy: item.createdBy, itemId: item.assetItemId, itemName: item.assetItemName, collectionId: link.collectionId };
        }
      }
    } finally {
      await client.close().catch(() => undefined);
    }
  }
}

function inRange(createdAt: string, range: EntryRange): boolean {
  const time = Date.parse(createdAt);
  if (range.since && time < range.since.getTime()) return false;
  if (range.until && time > range.until.getTime()) return false;
  return true;
}

export function isEntryDocument(value: unknown): value is EntryDocument {
  const doc = value as EntryDocument | null;
  return typeof doc === 'object' && doc !== null && doc.apiVersion === JOURNAL_API_VERSION && typeof doc.command === 'string' && Array.isArray(doc.changes);
}
