// `ahs api METHOD PATH`: any endpoint of the spec, as `gh api`: for what the
// commands do not cover yet.
import { arg, command, defineCommand, flag, SERVICE } from '../define.js';

export const apiSpec = defineCommand({
  name: 'api',
  uses: SERVICE,
  summary: 'send any request of the API with the profile\'s base URL, domain and key; print the JSON answer',
  description:
    'PATH is a path of the spec: /api/v2/{domainId}/va, or the same without /api/v2 ({domainId}/va, /{domainId}/va), or without the domain either (va, /vc/launch-pack); ' +
    '{domainId} is filled from --domain / AHS_DOMAIN / the profile. The key is sent as every command sends it, and never printed (--verbose traces it as ***).',
  args: {
    method: arg.required('METHOD', 'GET, POST, PUT, PATCH or DELETE'),
    path: arg.required('PATH', 'the endpoint path, e.g. {domainId}/va/my-bundle/versions'),
  },
  flags: {
    field: flag.list('key=value', 'a field of the JSON body (GET: a query parameter): key=text is a string, key:=JSON a JSON value (5, true, ["9999"]); repeatable'),
    input: flag.text('file', 'the request body, a JSON document, from FILE (- for stdin); --field values then go to the query'),
    paginate: flag.bool('GET of a list: read every page and print one list envelope {totalResults, pageNumber: 1, pageSize, results}'),
  },
  examples: [
    "ahs api GET '{domainId}/va/my-bundle'",
    '# every version of an asset, one list',
    "ahs api GET '{domainId}/va/my-bundle/versions' --paginate --query 'results[].versionId'",
    '# a JSON body from fields',
    "ahs api POST '{domainId}/vc/launch-pack/deployments' --field state=LIVE --field createdBy=me@example.com --field envId=prod",
    '# a JSON value: key:=JSON',
    "ahs api PATCH '{domainId}/vc/launch-pack' --field maxAssets:=200 --field updatedBy=me@example.com",
    '# a JSON body from a file',
    "ahs api PATCH '{domainId}/vc/launch-pack' --input patch.json",
  ],
  notes: [
    'Exit codes as for every command: 3 for a 403, 4 for a 404, 5 for a 409, 1 for another error answer, 6 for the network.',
    'A write is sent once (never retried); --dry-run prints the request and sends nothing.',
    'JSON output: the answer body unchanged (nothing for an empty answer); with --paginate, the list envelope.',
  ].join('\n'),
});

export const api = command(apiSpec, () => import('./api.js'));
