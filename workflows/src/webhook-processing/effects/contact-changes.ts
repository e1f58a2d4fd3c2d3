import { ApplicationFailure } from '@temporalio/common';
import type { ContactChangedEvent, ContactPreferencesEvent, OptKeyword } from '@mos/core';
import {
  applySubscriberKeyword,
  findContactBy,
  getIdentityChange,
  markIdentityChanged,
  mergeContacts,
  recordIdentityChange,
  resolveContact,
  setContactIdentifiers,
  type ContactIdentityInput,
  type ContactRow,
  type DbOrTx,
} from '@mos/db';
import type { Logger } from '@mos/config';
import { identityOf, newPhoneOf } from './contact-identity';

/** The contact the change is about, as it was before: by its old phone number, then its user id. */
async function contactBefore(tx: DbOrTx, workspaceId: string, old: ContactIdentityInput): Promise<ContactRow | undefined> {
  return (
    (old.phoneNumber ? await findContactBy(tx, workspaceId, { phoneNumber: old.phoneNumber }) : undefined) ??
    (old.userId ? await findContactBy(tx, workspaceId, { userId: old.userId }) : undefined)
  );
}

/**
 * Moves the contact to a new identifier. If another contact already holds it (a message from
 * the new number arrived before this notice), that contact is merged into the moved one, so
 * no history is lost. If nobody had the old identifier, the contact is found or created under
 * the new one.
 */
async function moveContact(
  tx: DbOrTx,
  workspaceId: string,
  old: ContactIdentityInput,
  to: { phoneNumber: string } | { userId: string },
  at: Date,
): Promise<ContactRow> {
  const holder = await findContactBy(tx, workspaceId, to);
  let contact = await contactBefore(tx, workspaceId, old);
  if (!contact) return resolveContact(tx, workspaceId, { ...old, ...to }, { at });
  if (holder && holder.id !== contact.id) contact = await mergeContacts(tx, workspaceId, contact.id, holder.id);
  return setContactIdentifiers(tx, workspaceId, contact.id, to);
}

/**
 * `contact.changed`, applied once per provider message id (the recorded change is the marker,
 * written in the same transaction, so a replay does nothing):
 * - `number_changed`: the contact and all its history move to the new number;
 * - `user_id_changed`: the same for the business-scoped user id;
 * - `identity_changed`: `identity_changed_at` records the latest report.
 * The old identifier is recorded with the change time, so a message from the old number sent
 * before the change but delivered after it still finds the contact (`resolveContact`).
 */
export async function applyContactChange(tx: DbOrTx, workspaceId: string, ev: ContactChangedEvent, log?: Logger): Promise<void> {
  if (await getIdentityChange(tx, workspaceId, ev.providerMessageId)) return;
  const at = new Date(ev.occurredAt);
  const old = identityOf(ev.contact, 'contact');
  let contact: ContactRow;
  switch (ev.change) {
    case 'number_changed': {
      const phoneNumber = newPhoneOf(ev.newWaId, 'the new number');
      contact = await moveContact(tx, workspaceId, old, { phoneNumber }, at);
      await recordIdentityChange(tx, workspaceId, {
        contactId: contact.id,
        providerMessageId: ev.providerMessageId,
        change: ev.change,
        previousPhoneNumber: old.phoneNumber !== phoneNumber ? old.phoneNumber : null,
        newPhoneNumber: phoneNumber,
        occurredAt: at,
      });
      break;
    }
    case 'user_id_changed': {
      const userId = ev.newUserId?.trim();
      if (!userId) throw ApplicationFailure.create({ type: 'MissingContactIdentity', message: 'a user id change without the new user id', nonRetryable: true });
      contact = await moveContact(tx, workspaceId, old, { userId }, at);
      await recordIdentityChange(tx, workspaceId, {
        contactId: contact.id,
        providerMessageId: ev.providerMessageId,
        change: ev.change,
        previousUserId: old.userId !== userId ? old.userId : null,
        newUserId: userId,
        occurredAt: at,
      });
      break;
    }
    case 'identity_changed': {
      contact = await resolveContact(tx, workspaceId, old, { at });
      await markIdentityChanged(tx, workspaceId, contact.id, at);
      await recordIdentityChange(tx, workspaceId, { contactId: contact.id, providerMessageId: ev.providerMessageId, change: ev.change, occurredAt: at });
      break;
    }
  }
  log?.info({ workspaceId, contactId: contact.id, change: ev.change }, 'contact identity changed');
}

/** The provider's marketing preference as our opt keyword; other values change nothing. */
function preferenceKeyword(ev: ContactPreferencesEvent): OptKeyword | null {
  if (ev.category !== 'marketing_messages') return null;
  return ev.value === 'stop' ? 'stop' : ev.value === 'resume' ? 'start' : null;
}

/**
 * `contact.preferences`: the customer stopped (→ unsubscribed) or resumed (→ subscribed)
 * marketing messages in the provider's app. The same monotonic rule as keywords: an older
 * decision never undoes a newer one, whoever made it, and `blocked` is never lifted.
 */
export async function applyPreferences(tx: DbOrTx, workspaceId: string, ev: ContactPreferencesEvent, log?: Logger): Promise<void> {
  const at = new Date(ev.occurredAt);
  const contact = await resolveContact(tx, workspaceId, identityOf(ev.contact, 'contact'), { at });
  const keyword = preferenceKeyword(ev);
  const changed = keyword ? await applySubscriberKeyword(tx, workspaceId, contact.id, keyword, at, 'provider_preference') : undefined;
  log?.info({ workspaceId, contactId: contact.id, category: ev.category, value: ev.value, changed: Boolean(changed) }, 'contact preference');
}
