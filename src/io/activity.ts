// What a request is doing, in the user's terms, for the spinner (issue 24):
// `GET /va/game-1/asset-urls?targetPlatform=ios&envId=prod` is "reading
// channel game-1/ios/prod", a deploy with intent DEFAULT "promoting IOS1 on
// game-1/ios/prod". The one place that knows the API's paths as a person
// would name them; a request it does not know keeps its method and path.

export interface RequestShape {
  method: string;
  /** The path after /api/v2/{domainId} (decoded), e.g. /va/game-1/versions. */
  path: string;
  query: URLSearchParams;
  body?: unknown;
}

export function activityOf({ method, path, query, body }: RequestShape): string {
  const parts = path.split('/').filter(Boolean);
  const words = parts[0] === 'va' ? assetActivity(method, parts.slice(1), query, body) : parts[0] === 'vc' ? collectionActivity(method, parts.slice(1), query, body) : undefined;
  if (!words) return `${method} ${path}`;
  const page = Number(query.get('pageNumber') ?? query.get('page') ?? '1');
  return page > 1 ? `${words} (page ${page})` : words;
}

function field(body: unknown, name: string): string | undefined {
  const value = body && typeof body === 'object' ? (body as Record<string, unknown>)[name] : undefined;
  return typeof value === 'string' ? value : undefined;
}

function assetActivity(method: string, [assetId, sub, versionId, leaf]: string[], query: URLSearchParams, body: unknown): string | undefined {
  if (assetId === undefined) return method === 'GET' ? 'reading assets' : method === 'POST' ? `creating asset ${field(body, 'assetId') ?? ''}`.trim() : undefined;
  if (assetId === 'search' && sub === undefined) return `searching assets${query.get('text') ? ` for "${query.get('text')}"` : ''}`;
  if (sub === undefined) return ({ GET: `reading asset ${assetId}`, PUT: `updating asset ${assetId}`, DELETE: `deleting asset ${assetId}` } as Record<string, string>)[method];
  if (sub === 'asset-urls') {
    const platform = query.get('targetPlatform');
    const envId = query.get('envId');
    if (platform && envId) return `reading channel ${assetId}/${platform}/${envId}`;
    return `reading the deployments of ${assetId}${envId ? ` in ${envId}` : platform ? ` on ${platform}` : ''}`;
  }
  if (sub === 'version-count') return `counting the versions of ${assetId}`;
  if (sub === 'undeploy') return `undeploying ${assetId} from ${field(body, 'envId') ?? 'an environment'}`;
  if (sub !== 'versions') return undefined;
  if (versionId === undefined) return method === 'POST' ? `uploading a ${query.get('targetPlatformId') ?? ''} version of ${assetId}`.replace('a  version', 'a version') : `reading the versions of ${assetId}`;
  if (leaf === 'asset-urls') return `reading the deployed URL of ${versionId}${query.get('envId') ? ` in ${query.get('envId')}` : ''}`;
  if (leaf === 'deploy') {
    const channel = `${assetId}/${query.get('targetPlatformId') ?? '?'}/${field(body, 'envId') ?? '?'}`;
    const intent = field(body, 'intent');
    if (intent === 'DEFAULT') return `promoting ${versionId} to Default of ${channel}`;
    if (intent === 'OFFLINE') return `taking ${versionId} OFFLINE on ${channel}`;
    return `deploying ${versionId} ${intent ?? ''} on ${channel}`.replace(/ {2}/g, ' ');
  }
  if (leaf !== undefined) return undefined;
  return ({ GET: `reading version ${versionId} of ${assetId}`, DELETE: `deleting version ${versionId} of ${assetId}` } as Record<string, string>)[method];
}

function collectionActivity(method: string, [collectionId, sub, id, ...rest]: string[], query: URLSearchParams, body: unknown): string | undefined {
  if (rest.length > 0) return undefined;
  if (collectionId === undefined) return method === 'GET' ? 'reading collections' : method === 'POST' ? `creating collection ${field(body, 'collectionId') ?? ''}`.trim() : undefined;
  if (sub === undefined) {
    return ({ GET: `reading collection ${collectionId}`, PATCH: `updating collection ${collectionId}`, DELETE: `deleting collection ${collectionId}` } as Record<string, string>)[method];
  }
  if (sub === 'restore' || sub === 'purge') return `${sub === 'restore' ? 'restoring' : 'purging'} collection ${collectionId}`;
  if (sub === 'items') {
    if (id === undefined) return method === 'POST' ? `uploading an item to ${collectionId}` : `reading the items of ${collectionId}`;
    return method === 'DELETE' ? `removing item ${id} from ${collectionId}` : `reading item ${id} of ${collectionId}`;
  }
  if (sub !== 'deployments') return undefined;
  if (id !== undefined) return method === 'DELETE' ? `undeploying ${collectionId} from ${id}` : `reading the URL of ${collectionId} in ${id}`;
  if (method === 'GET') return `reading the deployments of ${collectionId}`;
  if (query.get('reconcile') === 'true') return `re-running the Live deployments of ${collectionId}`;
  const envId = field(body, 'envId');
  return `deploying ${collectionId} ${field(body, 'state') ?? 'LIVE'}${envId ? ` in ${envId}` : ''}`;
}
