import { toE164 } from '../contacts/subscriber';
import type { ContactIdentity } from './events';
import { get, records, str, text } from './value-readers';

/**
 * A provider phone (`from`, `wa_id`, `recipient_id`, `system.customer`, ...) when it can be one:
 * the provider's digits (E.164 without the +), or null. Only what core's `toE164` accepts is
 * kept, because that is what the effects store: a phone they would refuse must count as absent
 * here, so the item is skipped with its reason instead of failing the whole delivery after its
 * siblings were written. `""` (a hidden number) is null too.
 */
export function providerPhone(v: unknown): string | null {
  return toE164(text(v))?.slice(1) ?? null;
}

/** A business-scoped user id with content: blank counts as absent, as the effects read it. */
export function providerUserId(v: unknown): string | null {
  const s = text(v);
  return s !== null && s.trim() !== '' ? s : null;
}

/**
 * Who a customer is, from the provider's identity fields. A user who hides their number
 * arrives with `from`/`wa_id`/`recipient_id` set to `""` and only a business-scoped user id
 * (`from_user_id`, `contacts[].user_id`, `recipient_user_id`): `""` means hidden, so it is
 * null here, and the user id alone keys the contact.
 * Source: $D/business-scoped-user-ids (docs/provider-reference/SOURCES.md).
 *
 * The profile (name, username, country code) comes from the `contacts[]` entry naming the
 * same phone or user id; that entry also fills whichever of the two the message left out.
 * No entry is guessed: a profile attached to the wrong person is worse than none.
 * A phone that is not a usable number (`providerPhone`) counts as absent. Returns null when
 * neither a usable phone nor a user id is known: such an item cannot be applied.
 */
export function resolveIdentity(contacts: unknown, phone: unknown, userId: unknown): ContactIdentity | null {
  let waId = providerPhone(phone);
  let uid = providerUserId(userId);
  const entry = records(contacts).find(
    (c) => (waId !== null && providerPhone(get(c, 'wa_id')) === waId) || (uid !== null && providerUserId(get(c, 'user_id')) === uid),
  );
  waId ??= providerPhone(get(entry, 'wa_id'));
  uid ??= providerUserId(get(entry, 'user_id'));
  if (waId === null && uid === null) return null;
  const profile = get(entry, 'profile');
  return {
    waId,
    userId: uid,
    profileName: str(get(profile, 'name')),
    username: str(get(profile, 'username')),
    countryCode: str(get(profile, 'country_code')),
  };
}
