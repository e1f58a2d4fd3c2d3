/**
 * Contact-level rules that need no I/O: subscriber statuses, opt-out/opt-in keywords,
 * phone normalisation, and delivery-status ranks.
 */

export const SUBSCRIBER_STATUSES = ['subscribed', 'unsubscribed', 'blocked'] as const;
export type SubscriberStatus = (typeof SUBSCRIBER_STATUSES)[number];

/** Opt-out words (English plus the Italian "ANNULLA"); matched on the whole trimmed text. */
export const STOP_KEYWORDS = ['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT', 'ANNULLA'] as const;
/** Opt-in words: re-subscribe a contact who opted out by keyword. */
export const START_KEYWORDS = ['START', 'UNSTOP', 'SUBSCRIBE'] as const;

export type OptKeyword = 'stop' | 'start';

/**
 * Whether an inbound text is an opt-out or opt-in keyword. Only the whole message counts
 * ("stop" yes, "please stop by tomorrow" no), trimmed and case-insensitive, so ordinary
 * conversation never unsubscribes anyone.
 */
export function classifyOptKeyword(text: string | null | undefined): OptKeyword | null {
  if (!text) return null;
  const word = text.trim().replace(/[.!]+$/, '').toUpperCase();
  if ((STOP_KEYWORDS as readonly string[]).includes(word)) return 'stop';
  if ((START_KEYWORDS as readonly string[]).includes(word)) return 'start';
  return null;
}

/**
 * The subscriber status after a keyword. `blocked` is an operator decision and no keyword
 * lifts it; START only re-subscribes someone who is unsubscribed.
 */
export function subscriberStatusAfter(current: SubscriberStatus, keyword: OptKeyword): SubscriberStatus {
  if (current === 'blocked') return 'blocked';
  return keyword === 'stop' ? 'unsubscribed' : 'subscribed';
}

/**
 * E.164 with a leading + from the provider's `wa_id`/`from`/`recipient_id` (digits only,
 * no +). Returns null for anything that cannot be a phone number.
 */
export function toE164(raw: string | null | undefined): string | null {
  if (!raw) return null;
  const digits = raw.trim().replace(/^\+/, '').replace(/[\s()-]/g, '');
  if (!/^[1-9]\d{6,14}$/.test(digits)) return null;
  return `+${digits}`;
}

/** Delivery statuses with a rank: a lower-ranked status never replaces a higher one. */
export const DELIVERY_STATUS_RANK = { sent: 1, delivered: 2, read: 3 } as const;
export type RankedDeliveryStatus = keyof typeof DELIVERY_STATUS_RANK;
export const DELIVERY_STATUSES = ['sent', 'delivered', 'read', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export function isDeliveryStatus(v: unknown): v is DeliveryStatus {
  return typeof v === 'string' && (DELIVERY_STATUSES as readonly string[]).includes(v);
}

/** The provider's customer-service window. */
export const SERVICE_WINDOW_MS = 24 * 60 * 60 * 1000;
