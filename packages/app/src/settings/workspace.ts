import { z } from 'zod';
import { AppError, ROLES, WORKSPACE_SLUG_RE, safeString } from '@mos/core';
import { getWorkspace, upsertMember, upsertWorkspace, writeAuditLog, type WorkspaceRow } from '@mos/db';
import type { AppDeps } from '../deps';
import { hashPassword, MIN_PASSWORD_LENGTH } from '../auth/passwords';
import { assignProviderIngress } from './provider-ingress';
import type { Scope } from '../scope';

/**
 * The /v1 per-key request budget (services/api routes/v1/rate-limit.ts, docs/api-v1.md): the
 * default, and the bounds of a workspace's override. The ceiling keeps one tenant's keys from
 * claiming an API process whole.
 */
export const API_RATE_LIMIT_PER_MINUTE = { default: 600, min: 1, max: 100_000 } as const;

const graphId = safeString()
  .trim()
  .regex(/^\d{5,32}$/, 'must be the numeric id the provider shows');

/**
 * Strict: an unknown key is a 400, not silently dropped. `providerIngress` in particular is
 * refused: which workspace the shared provider URLs resolve to is a platform decision
 * (`mos ingress set`), never a tenant's.
 */
export const providerSettingsInput = z.strictObject({
  wabaId: graphId.nullable().optional(),
  phoneNumberId: graphId.nullable().optional(),
  dataRetentionDays: z.number().int().min(1).max(3650).nullable().optional(),
  /** The assistant's OpenAI-compatible endpoint (`{llmBaseUrl}/chat/completions`) and model. */
  llmBaseUrl: safeString()
    .trim()
    .max(500)
    .url()
    .regex(/^https?:\/\//, 'must be an http(s) URL')
    .nullable()
    .optional(),
  llmModel: safeString().trim().min(1).max(200).nullable().optional(),
});

/**
 * What only the platform decides (the `mos` CLI): a tenant cannot raise its own /v1 budget, and
 * the 1000 msg/s throughput is the provider's grant, not a wish.
 */
export const platformSettingsInput = z.strictObject({
  /** Requests per minute per API key on /v1; null returns to the default. */
  apiRateLimitPerMinute: z.number().int().min(API_RATE_LIMIT_PER_MINUTE.min).max(API_RATE_LIMIT_PER_MINUTE.max).nullable().optional(),
  /** The provider upgraded this account's numbers to 1000 msg/s (the governor's budget). */
  throughputUpgraded: z.boolean().optional(),
});

export const workspaceView = z.object({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  wabaId: z.string().nullable(),
  phoneNumberId: z.string().nullable(),
  /** Read-only here: whether the shared provider URLs resolve to this workspace. */
  providerIngress: z.boolean(),
  dataRetentionDays: z.number().nullable(),
  llmBaseUrl: z.string().nullable(),
  llmModel: z.string().nullable(),
  /** The /v1 per-key budget override; null means the default (API_RATE_LIMIT_PER_MINUTE.default). */
  apiRateLimitPerMinute: z.number().nullable(),
  /** Sends per second per number the governor allows: 80, or 1000 when upgraded. */
  throughputUpgraded: z.boolean(),
});
export type WorkspaceView = z.infer<typeof workspaceView>;

export const toWorkspaceView = (w: WorkspaceRow): WorkspaceView => ({
  id: w.id,
  slug: w.slug,
  name: w.name,
  wabaId: w.wabaId,
  phoneNumberId: w.phoneNumberId,
  providerIngress: w.providerIngress,
  dataRetentionDays: w.dataRetentionDays,
  llmBaseUrl: w.llmBaseUrl,
  llmModel: w.llmModel,
  apiRateLimitPerMinute: w.apiRateLimitPerMinute,
  throughputUpgraded: w.throughputUpgraded,
});

export async function getWorkspaceSettings(deps: AppDeps, scope: Scope): Promise<WorkspaceView> {
  const ws = await getWorkspace(deps.db, scope.workspaceId);
  if (!ws) throw new AppError('not_found', { message: 'workspace not found' });
  return toWorkspaceView(ws);
}

export async function updateWorkspaceSettings(deps: AppDeps, scope: Scope, input: z.infer<typeof providerSettingsInput>): Promise<WorkspaceView> {
  return deps.db.transaction(async (tx) => {
    const ws = await getWorkspace(tx, scope.workspaceId);
    if (!ws) throw new AppError('not_found', { message: 'workspace not found' });
    await upsertWorkspace(tx, ws.slug, {
      wabaId: input.wabaId,
      phoneNumberId: input.phoneNumberId,
      dataRetentionDays: input.dataRetentionDays,
      llmBaseUrl: input.llmBaseUrl,
      llmModel: input.llmModel,
    });
    await writeAuditLog(tx, ws.id, { action: 'workspace.settings', actorId: scope.actorId, targetId: ws.id, details: { fields: Object.keys(input) } });
    return toWorkspaceView((await getWorkspace(tx, ws.id))!);
  });
}

/** The platform's settings of a workspace (CLI only: role `platform`), audited like the others. */
export async function updatePlatformSettings(deps: AppDeps, scope: Scope, input: z.infer<typeof platformSettingsInput>): Promise<WorkspaceView> {
  if (scope.role !== 'platform') throw new AppError('forbidden', { message: 'only the platform admin changes these settings' });
  return deps.db.transaction(async (tx) => {
    const ws = await getWorkspace(tx, scope.workspaceId);
    if (!ws) throw new AppError('not_found', { message: 'workspace not found' });
    await upsertWorkspace(tx, ws.slug, { apiRateLimitPerMinute: input.apiRateLimitPerMinute, throughputUpgraded: input.throughputUpgraded });
    await writeAuditLog(tx, ws.id, { action: 'workspace.platform_settings', actorId: scope.actorId, targetId: ws.id, details: { ...input } });
    return toWorkspaceView((await getWorkspace(tx, ws.id))!);
  });
}

export const slugSchema = safeString().trim().regex(WORKSPACE_SLUG_RE, 'slug: lowercase letters, digits and dashes, 1-64 characters');

export const bootstrapInput = z.object({
  workspace: slugSchema,
  email: safeString().trim().toLowerCase().email(),
  password: safeString().min(MIN_PASSWORD_LENGTH, `password must be at least ${MIN_PASSWORD_LENGTH} characters`),
  wabaId: graphId.optional(),
  phoneNumberId: graphId.optional(),
  providerIngress: z.boolean().optional(),
  role: z.enum(ROLES).default('owner'),
});

/** Creates or updates a workspace and an owner in one transaction; safe to repeat. */
export async function bootstrapWorkspace(deps: AppDeps, input: z.input<typeof bootstrapInput>) {
  const data = bootstrapInput.parse(input);
  const passwordHash = await hashPassword(data.password);
  return deps.db.transaction(async (tx) => {
    const { workspace, created } = await upsertWorkspace(tx, data.workspace, { wabaId: data.wabaId, phoneNumberId: data.phoneNumberId });
    if (data.providerIngress) await assignProviderIngress(tx, workspace, 'cli');
    const { member } = await upsertMember(tx, workspace.id, { email: data.email, passwordHash, role: data.role });
    await writeAuditLog(tx, workspace.id, { action: 'workspace.bootstrap', actorId: 'cli', targetId: workspace.id, details: { created } });
    return { workspace: { id: workspace.id, slug: workspace.slug }, operator: { id: member.id, email: member.email, role: member.role } };
  });
}
