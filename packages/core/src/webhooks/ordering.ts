import type { ProviderEnvelope } from './envelope';
import { providerPhone, providerUserId, resolveIdentity } from './identity';
import { get, id, list, record, records, text, type JsonRecord } from './value-readers';

/**
 * The ordering key of a stored webhook (`outbox_jobs.ordering_key`): webhooks with the same key
 * are applied in receipt order (`outbox_jobs.seq`), within a batch and across batches; webhooks
 * with different keys may be applied in any order, side by side. The provider delivers at least
 * once and in no particular order, but what it does send in order for one conversation (an
 * inbound STOP, then START; a `sent`, then a `failed`) must not be reordered by our own
 * batching on top of that, so the key names what the effects of a webhook touch:
 *
 * - `conv:<phone_number_id>:<party>`: a conversation, the business number and the customer,
 *   for `messages` (inbound messages and statuses), `smb_message_echoes` and `user_preferences`
 *   (a preference changes the same subscription an inbound STOP/START does, so it queues with
 *   that conversation's messages). The customer is read exactly as the normalizer reads it
 *   (identity.ts `resolveIdentity`: a usable phone first, else the business-scoped user id,
 *   with the `contacts[]` entry filling in the other), so an inbound message and the status of
 *   our reply to the same person on the same number share a key. No `phone_number_id`: the
 *   entry's account id (the WABA) stands in.
 * - `tpl:<waba id>:<message_template_id>`: one template's status, quality, category and
 *   components updates.
 * - `acct:<waba id>`: anything else about the account (account updates, alerts, quality,
 *   capability, value-level errors, fields mos does not handle).
 * - null: nothing to order by (no change at all).
 *
 * Conversations outrank templates, which outrank the account: one envelope gets one key, and
 * the first change that names a conversation decides it (the provider sends one change per
 * delivery in practice).
 *
 * Known gaps, by design: one person can arrive under two identities (a phone, or only the
 * business-scoped user id when they hide their number; a number change), and those get
 * different keys, so their webhooks are not ordered against each other. The effects' own
 * guards are the safety net there (the forward-only delivery-status machine: a `delivered`
 * applied after `read` does not move the message back). A collision the other way (two
 * conversations on one key, e.g. a `:` inside a part) only costs parallelism, never order.
 *
 * Pure and total: any envelope the parser accepts, whatever odd values it carries, yields a key
 * or null, never a throw (property-tested); the ingress stores it in the same statement as the
 * event, so a throw here would lose a delivery.
 */
export function webhookOrderingKey(envelope: ProviderEnvelope): string | null {
  let template: string | null = null;
  let account: string | null = null;
  for (const entry of records(get(envelope, 'entry'))) {
    const waba = text(get(entry, 'id'));
    for (const change of records(get(entry, 'changes'))) {
      const field = get(change, 'field');
      const value = record(get(change, 'value'));
      if (typeof field === 'string' && CONVERSATION_FIELDS.has(field) && value) {
        const party = counterpart(field, value);
        const number = text(get(get(value, 'metadata'), 'phone_number_id')) ?? waba;
        if (party !== null && number !== null) return key('conv', number, party);
      }
      if (waba === null) continue;
      if (template === null && typeof field === 'string' && TEMPLATE_FIELDS.has(field)) {
        const templateId = id(get(value, 'message_template_id'));
        if (templateId !== null) template = key('tpl', waba, templateId);
      }
      account ??= key('acct', waba);
    }
  }
  return template ?? account;
}

/** Fields whose effects touch one customer's conversation (normalize-messages/echoes/preferences). */
const CONVERSATION_FIELDS: ReadonlySet<string> = new Set(['messages', 'smb_message_echoes', 'user_preferences']);

/** Fields whose effects touch one template (normalize-templates.ts). */
const TEMPLATE_FIELDS: ReadonlySet<string> = new Set([
  'message_template_status_update',
  'message_template_quality_update',
  'message_template_components_update',
  'template_category_update',
]);

/**
 * The customer a conversation change is about: the first item whose identity the normalizer
 * would resolve (messages, then statuses, echoes, preferences), else the first `contacts[]`
 * entry naming one. The phone, as the provider's digits, when known, else the user id.
 */
function counterpart(field: string, value: JsonRecord): string | null {
  const contacts = get(value, 'contacts');
  const who = (phone: unknown, userId: unknown): string | null => {
    const identity = resolveIdentity(contacts, phone, userId);
    return identity ? (identity.waId ?? identity.userId) : null;
  };
  const first = (items: unknown, read: (item: unknown) => string | null): string | null => {
    for (const item of list(items)) {
      const party = read(item);
      if (party !== null) return party;
    }
    return null;
  };
  let party: string | null = null;
  if (field === 'messages') {
    party =
      first(get(value, 'messages'), (m) => {
        // A system notice may name the customer only as `system.customer` (normalize-messages.ts).
        const customer = get(m, 'type') === 'system' ? get(get(m, 'system'), 'customer') : undefined;
        return who(providerPhone(get(m, 'from')) ?? customer, get(m, 'from_user_id'));
      }) ?? first(get(value, 'statuses'), (s) => who(get(s, 'recipient_id'), get(s, 'recipient_user_id')));
  } else if (field === 'smb_message_echoes') {
    // `to` is the customer; `from` is our own business number.
    party = first(get(value, 'message_echoes'), (e) => who(get(e, 'to'), get(e, 'to_user_id')));
  } else {
    party = first(get(value, 'user_preferences'), (p) => who(get(p, 'wa_id'), get(p, 'user_id')));
  }
  return party ?? first(contacts, (c) => providerPhone(get(c, 'wa_id')) ?? providerUserId(get(c, 'user_id')));
}

/** Each part is provider data of any length: at most this many characters of it are kept. */
export const ORDERING_KEY_PART_MAX = 128;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * `kind:part:part`, each part cut to 128 characters (code points, so a pair is never split).
 * The key is stored as PostgreSQL text, which cannot hold a NUL and stores a lone surrogate as
 * U+FFFD: both become U+FFFD here, so the insert cannot fail on them and the stored key equals
 * the computed one. Deterministic, which is all ordering needs: the same input, the same key.
 */
function key(kind: string, ...parts: string[]): string {
  const cut = parts.map((p) =>
    Array.from(p.slice(0, 2 * ORDERING_KEY_PART_MAX))
      .slice(0, ORDERING_KEY_PART_MAX)
      .join('')
      .replace(LONE_SURROGATE, '\uFFFD')
      .replaceAll('\u0000', '\uFFFD'),
  );
  return [kind, ...cut].join(':');
}
