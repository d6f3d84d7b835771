// Saved plans (issue 18.4; Terraform's planfile): a Plan's steps as a JSON
// document that can be reviewed, stored by CI, rendered offline and applied
// later. It names the service (base URL and domain, never the key), the files
// it would upload by SHA-256, and every read the planning made with a
// fingerprint of its answer. Before a saved plan is applied, checkStale()
// reads all of them again and re-hashes the files: when anything moved, the
// plan is stale and nothing is sent (exit 5), because its steps were decided
// over a service (or files) that no longer exist.
import { createHash } from 'node:crypto';
import { fileSha256 } from '../transfer/digest.js';
import { z } from 'zod';
import { ConflictError, UsageError } from '../errors.js';
import type { ApiClient, ObservedRead, Query } from '../http/client.js';
import { eachLimited } from '../util/pool.js';
import { KINDS } from './kinds/index.js';
import { isRef, type Step, type StepKind } from './plan.js';
import { compareText } from '../order.js';

/** 2: changes are values ({address, action, before, after, ...}, issue 31), not lines of text. */
export const FORMAT_VERSION = 2;
/** Reads of a staleness check in flight at once. */
const READS_IN_FLIGHT = 8;
/** Ids listed in a read's summary before "and N more". */
const SUMMARY_IDS = 12;

/** A read the plan rests on: the request, and what its answer looked like. */
export interface RecordedRead {
  method: 'GET';
  path: string;
  query: Record<string, string>;
  status: number;
  /** SHA-256 of the canonical JSON of the answer (of `results` for a list envelope). */
  fingerprint: string;
  /** Ids and states of the answer, to say what moved. */
  summary: string;
  /**
   * The channels ("PLATFORM/ENV") whose records of a list of deployment
   * records the fingerprint covers: a plan depends on the channels it names,
   * not on the whole asset (absent: every record).
   */
  scope?: string[];
}

/** Which channels of a read of deployment records the plan depends on (undefined: all of the answer). */
export type ReadScope = (path: string) => string[] | undefined;

/** The records of a list within a scope: the rows of other channels left out. */
function scoped(body: unknown, scope: string[] | undefined): unknown {
  if (!scope || !isEnvelope(body)) return body;
  const keep = new Set(scope);
  return { ...body, results: body.results.filter((r) => keep.has(`${String((r as Record<string, unknown>)?.targetPlatform)}/${String((r as Record<string, unknown>)?.envId)}`)) };
}

export interface PlannedFile {
  path: string;
  size: number;
  sha256: string;
}

/** What a change does (Terraform's plans.Action, in the service's words). */
export type ChangeAction = 'create' | 'update' | 'delete' | 'deploy' | 'promote' | 'undeploy' | 'upload' | 'remove';
export const CHANGE_ACTIONS: readonly ChangeAction[] = ['create', 'update', 'delete', 'deploy', 'promote', 'undeploy', 'upload', 'remove'];

/** A value the service assigns when the change is applied: null in `after`, named in `unknownAfter`, "(known after apply)" in text. */
export const KNOWN_AFTER_APPLY = '(known after apply)';

/** The request a change sends, as the service will see it ("(known after apply)" where an id is assigned by an earlier change). */
export interface ChangeRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  body: unknown;
}

/**
 * One change of the plan: values, not sentences (Terraform's
 * Change{Action, Before, After}); the text view, `ahs show` and the step
 * summary are rendered from it. Addresses (cli.md "Desired state"):
 * asset.ID, version.ASSET.VERSION_ID, channel.ASSET.PLATFORM.ENV,
 * collection.ID, collection.ID.deployment.ENV, item.COLLECTION.NAME.
 */
export interface PlannedChange {
  address: string;
  action: ChangeAction;
  /** The fields the change touches, as they are (null: nothing there yet). */
  before: Record<string, unknown> | null;
  /** As they will be (null: gone); a field the service assigns is null and named in unknownAfter. */
  after: Record<string, unknown> | null;
  unknownAfter?: string[];
  /** The name people know the subject by, where its id does not say it (a version's name). */
  name?: string;
  /** Which rule decided that a file differs: its size, or its content (SHA-256). */
  compared?: 'size' | 'content';
  /** The request it sends (filled in with the document). */
  request?: ChangeRequest;
  /** What the service's rules predict it answers. */
  prediction?: { ok: boolean; status: number; title?: string } | null;
  /** The id of the step that sends it. */
  step: string;
  /** Said about it: who changed the record last (drift), what cannot be compared. */
  notes?: string[];
}

/** `ahs plan --json`: the plan document, as `--out` saves it. */
export interface SavedPlan {
  formatVersion: typeof FORMAT_VERSION;
  baseUrl: string;
  domainId: string;
  /** The desired-state file the plan was made from. */
  file?: { path: string; sha256: string };
  files: PlannedFile[];
  reads: RecordedRead[];
  steps: Step[];
  changes?: PlannedChange[];
  /** Said about the plan as a whole (what cannot be compared, drift). */
  notes?: string[];
}

// --- recording the reads ----------------------------------------------------------

/** Records every GET `api` answers until stop(); the same request read twice is kept once (its first answer). */
export function recordReads(api: ApiClient, scopeOf: ReadScope = () => undefined): { reads(scope?: ReadScope): RecordedRead[]; stop(): void } {
  const seen = new Map<string, ObservedRead>();
  const stop = api.onRead((read) => {
    const key = readKey({ path: read.path, query: queryStrings(read.query) });
    if (!seen.has(key)) seen.set(key, read);
  });
  // The scope may be known only once the plan is made (the channels it changes): fingerprints are taken then.
  return { reads: (scope = scopeOf) => [...seen.values()].map((read) => toRecorded(read, scope(read.path))), stop };
}

function toRecorded(read: ObservedRead, scope: string[] | undefined): RecordedRead {
  const body = scoped(read.body, scope);
  return { method: 'GET', path: read.path, query: queryStrings(read.query), status: read.status, fingerprint: fingerprintOf(read.status, body), summary: summaryOf(read.status, body), ...(scope ? { scope } : {}) };
}

function queryStrings(query: Query): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== null) out[key] = String(value);
  return out;
}

function readKey(read: Pick<RecordedRead, 'path' | 'query'>): string {
  return `${read.path}?${new URLSearchParams(Object.entries(read.query).sort(([a], [b]) => compareText(a, b))).toString()}`;
}

/** JSON with the keys of every object sorted: the same value always gives the same text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, inner]) => inner !== undefined);
    return `{${entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([key, inner]) => `${JSON.stringify(key)}:${canonicalJson(inner)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

function isEnvelope(body: unknown): body is { results: unknown[] } {
  return Boolean(body) && typeof body === 'object' && Array.isArray((body as { results?: unknown }).results) && 'totalResults' in (body as object);
}

/** A list's fingerprint covers its results only: the envelope's paging numbers say nothing about the records. */
export function fingerprintOf(status: number, body: unknown): string {
  const basis = status === 200 ? (isEnvelope(body) ? body.results : body) : { status };
  return createHash('sha256').update(canonicalJson(basis)).digest('hex');
}

/** "IOS1=DEFAULT IOS2=LIVE", "my-bundle (updated 2026-05-01T10:00:00Z by a@b)", "404". */
export function summaryOf(status: number, body: unknown): string {
  if (status !== 200) return `answered ${status}`;
  const records = isEnvelope(body) ? body.results : [body];
  const ids = records.map(describeRecord);
  const shown = ids.slice(0, SUMMARY_IDS).join(' ');
  const more = ids.length > SUMMARY_IDS ? ` and ${ids.length - SUMMARY_IDS} more` : '';
  return isEnvelope(body) ? `${ids.length} result(s): ${shown || '(none)'}${more}` : shown;
}

function describeRecord(record: unknown): string {
  if (!record || typeof record !== 'object') return String(record);
  const r = record as Record<string, unknown>;
  const id = r.versionId ?? r.assetItemId ?? r.assetId ?? r.collectionId ?? '?';
  const where = r.envId !== undefined ? `@${String(r.targetPlatform ?? '')}/${String(r.envId)}` : '';
  const state = typeof r.state === 'string' ? `=${r.state}` : '';
  const updated = r.updatedAt ? ` (updated ${String(r.updatedAt)}${r.updatedBy ? ` by ${String(r.updatedBy)}` : ''})` : '';
  return isEnvelopeRow(r) ? `${String(id)}${where}${state}` : `${String(id)}${state}${updated}`;
}

/** Rows of a list are told by id and state only: a list of 200 items would not fit on a line otherwise. */
function isEnvelopeRow(r: Record<string, unknown>): boolean {
  return r.envId !== undefined || r.versionId !== undefined || r.assetItemId !== undefined;
}

// --- files ------------------------------------------------------------------------

/** The local files the steps upload (each kind says which), with their digests. */
export async function plannedFiles(steps: Step[]): Promise<PlannedFile[]> {
  const files: PlannedFile[] = [];
  for (const step of steps) {
    const file = KINDS[step.kind].file?.(step.params);
    if (file) files.push({ path: file.path, size: file.size, sha256: file.sha256 ?? (await fileSha256(file.path)) });
  }
  return files;
}

// --- the document -----------------------------------------------------------------

export function toSavedPlan(inputs: Omit<SavedPlan, 'formatVersion'>): SavedPlan {
  return { formatVersion: FORMAT_VERSION, ...inputs };
}

const KIND_NAMES = Object.keys(KINDS) as [StepKind, ...StepKind[]];

const stepSchema = z.strictObject({
  id: z.string().min(1),
  kind: z.enum(KIND_NAMES),
  params: z.record(z.string(), z.unknown()),
  prediction: z
    .object({ current: z.unknown(), decision: z.looseObject({ ok: z.boolean(), status: z.number() }), unchanged: z.unknown().optional(), notes: z.array(z.string()).optional() })
    .optional(),
  refuse: z.object({ hint: z.string(), byKind: z.record(z.string(), z.string()).optional() }).optional(),
  batch: z.object({ group: z.string().min(1), concurrency: z.number().int().min(1), bounds: z.enum(['chains', 'requests']).optional() }).optional(),
  after: z.array(z.string()).optional(),
});

const fields = z.record(z.string(), z.unknown()).nullable();

const changeSchema = z
  .object({
    address: z.string().min(1).describe('asset.ID, version.ASSET.VERSION_ID, channel.ASSET.PLATFORM.ENV, collection.ID, collection.ID.deployment.ENV, item.COLLECTION.NAME'),
    action: z.enum(CHANGE_ACTIONS as [ChangeAction, ...ChangeAction[]]),
    before: fields.describe('the fields the change touches as they are; null: nothing there yet'),
    after: fields.describe('as they will be; null: gone. A value the service assigns is null, its field named in unknownAfter'),
    unknownAfter: z.array(z.string()).optional().describe('fields of after that the service assigns when the change is applied ("(known after apply)" in text)'),
    name: z.string().optional().describe("the name people know the subject by (a version's name)"),
    compared: z.enum(['size', 'content']).optional().describe('which rule decided that a file differs'),
    request: z.object({ method: z.string(), path: z.string(), query: z.record(z.string(), z.string()), body: z.unknown() }).optional(),
    prediction: z.object({ ok: z.boolean(), status: z.number(), title: z.string().optional() }).nullable().optional().describe("the service's answer as its rules predict it"),
    step: z.string().min(1).describe('the id of the step (steps[]) that sends it'),
    notes: z.array(z.string()).optional(),
  })
  .describe('one change: Terraform-like {action, before, after}');

const savedPlanSchema = z.strictObject({
  formatVersion: z.literal(FORMAT_VERSION),
  baseUrl: z.string().min(1),
  domainId: z.string().min(1),
  file: z.object({ path: z.string().min(1), sha256: z.string().regex(/^[0-9a-f]{64}$/) }).optional(),
  files: z.array(z.object({ path: z.string().min(1), size: z.number().int().min(0), sha256: z.string().regex(/^[0-9a-f]{64}$/) })),
  reads: z.array(
    z.object({
      method: z.literal('GET'),
      // A pattern, not startsWith: zod writes that as format "starts_with", which no JSON Schema validator knows (ajv strict refuses the schema).
      path: z.string().regex(/^\//),
      query: z.record(z.string(), z.string()),
      status: z.number().int(),
      fingerprint: z.string().regex(/^[0-9a-f]{64}$/),
      summary: z.string(),
      scope: z.array(z.string()).optional(),
    }),
  ),
  steps: z.array(stepSchema),
  changes: z.array(changeSchema).optional(),
  notes: z.array(z.string()).optional(),
});

/** The JSON Schema of the plan document (`ahs schema --plan`): what plan --json prints and --out writes. */
export function savedPlanJsonSchema(): unknown {
  return z.toJSONSchema(savedPlanSchema.describe('ahs plan document (plan --json, plan --out, show --json)'), { io: 'output', unrepresentable: 'any' });
}

/** A saved plan read back: a clear usage error (exit 2) naming the field for anything that is not one. */
export function readSavedPlan(text: string, source: string): SavedPlan {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${source} is not a saved plan: not JSON (${(error as Error).message}); write one with ahs plan --out ${source}`);
  }
  const version = (value as { formatVersion?: unknown } | null)?.formatVersion;
  if (value && typeof value === 'object' && version !== undefined && version !== FORMAT_VERSION) {
    throw new UsageError(`${source}: formatVersion ${JSON.stringify(version)} is not one this ahs reads (${FORMAT_VERSION}); plan again with this ahs`);
  }
  const parsed = savedPlanSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.length ? issue.path.map(String).join('.') : '(the document)';
    throw new UsageError(`${source} is not a saved plan of ahs: ${field}: ${issue.message}; write one with ahs plan --out ${source}`);
  }
  const saved = parsed.data as SavedPlan;
  checkRefs(saved.steps, source);
  return saved;
}

/** Every Ref names an earlier step: a plan edited by hand could otherwise send a half-resolved request. */
function checkRefs(steps: Step[], source: string): void {
  const earlier = new Set<string>();
  for (const [index, step] of steps.entries()) {
    const walk = (value: unknown): void => {
      if (isRef(value)) {
        if (!earlier.has(value.$ref)) throw new UsageError(`${source}: steps.${index}.params refers to step ${value.$ref}, which is not an earlier step of the plan`);
        return;
      }
      if (Array.isArray(value)) value.forEach(walk);
      else if (value && typeof value === 'object') Object.values(value).forEach(walk);
    };
    walk(step.params);
    earlier.add(step.id);
  }
}

// --- staleness --------------------------------------------------------------------

/**
 * Reads every recorded read again (at most READS_IN_FLIGHT at once) and
 * re-hashes every file: anything that differs is a ConflictError (exit 5)
 * naming what moved; nothing is sent either way.
 */
export async function checkStale(saved: SavedPlan, api: ApiClient, signal: AbortSignal = new AbortController().signal): Promise<void> {
  const moved: string[] = [];
  await eachLimited(saved.reads, READS_IN_FLIGHT, signal, async (read) => {
    const now = await readAgain(api, read);
    if (now.fingerprint !== read.fingerprint) moved.push(`${labelOf(api, read)}: was ${read.summary}, now ${now.summary}`);
  });
  const files = [...(saved.file ? [{ ...saved.file, size: undefined }] : []), ...saved.files];
  for (const file of files) {
    const digest = await fileSha256(file.path).catch(() => undefined);
    if (digest === undefined) moved.push(`${file.path} cannot be read now (planned SHA-256 ${file.sha256.slice(0, 12)}…)`);
    else if (digest !== file.sha256) moved.push(`${file.path} changed since the plan (SHA-256 ${digest.slice(0, 12)}…, planned ${file.sha256.slice(0, 12)}…)`);
  }
  if (moved.length > 0) throw new ConflictError(`the plan is stale: ${moved.join('; ')}; nothing was sent; run ahs plan again`);
}

async function readAgain(api: ApiClient, read: RecordedRead): Promise<{ fingerprint: string; summary: string }> {
  try {
    const body = scoped(await api.get(read.path, read.query), read.scope);
    return { fingerprint: fingerprintOf(200, body), summary: summaryOf(200, body) };
  } catch (error) {
    const status = (error as { status?: unknown }).status;
    if (typeof status !== 'number') throw error;
    return { fingerprint: fingerprintOf(status, undefined), summary: summaryOf(status, undefined) };
  }
}

/** "GET /va/my-bundle/asset-urls?state=OFFLINE": the read as a person names it (paging left out). */
function labelOf(api: ApiClient, read: RecordedRead): string {
  const query = Object.entries(read.query).filter(([key]) => key !== 'pageNumber' && key !== 'pageSize');
  const page = read.query.pageNumber && read.query.pageNumber !== '1' ? ` (page ${read.query.pageNumber})` : '';
  const channels = read.scope ? ` (channel${read.scope.length === 1 ? '' : 's'} ${read.scope.join(', ')})` : '';
  return `${api.describe('GET', api.url(read.path))}${query.length ? `?${new URLSearchParams(query).toString()}` : ''}${page}${channels}`;
}
