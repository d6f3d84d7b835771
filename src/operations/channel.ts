// The writes of one channel (asset, platform, environment) as operations
// (issue 34): a deploy LIVE or OFFLINE, a promotion to Default. Typed input,
// already resolved (no prompt, no setting read here: a question the command
// may ask midway, such as --make-live's, is a function it passes), a Plan
// whose `done` is the typed result: the JSON document `ahs deploy` and
// `ahs promote-default` print and the library's deploy() and
// promoteDefault() return.
import { prefetchControl, refuseBeforeAsking } from '../plan/change-control.js';
import { UsageError } from '../errors.js';
import type { DeploymentState } from '../rules/index.js';
import { deployBody, type DeployBody } from '../rules/schemas.js';
import { readDefault, readVersionOnChannel } from '../service/assets.js';
import { channelName, checkExpected, parseExpected, type Channel } from '../service/promote.js';
import { noop, plan, type Plan } from '../plan/plan.js';
import { steps, type PromoteResult } from '../plan/steps.js';
import type { DeployResponse } from '../plan/answers.js';
import type { PlanContext } from '../plan/context.js';
import { fieldName, validateInput, type FieldNames } from './validate.js';

export type { DeployResponse, PromoteResult };

export interface DeployInput extends Channel {
  versionId: string;
  state: 'LIVE' | 'OFFLINE';
  /** Already in that state: nothing to send (a no-op plan, `unchanged`). */
  idempotent?: boolean | undefined;
  /** The acting user (createdBy for a first deploy, updatedBy for a change). */
  user: string;
}

/** PUT of the version's deployment on the channel: the deploy endpoint's answer. */
export async function deployVersion(ctx: PlanContext, input: DeployInput, names: FieldNames = {}): Promise<Plan<DeployResponse>> {
  const { assetId, platform, envId, versionId, state, user } = input;
  // createdBy for a first deploy, updatedBy for a change: send both (spec).
  const body = validateInput(deployBody, { envId, intent: state, createdBy: user, updatedBy: user }, names);
  const api = await ctx.api();
  const name = channelName(input);
  // Change control's reads go beside this command's (src/plan/change-control.ts): its check costs no round of its own.
  await prefetchControl(ctx, [{ kind: 'channel', assetId, platform, env: envId }]);
  // The version's record on the channel (the Default does not decide a LIVE or OFFLINE deploy), read before the deploy:
  // what --idempotent decides on, and the state the journal's entry records as before (cli.md "Memory": true values).
  // Its own asset-urls, and the channel's state=OFFLINE records at once (a service may leave OFFLINE out of the former):
  // one round before the deploy, whether or not it finds it; a dry run's prediction on the version too.
  const dryRun = ctx.globals.dryRun === true;
  const read = await readVersionOnChannel(api, { assetId, platform, envId }, versionId, { version: dryRun, withDefault: false, offlineAtOnce: true });
  const current = read.channel.records[versionId];
  if (input.idempotent && current === state) return noop(current, `${versionId} is already ${current} on ${name}; nothing sent`);
  const predicted = dryRun ? { channel: read.channel, version: read.version } : { channel: read.channel };
  const deploy = steps.versionDeploy({ assetId, versionId, platform, body, ...predicted, notes: ['the environment and platform codes are checked by the service (404 when unknown)'] });
  return plan([deploy], (results) => results.of(deploy)!);
}

export interface PromoteInput extends Channel {
  /** The version to promote; or `fromEnv`. */
  versionId?: string | undefined;
  /** Promote the version that is the Default of the same asset and platform in this environment. */
  fromEnv?: string | undefined;
  /** Deploy it LIVE first when it is OFFLINE or not deployed on the channel. */
  makeLive?: boolean | undefined;
  /** Compare-and-set: the current Default must be this version (`none`: no Default yet); else a ConflictError. */
  expectCurrent?: string | undefined;
  /** Already the Default: nothing to send (a no-op plan, `unchanged`). */
  idempotent?: boolean | undefined;
  user: string;
  /**
   * Asked when the version is not LIVE and `makeLive` was not given (a
   * terminal's question): true deploys it LIVE first. Without it, such a
   * version is refused before anything is sent.
   */
  offerMakeLive?: ((versionId: string, state: DeploymentState | undefined, channel: string) => Promise<boolean>) | undefined;
}

/**
 * A plan of one or two steps: the LIVE deploy of `makeLive`, then the
 * promotion (src/service/promote.ts holds the 409 dance and the
 * compare-and-set). `idempotent` is checked before `expectCurrent`.
 * `names`: how the fields were given (the CLI's VERSION_ID and flags, or the
 * library's parameters), for the messages of a usage error.
 */
export async function promoteDefault(ctx: PlanContext, input: PromoteInput, names: FieldNames = {}): Promise<Plan<PromoteResult>> {
  const { assetId, platform, envId, fromEnv, user } = input;
  checkPromoteSource(input, names);
  const fromEnvName = fieldName(names, 'fromEnv');
  const where: Channel = { assetId, platform, envId };
  const expected = parseExpected(input.expectCurrent);
  const api = await ctx.api();
  const versionId = fromEnv !== undefined ? await defaultIn(ctx, { ...where, envId: fromEnv }, fromEnvName) : input.versionId;
  if (versionId === undefined) throw new UsageError(`${fieldName(names, 'versionId')} (or ${fromEnvName}) is required`);
  validateInput(deployBody, { envId, intent: 'DEFAULT', createdBy: user, updatedBy: user }, names);

  await prefetchControl(ctx, [{ kind: 'channel', ...where, env: envId }]);
  // The Default, the version's record on the channel (OFFLINE included, by the state filter) and the version, at once.
  const { channel, version } = await readVersionOnChannel(api, where, versionId);
  const state = channel.records[versionId];
  const name = channelName(where);
  const out = await ctx.output();
  // Which version --from-env resolved, always (a script reads it in the JSON's assetVersion).
  if (fromEnv !== undefined) {
    out.info(`${versionId}${version?.versionName ? ` (${version.versionName})` : ''} is the Default of ${channelName({ ...where, envId: fromEnv })} (${fromEnvName} ${fromEnv})`);
  }
  if (input.idempotent && state === 'DEFAULT') return noop('DEFAULT', `${versionId} is already the Default of ${name}; nothing sent`);
  checkExpected(channel, expected, name);

  const undeployed = state === undefined || state === 'OFFLINE';
  // A person is not asked about a write that change control refuses.
  const asks = undeployed && input.makeLive !== true && input.offerMakeLive !== undefined;
  if (asks) await refuseBeforeAsking(ctx, [{ kind: 'channel', ...where, env: envId }], [{ assetId, versionId }]);
  const makeLive = undeployed && (input.makeLive === true || (asks && (await input.offerMakeLive!(versionId, state, name))));
  const liveBody: DeployBody = { envId, intent: 'LIVE', createdBy: user, updatedBy: user };
  const live = makeLive ? steps.versionDeploy({ assetId, versionId, platform, body: liveBody, channel, version, notes: ['--make-live: the version is deployed LIVE first'] }) : undefined;
  // Without --make-live, a version that is not LIVE is refused before sending: the channel was read.
  const refuse = undeployed && !makeLive ? { hint: `${versionId} is ${state ?? 'not deployed'} on ${name}: add ${fieldName(names, 'makeLive')} to deploy it LIVE first` } : undefined;
  const promotion = steps.versionPromote({ assetId, platform, envId, versionId, user, channel, expected, afterLive: makeLive ? liveBody : undefined, version }, { refuse });
  return plan(live ? [live, promotion] : [promotion], (results) => results.of(promotion)!, {
    onAnswer: (step) => step === live && out.info(`${versionId} deployed LIVE on ${name} (${fieldName(names, 'makeLive')})`),
  });
}

/**
 * A version or the Default of another environment, not both (the command
 * checks it before any question; the operation again, for the library).
 * `names`: how versionId, fromEnv and envId were given.
 */
export function checkPromoteSource(input: Pick<PromoteInput, 'versionId' | 'fromEnv' | 'envId'>, names: FieldNames = {}): void {
  const { fromEnv, envId } = input;
  const fromEnvName = fieldName(names, 'fromEnv');
  if (fromEnv !== undefined && input.versionId !== undefined) throw new UsageError(`give ${fieldName(names, 'versionId')} or ${fromEnvName}, not both`);
  if (fromEnv !== undefined && fromEnv === envId) {
    throw new UsageError(`${fromEnvName} ${fromEnv} is the environment being promoted in (${fieldName(names, 'envId')} ${envId}): its Default is already its Default; name another source environment. Nothing was sent`);
  }
}

/** --from-env: the Default of the same asset and platform in the source environment. */
async function defaultIn(ctx: PlanContext, source: Channel, fromEnvName: string): Promise<string> {
  const found = (await readDefault(await ctx.api(), source))?.versionId;
  if (!found) throw new UsageError(`${source.envId} has no Default for ${source.assetId} on ${source.platform}: nothing to promote from ${fromEnvName} ${source.envId}`);
  return found;
}
