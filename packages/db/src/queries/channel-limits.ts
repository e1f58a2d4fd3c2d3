import { and, asc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import { CHANNEL_LIMIT_FIELDS, channelLimits, type ChannelLimitField, type ChannelScopeKind } from '../schema/index';

export type ChannelLimitRow = typeof channelLimits.$inferSelect;

export interface ChannelLimitValues {
  messagingLimitTier: string | null;
  maxDailyConversations: number | null;
  maxPhoneNumbers: number | null;
  throughputLevel: string | null;
  qualityEvent: string | null;
  banState: string | null;
}

export interface ChannelLimitChange {
  scope: ChannelScopeKind;
  accountId: string;
  phoneNumberId: string | null;
  displayPhoneNumber: string | null;
  /** Only the fields this event states; absent means "not said", never "cleared". */
  stated: Partial<{ [K in ChannelLimitField]: NonNullable<ChannelLimitValues[K]> }>;
  field: string;
  event: string;
  occurredAt: Date | null;
}

/** The key a scope is stored under: the account id, or the number as the provider named it. */
export function channelScopeKey(change: Pick<ChannelLimitChange, 'scope' | 'accountId' | 'phoneNumberId' | 'displayPhoneNumber'>): string {
  if (change.scope === 'account') return change.accountId;
  const key = change.displayPhoneNumber ?? change.phoneNumberId;
  if (!key) throw new Error('a phone_number scope needs a display number or a phone number id');
  return key;
}

/**
 * Whether an event at `at` may overwrite a field last stated at `prev` (undefined: never
 * stated; null: stated by an event without a time). Newer or equal wins; a timed event beats
 * an untimed one; an untimed one only replaces another untimed one.
 */
export function statesNewer(prev: string | null | undefined, at: Date | null): boolean {
  if (prev === undefined) return true;
  if (at === null) return prev === null;
  return prev === null || Date.parse(prev) <= at.getTime();
}

/**
 * Applies what one provider event says about limits to its scope's row, field by field, each
 * only if the event is at least as new as the one that last stated that field: a late or
 * replayed delivery never brings back an older tier. Returns the fields it changed.
 */
export async function applyChannelLimitChange(
  db: DbOrTx,
  workspaceId: string,
  change: ChannelLimitChange,
  now: Date,
): Promise<{ row: ChannelLimitRow; changed: ChannelLimitField[] }> {
  const scopeKey = channelScopeKey(change);
  const key = and(eq(channelLimits.workspaceId, workspaceId), eq(channelLimits.scope, change.scope), eq(channelLimits.scopeKey, scopeKey));
  return db.transaction(async (tx) => {
    await tx
      .insert(channelLimits)
      .values({
        workspaceId,
        scope: change.scope,
        scopeKey,
        accountId: change.accountId,
        phoneNumberId: change.phoneNumberId,
        displayPhoneNumber: change.displayPhoneNumber,
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoNothing();
    const [row] = await tx.select().from(channelLimits).where(key).for('update');
    const at = change.occurredAt;
    const statedAt = { ...row!.statedAt };
    const patch: Partial<ChannelLimitValues> = {};
    const changed: ChannelLimitField[] = [];
    for (const field of CHANNEL_LIMIT_FIELDS) {
      const value = change.stated[field];
      if (value === undefined || !statesNewer(statedAt[field], at)) continue;
      (patch as Record<string, unknown>)[field] = value;
      statedAt[field] = at?.toISOString() ?? null;
      changed.push(field);
    }
    // The row's "last event" label follows the same rule: never (undefined), untimed (null), or its time.
    const lastStamp = row!.lastEvent === null ? undefined : (row!.lastEventAt?.toISOString() ?? null);
    const newest = statesNewer(lastStamp, at);
    const [updated] = await tx
      .update(channelLimits)
      .set({
        ...patch,
        statedAt,
        phoneNumberId: row!.phoneNumberId ?? change.phoneNumberId,
        displayPhoneNumber: row!.displayPhoneNumber ?? change.displayPhoneNumber,
        ...(newest ? { lastField: change.field, lastEvent: change.event, lastEventAt: at } : {}),
        updatedAt: now,
      })
      .where(key)
      .returning();
    return { row: updated!, changed };
  });
}

export async function listChannelLimits(db: DbOrTx, workspaceId: string): Promise<ChannelLimitRow[]> {
  return db.select().from(channelLimits).where(eq(channelLimits.workspaceId, workspaceId)).orderBy(asc(channelLimits.scope), asc(channelLimits.scopeKey));
}
