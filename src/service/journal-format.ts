// The journal's entry format (cli.md, "Memory"), in one place: what ahs
// writes, and the one zod schema every reader parses an entry with. An
// entry is read back from the service, so it is untrusted input: what does
// not match (a null change, an address that is not a string, a value nested
// deeper than any ahs writes, a Default that is not a version id) is
// unreadable, shown with its item id and never the basis of a decision.
//
// Two versions are read:
// - ahs/journal/v1: the content of the item's file (`entry.json`) only.
// - ahs/journal/v2: the same document, with an `id` (a nonce that finds the
//   entry again when the answer to its upload was lost), `rollout` and
//   `control` typed. The uploaded file's name carries the whole document,
//   `ahs2.<id>.<base64url(JSON)>.json`, when it fits in NAME_MAX: the items
//   listing returns `fileName`, so history, rollback's proof and rollout
//   status read a page of the listing, not one request per entry. An entry
//   too large for a name, or whose name a service shortened (the name no
//   longer decodes to a document of that id), is read from its content, as
//   a v1 entry is.
import { z } from 'zod';

export const JOURNAL_V1 = 'ahs/journal/v1';
export const JOURNAL_V2 = 'ahs/journal/v2';
/** The version ahs writes. */
export const JOURNAL_API_VERSION = JOURNAL_V2;

/** The longest file name ahs gives an entry (longer: the content alone carries it). */
export const NAME_MAX = 1800;
/** The deepest nesting of a change's value that ahs writes (an undeploy's records: 3). */
export const VALUE_DEPTH_MAX = 6;

/**
 * What a rollout entry did to the rollout (src/operations/rollout.ts): the
 * one list of rollout actions; add one here and every reader accepts it.
 * - live: the LIVE deploy alone (the check before the promotion failed or was inconclusive);
 * - intent: written before the promotion is sent (its previousDefault, and recordBy: by when the run records the promotion);
 * - promote: the wave's promotion (with the LIVE deploy before it, when one was needed): the soak starts at its entry;
 *   `recovered`: recorded by a later run that found it made without its entry;
 * - abort: its previous Default put back;
 * - halt: a check failed (check, phase, exitCode);
 * - resume: a run given --resume passed the check again;
 * - supersede: a rollout of `by` (another version) ends this one here (wave `*`).
 */
export const ROLLOUT_ACTIONS = ['live', 'intent', 'promote', 'abort', 'halt', 'resume', 'supersede'] as const;

/** What a change-control entry did: the one list of them (extend here). */
export const CONTROL_ACTIONS = ['lock', 'unlock', 'freeze', 'unfreeze', 'block', 'unblock', 'break-glass'] as const;

/** A JSON value no deeper than VALUE_DEPTH_MAX, checked without recursion (a deep nesting must not overflow the stack). */
export function isShallowJson(value: unknown, depthMax = VALUE_DEPTH_MAX): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop()!;
    if (current === null || typeof current === 'string' || typeof current === 'boolean') continue;
    if (typeof current === 'number') {
      if (!Number.isFinite(current)) return false;
      continue;
    }
    if (typeof current !== 'object' || depth >= depthMax) return false;
    for (const inner of Array.isArray(current) ? current : Object.values(current)) stack.push([inner, depth + 1]);
  }
  return true;
}

const text = (max: number) => z.string().max(max);
const json = z.custom<unknown>((value) => isShallowJson(value), { message: `not a JSON value of at most ${VALUE_DEPTH_MAX} levels` });
/** A change's before or after: nothing (null), or the fields it held. */
const value = z.union([z.null(), z.record(z.string(), json)]);
const versionId = z.string().min(1).max(64);

/** The fields of a channel's value that decisions read: typed, so that "made it [object Object]" cannot be read as fact. */
const channelValue = z.union([
  z.null(),
  z
    .object({
      default: versionId.nullable().optional(),
      version: versionId.optional(),
      state: z.string().max(20).nullable().optional(),
    })
    .catchall(json),
]);

export const changeSchema = z
  .object({
    address: z.string().min(1).max(300),
    before: value,
    after: value,
    unknownAfter: z.array(text(64)).max(20).optional(),
    unknownBefore: z.array(text(64)).max(20).optional(),
  })
  .superRefine((change, ctx) => {
    if (!change.address.startsWith('channel.')) return;
    for (const side of ['before', 'after'] as const) {
      const checked = channelValue.safeParse(change[side]);
      if (!checked.success) ctx.addIssue({ code: 'custom', path: [side, ...(checked.error.issues[0]?.path ?? [])], message: checked.error.issues[0]?.message ?? 'not a channel value' });
    }
  });

export const ciSchema = z.object({ runUrl: text(500).optional(), sha: text(100).optional(), ref: text(300).optional() });

/** The entry's `rollout` field: which rollout, which wave, what was done (fields of a newer ahs kept, checked as JSON). */
export const rolloutFieldSchema = z
  .object({
    asset: text(64),
    version: versionId,
    platform: text(64),
    waves: z.array(text(64)).max(50),
    wave: text(64),
    action: z.enum(ROLLOUT_ACTIONS),
    /** The wave's Default before this write (for abort: the rollout's version); absent when not known. */
    previousDefault: versionId.nullable().optional(),
    /** intent: by when (ISO, service time) the run records the promotion itself. */
    recordBy: text(40).optional(),
    /** intent: the run that wrote it. */
    run: text(100).optional(),
    /** promote: recorded by a later run than the one that promoted. */
    recovered: z.boolean().optional(),
    /** halt (and resume): the check. */
    check: z.object({ command: text(2000), phase: z.enum(['before', 'after']), exitCode: z.number().int() }).optional(),
    /** supersede: the version whose rollout takes over. */
    by: text(64).optional(),
  })
  .catchall(json);

export const controlFieldSchema = z
  .object({
    action: z.enum(CONTROL_ACTIONS),
    /** What it is about: an address (`channel.A.P.E`, `asset.A`, `version.A.V`) or a scope. */
    target: text(300),
    until: text(40).nullable().optional(),
    reason: text(400).optional(),
  })
  .catchall(json);

const documentFields = {
  command: text(200),
  arguments: z.array(text(2000)).max(200),
  actor: text(200),
  ci: ciSchema.optional(),
  changes: z.array(changeSchema).max(5000),
  outcome: z.enum(['applied', 'unknown']),
  exitCode: z.number().int().min(0).max(255),
};

export const entryV1Schema = z.object({ apiVersion: z.literal(JOURNAL_V1), ...documentFields, rollout: rolloutFieldSchema.optional() });

export const entryV2Schema = z.object({
  apiVersion: z.literal(JOURNAL_V2),
  /** A nonce: finds the entry again in a listing when the answer to its upload was lost. */
  id: z.string().regex(/^[A-Za-z0-9]{8,32}$/),
  ...documentFields,
  rollout: rolloutFieldSchema.optional(),
  control: controlFieldSchema.optional(),
});

/** The one schema of an entry's document, of either version. */
export const entrySchema = z.discriminatedUnion('apiVersion', [entryV1Schema, entryV2Schema]);

/** One change of a journal entry, in the shared address scheme (`channel.A.P.E`, `version.A.V`, `item.C.NAME`, ...). */
export type Change = z.infer<typeof changeSchema>;
export type CiRun = z.infer<typeof ciSchema>;
export type RolloutField = z.infer<typeof rolloutFieldSchema>;
export type RolloutAction = (typeof ROLLOUT_ACTIONS)[number];
export type ControlField = z.infer<typeof controlFieldSchema>;
export type ControlAction = (typeof CONTROL_ACTIONS)[number];
/** An entry's document as read (either version). */
export type EntryDocument = z.infer<typeof entrySchema>;
/** What ahs writes. */
export type EntryDocumentV2 = z.infer<typeof entryV2Schema>;

export type Parsed = { ok: true; doc: EntryDocument } | { ok: false; reason: string };

/** An entry's document, or why it is unreadable (the first thing wrong, with its path). */
export function parseEntry(content: unknown): Parsed {
  const checked = entrySchema.safeParse(content);
  if (checked.success) return { ok: true, doc: checked.data };
  const issue = checked.error.issues[0];
  const path = (issue?.path ?? []).map(String).join('.');
  return { ok: false, reason: `${path ? `${path}: ` : ''}${issue?.message ?? 'not an entry'}`.slice(0, 200) };
}

/** A new entry's nonce. */
export function entryNonce(random: () => number = Math.random): string {
  let id = '';
  while (id.length < 16) id += Math.floor(random() * 36).toString(36);
  return id;
}

/** The uploaded file's name of an entry: its whole document when it fits, else its id alone (the content carries it). */
export function entryFileName(doc: EntryDocumentV2): string {
  const whole = `ahs2.${doc.id}.${Buffer.from(JSON.stringify(doc), 'utf8').toString('base64url')}.json`;
  return whole.length <= NAME_MAX ? whole : `ahs2.${doc.id}..json`;
}

/** What an entry's file name says: its id, and its document when the name carries it whole. */
export function readFileName(fileName: unknown): { id?: string; doc?: EntryDocumentV2 } {
  if (typeof fileName !== 'string') return {};
  const match = /^ahs2\.([A-Za-z0-9]{8,32})\.([A-Za-z0-9_-]*)\.json$/.exec(fileName);
  if (!match) return {};
  const id = match[1]!;
  if (!match[2]) return { id };
  let content: unknown;
  try {
    content = JSON.parse(Buffer.from(match[2], 'base64url').toString('utf8'));
  } catch {
    return { id };
  }
  const parsed = parseEntry(content);
  // A name a service shortened may still decode: only a v2 document of the same id is the entry.
  if (!parsed.ok || parsed.doc.apiVersion !== JOURNAL_V2 || parsed.doc.id !== id) return { id };
  return { id, doc: parsed.doc };
}
