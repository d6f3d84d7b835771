// Reads of the delivery network, shared by fetch, verify, item sync
// --checksum and release: where a deployed collection's document is, the
// URL of each file, a client that sends the API key only to the configured
// service's hosts, and the files' bytes streamed and hashed (never written).
import type { Context } from '../context.js';
import type { ApiClient } from '../http/client.js';
import { CancelledError, UsageError } from '../errors.js';
import { deliveryDocument, type DeliveryDocument } from '../rules/schemas.js';
import { UnsafePathError } from '../transfer/safe-name.js';
import { DEFAULT_CONCURRENCY, hashAll, type DownloadTask, type HashSummary } from '../transfer/download.js';
import { createMultiProgress } from '../io/progress.js';
import { readNamingCollection, vcPath } from './collections.js';

/**
 * The delivery URL a collection's deployed URL was made from
 * (`{deliveryUrl}/api/vi/...`): a service may serve delivery under a path
 * prefix, which the origin alone would lose.
 */
export function deliveryBaseOf(url: URL): string {
  const at = url.pathname.indexOf('/api/vi/');
  return at < 0 ? url.origin : `${url.origin}${url.pathname.slice(0, at)}`;
}

/**
 * Where to read a deployed collection's delivery document: the deployed URL
 * the service gave (absolute, or relative to the API), its {deliveryUrl}
 * (scheme, host and the path prefix before /api/vi/) replaced by
 * `deliveryBase`. With a delivery URL set (an alias host of the network),
 * the document comes from that host like the files do, and the key the
 * user meant for it goes with it; `new URL(absolute, base)` ignored the base.
 */
export function deliveryDocumentUrl(downloadUrl: string, apiBase: string, deliveryBase: string): string {
  const served = new URL(downloadUrl, apiBase);
  const prefix = deliveryBaseOf(served).slice(served.origin.length);
  return `${deliveryBase.replace(/\/+$/, '')}${served.pathname.slice(prefix.length)}${served.search}`;
}

/** {deliveryUrl}/api/vi{downloadUrl}; a path that tries to reach another host stays on the delivery host. */
export function deliveryFileUrl(base: string, downloadPath: string): string {
  const origin = new URL(base);
  const prefix = origin.pathname.replace(/\/+$/, '');
  const path = downloadPath.startsWith('/') ? downloadPath : `/${downloadPath}`;
  const url = new URL(origin.origin);
  url.pathname = `${prefix}/api/vi${path.split('?')[0]}`;
  // `..` (plain or encoded) must not climb out of the delivery path onto the API's.
  if (!url.pathname.startsWith(`${prefix}/api/vi/`) || /(^|\/)(\.|%2e){2}(\/|$)/i.test(path.split('?')[0]!)) {
    throw new UnsafePathError(`refusing download path ${JSON.stringify(downloadPath)}: it leaves the delivery path`);
  }
  const query = path.includes('?') ? path.slice(path.indexOf('?')) : '';
  return url.toString() + (query && !url.search ? query : '');
}

export async function readDelivery(ctx: Context, url: string): Promise<DeliveryDocument> {
  const client = await ctx.deliveryClient(new URL(url).origin);
  try {
    const raw = await client.get<unknown>(url);
    const parsed = deliveryDocument.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new UsageError(`${url} did not answer with a collection delivery document (${issue ? `${issue.path.join('.') || 'body'}: ${issue.message}` : 'unexpected shape'})`);
    }
    return parsed.data;
  } finally {
    await client.close();
  }
}

/**
 * A collection deployed in an environment: its delivery document and the
 * delivery URL its files come from (the configured one when set, else the
 * one the deployed URL names). Not deployed there: the service's error.
 */
export async function readDeployedCollection(ctx: Context, collectionId: string, envId: string): Promise<{ doc: DeliveryDocument; deliveryBase: string }> {
  const api = await ctx.api();
  const { downloadUrl } = await readNamingCollection(api, collectionId, () => api.get<{ downloadUrl: string }>(vcPath(api, collectionId, 'deployments', envId)));
  const settings = await ctx.settings();
  // The deployed URL says where the service delivers, unless a delivery URL was set (its default is the API's host).
  const configured = settings.resolve('deliveryUrl').source === 'default' ? undefined : settings.get('deliveryUrl');
  const deliveryBase = configured ?? deliveryBaseOf(new URL(downloadUrl, api.baseUrl));
  return { doc: await readDelivery(ctx, deliveryDocumentUrl(downloadUrl, api.baseUrl, deliveryBase)), deliveryBase };
}

/**
 * The SHA-256 of each task's file as the delivery network serves it,
 * downloaded in parallel (one connection per download in flight), hashed
 * as it streams and never written; progress on stderr as fetch shows it.
 * Tasks may name several hosts (a version's downloadUrl is absolute): one
 * client per origin, each deciding alone whether the key goes with it.
 */
export async function hashServed(ctx: Context, tasks: DownloadTask[], options: { label: string; concurrency?: number }): Promise<HashSummary> {
  if (tasks.length === 0) return { hashed: [], failed: [] };
  const out = await ctx.output();
  const concurrency = Math.max(1, Math.floor(options.concurrency ?? DEFAULT_CONCURRENCY));
  const clients = new Map<string, Promise<ApiClient>>();
  const clientFor = (url: string) => {
    const origin = new URL(url).origin;
    let client = clients.get(origin);
    if (!client) clients.set(origin, (client = ctx.deliveryClient(origin, concurrency)));
    return client;
  };
  const allKnown = tasks.every((t) => t.expectedSize !== undefined);
  const progress = createMultiProgress(ctx.io, {
    label: options.label,
    total: allKnown ? tasks.reduce((sum, t) => sum + (t.expectedSize ?? 0), 0) : undefined,
    files: tasks.length,
    quiet: ctx.globals.quiet,
    live: ctx.globals.verbose ? false : undefined,
  });
  try {
    return await hashAll(tasks, {
      concurrency,
      signal: ctx.signal,
      open: async (task) => {
        const response = await (await clientFor(task.url)).send({ method: 'GET', path: task.url, headers: { accept: '*/*' } });
        return { status: response.status, headers: response.headers, body: response.body };
      },
      onEvent: (event) => {
        if (event.type === 'start') progress.start(event.task.id, event.task.name, event.size);
        else if (event.type === 'progress') progress.update(event.task.id, event.bytes, event.size);
        else if (event.type === 'done') progress.finish(event.task.id);
        else if (event.type === 'failed') {
          progress.finish(event.task.id);
          progress.log(() => out.warn(`${event.task.name} (${event.task.id}): ${event.error.message}`));
        }
      },
    });
  } catch (error) {
    if (error instanceof CancelledError) throw new CancelledError('interrupted; nothing was written');
    throw error;
  } finally {
    progress.stop();
    await Promise.all([...clients.values()].map(async (client) => (await client).close().catch(() => {})));
  }
}
