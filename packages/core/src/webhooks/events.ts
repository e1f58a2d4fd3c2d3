/**
 * The normalized event families: what the worker's effects receive from one provider
 * delivery. The contract between `normalizeEnvelope` (pure, this package) and the effects
 * (workflows/, packages/db). Every family carries provider ids so effects can upsert by them;
 * every timestamp is ISO 8601 UTC. Fields holding personal data (phone numbers, user ids,
 * names, message content) are marked: they are stored, never logged.
 *
 * Sources for each shape: docs/provider-reference/SOURCES.md (the provider's webhook reference
 * pages) and the fixtures under ./fixtures (README there).
 */

import type { mapProviderTemplateStatus } from '../templates/status';

export const EVENT_FAMILIES = [
  'message.inbound',
  'message.reaction',
  'message.edited',
  'message.revoked',
  'message.echo',
  'message.status',
  'contact.changed',
  'contact.preferences',
  'conversation.updated',
  'template.updated',
  'account.updated',
  // Compat calls (core compat/events.ts): applied by the same pipeline, summarized alike.
  'compat.contact_upsert',
  'compat.journey_trigger',
  'compat.partner_event',
] as const;
export type EventFamily = (typeof EVENT_FAMILIES)[number];

/** The business account (entry id) and, for `messages`-style values, the business number. */
export interface ChannelScope {
  accountId: string;
  phoneNumberId: string | null;
  displayPhoneNumber: string | null;
}

export interface ProviderError {
  code: number;
  title: string | null;
  message: string | null;
  details: string | null;
  href: string | null;
}

/**
 * Who a customer is. The provider identifies users by phone number (`wa_id`, `from`,
 * `recipient_id`: digits, no +) and, since business-scoped user ids, by `user_id` /
 * `from_user_id` / `recipient_user_id`. A user who hides their number arrives with an empty
 * phone (`""` -> null here) and only the user id. At least one of waId/userId is non-null in
 * every family that carries an identity. Personal data.
 */
export interface ContactIdentity {
  waId: string | null;
  userId: string | null;
  profileName: string | null;
  username: string | null;
  countryCode: string | null;
}

/** `context` on an inbound message: a reply, a forward, or a product enquiry. */
export interface MessageContext {
  /** The provider id of the message this one replies to (ours or theirs). */
  replyToMessageId: string | null;
  /** Who sent the replied-to message (the business number for replies to us). */
  replyToFrom: string | null;
  forwarded: boolean;
  frequentlyForwarded: boolean;
  referredProduct: { catalogId: string | null; productRetailerId: string | null } | null;
}

/** `referral`: the click-to-chat ad or post that started the conversation (kept whole). */
export interface MessageReferral {
  sourceUrl: string | null;
  sourceType: string | null;
  sourceId: string | null;
  headline: string | null;
  body: string | null;
  mediaType: string | null;
  imageUrl: string | null;
  videoUrl: string | null;
  thumbnailUrl: string | null;
  ctwaClid: string | null;
  welcomeMessageText: string | null;
}

export const MEDIA_KINDS = ['image', 'video', 'audio', 'document', 'sticker'] as const;
export type MediaKind = (typeof MEDIA_KINDS)[number];

/**
 * What a message says, by type. Every documented type keeps all of its documented fields;
 * a type we do not model is kept as `other` with its type object verbatim, so nothing the
 * provider sent is lost. Personal data.
 */
export type MessageContent =
  | { kind: 'text'; body: string }
  | {
      kind: 'media';
      mediaKind: MediaKind;
      id: string;
      mimeType: string | null;
      sha256: string | null;
      caption: string | null;
      filename: string | null;
      /** Audio recorded as a voice note. */
      voice: boolean;
      /** Animated sticker. */
      animated: boolean;
      /** Short-lived download URL when the provider includes one. */
      url: string | null;
    }
  | { kind: 'location'; latitude: number; longitude: number; name: string | null; address: string | null; url: string | null }
  /** Shared contact cards, verbatim (names, phones, emails, addresses, orgs, urls, birthday); a card nested deeper than 32 levels is the `truncated` marker. */
  | { kind: 'contacts'; cards: Record<string, unknown>[] }
  | {
      kind: 'interactive';
      replyType: 'button_reply' | 'list_reply' | 'nfm_reply' | string;
      id: string | null;
      title: string | null;
      description: string | null;
      /** `nfm_reply` (a completed Flow): its name, body and the response JSON, parsed when it parses within 32 levels (else the raw string). */
      flow: { name: string | null; body: string | null; response: unknown } | null;
    }
  /** A template quick-reply tap. */
  | { kind: 'button'; payload: string | null; text: string | null }
  | {
      kind: 'order';
      catalogId: string | null;
      text: string | null;
      items: { productRetailerId: string; quantity: number | null; itemPrice: number | null; currency: string | null }[];
    }
  /** `unsupported`: the provider could not deliver the user's message (poll, edit, ...). */
  | { kind: 'unsupported'; unsupportedType: string | null }
  /** `value` is the type object verbatim, or the `truncated` marker when nested deeper than 32 levels. */
  | { kind: 'other'; type: string; value: unknown };

/** A new message from a customer. Opens or extends the service window (see `conversation.updated`). */
export interface InboundMessageEvent extends ChannelScope {
  family: 'message.inbound';
  providerMessageId: string;
  contact: ContactIdentity;
  sentAt: string;
  /** The provider's `type` verbatim. */
  type: string;
  content: MessageContent;
  /** The searchable words of the message (body, caption, reply title, ...), or null. */
  text: string | null;
  context: MessageContext | null;
  referral: MessageReferral | null;
  /** Message-level errors (`unsupported` messages carry them). */
  errors: ProviderError[];
  /**
   * STOP/START detected in typed text, a quick-reply button (payload or text) or an
   * interactive reply (id or title); null otherwise (core/contacts/subscriber.ts rules).
   */
  optKeyword: 'stop' | 'start' | null;
}

/** A reaction to a message; `emoji: null` removes the contact's reaction. Not a new conversational message. */
export interface MessageReactionEvent extends ChannelScope {
  family: 'message.reaction';
  /** The reaction's own provider id. */
  providerMessageId: string;
  contact: ContactIdentity;
  reactedToMessageId: string;
  emoji: string | null;
  occurredAt: string;
}

/** The customer edited a message they sent: `content` replaces the original's, keeping history. */
export interface MessageEditedEvent extends ChannelScope {
  family: 'message.edited';
  /** The edit event's own provider id. */
  providerMessageId: string;
  originalMessageId: string;
  contact: ContactIdentity;
  editedAt: string;
  type: string;
  content: MessageContent;
  text: string | null;
}

/** The customer deleted ("revoked") a message they sent. */
export interface MessageRevokedEvent extends ChannelScope {
  family: 'message.revoked';
  providerMessageId: string;
  originalMessageId: string;
  contact: ContactIdentity;
  revokedAt: string;
}

/** A message the business sent from the provider's own business app (`smb_message_echoes`): our outbound. */
export interface MessageEchoEvent extends ChannelScope {
  family: 'message.echo';
  providerMessageId: string;
  /** The recipient customer. */
  contact: ContactIdentity;
  sentAt: string;
  type: string;
  content: MessageContent;
  text: string | null;
}

export const MESSAGE_STATUSES = ['sent', 'delivered', 'read', 'played', 'failed', 'deleted'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

export interface StatusPricing {
  billable: boolean | null;
  /** CBP | PMP ... */
  model: string | null;
  /** marketing | utility | authentication | service | ... */
  category: string | null;
  /** regular | free_customer_service | free_entry_point ... */
  type: string | null;
}

export interface MessageStatusEvent extends ChannelScope {
  family: 'message.status';
  providerMessageId: string;
  status: MessageStatus;
  occurredAt: string;
  recipient: ContactIdentity;
  conversation: { id: string; originType: string | null; expiresAt: string | null } | null;
  pricing: StatusPricing | null;
  /** `biz_opaque_callback_data` we attached when sending. */
  callbackData: string | null;
  errors: ProviderError[];
}

/**
 * The customer's identity changed: a new phone number (`system.type: user_changed_number`:
 * move the contact, with its history, to `newWaId`), a new user id (`user_changed_user_id`),
 * or a new security identity (`customer_identity_changed`).
 */
export interface ContactChangedEvent extends ChannelScope {
  family: 'contact.changed';
  providerMessageId: string;
  change: 'number_changed' | 'user_id_changed' | 'identity_changed';
  /** The identity before the change. */
  contact: ContactIdentity;
  newWaId: string | null;
  newUserId: string | null;
  occurredAt: string;
}

/** `user_preferences`: the customer stopped or resumed marketing messages in the app. */
export interface ContactPreferencesEvent extends ChannelScope {
  family: 'contact.preferences';
  contact: ContactIdentity;
  /** marketing_messages */
  category: string;
  /** stop | resume (verbatim; anything else is recorded but changes nothing) */
  value: string;
  detail: string | null;
  occurredAt: string;
}

export interface ConversationUpdatedEvent extends ChannelScope {
  family: 'conversation.updated';
  contact: ContactIdentity;
  change: 'service_window_opened' | 'conversation_opened' | 'service_window_closed';
  conversationId: string | null;
  origin: string | null;
  occurredAt: string;
  expiresAt: string | null;
}

/**
 * Our template status for a provider status event: `mapProviderTemplateStatus`
 * (core/templates/status.ts), shared with the sync and the library: approved (APPROVED,
 * REINSTATED), pending_approval (PENDING, IN_APPEAL), rejected, else the event lower-cased
 * (paused, disabled, flagged, archived, pending_deletion, deleted, ...).
 */
export type TemplateStatus = ReturnType<typeof mapProviderTemplateStatus>;

interface TemplateRef {
  family: 'template.updated';
  accountId: string;
  providerTemplateId: string;
  name: string | null;
  language: string | null;
  occurredAt: string | null;
}

/** `message_template_status_update`. */
export interface TemplateStatusChange extends TemplateRef {
  change: 'status';
  /** The provider's event verbatim (APPROVED, REJECTED, FLAGGED, PAUSED, ...). */
  event: string;
  status: TemplateStatus;
  category: string | null;
  /** The provider's reason; `NONE` and blanks are null (`providerReason`). */
  reason: string | null;
  /** `rejection_info` / `other_info` / `disable_info`, when present. */
  detail: { title: string | null; description: string | null; recommendation: string | null; disableDate: string | null } | null;
}

/** `message_template_quality_update`. */
export interface TemplateQualityChange extends TemplateRef {
  change: 'quality';
  previousScore: string | null;
  newScore: string;
}

/** `template_category_update`: impending (will change at `effectiveAt`) or completed. */
export interface TemplateCategoryChange extends TemplateRef {
  change: 'category';
  previousCategory: string | null;
  newCategory: string;
  correctCategory: string | null;
  effectiveAt: string | null;
}

/** `message_template_components_update`: the template's text and buttons after an edit. */
export interface TemplateComponentsChange extends TemplateRef {
  change: 'components';
  /** Rebuilt in the provider's component shape (HEADER/BODY/FOOTER/BUTTONS). */
  components: Record<string, unknown>[];
}

export type TemplateUpdatedEvent = TemplateStatusChange | TemplateQualityChange | TemplateCategoryChange | TemplateComponentsChange;

/**
 * Account- and number-level news an operator must see, and limits the send governor must
 * honour: `phone_number_quality_update`, `account_update`, `business_capability_update`,
 * `account_alerts`, `security`, and a `messages` value carrying only `errors`.
 */
export interface AccountUpdatedEvent extends ChannelScope {
  family: 'account.updated';
  /** The change's `field` verbatim. */
  field: string;
  /** The provider's event/type (THROUGHPUT_UPGRADE, ACCOUNT_VIOLATION, PIN_RESET_REQUEST, errors, ...). */
  event: string;
  occurredAt: string | null;
  /** One sentence for operators, free of personal data. */
  summary: string;
  /** Limits stated by this event (null fields: not stated). */
  limits: {
    messagingLimitTier: string | null;
    maxDailyConversationsPerBusiness: number | null;
    maxPhoneNumbersPerAccount: number | null;
    throughputLevel: string | null;
    /** `account_update` DISABLED_UPDATE: the account's `ban_info.waba_ban_state` (DISABLE, REINSTATE, SCHEDULE_FOR_DISABLE). */
    banState: string | null;
  } | null;
  errors: ProviderError[];
  /**
   * The value verbatim: operators see exactly what the provider said (a value nested deeper
   * than 32 levels is `{ truncated: 'nested deeper than 32 levels' }` instead, value-readers.ts).
   */
  value: unknown;
}

export type NormalizedEvent =
  | InboundMessageEvent
  | MessageReactionEvent
  | MessageEditedEvent
  | MessageRevokedEvent
  | MessageEchoEvent
  | MessageStatusEvent
  | ContactChangedEvent
  | ContactPreferencesEvent
  | ConversationUpdatedEvent
  | TemplateUpdatedEvent
  | AccountUpdatedEvent;
