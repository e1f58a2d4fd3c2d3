import { randomBytes } from 'node:crypto';
import { AppError, inboundSigningKey, newToken, standardWebhooksSecret, validateMapping, type FixedTemplate, type InboundWebhookOrigin } from '@mos/core';
import {
  deleteInboundWebhook,
  getInboundWebhook,
  getInboundWebhookBySlugIn,
  insertInboundWebhook,
  listInboundWebhooks,
  updateInboundWebhook,
  writeAuditLog,
  type DbOrTx,
  type InboundWebhookRow,
} from '@mos/db';
import type { AppDeps } from '../deps';
import type { Scope } from '../scope';
import { checkApprovedTemplate } from '../messages/approved-template';
import type { AdminCreateInboundWebhookInput, InboundWebhookView, UpdateInboundWebhookInput } from './schemas';

export const INBOUND_WEBHOOK_PATH_PREFIX = '/api/v1/inbound-webhooks/';
/** Display prefix: enough to tell two secrets apart in a list, far too little to use. */
const SECRET_PREFIX_LENGTH = 12;

export function toInboundWebhookView(row: InboundWebhookRow): InboundWebhookView {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    path: `${INBOUND_WEBHOOK_PATH_PREFIX}${row.slug}`,
    enabled: row.enabled,
    dryRun: row.dryRun,
    templateName: row.templateName,
    templateLocale: row.templateLocale,
    mapping: row.mapping,
    secretPrefix: row.secretPrefix,
    origin: row.origin,
    secretRotatedAt: row.secretRotatedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

interface WithSecret {
  inboundWebhook: InboundWebhookView;
  secret: string;
  standardWebhooksSecret: string;
}

/** A fresh one-time secret: returned once, stored only as its SHA-256 (which is also the HMAC key). */
function newSecret(): { secret: string; secretHash: string; secretPrefix: string } {
  const secret = newToken('mos_iwh');
  return { secret, secretHash: inboundSigningKey(secret), secretPrefix: secret.slice(0, SECRET_PREFIX_LENGTH) };
}

/** The URL slug: the name for people reading logs, 80 random bits so slugs cannot be guessed. */
function newSlug(name: string): string {
  const readable = name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
  const random = randomBytes(10).toString('hex');
  return readable ? `${readable}-${random}` : random;
}

/**
 * The mapping against the configuration's template: the engine's rules, then (when the
 * template is fixed) as many body parameters as the template's body has placeholders.
 * Settings-made configurations may only use an approved UTILITY template.
 */
async function checkMapping(db: DbOrTx, ws: string, mapping: unknown, fixed: FixedTemplate, origin: InboundWebhookOrigin): Promise<void> {
  const checked = validateMapping(mapping, fixed);
  if (!checked.ok) throw new AppError('validation_failed', { message: 'The mapping is not valid', issues: checked.issues });
  if (!fixed.templateName || !fixed.templateLocale) {
    if (origin === 'settings') throw new AppError('validation_failed', { message: 'Choose the approved UTILITY template this webhook sends' });
    return;
  }
  const mapped = checked.mapping.entries.filter((e) => e.target.startsWith('parameters.body.')).length;
  const template = await checkApprovedTemplate(db, ws, fixed.templateName, fixed.templateLocale, mapped);
  if (!template.ok && template.code === 'template_not_approved') throw new AppError('template_not_approved', { message: template.message });
  if (!template.ok) {
    throw new AppError('validation_failed', {
      message: template.message,
      issues: [{ code: template.code, message: `expected parameters.body.1 to parameters.body.${template.expected}` }],
    });
  }
  if (origin === 'settings' && template.template.category.toUpperCase() !== 'UTILITY') {
    throw new AppError('validation_failed', {
      message: 'Inbound webhooks created in Settings send UTILITY templates only',
      issues: [{ code: 'template_category', message: `the template is ${template.template.category}` }],
    });
  }
}

const fixedOf = (row: { templateName: string | null; templateLocale: string | null }): FixedTemplate => ({
  templateName: row.templateName,
  templateLocale: row.templateLocale,
});

/**
 * Every new configuration is disabled and in dry-run (spec rule 5), whoever creates it; one
 * created in Settings is also held to one approved UTILITY template. Enabling it, and leaving
 * dry-run, is `promoteInboundWebhook`: a platform or owner/admin action outside Settings.
 */
export async function createInboundWebhook(
  deps: AppDeps,
  scope: Scope,
  input: AdminCreateInboundWebhookInput,
  origin: InboundWebhookOrigin,
): Promise<WithSecret> {
  const ws = scope.workspaceId;
  const fixed = { templateName: input.templateName ?? null, templateLocale: input.templateLocale ?? null };
  if ((fixed.templateName === null) !== (fixed.templateLocale === null)) {
    throw new AppError('validation_failed', { message: 'Give both the template name and its locale, or neither' });
  }
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    await checkMapping(tx, ws, input.mapping, fixed, origin);
    const s = newSecret();
    const row = await insertInboundWebhook(
      tx,
      ws,
      {
        slug: newSlug(input.name),
        name: input.name,
        enabled: false,
        dryRun: true,
        secretHash: s.secretHash,
        secretPrefix: s.secretPrefix,
        mapping: input.mapping,
        ...fixed,
        origin,
      },
      now,
    );
    await writeAuditLog(tx, ws, {
      action: 'inbound_webhook.create',
      actorId: scope.actorId,
      targetId: row.id,
      details: { slug: row.slug, name: row.name, origin, templateName: row.templateName, templateLocale: row.templateLocale },
    });
    return { inboundWebhook: toInboundWebhookView(row), secret: s.secret, standardWebhooksSecret: standardWebhooksSecret(s.secretHash) };
  });
}

export async function listWorkspaceInboundWebhooks(deps: AppDeps, scope: Scope): Promise<{ inboundWebhooks: InboundWebhookView[] }> {
  return { inboundWebhooks: (await listInboundWebhooks(deps.db, scope.workspaceId)).map(toInboundWebhookView) };
}

async function requireConfig(db: DbOrTx, ws: string, id: string, lock = false): Promise<InboundWebhookRow> {
  const row = await getInboundWebhook(db, ws, id, lock);
  if (!row) throw new AppError('not_found', { message: 'No inbound webhook with this id in the workspace' });
  return row;
}

/** The CLI names configurations by slug. */
export async function inboundWebhookIdForSlug(deps: AppDeps, scope: Scope, slug: string): Promise<string> {
  const row = await getInboundWebhookBySlugIn(deps.db, scope.workspaceId, slug);
  if (!row) throw new AppError('not_found', { message: 'No inbound webhook with this slug in the workspace' });
  return row.id;
}

export async function getWorkspaceInboundWebhook(deps: AppDeps, scope: Scope, id: string): Promise<InboundWebhookView> {
  return toInboundWebhookView(await requireConfig(deps.db, scope.workspaceId, id));
}

/** Name, template and mapping; the mapping is checked again against the template it will use. */
export async function updateInboundWebhookConfig(deps: AppDeps, scope: Scope, input: UpdateInboundWebhookInput): Promise<InboundWebhookView> {
  const ws = scope.workspaceId;
  return deps.db.transaction(async (tx) => {
    const row = await requireConfig(tx, ws, input.id, true);
    const fixed = { templateName: input.templateName ?? row.templateName, templateLocale: input.templateLocale ?? row.templateLocale };
    const mapping = input.mapping ?? row.mapping;
    await checkMapping(tx, ws, mapping, fixed, row.origin);
    const updated = await updateInboundWebhook(tx, ws, row.id, { name: input.name ?? row.name, mapping, ...fixed }, deps.clock.now());
    const changed = (['name', 'templateName', 'templateLocale', 'mapping'] as const).filter((k) => input[k] !== undefined);
    await writeAuditLog(tx, ws, { action: 'inbound_webhook.update', actorId: scope.actorId, targetId: row.id, details: { changed } });
    return toInboundWebhookView(updated!);
  });
}

/** A new secret; the old one stops verifying at once (no grace period: rotate when it leaked). */
export async function rotateInboundWebhookSecret(deps: AppDeps, scope: Scope, id: string): Promise<WithSecret> {
  const ws = scope.workspaceId;
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    await requireConfig(tx, ws, id, true);
    const s = newSecret();
    const row = await updateInboundWebhook(tx, ws, id, { secretHash: s.secretHash, secretPrefix: s.secretPrefix, secretRotatedAt: now }, now);
    await writeAuditLog(tx, ws, { action: 'inbound_webhook.rotate_secret', actorId: scope.actorId, targetId: id, details: { secretPrefix: s.secretPrefix } });
    return { inboundWebhook: toInboundWebhookView(row!), secret: s.secret, standardWebhooksSecret: standardWebhooksSecret(s.secretHash) };
  });
}

/** Disabling is always allowed from Settings (the safe direction): requests then get 404. */
export async function disableInboundWebhook(deps: AppDeps, scope: Scope, id: string): Promise<InboundWebhookView> {
  return setState(deps, scope, id, { enabled: false }, 'inbound_webhook.disable');
}

/** Back to dry-run (the safe direction), keeping it enabled. */
export async function makeInboundWebhookDryRun(deps: AppDeps, scope: Scope, id: string): Promise<InboundWebhookView> {
  return setState(deps, scope, id, { dryRun: true }, 'inbound_webhook.dry_run');
}

/**
 * Enables a configuration, and with `live` takes it out of dry-run so requests send. Only the
 * CLI (platform) and owners/admins through their own procedure reach this; the Settings REST
 * surface has no route to it.
 */
export async function promoteInboundWebhook(deps: AppDeps, scope: Scope, input: { id: string; live: boolean }): Promise<InboundWebhookView> {
  const patch = input.live ? { enabled: true, dryRun: false } : { enabled: true };
  return setState(deps, scope, input.id, patch, input.live ? 'inbound_webhook.promote_live' : 'inbound_webhook.promote');
}

async function setState(deps: AppDeps, scope: Scope, id: string, patch: { enabled?: boolean; dryRun?: boolean }, action: string): Promise<InboundWebhookView> {
  const ws = scope.workspaceId;
  return deps.db.transaction(async (tx) => {
    const before = await requireConfig(tx, ws, id, true);
    if (patch.dryRun === false) await checkMapping(tx, ws, before.mapping, fixedOf(before), 'admin');
    const row = await updateInboundWebhook(tx, ws, id, patch, deps.clock.now());
    await writeAuditLog(tx, ws, {
      action,
      actorId: scope.actorId,
      targetId: id,
      details: { before: { enabled: before.enabled, dryRun: before.dryRun }, after: { enabled: row!.enabled, dryRun: row!.dryRun } },
    });
    return toInboundWebhookView(row!);
  });
}

export async function deleteWorkspaceInboundWebhook(deps: AppDeps, scope: Scope, id: string): Promise<{ ok: true }> {
  const ws = scope.workspaceId;
  return deps.db.transaction(async (tx) => {
    const row = await requireConfig(tx, ws, id, true);
    await deleteInboundWebhook(tx, ws, id);
    await writeAuditLog(tx, ws, { action: 'inbound_webhook.delete', actorId: scope.actorId, targetId: id, details: { slug: row.slug, name: row.name } });
    return { ok: true as const };
  });
}
