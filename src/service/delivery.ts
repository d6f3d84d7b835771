// Reads of the delivery network, shared by fetch, verify, item sync
// --checksum and release: where a deployed collection's document is, the
// URL of each file, a client that sends the API key only to the configured
// service's hosts, and the files' bytes streamed and hashed (never written).
import type { ServiceContext } from './context.js';
import type { ApiClient } from '../http/client.js';
import { CancelledError, UsageError } from '../errors.js';
import { deliveryDocument, type DeliveryDocument } from '../rules/schemas.js';
import { UnsafePathError } from '../transfer/safe-name.js';
import { DEFAULT_CONCURRENCY, hashAll, type DownloadTask, type HashSummary } from '../transfer/download.js';
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
  // Already on the delivery URL (a CDN at https://cdn.example/assets giving https://cdn.example/assets/...): as it is.
  if (onDeliveryUrl(downloadUrl, deliveryBase)) return downloadUrl;
  const served = new URL(downloadUrl, apiBase);
  const prefix = deliveryBaseOf(served).slice(served.origin.length);
  return `${deliveryBase.replace(/\/+$/, '')}${served.pathname.slice(prefix.length)}${served.search}`;
}

/** The spec's delivery path segment: everything before it in a download URL is the delivery URL (cli.md, "Reading the service"). */
const DELIVERY_PATH = '/api/vi/';

/**
 * The file of a delivery document entry (or any download URL) on the
 * delivery URL `base`: the spec's form is a path fetched at
 * `{deliveryUrl}/api/vi{downloadUrl}`; a service may give an absolute URL
 * instead, or a path that already carries the delivery path (with or
 * without base's prefix): then only its part from /api/vi/ on is kept and
 * `base` goes before it. A path that tries to reach another host, or to
 * climb out of the delivery path, stays on the delivery host or is refused.
 */
export function deliveryFileUrl(base: string, downloadUrl: string): string {
  if (onDeliveryUrl(downloadUrl, base)) return downloadUrl;
  const origin = new URL(base);
  const prefix = origin.pathname.replace(/\/+$/, '');
  const queryAt = downloadUrl.indexOf('?');
  const [pathPart, query] = queryAt < 0 ? [downloadUrl, ''] : [downloadUrl.slice(0, queryAt), downloadUrl.slice(queryAt)];
  const path = pathPart.startsWith('/') ? pathPart : `/${pathPart}`;
  const kept = keptDeliveryPath(path, prefix);
  const url = new URL(origin.origin);
  url.pathname = `${prefix}${kept}`;
  // `..` (plain or encoded) must not climb out of the delivery path onto the API's.
  if (!url.pathname.startsWith(`${prefix}${DELIVERY_PATH}`) || /(^|\/)(\.|%2e){2}(\/|$)/i.test(kept)) {
    throw new UnsafePathError(`refusing download path ${JSON.stringify(downloadUrl)}: it leaves the delivery path`);
  }
  return url.toString() + (query && !url.search ? query : '');
}

/**
 * An absolute http(s) URL that starts with the delivery URL `base` (its
 * scheme, host, port and whole path prefix, up to a segment's end): it is
 * already where the files are, and is used as it is (cli.md, "Reading the
 * service"). A relative path never is: it is joined to `base`.
 */
export function onDeliveryUrl(downloadUrl: string, base: string): boolean {
  if (!/^https?:\/\//i.test(downloadUrl)) return false;
  const url = safeUrl(downloadUrl);
  const delivery = safeUrl(base);
  if (!url || !delivery || url.origin !== delivery.origin) return false;
  const prefix = delivery.pathname.replace(/\/+$/, '');
  // No `..` may climb back out of the prefix.
  if (/(^|\/)(\.|%2e){2}(\/|$|\?|#)/i.test(downloadUrl)) return false;
  return url.pathname === prefix || url.pathname.startsWith(`${prefix}/`);
}

/** `/api/vi/...`: from an absolute URL, its path from /api/vi/ on; from a path, the same when it starts there (after base's prefix); else /api/vi + the path. */
function keptDeliveryPath(path: string, prefix: string): string {
  const absolute = /^\/*[a-z][a-z0-9+.-]*:\/\//i.exec(path) ? safeUrl(path.replace(/^\/+/, '')) : undefined;
  if (absolute) {
    const at = absolute.pathname.indexOf(DELIVERY_PATH);
    return at < 0 ? `/api/vi${absolute.pathname}` : absolute.pathname.slice(at);
  }
  if (path.startsWith(DELIVERY_PATH)) return path;
  if (prefix && path.startsWith(`${prefix}${DELIVERY_PATH}`)) return path.slice(prefix.length);
  return `/api/vi${path}`;
}

function safeUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

/** The delivery URL the user set (flag, environment or profile); undefined when it is the default (the API's host). */
export async function configuredDeliveryUrl(ctx: ServiceContext): Promise<string | undefined> {
  const settings = await ctx.settings();
  return settings.resolve('deliveryUrl').source === 'default' ? undefined : settings.get('deliveryUrl');
}

/**
 * Where to download what a download URL of the API names (a version's
 * asset-urls `downloadUrl`, a collection's deployed URL): on the delivery
 * URL set, when there is one (the URL's path from /api/vi/ on, cli.md),
 * else as served (a relative URL on the API's host).
 */
export async function servedUrl(ctx: ServiceContext, api: ApiClient, downloadUrl: string): Promise<{ url: string; deliveryBase: string }> {
  const deliveryBase = (await configuredDeliveryUrl(ctx)) ?? deliveryBaseOf(new URL(downloadUrl, api.baseUrl));
  return { url: deliveryDocumentUrl(downloadUrl, api.baseUrl, deliveryBase), deliveryBase };
}

export async function readDelivery(ctx: ServiceContext, url: string): Promise<DeliveryDocument> {
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
export async function readDeployedCollection(ctx: ServiceContext, collectionId: string, envId: string): Promise<{ doc: DeliveryDocument; deliveryBase: string }> {
  const api = await ctx.api();
  const { downloadUrl } = await readNamingCollection(api, collectionId, () => api.get<{ downloadUrl: string }>(vcPath(api, collectionId, 'deployments', envId)));
  // The deployed URL says where the service delivers, unless a delivery URL was set (its default is the API's host).
  const { url, deliveryBase } = await servedUrl(ctx, api, downloadUrl);
  return { doc: await readDelivery(ctx, url), deliveryBase };
}

/**
 * The SHA-256 of each task's file as the delivery network serves it,
 * downloaded in parallel (one connection per download in flight), hashed
 * as it streams and never written; progress on stderr as fetch shows it.
 * Tasks may name several hosts (a version's downloadUrl is absolute): one
 * client per origin, each deciding alone whether the key goes with it.
 */
export async function hashServed(ctx: ServiceContext, tasks: DownloadTask[], options: { label: string; concurrency?: number }): Promise<HashSummary> {
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
  const progress = await ctx.multiProgress({
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
