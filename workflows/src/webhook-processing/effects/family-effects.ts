import type {
  CompatEventSummary,
  CompatFamily,
  AccountUpdatedEvent,
  ContactChangedEvent,
  ContactPreferencesEvent,
  ConversationUpdatedEvent,
  InboundMessageEvent,
  MessageEchoEvent,
  MessageEditedEvent,
  MessageReactionEvent,
  MessageRevokedEvent,
  MessageStatusEvent,
  NormalizedEvent,
  TemplateUpdatedEvent,
} from '@mos/core';
import type { DbOrTx } from '@mos/db';

/**
 * The seam between the webhook pipeline and the aggregates it changes. Contacts/messages and
 * templates plug their implementations in here (see `defaultEffects` in services/worker).
 *
 * Contract for implementers: the caller picks the transaction. Every method receives the
 * executor `db` first (a pool, or a transaction or savepoint the caller opened so that a whole
 * webhook, all its families and its processed marker, applies atomically) and writes only
 * through it, never through a pool of its own. A family whose writes must be atomic wraps
 * them in `atomically(db, ...)` (@mos/db): the caller's transaction when `db` is one (the
 * pipeline's: the webhook is the unit), a transaction of its own when it is a pool. Every method may run more than once for the same family (an activity retried
 * after a crash, a staff reset in the Temporal UI), so it must be idempotent (upsert keyed by
 * provider ids) and tolerate out-of-order delivery (a `read` before its `delivered`). Throw to
 * have the activity retried with backoff; throw an `ApplicationFailure` with
 * `nonRetryable: true` for a family that can never apply.
 */
export interface FamilyEffects {
  applyInbound(db: DbOrTx, workspaceId: string, family: InboundMessageEvent): Promise<void>;
  applyReaction(db: DbOrTx, workspaceId: string, family: MessageReactionEvent): Promise<void>;
  applyEdit(db: DbOrTx, workspaceId: string, family: MessageEditedEvent): Promise<void>;
  applyRevoke(db: DbOrTx, workspaceId: string, family: MessageRevokedEvent): Promise<void>;
  applyEcho(db: DbOrTx, workspaceId: string, family: MessageEchoEvent): Promise<void>;
  applyStatus(db: DbOrTx, workspaceId: string, family: MessageStatusEvent): Promise<void>;
  applyContactChange(db: DbOrTx, workspaceId: string, family: ContactChangedEvent): Promise<void>;
  applyPreferences(db: DbOrTx, workspaceId: string, family: ContactPreferencesEvent): Promise<void>;
  applyConversationUpdate(db: DbOrTx, workspaceId: string, family: ConversationUpdatedEvent): Promise<void>;
  applyTemplateUpdate(db: DbOrTx, workspaceId: string, family: TemplateUpdatedEvent): Promise<void>;
  applyAccountUpdate(db: DbOrTx, workspaceId: string, family: AccountUpdatedEvent): Promise<void>;
  /** A compat call (contact upsert, journey trigger, partner event) with what the ingress resolved. */
  applyCompat(db: DbOrTx, workspaceId: string, family: CompatFamily, summary: CompatEventSummary): Promise<void>;
}

const nothing = async (): Promise<void> => {};

/** Effects that do nothing: the pipeline still records the delivery and completes the job. */
export const noopEffects: FamilyEffects = {
  applyInbound: nothing,
  applyReaction: nothing,
  applyEdit: nothing,
  applyRevoke: nothing,
  applyEcho: nothing,
  applyStatus: nothing,
  applyContactChange: nothing,
  applyPreferences: nothing,
  applyConversationUpdate: nothing,
  applyTemplateUpdate: nothing,
  applyAccountUpdate: nothing,
  applyCompat: nothing,
};

/** Fills the methods a caller did not provide with no-ops, so each team plugs in only its own (a later part overrides an earlier one). */
export function composeEffects(...parts: Partial<FamilyEffects>[]): FamilyEffects {
  return Object.assign({}, noopEffects, ...parts) as FamilyEffects;
}

/** One method made of several parts' implementations, run in order on the same executor. */
export function inOrder<A extends unknown[]>(...impls: Array<(...args: A) => Promise<void>>): (...args: A) => Promise<void> {
  return async (...args: A) => {
    for (const f of impls) await f(...args);
  };
}

/** Routes one normalized family to its effect, run on the executor the caller chose. */
export function applyFamily(effects: FamilyEffects, db: DbOrTx, workspaceId: string, family: NormalizedEvent): Promise<void> {
  switch (family.family) {
    case 'message.inbound':
      return effects.applyInbound(db, workspaceId, family);
    case 'message.reaction':
      return effects.applyReaction(db, workspaceId, family);
    case 'message.edited':
      return effects.applyEdit(db, workspaceId, family);
    case 'message.revoked':
      return effects.applyRevoke(db, workspaceId, family);
    case 'message.echo':
      return effects.applyEcho(db, workspaceId, family);
    case 'message.status':
      return effects.applyStatus(db, workspaceId, family);
    case 'contact.changed':
      return effects.applyContactChange(db, workspaceId, family);
    case 'contact.preferences':
      return effects.applyPreferences(db, workspaceId, family);
    case 'conversation.updated':
      return effects.applyConversationUpdate(db, workspaceId, family);
    case 'template.updated':
      return effects.applyTemplateUpdate(db, workspaceId, family);
    case 'account.updated':
      return effects.applyAccountUpdate(db, workspaceId, family);
  }
}

/** An ISO time from a family, or null when absent or unreadable (then ordering treats it as untimed). */
export function familyTime(iso: string | null | undefined): Date | null {
  if (!iso) return null;
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? null : d;
}
