import { applyChannelLimitChange, recordAccountEvent, type Db } from '@mos/db';
import { ACCOUNT_EVENT_EXAMPLES as events, CHANNEL_LIMIT_EXAMPLES as limits, EXAMPLE_WABA } from '@mos/db/testing';

/** Account events and limits as the pipeline stores them (the provider's documented examples). */
export const WABA = EXAMPLE_WABA;

/** Workspace A: a PIN reset request, an account violation and a throughput upgrade with its limits. */
export async function seedAccountA(db: Db, workspaceId: string): Promise<void> {
  const now = new Date();
  for (const event of [events.pinResetRequest, events.accountViolation, events.throughputUpgrade]) await recordAccountEvent(db, workspaceId, event, now);
  await applyChannelLimitChange(db, workspaceId, limits.throughputUpgrade, now);
}

/** Workspace B: one event (account_update_account_deleted.json) and one limit, never visible to A. */
export async function seedAccountB(db: Db, workspaceId: string): Promise<void> {
  const now = new Date();
  await recordAccountEvent(db, workspaceId, events.accountDeleted, now);
  await applyChannelLimitChange(db, workspaceId, limits.capabilityUpdate, now);
}
