import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { newId } from '@mos/core';
import { inboundWebhookRuns, resolveContact, touchConversationInbound, webhookDeliveries, webhookRejections, type Db } from '@mos/db';
import { storeTestWebhook } from '@mos/db/testing';
import type { AppDeps } from '../deps';
import type { Scope } from '../scope';
import { createApiKey } from '../settings/api-keys';
import { createWorkspaceTemplate } from '../templates/library';
import { createTemplateInput } from '../templates/views';
import { recordProviderTemplate } from '../templates/synced';
import { sendMessage } from '../messages/send';
import { sendMessageInput } from '../messages/schemas';
import { createBroadcast } from '../broadcasts/broadcasts';
import { createBroadcastInput } from '../broadcasts/schemas';
import { createCampaign } from '../campaigns/campaigns';
import { createCampaignInput } from '../campaigns/schemas';
import { createJourney } from '../journeys/journeys';
import { createJourneyInput } from '../journeys/schemas';
import { seedCompatMapping } from './journeys';
import { createInboundWebhook } from '../inbound-webhooks/configurations';
import { createInboundWebhookInput } from '../inbound-webhooks/schemas';
import { seedOperator, type SeededOperator } from './index';

/** The id of one record of each kind a workspace holds, keyed by what the id names. */
export interface WorkspaceEntities {
  member: string;
  apiKey: string;
  template: string;
  syncedTemplate: string;
  contact: string;
  message: string;
  broadcast: string;
  campaign: string;
  journey: string;
  compatMapping: string;
  inboundWebhook: string;
  inboundRun: string;
  webhookEvent: string;
  webhookDelivery: string;
  webhookRejection: string;
}
export type EntityKind = keyof WorkspaceEntities;

/**
 * One record of each kind in the owner's workspace, made through the application functions
 * where one exists (rows of what only the pipeline writes: webhook deliveries, rejections,
 * inbound runs). The workspace needs a phone number id (seedOperator's `phoneNumberId`); the
 * broadcast is scheduled an hour ahead on `deps`' task queue, which a test should leave unpolled.
 */
export async function seedWorkspaceEntities(deps: AppDeps, owner: SeededOperator): Promise<WorkspaceEntities> {
  const ws = owner.workspaceId;
  const scope: Scope = { workspaceId: ws, actorId: owner.memberId, role: owner.role };
  const tag = randomBytes(3).toString('hex');
  const phone = `+1555${String(parseInt(tag, 16) % 10_000_000).padStart(7, '0')}`;

  const member = (await seedOperator(deps, { workspace: owner.workspaceSlug, role: 'viewer' })).memberId;
  const apiKey = (await createApiKey(deps, scope, { name: `key ${tag}` })).id;
  const template = (await createWorkspaceTemplate(deps, scope, createTemplateInput.parse({ name: `draft_${tag}` }))).id;
  const synced = await recordProviderTemplate(deps, {
    workspaceId: ws,
    providerTemplateId: `pt-${tag}`,
    name: 'notice',
    language: 'en_US',
    category: 'UTILITY',
    status: 'APPROVED',
    components: [{ type: 'BODY', text: 'Hi {{1}}' }],
  });

  const contact = await resolveContact(deps.db, ws, { phoneNumber: phone, userId: null }, { at: new Date() });
  await touchConversationInbound(deps.db, ws, contact.id, new Date());
  const message = (await sendMessage(deps, scope, sendMessageInput.parse({ to: phone, type: 'text', text: { body: 'hello' } }))).message.id;
  const template1 = { name: 'notice', language: 'en_US', parameters: { body: ['friend'] } };
  const broadcast = (
    await createBroadcast(
      deps,
      scope,
      createBroadcastInput.parse({ template: template1, segment: { contactIds: [contact.id] }, scheduledAt: new Date(Date.now() + 3_600_000).toISOString() }),
    )
  ).broadcast.id;
  const campaign = (await createCampaign(deps, scope, createCampaignInput.parse({ name: `campaign ${tag}`, template: template1, segment: {} }))).campaign.id;

  const journey = (
    await createJourney(deps, scope, createJourneyInput.parse({ name: `journey ${tag}`, trigger: { type: 'api' }, steps: [{ id: 'bye', type: 'exit' }] }))
  ).journey.id;
  const compatMapping = await seedCompatMapping(deps.db, ws, journey, { legacyPath: `legacy-${tag}` });

  const inbound = await createInboundWebhook(
    deps,
    scope,
    createInboundWebhookInput.parse({
      name: `crm ${tag}`,
      templateName: 'notice',
      templateLocale: 'en_US',
      mapping: { to: 'path:phone', 'parameters.body.1': 'path:name' },
    }),
    'settings',
  );
  const inboundWebhook = inbound.inboundWebhook.id;
  const inboundRun = newId('inboundWebhookRun');
  await deps.db
    .insert(inboundWebhookRuns)
    .values({ id: inboundRun, workspaceId: ws, inboundWebhookId: inboundWebhook, status: 'dry_run', dryRun: true, headers: {}, receivedAt: new Date() });

  const webhookEvent = await storeTestWebhook(deps.db, ws, { body: { object: 'messaging_business_account', entry: [] }, normalizationStatus: 'processed' });
  const webhookDelivery = newId('delivery');
  await deps.db.insert(webhookDeliveries).values({
    id: webhookDelivery,
    workspaceId: ws,
    webhookEventId: webhookEvent,
    jobId: newId('job'),
    topic: 'messages',
    status: 'processed',
    processedAt: new Date(),
  });
  const rejected = await storeTestWebhook(deps.db, ws, { body: 'not signed', topic: 'invalid_signature' });
  const webhookRejection = newId('rejection');
  await deps.db.insert(webhookRejections).values({
    id: webhookRejection,
    workspaceId: ws,
    webhookEventId: rejected,
    source: 'messaging',
    topic: 'invalid_signature',
    reason: 'mismatch',
    receivedAt: new Date(),
  });

  return {
    member,
    apiKey,
    template,
    syncedTemplate: synced.template.id,
    contact: contact.id,
    message,
    broadcast,
    campaign,
    journey,
    compatMapping,
    inboundWebhook,
    inboundRun,
    webhookEvent,
    webhookDelivery,
    webhookRejection,
  };
}

/**
 * Every row the workspace owns, table by table (each table with a workspace_id column, found in
 * the catalog so a new table is included), ordered, as JSON: compare two snapshots to prove
 * nothing of the workspace changed.
 */
export async function workspaceSnapshot(db: Db, workspaceId: string): Promise<Record<string, string>> {
  const tables = await db.execute<{ table_name: string }>(
    sql`SELECT table_name FROM information_schema.columns WHERE table_schema = 'public' AND column_name = 'workspace_id' ORDER BY table_name`,
  );
  const workspace = await db.execute(sql`SELECT to_jsonb(w) AS row FROM workspaces w WHERE id = ${workspaceId}`);
  const out: Record<string, string> = { workspaces: JSON.stringify(workspace.rows) };
  for (const { table_name } of tables.rows) {
    const rows = await db.execute(sql`SELECT to_jsonb(t) AS row FROM ${sql.identifier(table_name)} t WHERE workspace_id = ${workspaceId} ORDER BY 1`);
    out[table_name] = JSON.stringify(rows.rows.map((r) => r.row));
  }
  return out;
}
