import type { ContactIdentity } from './events';
import { get, records, str, text } from './value-readers';

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
 * Returns null when neither a phone nor a user id is known: such an item cannot be applied.
 */
export function resolveIdentity(contacts: unknown, phone: unknown, userId: unknown): ContactIdentity | null {
  let waId = text(phone);
  let uid = text(userId);
  const entry = records(contacts).find(
    (c) => (waId !== null && text(get(c, 'wa_id')) === waId) || (uid !== null && text(get(c, 'user_id')) === uid),
  );
  waId ??= text(get(entry, 'wa_id'));
  uid ??= text(get(entry, 'user_id'));
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
