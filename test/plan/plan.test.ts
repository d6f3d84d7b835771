// The plan model (src/plan/plan.ts, steps.ts) and the dry-run document
// (src/plan/dryrun.ts), by table: steps and refs as plain data, the document
// of cli.md for an allowed and a rejected request, its rendering for a
// person, and the exit code a predicted rejection carries.
import { describe, expect, it } from 'vitest';
import { isRef, noop, optionalRef, plan, ref, step, thenDo } from '../../src/plan/plan.js';
import { steps } from '../../src/plan/steps.js';
import { KINDS } from '../../src/plan/kinds/index.js';
import { PredictedRejection, dryRunDocument, type DryRunDocument } from '../../src/plan/dryrun.js';
import { renderDryRun } from '../../src/io/views/dryrun.js';
import { Output } from '../../src/io/output.js';
import { bufferIO } from '../unit/helpers.js';

const plainKit = async () => (await Output.create(bufferIO(), { format: 'table' })).kit;

describe('steps are plain data', () => {
  it('a step has a fresh id of its kind unless given one, and the extras given', () => {
    const a = step('asset.create', { x: 1 });
    const b = step('asset.create', { x: 2 });
    expect(a.id).toMatch(/^asset\.create#\d+$/);
    expect(b.id).not.toBe(a.id);
    expect(step('asset.delete', {}, { id: 'mine', after: ['a'] })).toStrictEqual({ id: 'mine', kind: 'asset.delete', params: {}, after: ['a'] });
  });

  it('every builder makes a step of its own kind, one the executor knows', () => {
    const kinds = Object.values(steps).map((build) => build({} as never).kind);
    expect(kinds.sort()).toEqual(Object.keys(KINDS).sort());
    expect(steps.versionPromote({} as never, { id: 'p', refuse: { hint: 'h' } })).toStrictEqual({ id: 'p', kind: 'version.promote', params: {}, refuse: { hint: 'h' } });
  });

  it('refs name the step and field; an optional one says so', () => {
    const upload = steps.versionUpload({} as never, { id: 'u' });
    expect(ref(upload, 'versionId')).toStrictEqual({ $ref: 'u', field: 'versionId' });
    expect(optionalRef(upload, 'versionId')).toStrictEqual({ $ref: 'u', field: 'versionId', optional: true });
  });

  const refs: Array<[unknown, boolean]> = [
    [{ $ref: 'a', field: 'b' }, true],
    [{ $ref: 'a', field: 'b', optional: true }, true],
    [{ $ref: 'a' }, false],
    [{ field: 'b' }, false],
    [{ $ref: 1, field: 'b' }, false],
    [{ $ref: 'a', field: 2 }, false],
    [null, false],
    ['a', false],
    [Object.assign(() => undefined, { $ref: 'a', field: 'b' }), false],
  ];
  for (const [value, expected] of refs) {
    it(`isRef(${JSON.stringify(value)}) is ${expected}`, () => expect(isRef(value)).toBe(expected));
  }

  it('a plan and a no-op plan', async () => {
    const done = () => undefined;
    expect(plan([], done, { confirm: { message: 'm', action: 'a' } })).toStrictEqual({ steps: [], done, confirm: { message: 'm', action: 'a' } });
    const nothing = noop('LIVE', 'already');
    expect(nothing.steps).toEqual([]);
    expect(nothing.noop).toEqual({ state: 'LIVE', message: 'already' });
    expect(await nothing.done({} as never)).toBeUndefined();
  });

  it('thenDo hands the outcome of done to its follower, and keeps the rest of the plan', async () => {
    const results = { of: () => 'answer' } as never;
    const seen: unknown[] = [];
    const first = plan([step('asset.create', {}, { id: 'c' })], async (r) => `made ${String(r.of({} as never))}`, { confirm: { message: 'm', action: 'a' } });
    const then = thenDo(first, (made) => {
      seen.push(made);
      return made.length;
    });
    expect(then.steps).toBe(first.steps);
    expect(then.confirm).toEqual({ message: 'm', action: 'a' });
    expect(await then.done(results)).toBe('made answer'.length);
    expect(seen).toEqual(['made answer']);
  });
});

describe('the dry-run document', () => {
  const request = { method: 'POST' as const, path: '/api/v2/d/va/A/versions/IOS1/deploy', query: { targetPlatformId: 'ios', none: undefined as unknown as string, nil: null as unknown as string, zero: 0 as unknown as string }, body: { intent: 'LIVE' } };
  const effects = [{ kind: 'demote', versionId: 'IOS0', description: 'IOS0 goes LIVE' }];

  it('allowed: the status, the next state and the effects; the query as strings, undefined left out', () => {
    expect(dryRunDocument(request, { current: 'OFFLINE', decision: { ok: true, status: 201, next: 'LIVE', effects } as never })).toStrictEqual({
      dryRun: true,
      request: { method: 'POST', path: request.path, query: { targetPlatformId: 'ios', zero: '0' }, body: { intent: 'LIVE' } },
      current: 'OFFLINE',
      predicted: { status: 201, state: 'LIVE', effects, error: null },
    });
  });

  const rejected = { ok: false, status: 400, kind: 'conflict', resource: 'version', title: 'IOS1 is LIVE already', message: 'IOS1 is LIVE already' } as never;
  const rows: Array<[string, { current?: unknown; unchanged?: unknown }, unknown]> = [
    ['rejected: the state unchanged as the prediction says', { current: 'a', unchanged: 'b' }, 'b'],
    ['rejected, no unchanged state: the current one', { current: 'a' }, 'a'],
    ['rejected, nothing read: null', {}, null],
  ];
  for (const [name, prediction, state] of rows) {
    it(name, () => {
      const doc = dryRunDocument({ method: 'DELETE', path: '/p' }, { ...prediction, decision: rejected } as never);
      expect(doc.request).toStrictEqual({ method: 'DELETE', path: '/p', query: {}, body: null });
      expect(doc.current).toBe(prediction.current ?? null);
      expect(doc.predicted).toMatchObject({ status: 400, state, effects: [] });
      expect(doc.predicted.error).toMatchObject({ status: 400, title: 'IOS1 is LIVE already' });
    });
  }

  it('rendered for a person: the writes before, the request, the body, what was read, the answer and its effects, the notes', async () => {
    const last = dryRunDocument(request, { current: { IOS0: 'DEFAULT' }, decision: { ok: true, status: 201, next: 'DEFAULT', effects } as never });
    const before = (path: string, state: unknown) => {
      const { dryRun: _, ...rest } = dryRunDocument({ method: 'POST', path, body: { n: 1 } }, { current: null, decision: { ok: true, status: 201, next: state, effects: [] } as never });
      return rest;
    };
    const doc: DryRunDocument = { ...last, before: [before('/first', 'LIVE'), before('/second', { s: 1 }), before('/third', undefined)] };
    expect(renderDryRun(doc, await plainKit(), ['n1', 'n2']).split('\n')).toEqual([
      'Dry run: nothing was sent.',
      'first:     POST /first {"n":1} → 201 LIVE',
      'then:      POST /second {"n":1} → 201 {"s":1}',
      'then:      POST /third {"n":1} → 201 (none)',
      'request:   POST /api/v2/d/va/A/versions/IOS1/deploy?targetPlatformId=ios&zero=0',
      'body:      {"intent":"LIVE"}',
      'current:   {"IOS0":"DEFAULT"}',
      'predicted: 201 → DEFAULT',
      'effect:    IOS0 goes LIVE',
      'note:      n1',
      'note:      n2',
    ]);
  });

  it('rendered rejected, with no body, no query and nothing read', async () => {
    const doc = dryRunDocument({ method: 'DELETE', path: '/p' }, { current: undefined, decision: rejected });
    expect(renderDryRun(doc, await plainKit(), []).split('\n')).toEqual(['Dry run: nothing was sent.', 'request:   DELETE /p', 'current:   (none)', 'predicted: 400 rejected: IOS1 is LIVE already']);
  });
});

describe('a predicted rejection exits as the real answer would', () => {
  const body = (status: number | null) => ({ type: 't', title: 'no', status, detail: 'd' });
  const rows: Array<[string, number | null, boolean, number]> = [
    ['a 404', 404, false, 4],
    ['a 409', 409, false, 5],
    ['a 400', 400, false, 1],
    ['a 400 of a missing collection', 400, true, 4],
    ['no status', null, false, 1],
  ];
  for (const [name, status, notFound, exit] of rows) {
    // Not found only when said so.
    it(`${name}: exit ${exit}`, () => expect((notFound ? new PredictedRejection(body(status), true) : new PredictedRejection(body(status))).exitCode).toBe(exit));
  }

  it('says it is a dry run unless told otherwise, with the hint after; its body carries the message', () => {
    const dry = new PredictedRejection(body(404));
    expect(dry.message).toBe('dry run: the service would answer 404: no');
    const refused = new PredictedRejection(body(404), false, 'nothing was sent: the service would answer', 'try IOS2');
    expect(refused.message).toBe('nothing was sent: the service would answer 404: no; try IOS2');
    // Nothing was sent: status null, the service's predicted body kept whole under `predicted`.
    expect(refused.toBody()).toStrictEqual({ type: 'urn:ahs:predicted', title: refused.message, status: null, detail: refused.message, predicted: body(404) });
  });
});
