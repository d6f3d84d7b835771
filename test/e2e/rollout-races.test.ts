// ahs rollout where CI puts it (issue 43): the built binary, several
// processes of the same command line at once, and a process killed (SIGKILL)
// at each step of a wave; the runs after a kill, one at a time, are main()
// in this process (the same code, no Node start-up each: issue 46). Every run goes through a small proxy in front of
// the emulator that can hold the first reads of several runs until all have
// arrived (so they plan from the same read), hold a request's answer or the
// request itself (the moment to kill), and move the service's clock on: its
// Date headers, and every time in its JSON answers, each time as of when the
// gate first saw it (an entry made while the clock was 2 h ahead stays 2 h
// ahead), so soaks pass without waiting. Nothing here sleeps: each kill
// waits for the request it names.
import { execa } from 'execa';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, assertFreshBuild, harness, uid, type Harness, type Run } from './helpers.js';
import { ENVS, WAVES, seededRollout, waveDefaults } from './rollout-fixture.js';

interface Seen {
  method: string;
  path: string;
  body: string;
}

interface Gate {
  url: string;
  /** How far ahead of the machine's clock the service's Date headers are (ms). */
  shift: number;
  /** Resolves when a request `matches`: forwarded and its answer withheld (`forward`), or not forwarded at all. */
  when(matches: (seen: Seen) => boolean, options: { forward: boolean }): Promise<void>;
  /** The answers of the first `count` requests that match are held until all `count` have arrived. */
  barrier(count: number, matches: (seen: Seen) => boolean): void;
  close(): Promise<void>;
}

async function startGate(target: string): Promise<Gate> {
  const holds: Array<{ matches: (seen: Seen) => boolean; forward: boolean; resolve: () => void; taken: boolean }> = [];
  const barriers: Array<{ count: number; arrived: number; matches: (seen: Seen) => boolean; open: Promise<void>; release: () => void }> = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const seen: Seen = { method: req.method ?? 'GET', path: req.url ?? '/', body: body.toString('latin1') };
    const hold = holds.find((h) => !h.taken && h.matches(seen));
    if (hold) hold.taken = true;
    if (hold && !hold.forward) return hold.resolve(); // never forwarded, never answered
    const upstream = new URL(req.url ?? '/', target);
    // A time in the query (a journal read's range) back on the service's own clock: at most earlier, a wider range.
    for (const [key, value] of upstream.searchParams) if (/^\d{4}-\d\d-\d\dT/.test(value)) upstream.searchParams.set(key, new Date(Date.parse(value) - gate.shift).toISOString());
    const answer = await new Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
      const forward = httpRequest(upstream, { method: req.method, headers: { ...req.headers, host: upstream.host } }, (reply) => {
        const parts: Buffer[] = [];
        reply.on('data', (part: Buffer) => parts.push(part));
        reply.on('end', () => resolve({ status: reply.statusCode ?? 502, headers: reply.headers, body: Buffer.concat(parts) }));
      });
      forward.on('error', reject);
      forward.end(body);
    }).catch(() => undefined);
    if (hold) return hold.resolve(); // applied by the service; its answer never reaches the client
    if (!answer) return void res.writeHead(502).end();
    const barrier = barriers.find((b) => b.arrived < b.count && b.matches(seen));
    if (barrier) {
      barrier.arrived += 1;
      if (barrier.arrived >= barrier.count) barrier.release();
      // A safety for a failing test: the runs that did arrive go on after 20 s.
      await Promise.race([barrier.open, new Promise((resolve) => setTimeout(resolve, 20_000).unref())]);
    }
    const headers: Record<string, unknown> = { ...answer.headers, date: new Date(Date.now() + gate.shift).toUTCString() };
    delete headers['transfer-encoding'];
    const isJson = String(answer.headers['content-type'] ?? '').includes('json');
    const out = isJson ? Buffer.from(answer.body.toString('utf8').replace(/"(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z)"/g, (_, time: string) => `"${shifted(time)}"`)) : answer.body;
    res.writeHead(answer.status, { ...headers, 'content-length': String(out.length) } as Record<string, string>);
    res.end(out);
  });
  // Each service time as of when it was first seen: the clock's shift then.
  const times = new Map<string, string>();
  const shifted = (time: string): string => {
    let moved = times.get(time);
    if (moved === undefined) {
      moved = new Date(Date.parse(time) + gate.shift).toISOString();
      times.set(time, moved);
    }
    return moved;
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const gate: Gate = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    shift: 0,
    when: (matches, { forward }) => new Promise<void>((resolve) => holds.push({ matches, forward, resolve, taken: false })),
    barrier(count, matches) {
      let release!: () => void;
      const open = new Promise<void>((resolve) => (release = resolve));
      barriers.push({ count, arrived: 0, matches, open, release });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return gate;
}

let h: Harness;
let gate: Gate;
let journal: Record<string, string>;
beforeAll(async () => {
  assertFreshBuild();
  h = await harness();
  gate = await startGate(h.emu.baseUrl);
  const id = uid('jx');
  const init = await h.ahs(['journal', 'init', id, '--env', 'dev']);
  expect(init.exitCode, init.stderr).toBe(0);
  // Every run's API requests through the gate (the delivery host stays the emulator's: its download URLs name it).
  journal = { AHS_JOURNAL: id, AHS_BASE_URL: gate.url, AHS_DELIVERY_URL: h.emu.deliveryUrl };
});
afterAll(async () => {
  await gate?.close();
  await h?.close();
});

/** The built binary: the runs that race each other (several processes at once). */
const binary = (args: string[]) => h.ahs(args, { binary: true, env: journal });
/** main() in this process: a run after another has ended or was killed, where the process is not the point (issue 46). */
const run = (args: string[]) => h.ahs(args, { env: journal });

/** The built binary, started: killed by the test at the moment it waits for. */
function started(args: string[]) {
  return execa('node', [BIN, ...args], { reject: false, env: { ...h.env, ...journal }, stdin: 'ignore', timeout: 50_000 });
}

/** The rollout's entries of an asset (whole journal, oldest first), as `ahs history --json` lists them. */
async function entriesOf(id: string): Promise<any[]> {
  const hist = await h.ahs(['history', '--json'], { env: journal });
  expect(hist.exitCode, hist.stderr).toBe(0);
  return hist.json().results.filter((entry: any) => entry.rollout?.asset === id).reverse();
}

/** The asset's own deployments (the run's change-control lock, renewed meanwhile, is not held). */
const ofAsset = (id: string) => (key: string) => JSON.parse(key)[2] === id;

const isVersionRead = (id: string, version: string) => (seen: Seen) => seen.method === 'GET' && seen.path.endsWith(`/va/${id}/versions/${version}`);

describe('the same rollout line started by several CI jobs at once', () => {
  it('5 runs at once, 5 rounds: every run exits 0 or 11, each wave promoted once, one promotion entry per wave', { timeout: 400_000 }, async () => {
    for (let round = 0; round < 5; round++) {
      const { id, v2 } = await seededRollout(h);
      // The last round soaks its last wave: the runs that find it the Default before its entry is written agree too.
      const line = ['rollout', id, v2, ...WAVES, '--json', ...(round === 4 ? ['--soak', 'prod=1h'] : [])];
      gate.barrier(5, isVersionRead(id, v2));
      const runs: Run[] = await Promise.all(Array.from({ length: 5 }, () => binary(line)));
      for (const run of runs) expect([0, 11], `round ${round}: ${run.stderr}`).toContain(run.exitCode);
      for (const run of runs) expect(run.stderr, `round ${round}`).not.toMatch(/already (the current DEFAULT|in the target state)|--idempotent/);
      expect(await waveDefaults(h, id)).toEqual([v2, v2, v2]);
      const entries = await entriesOf(id);
      for (const env of ENVS) expect(entries.filter((e) => e.rollout.wave === env && e.rollout.action === 'promote'), `round ${round}, ${env}`).toHaveLength(1);
      // Each wave listed as promoted by exactly one run.
      for (const env of ENVS) expect(runs.filter((run) => run.json().promoted.includes(env)), `round ${round}, ${env}`).toHaveLength(1);
      // A LIVE deploy is recorded by the run that made it, once.
      for (const env of ENVS) expect(entries.filter((e) => e.rollout.wave === env && e.changes.some((c: any) => c.after?.state === 'LIVE')).length, `round ${round}, ${env}`).toBeLessThanOrEqual(1);
    }
  });

  it('10 aborts at once all exit 0, each wave put back once', { timeout: 200_000 }, async () => {
    const { id, v1, v2 } = await seededRollout(h);
    const done = await run(['rollout', id, v2, ...WAVES]);
    expect(done.exitCode, done.stderr).toBe(0);
    gate.barrier(10, isVersionRead(id, v2));
    const aborts = await Promise.all(Array.from({ length: 10 }, () => binary(['rollout', 'abort', id, v2, ...WAVES, '--json'])));
    for (const run of aborts) expect(run.exitCode, run.stderr).toBe(0);
    expect(await waveDefaults(h, id)).toEqual([v1, v1, v1]);
    const entries = await entriesOf(id);
    for (const env of ENVS) expect(entries.filter((e) => e.rollout.wave === env && e.rollout.action === 'abort'), env).toHaveLength(1);
    for (const env of ENVS) expect(aborts.filter((run) => run.json().restored.includes(env)), env).toHaveLength(1);
  });
});

describe('a run killed at each step of a wave: the same command line converges', () => {
  const SOAK = ['--soak', 'dev=1h', '--soak', 'staging=1h'];

  /** The same command line until it is complete; the service's clock moved on 2 h after each exit 11. */
  async function converge(line: string[]): Promise<Run[]> {
    const runs: Run[] = [];
    for (let attempt = 0; attempt < 8; attempt++) {
      const ran = await run([...line, '--json']);
      runs.push(ran);
      if (ran.exitCode === 0) return runs;
      expect(ran.exitCode, ran.stderr).toBe(11);
      gate.shift += 2 * 3_600_000;
    }
    throw new Error(`no convergence: ${runs.map((r) => r.stderr).join('\n---\n')}`);
  }

  /** One promotion entry per wave; each soak, from its entry to the next wave's, at least as long as asked (the service's times, the gate's clock). */
  async function checkEntries(id: string): Promise<any[]> {
    const entries = await entriesOf(id);
    const promotions = ENVS.map((env) => entries.filter((e) => e.rollout.wave === env && e.rollout.action === 'promote'));
    for (const [index, found] of promotions.entries()) expect(found, ENVS[index]).toHaveLength(1);
    for (const [index, env] of ['dev', 'staging'].entries()) {
      expect(Date.parse(promotions[index + 1]![0].createdAt) - Date.parse(promotions[index]![0].createdAt), `${env}'s soak`).toBeGreaterThanOrEqual(3_600_000);
    }
    return entries;
  }

  it('killed after the LIVE deploy was sent (the deployment still in progress): the next runs promote dev once, and go on', async () => {
    const { id, v1, v2 } = await seededRollout(h);
    const line = ['rollout', id, v2, ...WAVES, ...SOAK];
    const hold = h.emu.holdDeployments(ofAsset(id));
    const child = started(line);
    await hold.held(1);
    child.kill('SIGKILL');
    expect((await child).signal).toBe('SIGKILL');
    hold.release();
    expect(await waveDefaults(h, id)).toEqual([v1, v1, v1]);
    await converge(line);
    expect(await waveDefaults(h, id)).toEqual([v2, v2, v2]);
    await checkEntries(id);
  });

  it('killed after the promotion was sent (applied after the kill): the next run waits for its entry until the killed run\'s time is up, then records it, and the soak runs from that record; abort then restores every previous Default', async () => {
    const { id, v1, v2 } = await seededRollout(h);
    const line = ['rollout', id, v2, ...WAVES, ...SOAK];
    const live = h.emu.holdDeployments(ofAsset(id));
    const child = started(line);
    await live.held(1);
    const promotion = h.emu.holdDeployments(ofAsset(id));
    live.release();
    await promotion.held(1);
    child.kill('SIGKILL');
    await child;
    promotion.release();
    const first = await run([...line, '--json']);
    // dev is the Default now, or is about to be: either the run waits for the killed run's entry, or (a read
    // taken before the deployment ended) it finds dev LIVE and its promotion already made.
    expect(first.exitCode, first.stderr).toBe(11);
    gate.shift += 2 * 3_600_000;
    await converge(line);
    expect(await waveDefaults(h, id)).toEqual([v2, v2, v2]);
    await checkEntries(id);

    const abort = await run(['rollout', 'abort', id, v2, ...WAVES]);
    expect(abort.exitCode, abort.stderr).toBe(0);
    expect(await waveDefaults(h, id)).toEqual([v1, v1, v1]);
  });

  it('killed before the promotion\'s entry was written: the next run waits for the entry; abort right after the kill restores dev from the intent', async () => {
    const { id, v1, v2 } = await seededRollout(h);
    const line = ['rollout', id, v2, ...WAVES, ...SOAK];
    const entry = gate.when((seen) => seen.method === 'POST' && seen.path.includes('/items') && seen.body.includes(`"asset":"${id}"`) && seen.body.includes('"action":"promote"'), { forward: false });
    const child = started(line);
    await entry;
    child.kill('SIGKILL');
    await child;
    expect(await waveDefaults(h, id)).toEqual([v2, v1, v1]);
    // The next run: the killed run's promotion, its entry still due: exit 11 until then.
    const waiting = await run([...line, '--json']);
    expect(waiting.exitCode, waiting.stderr).toBe(11);
    expect(waiting.json()).toMatchObject({ next: { action: 'wait', for: 'entry', recording: 'dev', env: 'staging' }, waves: [{ state: 'unrecorded', previousDefault: v1 }, { state: 'pending' }, { state: 'pending' }] });
    // status says the same, exit 0.
    const status = await run(['rollout', 'status', id, v2, ...WAVES, ...SOAK, '--json']);
    expect(status.exitCode, status.stderr).toBe(0);
    expect(status.json().next).toMatchObject({ action: 'wait', for: 'entry' });

    // Abort now: a rollout holds no lock unless given --lock-id or --lock-timeout (change control), so the killed
    // run left none, and the intent proves dev's previous Default.
    const abort = await run(['rollout', 'abort', id, v2, ...WAVES, '--json']);
    expect(abort.exitCode, abort.stderr).toBe(0);
    expect(abort.json().restored).toEqual(['dev']);
    expect(abort.stderr).toContain(`${v2} stays LIVE on dev (abort deletes nothing); to take it offline there: ahs deploy ${id} ${v2} --platform web --env dev --state OFFLINE`);
    expect(await waveDefaults(h, id)).toEqual([v1, v1, v1]);
  });

  it('killed before the entry, then the same line: one entry of dev, recorded by the later run, every soak at least as asked', async () => {
    const { id, v2 } = await seededRollout(h);
    const line = ['rollout', id, v2, ...WAVES, ...SOAK];
    const entry = gate.when((seen) => seen.method === 'POST' && seen.path.includes('/items') && seen.body.includes(`"asset":"${id}"`) && seen.body.includes('"action":"promote"'), { forward: false });
    const child = started(line);
    await entry;
    child.kill('SIGKILL');
    await child;
    const runs = await converge(line);
    expect(await waveDefaults(h, id)).toEqual([v2, v2, v2]);
    const entries = await checkEntries(id);
    // dev's entry was written by a run after the first (which waited for the killed run's), with the intent's previous Default.
    expect(entries.filter((e) => e.rollout.wave === 'dev' && e.rollout.action === 'promote')).toMatchObject([{ rollout: { recovered: true, previousDefault: expect.any(String) } }]);
    expect(runs[0]!.json().next).toMatchObject({ action: 'wait', for: 'entry', recording: 'dev' });
    // The promotion itself came before the intent's time was up: its soak, counted from the later record, is longer than from the promotion.
    const intent = entries.find((e) => e.rollout.wave === 'dev' && e.rollout.action === 'intent');
    const recorded = entries.find((e) => e.rollout.wave === 'dev' && e.rollout.action === 'promote');
    expect(Date.parse(recorded.createdAt)).toBeGreaterThan(Date.parse(intent.rollout.recordBy));
  });
});
