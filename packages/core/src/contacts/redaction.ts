/**
 * What a viewer may see of personal data (docs/security.md): the structure of what the
 * provider sent and its operational fields, never who wrote or what they wrote. Developers
 * and above see everything.
 */

/**
 * Keys of a raw provider body (webhook envelopes, account event values) whose values are
 * operational, not personal, and stay visible. Everything else is redacted: an allow-list, so
 * a field the provider adds tomorrow is hidden by default. Numbers are values too: only these
 * keys' numbers show (times, codes, template ids, limits), never a location's latitude or an
 * order's quantity.
 */
const OPERATIONAL_KEYS = new Set([
  'object',
  'field',
  'messaging_product',
  'type',
  'status',
  'id',
  'timestamp',
  'category',
  'pricing_model',
  'billable',
  'code',
  'error_code',
  'title',
  'event',
  'reason',
  'message_template_id',
  'message_template_name',
  'message_template_language',
  'phone_number_id',
  'display_phone_number',
  'expiration_timestamp',
  'mime_type',
  'sha256',
  'origin',
  'new_category',
  'previous_category',
  'current_limit',
  'max_daily_conversation_per_phone',
  'max_phone_numbers_per_business',
  'decision',
  // Numbers the provider's account and template examples carry (docs/provider-reference/webhooks).
  'time',
  'start_time',
  'tier_update_time',
  'category_update_timestamp',
  'disable_date',
  'max_daily_conversations_per_business',
  'max_phone_numbers_per_waba',
]);

/** Keys of our stored message content (core MessageContent, context, referral) that say what kind of thing it is, not what it says. */
const CONTENT_SHAPE_KEYS = new Set([
  'kind',
  'mediaKind',
  'mimeType',
  'replyType',
  'unsupportedType',
  'type',
  'voice',
  'animated',
  'forwarded',
  'frequentlyForwarded',
  'sourceType',
  'mediaType',
  'currency',
]);

export const REDACTED = '[redacted]';

/**
 * The one redactor: JSON keeps its shape (objects, arrays, null, booleans); a string or a
 * number shows only under an allowed key (an array's items count as under its key), anything
 * else becomes `[redacted]`.
 */
function redactExcept(allowed: ReadonlySet<string>, value: unknown, key: string | undefined): unknown {
  if (value === null || value === undefined || typeof value === 'boolean') return value;
  if (typeof value === 'string' || typeof value === 'number') return key !== undefined && allowed.has(key) ? value : REDACTED;
  if (Array.isArray(value)) return value.map((v) => redactExcept(allowed, v, key));
  if (typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactExcept(allowed, v, k)]));
  return REDACTED;
}

/** A viewer's copy of a raw provider body: only operational keys' values stay. */
export function redactPersonalData(value: unknown): unknown {
  return redactExcept(OPERATIONAL_KEYS, value, undefined);
}

/** `+393331234567` -> `+39*******567`: enough to tell numbers apart in a list, not to call one. */
export function maskPhoneNumber(phone: string): string {
  if (phone.length <= 5) return '*'.repeat(phone.length);
  const head = phone.startsWith('+') ? 3 : 2;
  return phone.slice(0, head) + '*'.repeat(Math.max(0, phone.length - head - 3)) + phone.slice(-3);
}

/**
 * A viewer's copy of a contact's identifiers: the phone number masked (null stays null: a user
 * who hides their number), the business-scoped user id and the username hidden (either is
 * enough to find the person). The country code stays: the masked number shows it anyway.
 */
export function redactContactIdentity<T extends { phoneNumber: string | null; providerUserId: string | null; username: string | null }>(c: T): T {
  return {
    ...c,
    phoneNumber: c.phoneNumber === null ? null : maskPhoneNumber(c.phoneNumber),
    providerUserId: c.providerUserId === null ? null : REDACTED,
    username: c.username === null ? null : REDACTED,
  };
}

/**
 * A viewer's copy of a stored message content, context or referral: its shape and kind stay,
 * every other value (text, ids, urls, coordinates, quantities) is hidden.
 */
export function redactMessageContent(value: unknown): unknown {
  return redactExcept(CONTENT_SHAPE_KEYS, value, undefined);
}

/** The redacted text of a stored body for a viewer: JSON keeps its shape, anything else is hidden whole. */
export function redactBodyText(raw: Buffer): string | null {
  try {
    return JSON.stringify(redactPersonalData(JSON.parse(raw.toString('utf8'))));
  } catch {
    return null;
  }
}
