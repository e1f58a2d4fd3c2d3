import { systemClock, type AccountUpdatedEvent, type Clock } from '@mos/core';
import { applyChannelLimitChange, atomically, recordAccountEvent, type ChannelLimitChange, type DbOrTx } from '@mos/db';
import { familyTime, type FamilyEffects } from './family-effects';

/**
 * What an account event says the send governor must honour, or null when it says nothing
 * about limits. The normalizer's `limits` carries the stated limits; the phone-number quality
 * event's name is the number's quality/flag state.
 */
export function channelLimitChangeOf(family: AccountUpdatedEvent, at: Date | null): ChannelLimitChange | null {
  const stated: ChannelLimitChange['stated'] = {};
  const l = family.limits;
  if (l?.messagingLimitTier) stated.messagingLimitTier = l.messagingLimitTier;
  if (l && Number.isSafeInteger(l.maxDailyConversationsPerBusiness)) stated.maxDailyConversations = l.maxDailyConversationsPerBusiness!;
  if (l && Number.isSafeInteger(l.maxPhoneNumbersPerAccount)) stated.maxPhoneNumbers = l.maxPhoneNumbersPerAccount!;
  if (l?.throughputLevel) stated.throughputLevel = l.throughputLevel;
  if (family.field === 'phone_number_quality_update' && family.event) stated.qualityEvent = family.event;
  if (l?.banState) stated.banState = l.banState;
  if (Object.keys(stated).length === 0) return null;
  const number = family.displayPhoneNumber ?? family.phoneNumberId;
  return {
    scope: number ? 'phone_number' : 'account',
    accountId: family.accountId,
    phoneNumberId: family.phoneNumberId,
    displayPhoneNumber: family.displayPhoneNumber,
    stated,
    field: family.field,
    event: family.event,
    occurredAt: at,
  };
}

/**
 * The pipeline's `account.updated` effect: every event is recorded in `account_events`
 * (a replay finds its dedupe key and adds nothing), and limits it states update
 * `channel_limits`, newest statement per field winning. One `db.transaction` on the caller's
 * executor (a savepoint when the caller already holds a transaction), so a retried activity
 * never sees the event recorded without its limits.
 */
export function createAccountEffects(deps: { clock?: Clock } = {}): Pick<FamilyEffects, 'applyAccountUpdate'> {
  const clock = deps.clock ?? systemClock;
  return {
    async applyAccountUpdate(db: DbOrTx, workspaceId: string, family: AccountUpdatedEvent): Promise<void> {
      const now = clock.now();
      const at = familyTime(family.occurredAt);
      await atomically(db, async (tx) => {
        await recordAccountEvent(
          tx,
          workspaceId,
          {
            field: family.field,
            event: family.event,
            occurredAt: at,
            summary: family.summary,
            value: family.value,
            errors: family.errors,
            accountId: family.accountId,
            phoneNumberId: family.phoneNumberId,
            displayPhoneNumber: family.displayPhoneNumber,
          },
          now,
        );
        const change = channelLimitChangeOf(family, at);
        if (change) await applyChannelLimitChange(tx, workspaceId, change, now);
      });
    },
  };
}
