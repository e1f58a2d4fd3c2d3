import { ApplicationFailure } from '@temporalio/common';
import { toE164, type ContactIdentity } from '@mos/core';
import type { ContactIdentityInput } from '@mos/db';

/**
 * The stored form of a family's identity: the phone number as E.164, the user id as sent.
 * A user who hides their number has only the user id; that is enough. An identity with
 * neither a usable phone number nor a user id can never apply, so retrying will not fix it.
 */
export function identityOf(identity: ContactIdentity, what: string): ContactIdentityInput {
  const phoneNumber = toE164(identity.waId);
  const userId = identity.userId?.trim() || null;
  if (!phoneNumber && !userId) {
    throw ApplicationFailure.create({
      type: identity.waId ? 'InvalidPhoneNumber' : 'MissingContactIdentity',
      message: identity.waId ? `${what} is not a phone number and has no user id` : `${what} has neither a phone number nor a user id`,
      nonRetryable: true,
    });
  }
  return { phoneNumber, userId, profileName: identity.profileName, username: identity.username, countryCode: identity.countryCode };
}

/** A phone number the provider reports as new (`system.wa_id`); a change to nothing cannot apply. */
export function newPhoneOf(raw: string | null, what: string): string {
  const phone = toE164(raw);
  if (!phone) throw ApplicationFailure.create({ type: 'InvalidPhoneNumber', message: `${what} is not a phone number`, nonRetryable: true });
  return phone;
}
