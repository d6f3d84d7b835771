// A rollback as an operation (issue 34): a promotion of the previous
// Default, as a compare-and-set on the Default read (cli.md, "Release
// workflows"). Typed input, already resolved; the terminal's pick among the
// LIVE versions, when nothing proves the target, is a function the command
// passes. `ahs rollback` prints the result; the library's rollback() returns it.
import { prefetchControl } from '../plan/change-control.js';
import { NotFoundError, UsageError } from '../errors.js';
import { defaultOf, type ChannelSnapshot } from '../rules/index.js';
import type { AssetUrl, Version } from '../rules/schemas.js';
import type { ApiClient } from '../http/client.js';
import { listAllVersions, listRecords, readChannel, readVersionOnChannel } from '../service/assets.js';
import { channelName, type Channel } from '../service/promote.js';
import { journalChoice } from '../service/journal-setting.js';
import { journalRollbackTarget, provenance, unreadableLine } from '../service/history.js';
import { noop, plan, type Plan } from '../plan/plan.js';
import { steps, type PromoteResult } from '../plan/steps.js';
import type { PlanContext } from '../plan/context.js';
import { fieldName, givenAs, type FieldNames } from './validate.js';

export interface RollbackInput extends Channel {
  /** The version to make the Default again; without it, the one the journal (when set) or the channel's records prove was the Default before. */
  to?: string | undefined;
  user: string;
  /**
   * Nothing proves the target: a terminal asks which LIVE version it is
   * (`question`, `choices`: their labels and version ids). Without it, that
   * is a usage error listing them and asking for `to`.
   */
  pick?: ((question: string, choices: Array<{ name: string; value: string }>) => Promise<string>) | undefined;
}

export async function rollback(ctx: PlanContext, input: RollbackInput, names: FieldNames = {}): Promise<Plan<PromoteResult>> {
  const { assetId, platform, envId, to, user } = input;
  const where: Channel = { assetId, platform, envId };
  const name = channelName(where);
  const api = await ctx.api();
  await prefetchControl(ctx, [{ kind: 'channel', assetId, platform, env: envId }]);
  const { channel, records, version } = await readRollback(api, where, to);
  const current = defaultOf(channel);
  if (!current) throw await noDefault(api, where, name, records, names);
  // A re-run of a rollback that is done: nothing to send (a CI step re-run must not fail).
  if (to === current) return noop('DEFAULT', `${current} is already the Default of ${name}; nothing sent`);
  const { versionId, reason } = await pickTarget(ctx, records, current, to, name, where, input.pick, names);
  const out = await ctx.output();
  out.info(`rolling back ${name} to ${versionId}: ${reason}`);
  const refuse = {
    hint: `${versionId} is ${channel.records[versionId] ?? 'not deployed'} on ${name}: deploy it LIVE first (ahs deploy ${assetId} ${versionId} --platform ${platform} --env ${envId})`,
    byKind: { 'not-found': `${assetId} has no ${platform} version ${versionId}` },
  };
  const promotion = steps.versionPromote({ ...where, versionId, user, channel, expected: current, ...(version !== undefined ? { version } : {}) }, { refuse });
  return plan([promotion], (results) => results.of(promotion)!);
}

/**
 * With `to`, the Default, the target's own record and the target, at once
 * (one round whatever the channel's size); without, the whole channel: the
 * target is picked among its LIVE records.
 */
async function readRollback(api: ApiClient, where: Channel, to: string | undefined): Promise<{ channel: ChannelSnapshot; records: AssetUrl[]; version?: Version | null }> {
  if (to === undefined) return readChannel(api, where.assetId, where.platform, where.envId);
  const read = await readVersionOnChannel(api, where, to);
  return { channel: read.channel, records: [read.defaultRecord, read.record].filter((r): r is AssetUrl => r !== undefined), version: read.version };
}

/**
 * A channel without a Default. With no record at all there, the channel is
 * not found (exit 4): the environment (or platform) named may not be one of
 * the domain's, which only a deploy would be told (the spec has no read of
 * the domain's environments), so the message names the environments and
 * platforms where the asset is deployed, as deploy's 404 lists them. With
 * records but no Default: nothing to roll back (exit 2).
 */
async function noDefault(api: ApiClient, where: Channel, name: string, records: AssetUrl[], names: FieldNames): Promise<Error> {
  const noDefault = new UsageError(`${name} has no Default: nothing to roll back (promote one with ahs promote-default)`);
  if (records.length > 0) return noDefault;
  // The records read may be the Default's and --to's only: the asset's records everywhere (OFFLINE included) say whether the channel holds any.
  const all = await listRecords(api, where.assetId).catch(() => undefined);
  // Deployed nowhere: no channel of it to tell apart from this one.
  if (all === undefined || all.length === 0 || all.some((r) => r.envId === where.envId && r.targetPlatform === where.platform)) return noDefault;
  const envs = [...new Set(all.filter((r) => r.targetPlatform === where.platform).map((r) => r.envId))].sort();
  const platforms = [...new Set(all.filter((r) => r.envId === where.envId).map((r) => r.targetPlatform))].sort();
  const envSaid = fieldName(names, 'envId');
  const platformSaid = fieldName(names, 'platform');
  if (platforms.length > 0) {
    return new NotFoundError(`${name} not found: ${where.assetId} has nothing on platform ${where.platform} in ${where.envId} (it has on ${platforms.join(', ')}): nothing to roll back; check ${platformSaid}`);
  }
  return new NotFoundError(`${name} not found: environment ${where.envId} holds nothing of ${where.assetId} (it is deployed on ${where.platform} ${envs.length > 0 ? `in ${envs.join(', ')}` : 'in no environment'}; an environment the domain does not have holds nothing either): nothing to roll back; check ${envSaid}`);
}

interface Target {
  versionId: string;
  reason: string;
}

/**
 * The version the channel's own records prove was the Default before the
 * current one: the service keeps no history, but a service that gives each
 * record its `updatedAt` (the spec's asset-urls entry has none; a service may
 * add fields) shows the LIVE record that the current Default's promotion
 * demoted, changed at the same instant. One such record is proof; none or
 * several prove nothing, and ahs never guesses from version numbers.
 */
export function provenPrevious(records: AssetUrl[], current: string): AssetUrl | undefined {
  const stamp = (record: AssetUrl | undefined) => {
    const value = (record as { updatedAt?: unknown } | undefined)?.updatedAt;
    const time = typeof value === 'string' ? Date.parse(value) : Number.NaN;
    return Number.isNaN(time) ? undefined : time;
  };
  const promoted = stamp(records.find((r) => r.versionId === current));
  if (promoted === undefined) return undefined;
  const demoted = records.filter((r) => r.state === 'LIVE' && stamp(r) === promoted);
  return demoted.length === 1 ? demoted[0] : undefined;
}

/** `to`; else the version the journal or the records prove; else `pick` among the LIVE versions; else exit 2 listing them. */
async function pickTarget(ctx: PlanContext, records: AssetUrl[], current: string, to: string | undefined, name: string, where: Channel, pick: RollbackInput['pick'], names: FieldNames): Promise<Target> {
  const toSaid = givenAs(names, 'to', 'VERSION_ID');
  if (to !== undefined) return { versionId: to, reason: `named with ${fieldName(names, 'to')}` };
  // With a journal, its last change of the channel's Default proves the target (or says the channel moved outside ahs).
  const choice = journalChoice(await ctx.settings());
  let unproven: string | undefined;
  if (choice.id) {
    try {
      const proof = await journalRollbackTarget(ctx, choice.id, where, current, toSaid).catch((error: unknown) => {
        // No setting, and the domain's ahs-journal is not there (or not a journal): no journal to prove it.
        if (choice.source === 'default' && (error instanceof NotFoundError || (error instanceof UsageError && /reads only a journal/.test(error.message)))) return undefined;
        throw error;
      });
      if (proof) {
        const out = await ctx.output();
        for (const entry of proof.unreadable) out.warn(unreadableLine(entry));
        const { versionId, entry } = proof;
        return { versionId, reason: `the journal proves it: its entry of ${provenance(entry)} (${entry.command}) made ${current} the Default in place of ${versionId}` };
      }
    } catch (error) {
      // The journal disagrees with the channel (moved outside ahs) or holds nothing of it: in a terminal, the
      // person picks as without a journal, told why; elsewhere the error stands (it asks for the version).
      if (!(error instanceof UsageError) || !pick) throw error;
      unproven = error.message;
    }
  }
  const proven = unproven === undefined ? provenPrevious(records, current) : undefined;
  if (proven) return { versionId: proven.versionId, reason: `the channel's records show ${proven.versionId} was demoted when ${current} became the Default` };
  const live = records.filter((r) => r.state === 'LIVE').sort((a, b) => b.version - a.version);
  if (live.length === 0) throw new UsageError(`${name} has no LIVE version besides its Default ${current}: nothing to roll back to (deploy one LIVE first)`);
  const versions = new Map((await listAllVersions(await ctx.api(), records[0]!.assetId).catch(() => [])).map((v) => [v.versionId, v]));
  const label = (r: AssetUrl) => `${r.versionId} (${r.versionName}${versions.get(r.versionId) ? `, created ${versions.get(r.versionId)!.createdAt}` : ''})`;
  if (pick) {
    const choices = live.map((r) => ({ name: `${label(r)}  LIVE`, value: r.versionId }));
    if (unproven !== undefined) (await ctx.output()).warn(`the journal does not prove the target, so it is yours to pick: ${unproven}`);
    const why = unproven === undefined ? 'the service keeps no history: which was the Default before cannot be read' : 'the journal does not prove which was the Default before';
    const picked = await pick(`Roll ${name} back from ${current} (Default) to (${why})`, choices);
    return { versionId: picked, reason: unproven === undefined ? 'picked' : 'picked (the journal does not prove it)' };
  }
  throw new UsageError(
    `which version was the Default of ${name} before ${current} cannot be read (the service keeps no history, and ahs does not guess from version numbers): name it with ${toSaid}; LIVE there: ${live.map(label).join(', ')}`,
  );
}
