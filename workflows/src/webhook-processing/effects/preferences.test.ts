import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateContact } from '@mos/db';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { effectsHarness, inboundText, inboundUnsubscribeButton, preference, SHEENA_HIDDEN, unixIso } from './testing/families';

/**
 * contact.preferences (D/webhooks/reference/user_preferences, user_preferences_marketing_resume.json:
 * `resume` at 1731705721). The provider publishes no `stop` example; its syntax gives the value
 * `stop` and the detail "User requested to stop marketing messages", used here.
 */
const RESUME_AT = 1731705721;
const stop = (at: number) => preference({ value: 'stop', detail: 'User requested to stop marketing messages', occurredAt: unixIso(at) });

describe('contact.preferences effects', () => {
  let tdb: TestDatabase;
  const h = effectsHarness(() => tdb);
  beforeAll(async () => {
    tdb = await createTestDatabase();
  });
  afterAll(async () => tdb?.drop());

  it('stop unsubscribes and resume re-subscribes, recorded as the provider preference', async () => {
    const ws = await h.workspace();
    await h.apply(ws, stop(RESUME_AT - 3600));
    expect((await h.contacts(ws))[0]).toMatchObject({
      phone_number: '+16505551234',
      subscriber_status: 'unsubscribed',
      subscriber_status_source: 'provider_preference',
    });
    await h.apply(ws, preference());
    const [contact] = await h.contacts(ws);
    expect(contact).toMatchObject({ subscriber_status: 'subscribed', subscriber_status_source: 'provider_preference' });
    expect(contact.subscriber_status_at).toEqual(new Date(RESUME_AT * 1000));
    // A replay of the older stop changes nothing.
    await h.apply(ws, stop(RESUME_AT - 3600));
    expect((await h.contacts(ws))[0]).toMatchObject({ subscriber_status: 'subscribed' });
  });

  it('preferences and keywords share one order: the newest decision wins, whichever came first', async () => {
    const ws = await h.workspace();
    // A STOP button tapped after the in-app resume (D/webhooks/reference/messages/button) ...
    const tapped = inboundUnsubscribeButton({ sentAt: unixIso(RESUME_AT + 60) });
    await h.apply(ws, tapped, preference());
    expect((await h.contacts(ws))[0]).toMatchObject({ subscriber_status: 'unsubscribed', subscriber_status_source: 'keyword' });
    // ... and in the other order, in another workspace: the same end state.
    const ws2 = await h.workspace();
    await h.apply(ws2, preference(), tapped);
    expect((await h.contacts(ws2))[0]).toMatchObject({ subscriber_status: 'unsubscribed', subscriber_status_source: 'keyword' });
    // A newer in-app resume wins over the older keyword.
    await h.apply(ws2, preference({ occurredAt: unixIso(RESUME_AT + 120) }));
    expect((await h.contacts(ws2))[0]).toMatchObject({ subscriber_status: 'subscribed', subscriber_status_source: 'provider_preference' });
  });

  it('never lifts an operator block, and an operator decision outranks older preferences', async () => {
    const ws = await h.workspace();
    await h.apply(ws, inboundText());
    const [contact] = await h.contacts(ws);
    await updateContact(tdb.db, ws, contact.id, { subscriberStatus: 'blocked' }, new Date(RESUME_AT * 1000 - 1000));
    await h.apply(ws, preference());
    expect((await h.contacts(ws))[0]).toMatchObject({ subscriber_status: 'blocked', subscriber_status_source: 'operator' });
  });

  it('other categories or values change nothing; a hidden-number user is found by user id', async () => {
    const ws = await h.workspace();
    await h.apply(ws, preference({ contact: SHEENA_HIDDEN, value: 'stop', category: 'something_else' }));
    await h.apply(ws, preference({ contact: SHEENA_HIDDEN, value: 'interested' }));
    const contacts = await h.contacts(ws);
    expect(contacts).toEqual([expect.objectContaining({ provider_user_id: 'user.93737...', subscriber_status: 'subscribed', subscriber_status_at: null })]);
    await h.apply(ws, preference({ contact: SHEENA_HIDDEN, value: 'stop' }));
    expect(await h.contacts(ws)).toEqual([expect.objectContaining({ subscriber_status: 'unsubscribed' })]);
  });
});
