/**
 * Contact-level rules that need no I/O: subscriber statuses, opt-out/opt-in keywords,
 * phone normalisation, and delivery-status ranks.
 */

export const SUBSCRIBER_STATUSES = ['subscribed', 'unsubscribed', 'blocked'] as const;
export type SubscriberStatus = (typeof SUBSCRIBER_STATUSES)[number];

/**
 * Who made the last subscriber-status decision: the contact by keyword (typed, or a quick-reply
 * or interactive button), an operator, or the contact in the provider's app (`user_preferences`).
 */
export const SUBSCRIBER_STATUS_SOURCES = ['keyword', 'operator', 'provider_preference'] as const;
export type SubscriberStatusSource = (typeof SUBSCRIBER_STATUS_SOURCES)[number];

/**
 * Opt-out words that only ever mean opt-out, typed or on a button (see `classifyButtonOptKeyword`).
 */
const BUTTON_STOP_KEYWORDS = ['STOP', 'STOPALL', 'UNSUBSCRIBE'] as const;
/**
 * Opt-out words only when typed as the whole message (the SMS convention customers know). On a
 * button they are an answer, not an opt-out: the provider's own interactive example is a button
 * titled "Cancel" on an appointment, and tapping it must not unsubscribe anyone. ANNULLA is the
 * Italian CANCEL.
 */
const TYPED_ONLY_STOP_KEYWORDS = ['CANCEL', 'END', 'QUIT', 'ANNULLA'] as const;
/** Opt-out words (English plus the Italian "ANNULLA"); typed, matched on the whole trimmed text. */
export const STOP_KEYWORDS = [...BUTTON_STOP_KEYWORDS, ...TYPED_ONLY_STOP_KEYWORDS] as const;
/** Opt-in words: re-subscribe a contact who opted out by keyword. Only ever the whole text. */
export const START_KEYWORDS = ['START', 'UNSTOP', 'SUBSCRIBE'] as const;

export type OptKeyword = 'stop' | 'start';

/** The comparable form of a text or a word: trimmed, trailing `.`/`!`/`,`/`;`/`:` dropped, upper-cased. */
function keywordForm(text: string): string {
  return text
    .trim()
    .replace(/[.!,;:]+$/, '')
    .toUpperCase();
}

const isOneOf = (words: readonly string[], word: string): boolean => words.includes(word);

/**
 * Whether an inbound text is an opt-out or opt-in keyword. Only the whole message counts
 * ("stop" yes, "please stop by tomorrow" no), trimmed and case-insensitive, so ordinary
 * conversation never unsubscribes anyone.
 */
export function classifyOptKeyword(text: string | null | undefined): OptKeyword | null {
  if (!text) return null;
  const word = keywordForm(text);
  if (isOneOf(STOP_KEYWORDS, word)) return 'stop';
  if (isOneOf(START_KEYWORDS, word)) return 'start';
  return null;
}

/**
 * The keyword a button tap carries, in the order given: a quick-reply tap has its payload and
 * its label, an interactive reply its id and its title, and a business may key STOP on either.
 * A button is written by the business, so its words are a choice the customer makes, not
 * conversation: a label whose FIRST word is STOP, STOPALL or UNSUBSCRIBE is an opt-out ("Stop
 * promotions", the starter pack's own quick reply, core/templates/starter-pack.ts). START, UNSTOP
 * and SUBSCRIBE count only as the whole label ("Start" yes, "Start shopping" no), and the
 * typed-only words (CANCEL, END, QUIT, ANNULLA) never count on a button.
 */
export function classifyButtonOptKeyword(candidates: readonly (string | null | undefined)[]): OptKeyword | null {
  for (const candidate of candidates) {
    if (!candidate) continue;
    if (isOneOf(START_KEYWORDS, keywordForm(candidate))) return 'start';
    const firstWord = candidate.trim().split(/\s+/, 1)[0] ?? '';
    if (isOneOf(BUTTON_STOP_KEYWORDS, keywordForm(firstWord))) return 'stop';
  }
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
  // Total, like every reader of outside input: a non-string (a JSON number, an object) is no phone.
  if (typeof raw !== 'string' || !raw) return null;
  const digits = raw
    .trim()
    .replace(/^\+/, '')
    .replace(/[\s()-]/g, '');
  if (!/^[1-9]\d{6,14}$/.test(digits)) return null;
  return `+${digits}`;
}

/**
 * Delivery statuses with a rank: a lower-ranked status never replaces a higher one.
 * `played` (a voice or audio message was played) comes after `read`: the provider sends it
 * only for media the user opened, so it implies the message was read.
 */
export const DELIVERY_STATUS_RANK = { sent: 1, delivered: 2, read: 3, played: 4 } as const;
export type RankedDeliveryStatus = keyof typeof DELIVERY_STATUS_RANK;
export const DELIVERY_STATUSES = ['sent', 'delivered', 'read', 'played', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export function isDeliveryStatus(v: unknown): v is DeliveryStatus {
  return typeof v === 'string' && (DELIVERY_STATUSES as readonly string[]).includes(v);
}
