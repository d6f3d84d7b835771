// The path of a raw request (`ahs api PATH`, the library's request()): the
// spec's endpoints are all under /api/v2/{domainId}/.
import { UsageError } from '../errors.js';

/**
 * The request path: `/api/v2/...` as given, anything else under `/api/v2/`;
 * `{domainId}` filled, and put in front of a path that starts with a
 * resource of the domain (`va/...`, `vc/...`: every endpoint of the spec is
 * under the domain), as `gh api` fills the repository. Another placeholder
 * (`{assetId}`) is the user's to fill: refused rather than sent as is.
 */
export function pathOf(raw: string, domainId: string): string {
  if (/^https?:\/\//i.test(raw)) throw new UsageError(`PATH is a path of the API, not a URL (got ${raw}): the base URL comes from --base-url / AHS_BASE_URL / the profile`);
  const filled = raw.replace(/\{domainId\}/g, encodeURIComponent(domainId));
  const left = /\{[^}]*\}/.exec(filled);
  if (left) throw new UsageError(`PATH: ${left[0]} is not filled by ahs (only {domainId} is); put the value in the path`);
  const path = filled.startsWith('/') ? filled : `/${filled}`;
  if (path.startsWith('/api/')) return path;
  return /^\/(va|vc)(\/|\?|$)/.test(path) ? `/api/v2/${encodeURIComponent(domainId)}${path}` : `/api/v2${path}`;
}
