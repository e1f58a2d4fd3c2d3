import { and, asc, desc, eq, gte, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import { compatMappings, contacts, journeys, webhookEvents } from '../schema/index';
import type { ContactRow } from './contacts';
import type { JourneyRow } from './journeys';

/**
 * Reads the legacy-compatible ingress needs before it knows a workspace (the mappings, unique
 * across workspaces) and the workspace-scoped ones after.
 */
export type CompatMappingRow = typeof compatMappings.$inferSelect;

/** The trigger's own mapping, else its flow's ('' trigger id): a flow mapping covers its other triggers. */
export async function findRestTriggerMapping(
  db: DbOrTx,
  organizationId: string,
  flowId: string,
  triggerId: string | null,
): Promise<CompatMappingRow | undefined> {
  const rows = await db
    .select()
    .from(compatMappings)
    .where(
      and(
        eq(compatMappings.kind, 'rest_trigger'),
        eq(compatMappings.organizationId, organizationId),
        eq(compatMappings.flowId, flowId),
        triggerId ? sql`${compatMappings.triggerId} IN (${triggerId}, '')` : eq(compatMappings.triggerId, ''),
      ),
    )
    // The exact trigger id sorts before the flow-wide ''.
    .orderBy(desc(compatMappings.triggerId))
    .limit(1);
  return rows[0];
}

export async function findLegacyPathMapping(db: DbOrTx, legacyPath: string): Promise<CompatMappingRow | undefined> {
  const [row] = await db
    .select()
    .from(compatMappings)
    .where(and(eq(compatMappings.kind, 'legacy_path'), eq(compatMappings.legacyPath, legacyPath)));
  return row;
}

/** The oldest contact holding this external reference id (it is not unique: operators may have set it twice). */
export async function findContactByExternalRef(db: DbOrTx, workspaceId: string, externalReferenceId: string, lock = false): Promise<ContactRow | undefined> {
  const q = db
    .select()
    .from(contacts)
    .where(and(eq(contacts.workspaceId, workspaceId), eq(contacts.externalReferenceId, externalReferenceId), isNull(contacts.anonymizedAt)))
    .orderBy(asc(contacts.createdAt), asc(contacts.id))
    .limit(1);
  const [row] = lock ? await q.for('update') : await q;
  return row;
}

/** Serializes the caller's transaction with every other one holding the same key (released at commit). */
export async function lockCompatKey(tx: DbOrTx, workspaceId: string, key: string): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${`compat:${workspaceId}:${key}`}, 0))`);
}

/**
 * The first compat event stored under this duplicate key since `since` (not itself a duplicate):
 * identical triggers within the window are one trigger.
 */
export async function findCompatOriginal(db: DbOrTx, workspaceId: string, deliveryId: string, since: Date) {
  const [row] = await db
    .select({ id: webhookEvents.id })
    .from(webhookEvents)
    .where(
      and(
        eq(webhookEvents.workspaceId, workspaceId),
        eq(webhookEvents.deliveryId, deliveryId),
        eq(webhookEvents.source, 'compat'),
        isNull(webhookEvents.duplicateOfId),
        isNull(webhookEvents.replayOfId),
        gte(webhookEvents.receivedAt, since),
      ),
    )
    .orderBy(asc(webhookEvents.receivedAt))
    .limit(1);
  return row;
}

/** The workspace's active journeys of one trigger type (partner events, inbound messages). */
export async function activeJourneysTriggeredBy(db: DbOrTx, workspaceId: string, triggerType: 'partner_event' | 'inbound_message') {
  return db
    .select()
    .from(journeys)
    .where(and(eq(journeys.workspaceId, workspaceId), eq(journeys.status, 'active'), eq(journeys.triggerType, triggerType)))
    .orderBy(asc(journeys.createdAt))
    .limit(100);
}

/**
 * A compat contact upsert's fields onto the contact the ingress resolved: given fields replace,
 * absent ones stay, `person_properties` merge key by key (a null removes the key). An erased
 * contact is left alone. Returns false when the contact is gone or erased.
 */
export async function applyCompatContactFields(
  db: DbOrTx,
  workspaceId: string,
  contactId: string,
  fields: {
    externalReferenceId: string | null;
    sourceType: string | null;
    name: string | null;
    email: string | null;
    locale: string | null;
    properties: Record<string, unknown>;
  },
  now: Date,
): Promise<boolean> {
  const set: Record<string, unknown> = { updatedAt: now };
  if (fields.externalReferenceId !== null) set.externalReferenceId = fields.externalReferenceId;
  if (fields.sourceType !== null) set.sourceType = fields.sourceType;
  if (fields.name !== null) set.name = fields.name;
  if (fields.email !== null) set.email = fields.email;
  if (fields.locale !== null) set.locale = fields.locale;
  if (Object.keys(fields.properties).length > 0) {
    // Stored properties never hold a null, so stripping nulls after the merge removes exactly the keys sent as null.
    set.properties = sql`jsonb_strip_nulls(${contacts.properties} || ${JSON.stringify(fields.properties)}::jsonb)`;
  }
  const rows = await db
    .update(contacts)
    .set(set)
    .where(and(eq(contacts.workspaceId, workspaceId), eq(contacts.id, contactId), isNull(contacts.anonymizedAt)))
    .returning({ id: contacts.id });
  return rows.length > 0;
}

/** Every active `schedule` journey, across workspaces (the worker reconciles their Temporal schedules at start). */
export async function activeScheduleJourneys(db: DbOrTx): Promise<JourneyRow[]> {
  return db
    .select()
    .from(journeys)
    .where(and(eq(journeys.status, 'active'), eq(journeys.triggerType, 'schedule')))
    .limit(10_000);
}
