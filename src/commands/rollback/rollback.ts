// rollback ASSET --platform P --env E [--to VERSION_ID]: a promotion of the
// previous Default, as a compare-and-set on the Default read (cli.md,
// "Release workflows").
import type { Run } from '../define.js';
import type { rollbackSpec } from './index.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { defaultOf } from '../../rules/index.js';
import type { AssetUrl, Version } from '../../rules/schemas.js';
import type { ChannelSnapshot } from '../../rules/index.js';
import type { ApiClient } from '../../http/client.js';
import { listAllVersions, readChannel, readVersionOnChannel } from '../../service/assets.js';
import { askAssetId, askEnv, platformChoices } from '../../pickers/pick-asset.js';
import { channelName, type Channel } from '../../service/promote.js';
import { renderPromotion } from '../../io/views/deploy.js';
import { journalId } from '../../service/journal-setting.js';
import { journalRollbackTarget, provenance } from '../../service/history.js';
import { noop, plan } from '../../plan/plan.js';
import { steps } from '../../plan/steps.js';

export const run: Run<typeof rollbackSpec> = async (options, ctx) => {
  const assetId = await askAssetId(ctx, options.assetId);
  const platform = await ctx.setting('platform', { message: 'Target platform', choices: () => platformChoices(ctx, assetId) });
  const envId = await askEnv(ctx, assetId, platform);
  const where: Channel = { assetId, platform, envId };
  const name = channelName(where);
  const user = await ctx.setting('user', { message: 'Acting user e-mail' });
  const api = await ctx.api();
  const { channel, records, version } = await readRollback(api, where, options.to);
  const current = defaultOf(channel);
  if (!current) throw new UsageError(`${name} has no Default: nothing to roll back (promote one with ahs promote-default)`);
  // A re-run of a rollback that is done: nothing to send (a CI step re-run must not fail).
  if (options.to === current) return noop('DEFAULT', `${current} is already the Default of ${name}; nothing sent`);
  const { versionId, reason } = await pickTarget(ctx, records, current, options.to, name, where);
  const out = await ctx.output();
  out.info(`rolling back ${name} to ${versionId}: ${reason}`);
  const refuse = {
    hint: `${versionId} is ${channel.records[versionId] ?? 'not deployed'} on ${name}: deploy it LIVE first (ahs deploy ${assetId} ${versionId})`,
    byKind: { 'not-found': `${assetId} has no ${platform} version ${versionId}` },
  };
  const promotion = steps.versionPromote({ ...where, versionId, user, channel, expected: current, ...(version !== undefined ? { version } : {}) }, { refuse });
  return plan([promotion], (results) => {
    out.print(results.of(promotion)!, (d, kit) => {
      out.success(`${versionId} is now the Default of ${name}; ${current} is now LIVE`);
      return renderPromotion(d, kit);
    });
  });
};

/**
 * With --to, the Default, the target's own record and the target, at once
 * (one round whatever the channel's size); without, the whole channel: the
 * target is picked among its LIVE records.
 */
async function readRollback(api: ApiClient, where: Channel, to: string | undefined): Promise<{ channel: ChannelSnapshot; records: AssetUrl[]; version?: Version | null }> {
  if (to === undefined) return readChannel(api, where.assetId, where.platform, where.envId);
  const read = await readVersionOnChannel(api, where, to);
  return { channel: read.channel, records: [read.defaultRecord, read.record].filter((r): r is AssetUrl => r !== undefined), version: read.version };
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

/** --to; else the version the records prove; else in a terminal a pick among the LIVE versions; else exit 2 listing them. */
async function pickTarget(ctx: Context, records: AssetUrl[], current: string, to: string | undefined, name: string, where: Channel): Promise<Target> {
  if (to !== undefined) return { versionId: to, reason: 'named with --to' };
  // With a journal, its last change of the channel's Default proves the target (or says the channel moved outside ahs).
  const journal = await journalId(ctx);
  if (journal) {
    const { versionId, entry } = await journalRollbackTarget(ctx, journal, where, current);
    return { versionId, reason: `the journal proves it: its entry of ${provenance(entry)} (${entry.command}) made ${current} the Default in place of ${versionId}` };
  }
  const proven = provenPrevious(records, current);
  if (proven) return { versionId: proven.versionId, reason: `the channel's records show ${proven.versionId} was demoted when ${current} became the Default` };
  const live = records.filter((r) => r.state === 'LIVE').sort((a, b) => b.version - a.version);
  if (live.length === 0) throw new UsageError(`${name} has no LIVE version besides its Default ${current}: nothing to roll back to (deploy one LIVE first)`);
  const versions = new Map((await listAllVersions(await ctx.api(), records[0]!.assetId).catch(() => [])).map((v) => [v.versionId, v]));
  const label = (r: AssetUrl) => `${r.versionId} (${r.versionName}${versions.get(r.versionId) ? `, created ${versions.get(r.versionId)!.createdAt}` : ''})`;
  if (ctx.io.canPrompt) {
    const choices = live.map((r) => ({ name: `${label(r)}  LIVE`, value: r.versionId }));
    const picked = await (await ctx.prompter()).select(`Roll ${name} back from ${current} (Default) to (the service keeps no history: which was the Default before cannot be read)`, choices);
    return { versionId: picked, reason: 'picked' };
  }
  throw new UsageError(
    `which version was the Default of ${name} before ${current} cannot be read (the service keeps no history, and ahs does not guess from version numbers): name it with --to VERSION_ID; LIVE there: ${live.map(label).join(', ')}`,
  );
}
