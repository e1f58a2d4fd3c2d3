import { and, asc, desc, eq, or, sql, type SQL } from 'drizzle-orm';
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
        workspaceId, scope: change.scope, scopeKey, accountId: change.accountId, phoneNumberId: change.phoneNumberId,
        displayPhoneNumber: change.displayPhoneNumber, createdAt: now, updatedAt: now,
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
  return db
    .select()
    .from(channelLimits)
    .where(eq(channelLimits.workspaceId, workspaceId))
    .orderBy(asc(channelLimits.scope), asc(channelLimits.scopeKey));
}

export interface EffectiveChannelLimits {
  account: ChannelLimitRow | null;
  phoneNumber: ChannelLimitRow | null;
  /** Per field, the value stated most recently by either row (the number's on a tie: it is more specific). */
  effective: ChannelLimitValues;
}

/**
 * The send governor's read: the account's limits, the business number's (matched by phone
 * number id or display number: `phone_number_quality_update` names numbers by display number
 * only) and, per field, whichever of the two the provider stated last.
 */
export async function getChannelLimits(
  db: DbOrTx,
  workspaceId: string,
  target: { accountId?: string | null; phoneNumberId?: string | null; displayPhoneNumber?: string | null } = {},
): Promise<EffectiveChannelLimits> {
  const accountWhere: SQL[] = [eq(channelLimits.workspaceId, workspaceId), eq(channelLimits.scope, 'account')];
  if (target.accountId) accountWhere.push(eq(channelLimits.accountId, target.accountId));
  const [account] = await db.select().from(channelLimits).where(and(...accountWhere)).orderBy(desc(channelLimits.updatedAt)).limit(1);

  const display = target.displayPhoneNumber ?? (target.phoneNumberId ? await displayNumberOf(db, workspaceId, target.phoneNumberId) : null);
  const numberMatch: SQL[] = [];
  if (target.phoneNumberId) numberMatch.push(eq(channelLimits.phoneNumberId, target.phoneNumberId), eq(channelLimits.scopeKey, target.phoneNumberId));
  if (display) numberMatch.push(eq(channelLimits.displayPhoneNumber, display));
  const [phoneNumber] = numberMatch.length
    ? await db
        .select()
        .from(channelLimits)
        .where(and(eq(channelLimits.workspaceId, workspaceId), eq(channelLimits.scope, 'phone_number'), or(...numberMatch)))
        .orderBy(desc(channelLimits.updatedAt))
        .limit(1)
    : [];

  const effective = {} as Record<ChannelLimitField, unknown>;
  for (const field of CHANNEL_LIMIT_FIELDS) {
    const candidates = [phoneNumber, account].filter((r): r is ChannelLimitRow => !!r && r[field] !== null);
    // Newest statement wins; candidates are ordered number-first, so a tie keeps the number's.
    const best = candidates.reduce<ChannelLimitRow | undefined>((b, r) => (!b || stampOf(r, field) > stampOf(b, field) ? r : b), undefined);
    effective[field] = best ? best[field] : null;
  }
  return { account: account ?? null, phoneNumber: phoneNumber ?? null, effective: effective as unknown as ChannelLimitValues };
}

/**
 * The display number the provider pairs with a phone number id, from the newest stored
 * delivery whose metadata carried both: the sender knows its number by id, while
 * `phone_number_quality_update` names it by display number only.
 */
async function displayNumberOf(db: DbOrTx, workspaceId: string, phoneNumberId: string): Promise<string | null> {
  const res = await db.execute<{ display: string }>(sql`
    SELECT display_phone_number AS display FROM webhook_events
    WHERE workspace_id = ${workspaceId} AND phone_number_id = ${phoneNumberId} AND display_phone_number IS NOT NULL
    ORDER BY received_at DESC LIMIT 1`);
  return res.rows[0]?.display ?? null;
}

const stampOf = (row: ChannelLimitRow, field: ChannelLimitField): number => {
  const s = row.statedAt[field];
  return s ? Date.parse(s) : Number.NEGATIVE_INFINITY;
};
