import { describe, expect, it } from 'vitest';
import { parseProviderEnvelope, type WebhookTopic } from './envelope';
import type { EventFamily, NormalizedEvent } from './events';
import { normalizeEnvelope, summarizeEvent } from './normalize';
import { providerDocsExample, providerDocsExamples } from './testing/provider-docs-examples';

/**
 * Every provider-documented webhook example (docs/provider-reference/webhooks plus ours in
 * fixtures/provider-docs, read by testing/provider-docs-examples.ts; sources per file in the
 * fixtures README and in docs/provider-reference/SOURCES.md; D = https://developers.facebook.com/
 * documentation/business-messaging/whatsapp) parses as an envelope, under the provider's
 * `object` name and the spec's, and normalizes to the expected families with its content kept.
 */
const NAMES = providerDocsExamples().map((e) => e.name);
const raw = providerDocsExample;

function normalized(name: string) {
  const parsed = parseProviderEnvelope(raw(name));
  if (!parsed.ok) throw new Error(`${name}: ${parsed.issues.join('; ')}`);
  return normalizeEnvelope(parsed.envelope);
}

const scope = { accountId: '102290129340398', phoneNumberId: '106540352242922', displayPhoneNumber: '15550783881' };
const sheena = { waId: '16505551234', userId: null, profileName: 'Sheena Nelson', username: null, countryCode: null };
const WINDOW = 'conversation.updated';
type Check = (events: NormalizedEvent[]) => void;
interface Case {
  topic: WebhookTopic;
  families: EventFamily[];
  check: Check;
}

const inbound = (fields: Record<string, unknown>, window = true): Case => ({
  topic: 'messages',
  families: window ? ['message.inbound', WINDOW] : ['message.inbound'],
  check: (events) => expect(events[0]).toMatchObject({ ...scope, family: 'message.inbound', ...fields }),
});
const oneOf = (topic: WebhookTopic, family: EventFamily, fields: Record<string, unknown>): Case => ({
  topic,
  families: [family],
  check: (events) => expect(events[0]).toMatchObject({ family, ...fields }),
});
const account = (field: string, event: string, extra: Record<string, unknown> = {}, accountId = '102290129340398'): Case =>
  oneOf('unknown', 'account.updated', { accountId, field, event, limits: null, ...extra });

const CASES: Record<string, Case> = {
  // D/webhooks/reference/messages/text
  messages_text: inbound({
    contact: sheena,
    sentAt: '2025-06-08T20:59:43.000Z',
    type: 'text',
    content: { kind: 'text', body: 'Does it come in another color?' },
    text: 'Does it come in another color?',
    context: null,
    referral: null,
    optKeyword: null,
  }),
  messages_text_message_business_button_referred_product: inbound({
    accountId: '419561257915477',
    context: {
      replyToMessageId: 'wamid.HBgLMTY1MDM4Nzk0MzkVAgARGA9wcm9kdWN0X2lucXVpcnkA',
      replyToFrom: '15550783881',
      forwarded: false,
      frequentlyForwarded: false,
      referredProduct: { catalogId: '194836987003835', productRetailerId: 'di9ozbzfi4' },
    },
  }),
  messages_text_click_to_whatsapp_ad_referral: inbound({
    referral: {
      sourceUrl: 'https://fb.me/3cr4Wqqkv',
      sourceType: 'ad',
      sourceId: '120226305854810726',
      headline: 'Chat with us',
      body: 'Summer Succulents are here!',
      mediaType: 'image',
      imageUrl: 'https://scontent.xx.fbcdn.net/v/t45.1...',
      videoUrl: null,
      thumbnailUrl: null,
      ctwaClid: expect.stringMatching(/^Aff-n8ZTODiE79d22KtAwQKj9e_mIEOOj27vDVwFjN80dp4/),
      welcomeMessageText: 'Hi there! Let us know how we can help!',
    },
  }),
  constructed_messages_text_forwarded: inbound({
    context: { replyToMessageId: null, replyToFrom: null, forwarded: true, frequentlyForwarded: false, referredProduct: null },
  }),
  constructed_messages_text_quoted_reply: inbound({
    content: { kind: 'text', body: 'Yes, the blue one please' },
    context: {
      replyToMessageId: 'wamid.HBgLMTY1MDM4Nzk0MzkVAgARGBI3MTE5MjVBOTE3MDk5QUVFM0YA',
      replyToFrom: '15550783881',
      forwarded: false,
      frequentlyForwarded: false,
      referredProduct: null,
    },
  }),
  // D/webhooks/reference/messages/{image,video,audio,document,sticker}
  messages_image: inbound({
    type: 'image',
    text: 'Taj Mahal',
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
  }),
  messages_video: inbound({ content: { kind: 'media', mediaKind: 'video', id: '731675419373506', mimeType: 'video/mp4', caption: 'Timelapse of growth' } }),
  messages_audio_voice: inbound({
    content: { kind: 'media', mediaKind: 'audio', id: '1908647269898587', mimeType: 'audio/ogg; codecs=opus', voice: true, caption: null },
  }),
  messages_document: inbound({
    text: 'my receipt',
    content: {
      kind: 'media',
      mediaKind: 'document',
      id: '622684793477189',
      filename: 'receipt.pdf',
      caption: 'my receipt',
      mimeType: 'application/pdf',
      sha256: 'V5OPpLD/gEG6Xjg0MbmQDLFgcKsL+j5LfY4ny/pZ4MY=',
    },
  }),
  messages_sticker_animated: inbound({ content: { kind: 'media', mediaKind: 'sticker', id: '1908647269898587', mimeType: 'image/webp', animated: true } }),
  // D/webhooks/reference/messages/location (floats kept as numbers)
  messages_location: inbound({
    text: 'Philz Coffee',
    content: {
      kind: 'location',
      latitude: 37.44221496582,
      longitude: -122.16165924072,
      name: 'Philz Coffee',
      address: '101 Forest Ave, Palo Alto, CA 94301',
      url: 'https://philzcoffee.com/',
    },
  }),
  // D/webhooks/reference/messages/contacts: the cards verbatim
  messages_contacts: inbound({
    content: {
      kind: 'contacts',
      cards: [
        {
          name: { first_name: 'Barbara', last_name: 'Johnson', formatted_name: 'Barbara J. Johnson' },
          org: { company: 'Social Tsunami' },
          phones: [{ phone: '+1 (415) 555-0829', wa_id: '14125550829', type: 'MOBILE' }],
        },
      ],
    },
  }),
  // D/webhooks/reference/messages/button: the quick-reply payload "Unsubscribe" is an opt-out
  messages_button_quick_reply: inbound({
    content: { kind: 'button', payload: 'Unsubscribe', text: 'Unsubscribe' },
    optKeyword: 'stop',
    context: { replyToMessageId: 'wamid.HBgLMTQxMjU1NTA4MjkVAgASGBQzQUNCNjk5RDUwNUZGMUZEM0VBRAA=', replyToFrom: '15550783881' },
  }),
  // D/templates/authentication-templates/autofill-button-authentication-templates
  messages_button_auth_did_not_request_code: inbound({
    accountId: '320580347795883',
    phoneNumberId: '1234567890',
    displayPhoneNumber: '12345678',
    contact: { waId: '12345678', profileName: 'John' },
    content: { kind: 'button', payload: 'DID_NOT_REQUEST_CODE', text: "I didn't request a code" },
    optKeyword: null,
  }),
  // D/webhooks/reference/messages/interactive. The provider's button example is titled "Cancel":
  // on a button that is an answer to the business's question, never an opt-out.
  messages_interactive_button_reply: inbound({
    content: { kind: 'interactive', replyType: 'button_reply', id: 'cancel-button', title: 'Cancel', description: null, flow: null },
    text: 'Cancel',
    optKeyword: null,
    context: { replyToMessageId: 'wamid.HBgLMTY1MDM4Nzk0MzkVAgARGBI3MEM2RUJFNkI0RENGQTVDRjUA' },
  }),
  messages_interactive_list_reply: inbound({
    content: {
      kind: 'interactive',
      replyType: 'list_reply',
      id: 'priority_express',
      title: 'Priority Mail Express',
      description: 'Next Day to 2 Days',
      flow: null,
    },
    optKeyword: null,
  }),
  // D/flows/guides/receiveflowresponse (fragment, wrapped): response_json parsed
  messages_interactive_nfm_reply_flow_WRAPPED: inbound({
    content: {
      kind: 'interactive',
      replyType: 'nfm_reply',
      id: null,
      title: null,
      description: null,
      flow: { name: 'flow', body: 'Sent', response: { flow_token: '<FLOW_TOKEN>', optional_param1: '<value1>', optional_param2: '<value2>' } },
    },
    context: { replyToMessageId: 'gBGGEiRVVgBPAgm7FUgc73noXjo', replyToFrom: '16315558151' },
  }),
  // D/webhooks/reference/messages/order, D/templates/marketing-templates/mpm-templates
  messages_order: inbound({
    content: {
      kind: 'order',
      catalogId: '194836987003835',
      text: 'Love these!',
      items: [
        { productRetailerId: 'di9ozbzfi4', quantity: 2, itemPrice: 30, currency: 'USD' },
        { productRetailerId: 'nqryix03ez', quantity: 1, itemPrice: 25, currency: 'USD' },
      ],
    },
  }),
  messages_order_from_mpm_template: inbound({
    displayPhoneNumber: '15550051310',
    content: {
      kind: 'order',
      catalogId: '1537566713439863',
      text: null,
      items: [{ productRetailerId: 'n6k6x0y7oe', quantity: 1, itemPrice: 99.99, currency: 'USD' }],
    },
  }),
  // D/webhooks/reference/messages/unsupported: an edit the provider could not deliver stays an
  // inbound message (content and errors kept) but, being an edit, does not open the window
  // (service-window.ts; issue 9).
  messages_unsupported_edit: inbound(
    {
      type: 'unsupported',
      content: { kind: 'unsupported', unsupportedType: 'edit' },
      errors: [
        { code: 131051, title: 'Message type unknown', message: 'Message type unknown', details: 'Message type is currently not supported.', href: null },
      ],
    },
    false,
  ),
  // D/business-scoped-user-ids: hidden number, user id and profile from contacts[]
  bsuid_messages_text_username_hidden_number: inbound({
    contact: { waId: null, userId: 'user.93737...', profileName: 'Sheena Nelson', username: '@realsheenanelson', countryCode: 'US' },
  }),
  // D/webhooks/reference/messages/reaction: an added emoji opens the window, a removal does not
  messages_reaction: {
    topic: 'messages',
    families: ['message.reaction', WINDOW],
    check: (events) => {
      expect(events[0]).toMatchObject({
        family: 'message.reaction',
        contact: sheena,
        emoji: '👍',
        reactedToMessageId: 'wamid.HBgLMTQxMjU1NTA4MjkVAgASGBQzQUNCNjk5RDUwNUZGMUZEM0VBRAA=',
        occurredAt: '2025-06-08T21:52:24.000Z',
      });
      expect(events[1]).toMatchObject({ change: 'service_window_opened', expiresAt: '2025-06-09T21:52:24.000Z' });
    },
  },
  messages_reaction_removed: oneOf('messages', 'message.reaction', {
    emoji: null,
    reactedToMessageId: 'wamid.HBgLMTQxMjU1NTA4MjkVAgASGBQzQUNCNjk5RDUwNUZGMUZEM0VBRAA=',
  }),
  // D/webhooks/reference/messages/{edit,revoke}: not new messages, no window
  messages_edit_coexistence: oneOf('messages', 'message.edited', {
    originalMessageId: 'wamid.HBgLMTQxMjU1NTA4MjkVAgASGBQzQUNCNjk5RDUwNUZGMUZEM0VBRAA=',
    editedAt: '2025-06-13T22:42:55.000Z',
    type: 'image',
    text: 'Updated image caption',
    content: { kind: 'media', mediaKind: 'image', id: '1234567890', caption: 'Updated image caption', url: 'https://media.example.com/updated-image.jpg' },
  }),
  messages_revoke_coexistence: oneOf('messages', 'message.revoked', {
    originalMessageId: 'wamid.HBgLMTQxMjU1NTA4MjkVAgASGBQzQUNCNjk5RDUwNUZGMUZEM0VBRAA=',
    contact: sheena,
  }),
  // D/webhooks/reference/messages/system; D/business-scoped-user-ids; the former components page
  messages_system_user_changed_number: oneOf('messages', 'contact.changed', {
    change: 'number_changed',
    contact: { waId: '16505551234', userId: null },
    newWaId: '12195555358',
    newUserId: null,
    occurredAt: '2025-06-18T17:55:42.000Z',
  }),
  constructed_messages_system_user_changed_user_id: oneOf('messages', 'contact.changed', {
    change: 'user_id_changed',
    newUserId: 'user.4b8e2...',
    newWaId: null,
  }),
  constructed_messages_system_customer_identity_changed: oneOf('messages', 'contact.changed', {
    change: 'identity_changed',
    contact: { waId: '16505551234' },
    newWaId: null,
    newUserId: null,
  }),
  // D/webhooks/reference/messages/errors: an errors-only value is for operators
  messages_errors_system_level: oneOf('unknown', 'account.updated', {
    ...scope,
    field: 'messages',
    event: 'errors',
    summary: expect.stringContaining('130429'),
    errors: [
      {
        code: 130429,
        title: 'Rate limit hit',
        message: 'Rate limit hit',
        details: expect.stringContaining('too many messages'),
        href: '/documentation/business-messaging/whatsapp/support/error-codes',
      },
    ],
  }),
  // D/webhooks/reference/messages/status
  status_sent_marketing_with_pricing_conversation: {
    topic: 'message_status',
    families: ['message.status', WINDOW],
    check: (events) => {
      expect(events[0]).toMatchObject({
        status: 'sent',
        occurredAt: '2025-06-15T23:27:53.000Z',
        recipient: { waId: '16505551234', userId: null },
        conversation: { id: '72b14d6bd5407799e66f64d1b338e567', originType: 'marketing', expiresAt: '2025-06-16T23:28:00.000Z' },
        pricing: { billable: true, model: 'PMP', category: 'marketing', type: 'regular' },
        callbackData: null,
        errors: [],
      });
      expect(events[1]).toMatchObject({ change: 'conversation_opened', conversationId: '72b14d6bd5407799e66f64d1b338e567', origin: 'marketing' });
    },
  },
  status_read_v24_no_conversation_no_pricing: oneOf('message_status', 'message.status', { status: 'sent', conversation: null, pricing: null }),
  status_failed_131049: oneOf('message_status', 'message.status', {
    status: 'failed',
    errors: [
      { code: 131049, title: expect.stringContaining('healthy ecosystem'), details: expect.stringContaining('healthy ecosystem'), href: expect.any(String) },
    ],
  }),
  status_delivered_service_cbp_overview: oneOf('message_status', 'message.status', {
    status: 'delivered',
    conversation: { id: '6ceb9d929c9bdc4f90e967a32f8639b4', originType: 'service', expiresAt: null },
    pricing: { billable: true, model: 'CBP', category: 'service', type: null },
  }),
  constructed_status_played: oneOf('message_status', 'message.status', { status: 'played', occurredAt: '2025-06-18T16:25:00.000Z' }),
  bsuid_status_delivered_username_phone_known: oneOf('message_status', 'message.status', {
    recipient: {
      waId: '16505551234',
      userId: 'user.9373795779eb6441c8adb2eaee5b848e7dd174ddd302d7db62142f4722d574b6',
      profileName: 'Pablo M.',
      username: '@pablomorales',
      countryCode: 'US',
    },
    pricing: { type: 'regular' },
  }),
  bsuid_status_delivered_sent_to_bsuid_empty_wa_id: oneOf('message_status', 'message.status', {
    recipient: { waId: null, userId: 'user.9373795779eb6441c8adb2eaee5b848e7dd174ddd302d7db62142f4722d574b6', username: '@pablomorales' },
  }),
  // D/webhooks/reference/message_template_status_update
  message_template_status_update_approved: oneOf('unknown', 'template.updated', {
    change: 'status',
    providerTemplateId: '1689556908129832',
    name: 'order_confirmation',
    language: 'en-US',
    event: 'APPROVED',
    status: 'approved',
    category: 'UTILITY',
    reason: null,
    detail: null,
    occurredAt: '2025-06-30T01:39:08.000Z',
  }),
  message_template_status_update_rejected_invalid_format: oneOf('unknown', 'template.updated', {
    status: 'rejected',
    reason: 'INVALID_FORMAT',
    category: 'MARKETING',
    detail: {
      title: null,
      description: expect.stringContaining('{{1}}{{2}}'),
      recommendation: expect.stringContaining('Separate parameters'),
      disableDate: null,
    },
  }),
  constructed_message_template_status_update_flagged: oneOf('unknown', 'template.updated', { event: 'FLAGGED', status: 'flagged' }),
  constructed_message_template_status_update_paused_other_info: oneOf('unknown', 'template.updated', {
    status: 'paused',
    reason: null,
    detail: { title: 'FIRST_PAUSE', description: 'Your WhatsApp message template has been paused.', recommendation: null, disableDate: null },
  }),
  constructed_message_template_status_update_disabled_disable_info: oneOf('unknown', 'template.updated', {
    status: 'disabled',
    detail: { title: null, description: null, recommendation: null, disableDate: '2025-06-29T22:02:43.000Z' },
  }),
  // D/webhooks/reference/message_template_quality_update (sent under the status field name, as published)
  message_template_quality_update: oneOf('unknown', 'template.updated', {
    change: 'quality',
    providerTemplateId: '806312974732579',
    previousScore: 'GREEN',
    newScore: 'YELLOW',
    occurredAt: '2023-01-28T00:04:50.000Z',
  }),
  // D/webhooks/reference/template_category_update
  template_category_update_impending: oneOf('unknown', 'template.updated', {
    change: 'category',
    previousCategory: null,
    newCategory: 'UTILITY',
    correctCategory: 'MARKETING',
    effectiveAt: '2025-05-02T07:00:00.000Z',
  }),
  template_category_update_completed: oneOf('unknown', 'template.updated', {
    change: 'category',
    previousCategory: 'UTILITY',
    newCategory: 'MARKETING',
    correctCategory: null,
    effectiveAt: null,
  }),
  // D/webhooks/reference/message_template_components_update
  message_template_components_update: oneOf('unknown', 'template.updated', {
    change: 'components',
    providerTemplateId: '1315502779341834',
    components: [
      { type: 'HEADER', format: 'TEXT', text: 'Your order is confirmed!' },
      { type: 'BODY', text: expect.stringContaining('Your order number is {{2}}.') },
      { type: 'FOOTER', text: 'Lucky Shrub: the Succulent Specialists!' },
      {
        type: 'BUTTONS',
        buttons: [
          { type: 'PHONE_NUMBER', text: 'Phone support', phone_number: '+15550783881' },
          { type: 'URL', text: 'Email support', url: 'https://www.luckyshrub.com/support' },
        ],
      },
    ],
  }),
  // D/webhooks/reference/phone_number_quality_update, business_capability_update, account_alerts, security
  phone_number_quality_update_throughput_upgrade: account('phone_number_quality_update', 'THROUGHPUT_UPGRADE', {
    displayPhoneNumber: '15550783881',
    limits: { messagingLimitTier: 'TIER_UNLIMITED', maxDailyConversationsPerBusiness: -1, maxPhoneNumbersPerAccount: null, throughputLevel: 'HIGH' },
  }),
  business_capability_update: account(
    'business_capability_update',
    'CAPABILITY_UPDATE',
    {
      limits: { messagingLimitTier: 'TIER_2K', maxDailyConversationsPerBusiness: 2000, maxPhoneNumbersPerAccount: 25, throughputLevel: null },
    },
    '524126980791429',
  ),
  account_alerts_capabilities_deferred: account('account_alerts', 'INCREASED_CAPABILITIES_ELIGIBILITY_DEFERRED', {
    summary: expect.stringContaining('WARNING'),
  }),
  security_pin_reset_request: account('security', 'PIN_RESET_REQUEST'),
  // D/webhooks/reference/account_update
  account_update_account_deleted: account('account_update', 'ACCOUNT_DELETED'),
  account_update_account_violation: account('account_update', 'ACCOUNT_VIOLATION', { summary: expect.stringContaining('ADULT') }),
  account_update_ad_account_linked: account('account_update', 'AD_ACCOUNT_LINKED', {}, '2949482758682047'),
  account_update_auth_intl_price_eligibility: account('account_update', 'AUTH_INTL_PRICE_ELIGIBILITY_UPDATE'),
  account_update_disabled_update: account('account_update', 'DISABLED_UPDATE', {
    summary: expect.stringContaining('REINSTATE'),
    limits: { messagingLimitTier: null, maxDailyConversationsPerBusiness: null, maxPhoneNumbersPerAccount: null, throughputLevel: null, banState: 'REINSTATE' },
  }),
  account_update_mm_lite_terms_signed: account('account_update', 'MM_LITE_TERMS_SIGNED', {}, '2949482758682047'),
  account_update_partner_added_REPAIRED: account('account_update', 'PARTNER_ADDED', {}, '2949482758682047'),
  account_update_partner_app_installed_REPAIRED: account('account_update', 'PARTNER_APP_INSTALLED', {}, '2949482758682047'),
  account_update_partner_app_uninstalled_REPAIRED: account('account_update', 'PARTNER_APP_UNINSTALLED', {}, '2949482758682047'),
  account_update_partner_client_certification_status: account('account_update', 'PARTNER_CLIENT_CERTIFICATION_STATUS_UPDATE', {
    summary: expect.stringContaining('APPROVED'),
  }),
  account_update_primary_location_country: account('account_update', 'BUSINESS_PRIMARY_LOCATION_COUNTRY_UPDATE', { summary: expect.stringContaining('IN') }),
  account_update_volume_based_pricing_tier: account('account_update', 'VOLUME_BASED_PRICING_TIER_UPDATE', {
    summary: expect.stringContaining('25000001:50000000'),
  }),
  // D/webhooks/reference/smb_message_echoes: the contact is the `to` customer
  smb_message_echoes_text: oneOf('unknown', 'message.echo', {
    ...scope,
    providerMessageId: 'wamid.HBgLMTY0NjcwNDM1OTUVAgARGBIyNDlBOEI5QUQ4NDc0N0FCNjMA',
    contact: { waId: '16505551234', userId: null },
    sentAt: '2025-02-12T00:43:44.000Z',
    type: 'text',
    content: { kind: 'text', body: "Here's the info you requested! https://www.meta.com/quest/quest-3/" },
  }),
  // D/webhooks/reference/user_preferences
  user_preferences_marketing_resume: oneOf('unknown', 'contact.preferences', {
    ...scope,
    contact: { waId: '16505551234', userId: null, profileName: null },
    category: 'marketing_messages',
    value: 'resume',
    detail: 'User requested to resume marketing messages',
    occurredAt: '2024-11-15T21:22:01.000Z',
  }),
  constructed_user_preferences_marketing_stop: oneOf('unknown', 'contact.preferences', { value: 'stop', detail: 'User requested to stop marketing messages' }),
};

/** Published exactly so, and not deliveries the provider could send (fixtures/provider-docs/README.md). */
const UNREADABLE: Record<string, string[]> = {
  account_update_partner_added: ['the envelope has no "object"; mos reads whatsapp_business_account (and the spec\'s messaging_business_account) deliveries'],
  account_update_partner_app_installed: [
    'the envelope has no "object"; mos reads whatsapp_business_account (and the spec\'s messaging_business_account) deliveries',
    'entry[0].changes[0].field is missing',
  ],
  account_update_partner_app_uninstalled: [
    'the envelope has no "object"; mos reads whatsapp_business_account (and the spec\'s messaging_business_account) deliveries',
    'entry[0].changes[0].field is missing',
  ],
};

describe('provider-documented webhook examples', () => {
  it('the table names every fixture exactly once', () => {
    expect([...Object.keys(CASES), ...Object.keys(UNREADABLE)].sort()).toEqual(NAMES);
    // 55 published examples (the nfm_reply fragment wrapped), 3 repaired copies, 9 constructed.
    expect(NAMES.length).toBe(67);
  });

  describe.each(Object.entries(CASES))('%s', (name, c) => {
    it("parses under the provider's object name and the spec's, with the same topic", () => {
      const asPublished = parseProviderEnvelope(raw(name));
      expect(asPublished.ok).toBe(true);
      expect(asPublished.summary).toMatchObject({ object: 'whatsapp_business_account', topic: c.topic });
      const renamed = { ...JSON.parse(raw(name).toString('utf8')), object: 'messaging_business_account' };
      const asSpec = parseProviderEnvelope(JSON.stringify(renamed));
      expect(asSpec.ok).toBe(true);
      expect(asSpec.summary).toEqual({ ...asPublished.summary, object: 'messaging_business_account' });
    });

    it('normalizes to the expected families with its content kept, nothing skipped', () => {
      const { events, skipped } = normalized(name);
      expect(skipped).toEqual([]);
      expect(events.map((e) => e.family)).toEqual(c.families);
      c.check(events);
    });

    it('summaries carry no phone numbers, user ids, names or content', () => {
      const summaries = JSON.stringify(normalized(name).events.map(summarizeEvent));
      for (const personal of ['16505551234', '12195555358', 'user.', 'Sheena', 'Pablo', 'color', '👍', 'caption', 'Philz', 'Barbara']) {
        expect(summaries).not.toContain(personal);
      }
    });
  });

  it.each(Object.entries(UNREADABLE))('%s (published misplaced) is an unreadable envelope, said in words', (name, issues) => {
    const parsed = parseProviderEnvelope(raw(name));
    expect(parsed.ok).toBe(false);
    expect(parsed.summary.topic).toBe('invalid_payload');
    if (!parsed.ok) expect(parsed.issues).toEqual(issues);
  });
});
