import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import type { CampaignStatus, JourneyRunStatus, JourneyStatus, JourneyStep, JourneyTrigger, JourneyTriggerType, TemplateRef } from '@mos/core';
import { createdAt, tstz, updatedAt, workspaceId } from './columns';
import { workspaces } from './workspaces';
import { contacts } from './contacts';
import { broadcasts } from './broadcasts';

/** A journey's definition (core journeys/definition.ts); `version` grows with every edit of its steps or trigger. */
export const journeys = pgTable(
  'journeys',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceId().references(() => workspaces.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    status: text('status').$type<JourneyStatus>().notNull().default('draft'),
    triggerType: text('trigger_type').$type<JourneyTriggerType>().notNull(),
    trigger: jsonb('trigger').$type<JourneyTrigger>().notNull(),
    steps: jsonb('steps').$type<JourneyStep[]>().notNull(),
    version: integer('version').notNull().default(1),
    createdBy: text('created_by'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('journeys_ws_created_idx').on(t.workspaceId, t.createdAt, t.id), index('journeys_ws_trigger_idx').on(t.workspaceId, t.status, t.triggerType)],
);

/**
 * One contact walking one journey for one trigger. The row is the exactly-once anchor: the
 * pipeline inserts it (`pending`) in the trigger's transaction, unique by `workflow_id` (which
 * names journey, trigger and contact), so a trigger applied twice makes one run. The steps
 * are snapshotted so an edit never changes a run midway. `personalization` holds the trigger's
 * keys for the templates (personal data: kept here, never in Temporal history).
 */
export const journeyRuns = pgTable(
  'journey_runs',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceId().references(() => workspaces.id, { onDelete: 'cascade' }),
    journeyId: text('journey_id')
      .notNull()
      .references(() => journeys.id, { onDelete: 'cascade' }),
    journeyVersion: integer('journey_version').notNull(),
    steps: jsonb('steps').$type<JourneyStep[]>().notNull(),
    contactId: text('contact_id')
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    triggerType: text('trigger_type').$type<JourneyTriggerType>().notNull(),
    /** The webhook event (evt_) that triggered it (the first of a replay chain), or a schedule tick. */
    triggerRef: text('trigger_ref').notNull(),
    personalization: jsonb('personalization').$type<Record<string, unknown>>().notNull().default({}),
    workflowId: text('workflow_id').notNull(),
    status: text('status').$type<JourneyRunStatus>().notNull().default('pending'),
    currentStep: text('current_step'),
    /** The latest message from the contact since the run began (set by the reply signal's sender). */
    lastReplyAt: tstz('last_reply_at'),
    failureReason: text('failure_reason'),
    startedAt: tstz('started_at'),
    finishedAt: tstz('finished_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('journey_runs_workflow_uq').on(t.workflowId),
    index('journey_runs_ws_journey_idx').on(t.workspaceId, t.journeyId, t.createdAt),
    index('journey_runs_ws_contact_live_idx')
      .on(t.workspaceId, t.contactId)
      .where(sql`${t.status} IN ('pending', 'running')`),
  ],
);

/**
 * Legacy trigger paths to journeys. `rest_trigger`: /webhooks/v0/rest-trigger/organization/
 * {organization_id}/flow/{flow_id}/trigger/[{trigger_id}/] (trigger_id '' covers the flow's
 * paths without their own mapping); `legacy_path`: /compat/journey-trigger/{legacy_path}. Looked
 * up before the workspace is known, so unique across workspaces.
 */
export const compatMappings = pgTable(
  'compat_mappings',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceId().references(() => workspaces.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<'rest_trigger' | 'legacy_path'>().notNull(),
    organizationId: text('organization_id'),
    flowId: text('flow_id'),
    triggerId: text('trigger_id').notNull().default(''),
    legacyPath: text('legacy_path'),
    journeyId: text('journey_id')
      .notNull()
      .references(() => journeys.id, { onDelete: 'cascade' }),
    createdBy: text('created_by'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('compat_mappings_rest_uq')
      .on(t.organizationId, t.flowId, t.triggerId)
      .where(sql`${t.kind} = 'rest_trigger'`),
    uniqueIndex('compat_mappings_path_uq')
      .on(t.legacyPath)
      .where(sql`${t.kind} = 'legacy_path'`),
    index('compat_mappings_ws_idx').on(t.workspaceId, t.createdAt),
  ],
);

/**
 * A campaign: a template to a segment at a time. Scheduling it creates its broadcast (the
 * broadcast machinery sends it); until then it is a draft. `status` is stored for drafts and
 * cancellations and follows the broadcast's once it exists (core campaignStatusOf).
 */
export const campaigns = pgTable(
  'campaigns',
  {
    id: text('id').primaryKey(),
    workspaceId: workspaceId().references(() => workspaces.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    status: text('status').$type<CampaignStatus>().notNull().default('draft'),
    template: jsonb('template').$type<TemplateRef>().notNull(),
    segment: jsonb('segment').$type<Record<string, unknown>>().notNull().default({}),
    scheduledAt: tstz('scheduled_at'),
    broadcastId: text('broadcast_id').references(() => broadcasts.id, { onDelete: 'set null' }),
    archivedAt: tstz('archived_at'),
    createdBy: text('created_by'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('campaigns_ws_created_idx').on(t.workspaceId, t.createdAt, t.id)],
);
