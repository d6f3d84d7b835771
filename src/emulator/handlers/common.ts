// Helpers shared by the handlers: body validation with the rules' schemas,
// the acting-user check, lookups that answer 404, uploads.
import type { z } from 'zod';
import { canAct, decideActingUser, decideFileType, decideKeyScope, decidePlanLimits } from '../../rules/index.js';
import { fieldLabel, validate } from '../../rules/schemas.js';
import type { ServerResponse } from 'node:http';
import type { Emulator, RequestContext } from '../context.js';
import { sendJson } from '../http.js';
import { withExtraFields } from '../variation.js';
import type { AssetTypeFixture } from '../fixture.js';
import { isMultipart, parseMultipart, type MultipartBody, type UploadedFile } from '../multipart.js';
import { fail } from '../problem.js';
import { assetInactive, assetNotFound, environmentRequired, invalidFields, noActingUserInDomain, platformRequired, unknownEnvironment, unknownPlatform } from '../../rules/rejections.js';
import { storedBytes, type AssetRecord } from '../state.js';
import { mimeTypeFor } from '../../util/mime.js';

/** Now on the emulator's clock (its variation's offset from the machine's). */
export function now(ctx: { emu: Pick<Emulator, 'clock'> }): string {
  return new Date(Date.now() + ctx.emu.clock.offsetMs).toISOString();
}

/** Validates a body with one of the rules' schemas; 400 with every issue otherwise. */
export function check<T extends z.ZodType>(schema: T, value: unknown, status = 400): z.infer<T> {
  const result = validate(schema, value, fieldLabel);
  if (!result.ok) fail(invalidFields(result.messages, status));
  return result.data;
}

/** 400 unless `email` is an active admin or owner of the domain (spec, Authentication 4). */
export function requireActingUser(ctx: RequestContext, email: string | undefined, field: string): void {
  if (email === undefined) return;
  const refused = decideActingUser(field, email, ctx.domain.users, ctx.domainId);
  if (refused) fail(refused);
}

export function requireAnyActingUser(ctx: RequestContext): void {
  if (!ctx.domain.users.some(canAct)) fail(noActingUserInDomain(ctx.domainId));
}

export function findAsset(ctx: RequestContext, assetId: string): AssetRecord {
  const asset = ctx.data.assets[assetId];
  if (!asset) fail(assetNotFound(assetId, ctx.domainId));
  return asset;
}

/** Version paths need an existing, active asset (spec, Versions). */
export function findActiveAsset(ctx: RequestContext, assetId: string): AssetRecord {
  const asset = findAsset(ctx, assetId);
  if (!asset.active) fail(assetInactive(assetId));
  return asset;
}

export function requirePlatform(ctx: RequestContext, platform: string | null | undefined, field = 'targetPlatformId'): string {
  if (!platform) fail(platformRequired(field, ctx.domain.targetPlatforms));
  if (!ctx.domain.targetPlatforms.includes(platform)) fail(unknownPlatform(platform, ctx.domainId, ctx.domain.targetPlatforms));
  return platform;
}

export function requireEnvironment(ctx: RequestContext, envId: unknown, status = 404): string {
  if (typeof envId !== 'string' || envId === '') fail(environmentRequired(ctx.domain.environments, status));
  if (!ctx.domain.environments.includes(envId)) fail(unknownEnvironment(envId, ctx.domainId, ctx.domain.environments, status));
  return envId;
}

/** Environment-scoped keys act only in their own environment (403 otherwise). */
export function requireKeyScope(ctx: RequestContext, envId: string): void {
  const refused = decideKeyScope(ctx.key.envId, envId);
  if (refused) fail(refused);
}

export function activeAssetType(ctx: RequestContext, code: string): AssetTypeFixture | undefined {
  return ctx.domain.assetTypes.find((type) => type.code === code && type.active);
}

export function knownAssetType(ctx: RequestContext, code: string): AssetTypeFixture | undefined {
  return ctx.domain.assetTypes.find((type) => type.code === code);
}


export function mimeTypeOf(file: UploadedFile): string {
  if (file.mimeType && file.mimeType !== 'application/octet-stream') return file.mimeType;
  return mimeTypeFor(file.fileName);
}

/** Reads a multipart upload, the file streamed to a temp file, cut at the plan's upload limit. */
export async function receiveUpload(ctx: RequestContext): Promise<MultipartBody> {
  if (!isMultipart(ctx.req)) return { fields: {} };
  const maxUploadBytes = ctx.domain.plan?.maxUploadBytes;
  // One byte over the limit is enough to know the file is too large; the rest is drained.
  return parseMultipart(ctx.req, ctx.emu.store, maxUploadBytes === undefined ? {} : { maxFileBytes: maxUploadBytes + 1 });
}

/** The file checks of an upload: present (400), type allowed for the asset type (400). */
export function checkFile(ctx: RequestContext, file: UploadedFile | undefined, assetType: string): UploadedFile {
  const refused = decideFileType(file, assetType, knownAssetType(ctx, assetType)?.allowedExtensions);
  if (refused) fail(refused);
  return file!;
}

/** The plan limits (403): upload size, then the domain's storage. Call synchronously before recording the file. */
export function checkPlan(ctx: RequestContext, file: UploadedFile): void {
  const plan = ctx.domain.plan;
  // Summed over every stored file: only for a plan that limits storage (the rule reads it for nothing else).
  const stored = plan?.maxStorageBytes === undefined ? 0 : storedBytes(ctx.data);
  const refused = decidePlanLimits(file.size, stored, plan);
  if (refused) fail(refused);
}

/** Runs `work` with the upload; discards the temp file when `work` fails before adopting it. */
export async function withUpload<T>(ctx: RequestContext, body: MultipartBody, work: (file: UploadedFile | undefined) => Promise<T>): Promise<T> {
  try {
    return await work(body.file);
  } catch (error) {
    if (body.file) await ctx.emu.store.discard(body.file.pending);
    throw error;
  }
}

/**
 * Keeps `key` mid-deployment for the fixture's deployDelayMs or while a test
 * holds deployments (another deploy to it meanwhile gets the rules' 500);
 * true when it waited, so the caller decides again on the fresh state.
 */
export function deploymentDelay(ctx: RequestContext, key: string): Promise<boolean> {
  return ctx.emu.deployments.pass(key);
}

/** A JSON answer, with the extra fields of the variation when it is on. */
export function reply(ctx: { res: ServerResponse; emu: Emulator }, status: number, body: unknown): void {
  sendJson(ctx.res, status, withExtraFields(ctx.emu.variation, body));
}

/**
 * A download URL the API gives for a delivery path (relative to
 * {deliveryUrl}/api/vi): absolute on the delivery host, or with the
 * `relativeDownloadUrls` variation relative to the delivery URL ("/api/vi/...").
 */
export function downloadUrlOf(ctx: { emu: Emulator }, deliveryPath: string): string {
  return `${ctx.emu.variation.relativeDownloadUrls ? '' : ctx.emu.deliveryUrl}/api/vi${deliveryPath}`;
}
