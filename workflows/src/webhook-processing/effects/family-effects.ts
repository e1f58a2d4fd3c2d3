import type {
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

/**
 * The seam between the webhook pipeline and the aggregates it changes. Contacts/messages and
 * templates plug their implementations in here (see `defaultEffects` in services/worker).
 *
 * Contract for implementers: every method may run more than once for the same family (an
 * activity retried after a crash, a staff reset in the Temporal UI), so it must be idempotent
 * (upsert keyed by provider ids) and tolerate out-of-order delivery (a `read` before its
 * `delivered`). Throw to have the activity retried with backoff; throw an
 * `ApplicationFailure` with `nonRetryable: true` for a family that can never apply.
 */
export interface FamilyEffects {
  applyInbound(workspaceId: string, family: InboundMessageEvent): Promise<void>;
  applyReaction(workspaceId: string, family: MessageReactionEvent): Promise<void>;
  applyEdit(workspaceId: string, family: MessageEditedEvent): Promise<void>;
  applyRevoke(workspaceId: string, family: MessageRevokedEvent): Promise<void>;
  applyEcho(workspaceId: string, family: MessageEchoEvent): Promise<void>;
  applyStatus(workspaceId: string, family: MessageStatusEvent): Promise<void>;
  applyContactChange(workspaceId: string, family: ContactChangedEvent): Promise<void>;
  applyPreferences(workspaceId: string, family: ContactPreferencesEvent): Promise<void>;
  applyConversationUpdate(workspaceId: string, family: ConversationUpdatedEvent): Promise<void>;
  applyTemplateUpdate(workspaceId: string, family: TemplateUpdatedEvent): Promise<void>;
  applyAccountUpdate(workspaceId: string, family: AccountUpdatedEvent): Promise<void>;
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
};

/** Fills the methods a caller did not provide with no-ops, so each team plugs in only its own. */
export function composeEffects(...parts: Partial<FamilyEffects>[]): FamilyEffects {
  return Object.assign({}, noopEffects, ...parts) as FamilyEffects;
}

/** Routes one normalized family to its effect. */
export function applyFamily(effects: FamilyEffects, workspaceId: string, family: NormalizedEvent): Promise<void> {
  switch (family.family) {
    case 'message.inbound':
      return effects.applyInbound(workspaceId, family);
    case 'message.reaction':
      return effects.applyReaction(workspaceId, family);
    case 'message.edited':
      return effects.applyEdit(workspaceId, family);
    case 'message.revoked':
      return effects.applyRevoke(workspaceId, family);
    case 'message.echo':
      return effects.applyEcho(workspaceId, family);
    case 'message.status':
      return effects.applyStatus(workspaceId, family);
    case 'contact.changed':
      return effects.applyContactChange(workspaceId, family);
    case 'contact.preferences':
      return effects.applyPreferences(workspaceId, family);
    case 'conversation.updated':
      return effects.applyConversationUpdate(workspaceId, family);
    case 'template.updated':
      return effects.applyTemplateUpdate(workspaceId, family);
    case 'account.updated':
      return effects.applyAccountUpdate(workspaceId, family);
  }
}

/** An ISO time from a family, or null when absent or unreadable (then ordering treats it as untimed). */
export function familyTime(iso: string | null | undefined): Date | null {
  if (!iso) return null;
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? null : d;
}
