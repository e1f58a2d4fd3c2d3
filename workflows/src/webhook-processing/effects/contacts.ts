import { atomically, type DbOrTx } from '@mos/db';
import type { Logger } from '@mos/config';
import type { FamilyEffects } from './family-effects';
import { applyContactChange, applyPreferences } from './contact-changes';
import { applyConversationUpdate } from './conversations';
import { applyEcho, applyInbound } from './inbound';
import { applyEdit, applyReaction, applyRevoke } from './message-updates';
import { applyStatus } from './statuses';

export { applyContactChange, applyConversationUpdate, applyEcho, applyEdit, applyInbound, applyPreferences, applyReaction, applyRevoke, applyStatus };

export interface ContactEffectsDeps {
  log: Logger;
}

export type ContactEffects = Pick<
  FamilyEffects,
  | 'applyInbound'
  | 'applyReaction'
  | 'applyEdit'
  | 'applyRevoke'
  | 'applyEcho'
  | 'applyStatus'
  | 'applyContactChange'
  | 'applyPreferences'
  | 'applyConversationUpdate'
>;

/**
 * Effects of the contact, conversation and message families. Each family applies atomically:
 * in the caller's transaction when it passes one (the pipeline applies a whole webhook in one),
 * in a transaction of its own on a pool (`atomically`), and every write is an upsert keyed by provider ids, a monotonic merge or a
 * recomputation from stored history, so retries, replays and out-of-order deliveries converge
 * on the same rows. Logs carry ids only: phone numbers, user ids, names and message content
 * are personal data.
 */
export function createContactEffects(deps: ContactEffectsDeps): ContactEffects {
  const { log } = deps;
  const inTx =
    <E>(apply: (tx: DbOrTx, workspaceId: string, ev: E, log?: Logger) => Promise<void>) =>
    (db: DbOrTx, workspaceId: string, ev: E): Promise<void> =>
      atomically(db, (tx) => apply(tx, workspaceId, ev, log));
  return {
    applyInbound: inTx(applyInbound),
    applyReaction: inTx(applyReaction),
    applyEdit: inTx(applyEdit),
    applyRevoke: inTx(applyRevoke),
    applyEcho: inTx(applyEcho),
    applyStatus: inTx(applyStatus),
    applyContactChange: inTx(applyContactChange),
    applyPreferences: inTx(applyPreferences),
    applyConversationUpdate: inTx(applyConversationUpdate),
  };
}
