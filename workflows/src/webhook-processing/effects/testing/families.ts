import { createLogger } from '@mos/config';
import type {
  ChannelScope,
  ContactChangedEvent,
  ContactIdentity,
  ContactPreferencesEvent,
  ConversationUpdatedEvent,
  InboundMessageEvent,
  MessageEchoEvent,
  MessageEditedEvent,
  MessageReactionEvent,
  MessageRevokedEvent,
  MessageStatusEvent,
} from '@mos/core';
import { upsertWorkspace } from '@mos/db';
import type { TestDatabase } from '@mos/db/testing';
import { applyFamily, composeEffects, type FamilyEffects } from '../family-effects';
import { createContactEffects } from '../contacts';

/**
 * Families for the contact-effects tests, built directly (typed by core's events.ts) with the
 * values of the provider's published webhook examples, so the tests do not depend on the
 * normalizer. Every builder names its example: the file under docs/provider-reference/webhooks
 * and the page it comes from (docs/provider-reference/SOURCES.md), where
 * D = https://developers.facebook.com/documentation/business-messaging/whatsapp.
 * The provider's examples reuse the same message ids across pages, so tests that combine
 * them give each family its own id where two would collide, and say so.
 */
export const D = 'https://developers.facebook.com/documentation/business-messaging/whatsapp';

/** `entry[].id` and `metadata` of every example. */
export const SCOPE: ChannelScope = { accountId: '102290129340398', phoneNumberId: '106540352242922', displayPhoneNumber: '15550783881' };

/** `contacts[0]` of the messages examples: Sheena Nelson, wa_id 16505551234. */
export const SHEENA: ContactIdentity = { waId: '16505551234', userId: null, profileName: 'Sheena Nelson', username: null, countryCode: null };
export const SHEENA_PHONE = '+16505551234';

/** D/business-scoped-user-ids (bsuid_messages_text_username_hidden_number.json): a user who hides their number. */
export const SHEENA_HIDDEN: ContactIdentity = {
  waId: null,
  userId: 'user.93737...',
  profileName: 'Sheena Nelson',
  username: '@realsheenanelson',
  countryCode: 'US',
};
/** D/business-scoped-user-ids (bsuid_status_delivered_*.json): Pablo, known by user id, and by phone in one example. */
export const PABLO_USER_ID = 'user.9373795779eb6441c8adb2eaee5b848e7dd174ddd302d7db62142f4722d574b6';
export const PABLO: ContactIdentity = { waId: null, userId: PABLO_USER_ID, profileName: 'Pablo M.', username: '@pablomorales', countryCode: 'US' };

export const unixIso = (seconds: number) => new Date(seconds * 1000).toISOString();

/** D/webhooks/reference/messages/text (messages_text.json): "Does it come in another color?" at 1749416383. */
export function inboundText(over: Partial<InboundMessageEvent> & { body?: string } = {}): InboundMessageEvent {
  const { body = 'Does it come in another color?', ...rest } = over;
  return {
    ...SCOPE,
    family: 'message.inbound',
    providerMessageId: 'wamid.HBgLMTY1MDM4Nzk0MzkVAgASGBQzQTRBNjU5OUFFRTAzODEwMTQ0RgA=',
    contact: SHEENA,
    sentAt: unixIso(1749416383),
    type: 'text',
    content: { kind: 'text', body },
    text: body,
    context: null,
    referral: null,
    errors: [],
    optKeyword: null,
    ...rest,
  };
}

/** D/webhooks/reference/messages/image (messages_image.json): "Taj Mahal", media id 1003383421387256. */
export function inboundImage(over: Partial<InboundMessageEvent> = {}): InboundMessageEvent {
  return inboundText({
    sentAt: unixIso(1744344496),
    type: 'image',
    content: {
      kind: 'media',
      mediaKind: 'image',
      id: '1003383421387256',
      mimeType: 'image/jpeg',
      sha256: 'SfInY0gGKTsJlUWbwxC1k+FAD0FZHvzwfpvO0zX0GUI=',
      caption: 'Taj Mahal',
      filename: null,
      voice: false,
      animated: false,
      url: 'https://lookaside.fbsbx.com/whatsapp_business/attachments/?mid=133...',
    },
    text: 'Taj Mahal',
    ...over,
  });
}

/** D/webhooks/reference/messages/button (messages_button_quick_reply.json): the "Unsubscribe" quick reply, an opt-out. */
export function inboundUnsubscribeButton(over: Partial<InboundMessageEvent> = {}): InboundMessageEvent {
  return inboundText({
    providerMessageId: 'wamid.HBgLMTY1MDM4Nzk0MzkVAgASGBQzQUFERjg0NDEzNDdFODU3MUMxMAA=',
    sentAt: unixIso(1750091045),
    type: 'button',
    content: { kind: 'button', payload: 'Unsubscribe', text: 'Unsubscribe' },
    text: 'Unsubscribe',
    context: {
      replyToMessageId: 'wamid.HBgLMTQxMjU1NTA4MjkVAgASGBQzQUNCNjk5RDUwNUZGMUZEM0VBRAA=',
      replyToFrom: '15550783881',
      forwarded: false,
      frequentlyForwarded: false,
      referredProduct: null,
    },
    optKeyword: 'stop',
    ...over,
  });
}

/** D/webhooks/reference/messages/reaction (messages_reaction.json): 👍 to wamid…RAA= at 1749419544. */
export function reaction(over: Partial<MessageReactionEvent> = {}): MessageReactionEvent {
  return {
    ...SCOPE,
    family: 'message.reaction',
    providerMessageId: 'wamid.HBgLMTY1MDM4Nzk0MzkVAgASGBQzQUFERjg0NDEzNDdFODU3MUMxMAA=',
    contact: SHEENA,
    reactedToMessageId: 'wamid.HBgLMTQxMjU1NTA4MjkVAgASGBQzQUNCNjk5RDUwNUZGMUZEM0VBRAA=',
    emoji: '👍',
    occurredAt: unixIso(1749419544),
    ...over,
  };
}

/** D/webhooks/reference/messages/edit (messages_edit_coexistence.json): the image caption becomes "Updated image caption". */
export function edit(over: Partial<MessageEditedEvent> = {}): MessageEditedEvent {
  return {
    ...SCOPE,
    family: 'message.edited',
    providerMessageId: 'wamid.HBgLMTY1MDM4Nzk0MzkVAgASGBQzQUFERjg0NDEzNDdFODU3MUMxMAA=',
    originalMessageId: 'wamid.HBgLMTQxMjU1NTA4MjkVAgASGBQzQUNCNjk5RDUwNUZGMUZEM0VBRAA=',
    contact: SHEENA,
    editedAt: unixIso(1749854575),
    type: 'image',
    content: {
      kind: 'media',
      mediaKind: 'image',
      id: '1234567890',
      mimeType: 'image/jpeg',
      sha256: 'a1b2c3d4e5f6...',
      caption: 'Updated image caption',
      filename: null,
      voice: false,
      animated: false,
      url: 'https://media.example.com/updated-image.jpg',
    },
    text: 'Updated image caption',
    ...over,
  };
}

/** D/webhooks/reference/messages/revoke (messages_revoke_coexistence.json): the customer deleted wamid…RAA=. */
export function revoke(over: Partial<MessageRevokedEvent> = {}): MessageRevokedEvent {
  return {
    ...SCOPE,
    family: 'message.revoked',
    providerMessageId: 'wamid.HBgLMTY1MDM4Nzk0MzkVAgASGBQzQUFERjg0NDEzNDdFODU3MUMxMAA=',
    originalMessageId: 'wamid.HBgLMTQxMjU1NTA4MjkVAgASGBQzQUNCNjk5RDUwNUZGMUZEM0VBRAA=',
    contact: SHEENA,
    revokedAt: unixIso(1749854575),
    ...over,
  };
}

/** D/webhooks/reference/smb_message_echoes (smb_message_echoes_text.json): sent from the business app to 16505551234. */
export function echo(over: Partial<MessageEchoEvent> = {}): MessageEchoEvent {
  const body = "Here's the info you requested! https://www.meta.com/quest/quest-3/";
  return {
    ...SCOPE,
    family: 'message.echo',
    providerMessageId: 'wamid.HBgLMTY0NjcwNDM1OTUVAgARGBIyNDlBOEI5QUQ4NDc0N0FCNjMA',
    contact: { ...SHEENA, profileName: null },
    sentAt: unixIso(1739321024),
    type: 'text',
    content: { kind: 'text', body },
    text: body,
    ...over,
  };
}

/**
 * D/webhooks/reference/messages/status (status_sent_marketing_with_pricing_conversation.json):
 * `sent` with conversation 72b14d6b… (marketing, expires 1750116480) and PMP/regular/marketing pricing.
 */
export function status(over: Partial<MessageStatusEvent> = {}): MessageStatusEvent {
  return {
    ...SCOPE,
    family: 'message.status',
    providerMessageId: 'wamid.HBgLMTY1MDM4Nzk0MzkVAgASGBQzQUFERjg0NDEzNDdFODU3MUMxMAA=',
    status: 'sent',
    occurredAt: unixIso(1750030073),
    recipient: { ...SHEENA, profileName: null },
    conversation: { id: '72b14d6bd5407799e66f64d1b338e567', originType: 'marketing', expiresAt: unixIso(1750116480) },
    pricing: { billable: true, model: 'PMP', category: 'marketing', type: 'regular' },
    callbackData: null,
    errors: [],
    ...over,
  };
}

/** D/webhooks/reference/messages/system (messages_system_user_changed_number.json): 16505551234 → 12195555358. */
export function numberChanged(over: Partial<ContactChangedEvent> = {}): ContactChangedEvent {
  return {
    ...SCOPE,
    family: 'contact.changed',
    providerMessageId: 'wamid.HBgLMTk4MzU1NTE5NzQVAgASGAoxMTgyMDg2MjY3AA==',
    change: 'number_changed',
    contact: { ...SHEENA, profileName: null },
    newWaId: '12195555358',
    newUserId: null,
    occurredAt: unixIso(1750269342),
    ...over,
  };
}
export const SHEENA_NEW_PHONE = '+12195555358';

/**
 * D/webhooks/reference/user_preferences (user_preferences_marketing_resume.json): `resume` at
 * 1731705721. The provider publishes no `stop` example; its syntax gives `value` stop|resume and
 * the detail "User requested to stop marketing messages".
 */
export function preference(over: Partial<ContactPreferencesEvent> = {}): ContactPreferencesEvent {
  return {
    ...SCOPE,
    family: 'contact.preferences',
    contact: { waId: '16505551234', userId: null, profileName: null, username: null, countryCode: null },
    category: 'marketing_messages',
    value: 'resume',
    detail: 'User requested to resume marketing messages',
    occurredAt: unixIso(1731705721),
    ...over,
  };
}

/** The normalizer's window family for an inbound message (core webhooks/service-window.ts). */
export function windowOpened(ev: InboundMessageEvent): ConversationUpdatedEvent {
  return {
    ...SCOPE,
    family: 'conversation.updated',
    contact: ev.contact,
    change: 'service_window_opened',
    conversationId: null,
    origin: null,
    occurredAt: ev.sentAt,
    expiresAt: new Date(Date.parse(ev.sentAt) + 86_400_000).toISOString(),
  };
}

const SNAPSHOT_TABLES = [
  'contacts',
  'conversations',
  'conversation_windows',
  'messages',
  'message_statuses',
  'message_reactions',
  'message_revisions',
  'contact_identity_changes',
] as const;

/** A database, the contact effects over it, a fresh workspace per test, and row helpers. */
export function effectsHarness(tdb: () => TestDatabase) {
  let effects: FamilyEffects | undefined;
  const fx = () => (effects ??= composeEffects(createContactEffects({ log: createLogger({ name: 'test', level: 'silent' }) })));
  let n = 0;
  const q = async (sql: string, params: unknown[]) => (await tdb().pool.query(sql, params)).rows;
  return {
    workspace: async () => (await upsertWorkspace(tdb().db, `fx-${process.pid}-${++n}-${Date.now()}`)).workspace.id,
    apply: async (workspaceId: string, ...families: Parameters<typeof applyFamily>[3][]) => {
      for (const f of families) await applyFamily(fx(), tdb().db, workspaceId, f);
    },
    contacts: (workspaceId: string) => q('SELECT * FROM contacts WHERE workspace_id = $1 ORDER BY id', [workspaceId]),
    contactByPhone: async (workspaceId: string, phone: string) =>
      (await q('SELECT * FROM contacts WHERE workspace_id = $1 AND phone_number = $2', [workspaceId, phone]))[0],
    conversations: (workspaceId: string) => q('SELECT * FROM conversations WHERE workspace_id = $1 ORDER BY id', [workspaceId]),
    messages: (workspaceId: string) => q('SELECT * FROM messages WHERE workspace_id = $1 ORDER BY sent_at, id', [workspaceId]),
    message: async (workspaceId: string, providerId: string) =>
      (await q('SELECT * FROM messages WHERE workspace_id = $1 AND provider_message_id = $2', [workspaceId, providerId]))[0],
    statuses: (workspaceId: string) => q('SELECT * FROM message_statuses WHERE workspace_id = $1 ORDER BY occurred_at, status', [workspaceId]),
    reactions: (workspaceId: string) => q('SELECT * FROM message_reactions WHERE workspace_id = $1 ORDER BY id', [workspaceId]),
    revisions: (workspaceId: string) =>
      q('SELECT * FROM message_revisions WHERE workspace_id = $1 ORDER BY occurred_at, provider_message_id, kind', [workspaceId]),
    /** Every row of the workspace in the tables these effects write, minus volatile columns, to compare replays. */
    snapshot: async (workspaceId: string) => {
      const out = {} as Record<(typeof SNAPSHOT_TABLES)[number], Record<string, unknown>[]>;
      for (const table of SNAPSHOT_TABLES) {
        const rows = await q(`SELECT * FROM ${table} WHERE workspace_id = $1 ORDER BY id`, [workspaceId]);
        out[table] = rows.map(({ updated_at: _u, applied_at: _a, ...rest }) => rest);
      }
      return out;
    },
  };
}
