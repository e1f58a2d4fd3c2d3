import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { jsonRequest } from '@mos/http/testing';
import { changeJourneyStatus, createApiKey, createJourney, eraseContactData, replayWebhook } from '@mos/app';
import { seedCompatMapping, seedJourney } from '@mos/app/testing';
import { setProviderIngressWorkspace } from '@mos/db';
import type { JourneyStep } from '@mos/core';
import { ScheduleNotFoundError } from '@temporalio/client';
import { JOURNEY_STATE_QUERY, journeyRunWorkflowId, journeyScheduleId, type JourneyState } from '@mos/workflows/contract';
import { waitFor } from './testing';
import { seedTemplate, startSendStack, type SendStack } from './testing/send-stack';

/**
 * Legacy calls to journeys end to end: the compat paths store the call, the webhook pipeline
 * applies it and queues the run, the journey starter starts its Temporal run, the run sends
 * through the send governor to the provider simulator, and the simulator's inbound messages
 * come back through the ingress as reply signals. Timers are real but short (seconds): this
 * Temporal CLI (1.9.1) has no time skipping, and the Java test server cannot be fetched offline.
 */
const PAIR_MS = 500;
let tdb: TestDatabase;
let stack: SendStack;
let apiKey: string;
let seq = 0;
const nextPhone = () => `+1555400${String(++seq).padStart(4, '0')}`;
const digits = (phone: string) => phone.slice(1);

const call = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  jsonRequest(`${stack.apiUrl}${path}`, { method: path.includes('v1beta') ? 'PUT' : 'POST', body, headers: { 'x-api-key': apiKey, ...headers } });
const rows = async (sql: string, params: unknown[] = []) => (await tdb.pool.query(sql, params)).rows;

/** What the simulator accepted for this number: template name and body parameters, in order. */
const sentTo = (phone: string) =>
  stack.sim
    .messages()
    .filter((m) => m.to === digits(phone) || m.to === phone)
    .map((m) => {
      const t = m.body.template as { name: string; components?: Array<{ type: string; parameters: Array<{ text: string }> }> };
      return { name: t.name, body: t.components?.find((c) => c.type === 'body')?.parameters.map((p) => p.text) ?? [] };
    });

const runOf = (phone: string, journeyId: string) =>
  waitFor(
    async () => {
      const [r] = await rows(`SELECT r.* FROM journey_runs r JOIN contacts c ON c.id = r.contact_id WHERE c.phone_number = $1 AND r.journey_id = $2`, [
        phone,
        journeyId,
      ]);
      return r;
    },
    { what: `a run of ${journeyId} for ${phone}` },
  );

const finished = (runId: string, timeoutMs = 40_000) =>
  waitFor(
    async () => {
      const [r] = await rows(`SELECT * FROM journey_runs WHERE id = $1 AND status NOT IN ('pending', 'running')`, [runId]);
      return r;
    },
    { timeoutMs, what: `run ${runId} to finish` },
  );

const sentCount = (phone: string, n: number) =>
  waitFor(async () => sentTo(phone).length >= n && sentTo(phone), { timeoutMs: 30_000, what: `${n} messages to ${phone}` });

/**
 * A run ends once its last message is queued; the governor sends it a moment later. Waits for
 * the simulator to have as many as expected, then compares them, and the messages mos stored.
 */
async function expectSent(phone: string, expected: Array<{ name: string; body: string[] }>): Promise<void> {
  if (expected.length > 0) await sentCount(phone, expected.length);
  expect(sentTo(phone)).toEqual(expected);
  const stored = await rows(`SELECT count(*)::int AS n FROM outbound_messages m JOIN contacts c ON c.id = m.contact_id WHERE c.phone_number = $1`, [phone]);
  expect(stored).toEqual([{ n: expected.length }]);
}

const welcomeThenBranch: JourneyStep[] = [
  {
    id: 'welcome',
    type: 'send_template',
    template: { name: 'welcome_offer', language: 'en_US' },
    parameters: { body: ['{{first_name}}', '{{coupon|NO-CODE}}'] },
  },
  { id: 'pause', type: 'wait', seconds: 1 },
  { id: 'replied', type: 'branch_on_reply', withinSeconds: 4, onReply: 'thanks', onNoReply: 'nudge' },
  { id: 'thanks', type: 'send_template', template: { name: 'follow_up', language: 'en_US' }, parameters: { body: ['{{contact.name|friend}}'] }, next: 'done' },
  { id: 'nudge', type: 'send_template', template: { name: 'nudge', language: 'en_US' }, parameters: { body: ['{{first_name}}'] } },
  { id: 'done', type: 'exit' },
];
let branching: string;

beforeAll(async () => {
  tdb = await createTestDatabase();
  stack = await startSendStack(tdb.db, tdb.url, { pairSpacingMs: PAIR_MS, sim: { pairSpacingMs: PAIR_MS } });
  await seedTemplate(stack, 'welcome_offer', 'Hi {{1}}, your code is {{2}}');
  await seedTemplate(stack, 'follow_up', 'Thanks {{1}}');
  await seedTemplate(stack, 'nudge', 'Still there, {{1}}?');
  await setProviderIngressWorkspace(tdb.db, stack.scope.workspaceId);
  apiKey = (await createApiKey(stack.deps, stack.scope, { name: 'legacy crm' })).key;
  branching = await seedJourney(tdb.db, stack.scope.workspaceId, { name: 'Welcome', steps: welcomeThenBranch });
  await seedCompatMapping(tdb.db, stack.scope.workspaceId, branching, { legacyPath: 'welcome' });
  await seedCompatMapping(tdb.db, stack.scope.workspaceId, branching, { organizationId: 'org-7', flowId: 'flow-7' });
}, 120_000);

afterAll(async () => {
  await stack?.close();
  await tdb?.drop();
});

describe('journeys from legacy triggers', () => {
  it('personalization reaches the sent templates; a trigger posted twice runs once; no reply takes the no-reply branch', async () => {
    const phone = nextPhone();
    const body = { phone, first_name: 'Grace', coupon: 'WELCOME10' };
    const [a, b] = await Promise.all([call('/compat/journey-trigger/welcome', body), call('/compat/journey-trigger/welcome', body)]);
    expect(a.status).toBe(200);
    expect(b.body.triggerEventId).toBe(a.body.triggerEventId);

    const run = await runOf(phone, branching);
    expect(run.workflow_id).toBe(journeyRunWorkflowId(branching, a.body.triggerEventId, run.contact_id));
    const done = await finished(run.id);
    expect(done).toMatchObject({ status: 'exited', current_step: 'nudge', failure_reason: null });
    await expectSent(phone, [
      { name: 'welcome_offer', body: ['Grace', 'WELCOME10'] },
      { name: 'nudge', body: ['Grace'] },
    ]);
    expect(await rows(`SELECT count(*)::int AS n FROM journey_runs WHERE journey_id = $1 AND contact_id = $2`, [branching, run.contact_id])).toEqual([
      { n: 1 },
    ]);
    // Every send went through the send path, keyed by run and step.
    const keys = await rows(`SELECT idempotency_key FROM outbound_messages WHERE contact_id = $1 ORDER BY created_at`, [run.contact_id]);
    expect(keys.map((k) => k.idempotency_key)).toEqual([`journey:${run.id}:welcome`, `journey:${run.id}:nudge`]);
  }, 60_000);

  it('a reply while the run waits takes the reply branch, and the run answers its state query meanwhile', async () => {
    const phone = nextPhone();
    const res = await call('/webhooks/v0/rest-trigger/organization/org-7/flow/flow-7/trigger/', { phone_number: phone, first_name: 'Linus' });
    expect(res.body).toMatchObject({ status: 'success', triggerEventId: expect.stringMatching(/^evt_/), outboxJobId: expect.stringMatching(/^job_/) });
    const run = await runOf(phone, branching);
    await sentCount(phone, 1);
    const client = await stack.deps.temporal.get();
    const state = await waitFor(
      async () => {
        const s = await client.workflow.getHandle(run.workflow_id).query<JourneyState>(JOURNEY_STATE_QUERY);
        return s.stepId === 'pause' || s.stepId === 'replied' ? s : null;
      },
      { what: 'the run to wait' },
    );
    expect(state.replies).toBe(0);
    await stack.sim.inbound({ from: digits(phone), deliver: true, text: 'yes please', name: 'Linus T' });
    const done = await finished(run.id);
    expect(done.status).toBe('exited');
    expect(done.last_reply_at).not.toBeNull();
    await expectSent(phone, [
      { name: 'welcome_offer', body: ['Linus', 'NO-CODE'] },
      { name: 'follow_up', body: ['Linus T'] },
    ]);
  }, 60_000);

  it('a replayed trigger is applied again without a second run', async () => {
    const phone = nextPhone();
    const res = await call('/compat/journey-trigger/welcome', { phone, first_name: 'Ida' });
    const run = await runOf(phone, branching);
    await finished(run.id);
    const replay = await replayWebhook(stack.deps, stack.scope, { id: res.body.triggerEventId, requestId: 'req_replay' });
    await waitFor(
      async () => (await rows(`SELECT 1 FROM webhook_events WHERE id = $1 AND normalization_status = 'processed'`, [replay.webhookEvent.id])).length > 0,
      { what: 'the replay to be processed' },
    );
    expect(await rows(`SELECT count(*)::int AS n FROM journey_runs WHERE contact_id = $1`, [run.contact_id])).toEqual([{ n: 1 }]);
    await expectSent(phone, [
      { name: 'welcome_offer', body: ['Ida', 'NO-CODE'] },
      { name: 'nudge', body: ['Ida'] },
    ]);
  }, 60_000);

  it('a partner event starts every active partner_event journey with its event name, nested or flattened', async () => {
    const shipped = await seedJourney(tdb.db, stack.scope.workspaceId, {
      name: 'Shipping',
      trigger: { type: 'partner_event', eventName: 'order_shipped' },
      steps: [{ id: 'tell', type: 'send_template', template: { name: 'follow_up', language: 'en_US' }, parameters: { body: ['{{tracking}}'] } }],
    });
    await seedJourney(tdb.db, stack.scope.workspaceId, {
      name: 'Other event',
      trigger: { type: 'partner_event', eventName: 'order_cancelled' },
      steps: [{ id: 'x', type: 'send_template', template: { name: 'nudge', language: 'en_US' }, parameters: { body: ['x'] } }],
    });
    const nestedPhone = nextPhone();
    const flatPhone = nextPhone();
    const nested = await call('/api/v0/webhooks/incoming/partner/custom_external_event', {
      event_name: 'order_shipped',
      contact: { phone: nestedPhone, first_name: 'Nested' },
      properties: { tracking: 'TRK-NESTED' },
    });
    expect(nested.body).toMatchObject({ status: 'success', webhookEventId: expect.stringMatching(/^evt_/) });
    await call('/api/v0/webhooks/incoming/partner/custom_external_event', { event_name: 'order_shipped', msisdn: flatPhone, tracking: 'TRK-FLAT' });
    for (const [phone, tracking] of [
      [nestedPhone, 'TRK-NESTED'],
      [flatPhone, 'TRK-FLAT'],
    ] as const) {
      const run = await runOf(phone, shipped);
      expect((await finished(run.id)).status).toBe('completed');
      await expectSent(phone, [{ name: 'follow_up', body: [tracking] }]);
    }
  }, 60_000);

  it('a contact upsert is applied by the pipeline, and a property branch reads it', async () => {
    const phone = nextPhone();
    const upsert = await call('/api/v1beta/contact/', {
      contact: { phone, first_name: 'Vera', email: 'vera@example.com', external_reference_id: 'crm-vera', source_type: 'salesforce' },
      person_properties: { plan: 'Gold', seats: 12 },
    });
    expect(upsert.body).toMatchObject({ status: 'success', contactId: expect.stringMatching(/^ctr_/) });
    const contact = await waitFor(
      async () => {
        const [c] = await rows(`SELECT * FROM contacts WHERE id = $1 AND properties ? 'plan'`, [upsert.body.contactId]);
        return c;
      },
      { what: 'the upsert to be applied' },
    );
    expect(contact).toMatchObject({
      name: 'Vera',
      email: 'vera@example.com',
      external_reference_id: 'crm-vera',
      source_type: 'salesforce',
      properties: { plan: 'Gold', seats: 12 },
    });
    // A later update removes a property with null and keeps the rest.
    await call('/compat/contact', { external_reference_id: 'crm-vera', person_properties: { seats: null, region: 'EU' } });
    await waitFor(
      async () => (await rows(`SELECT 1 FROM contacts WHERE id = $1 AND properties = '{"plan":"Gold","region":"EU"}'::jsonb`, [contact.id])).length > 0,
      {
        what: 'the property merge',
      },
    );

    const vip = await seedJourney(tdb.db, stack.scope.workspaceId, {
      name: 'VIP',
      steps: [
        { id: 'gold', type: 'branch_on_property', property: 'plan', operator: 'equals', value: 'gold', onTrue: 'vip', onFalse: 'out' },
        {
          id: 'vip',
          type: 'send_template',
          template: { name: 'follow_up', language: 'en_US' },
          parameters: { body: ['{{contact.name}} ({{contact.region}})'] },
          next: 'out',
        },
        { id: 'out', type: 'exit' },
      ],
    });
    await seedCompatMapping(tdb.db, stack.scope.workspaceId, vip, { legacyPath: 'vip' });
    await call('/compat/journey-trigger/vip', { phone });
    const run = await runOf(phone, vip);
    expect((await finished(run.id)).status).toBe('exited');
    await expectSent(phone, [{ name: 'follow_up', body: ['Vera (EU)'] }]);
  }, 60_000);

  it('an inbound message starts an inbound_message journey whose keyword it contains, once per contact', async () => {
    const join = await seedJourney(tdb.db, stack.scope.workspaceId, {
      name: 'Join',
      trigger: { type: 'inbound_message', keyword: 'join' },
      steps: [
        { id: 'hi', type: 'send_template', template: { name: 'follow_up', language: 'en_US' }, parameters: { body: ['{{contact.name|there}}'] } },
        { id: 'hold', type: 'wait', seconds: 3 },
      ],
    });
    const phone = nextPhone();
    await stack.sim.inbound({ from: digits(phone), deliver: true, text: 'hello', name: 'Kim' });
    await stack.sim.inbound({ from: digits(phone), deliver: true, text: 'I want to JOIN!', name: 'Kim' });
    await stack.sim.inbound({ from: digits(phone), deliver: true, text: 'join again', name: 'Kim' });
    const run = await runOf(phone, join);
    expect((await finished(run.id)).status).toBe('completed');
    expect(await rows(`SELECT count(*)::int AS n FROM journey_runs WHERE journey_id = $1`, [join])).toEqual([{ n: 1 }]);
    await expectSent(phone, [{ name: 'follow_up', body: ['Kim'] }]);
  }, 60_000);

  it('a run whose worker stops mid-wait resumes on the next worker and sends each step once', async () => {
    const slow = await seedJourney(tdb.db, stack.scope.workspaceId, {
      name: 'Slow',
      steps: [
        { id: 'first', type: 'send_template', template: { name: 'follow_up', language: 'en_US' }, parameters: { body: ['one'] } },
        { id: 'long', type: 'wait', seconds: 4 },
        { id: 'second', type: 'send_template', template: { name: 'nudge', language: 'en_US' }, parameters: { body: ['two'] } },
      ],
    });
    await seedCompatMapping(tdb.db, stack.scope.workspaceId, slow, { legacyPath: 'slow' });
    const phone = nextPhone();
    await call('/compat/journey-trigger/slow', { phone });
    const run = await runOf(phone, slow);
    await sentCount(phone, 1);
    await waitFor(async () => (await rows(`SELECT 1 FROM journey_runs WHERE id = $1 AND current_step = 'long'`, [run.id])).length > 0, { what: 'the wait' });
    await stack.restartWorker();
    expect((await finished(run.id)).status).toBe('completed');
    await expectSent(phone, [
      { name: 'follow_up', body: ['one'] },
      { name: 'nudge', body: ['two'] },
    ]);
  }, 60_000);

  it('a missing personalization key fails the run visibly, with the reason and nothing sent', async () => {
    const strict = await seedJourney(tdb.db, stack.scope.workspaceId, {
      name: 'Strict',
      steps: [{ id: 'x', type: 'send_template', template: { name: 'follow_up', language: 'en_US' }, parameters: { body: ['{{order_id}}'] } }],
    });
    await seedCompatMapping(tdb.db, stack.scope.workspaceId, strict, { legacyPath: 'strict' });
    const phone = nextPhone();
    await call('/compat/journey-trigger/strict', { phone });
    const run = await runOf(phone, strict);
    const done = await finished(run.id);
    expect(done.status).toBe('failed');
    expect(done.failure_reason).toContain('no value for order_id');
    const client = await stack.deps.temporal.get();
    await waitFor(async () => (await client.workflow.getHandle(run.workflow_id).describe()).status.name === 'FAILED', { what: 'the run to fail in Temporal' });
    await expectSent(phone, []);
  }, 60_000);

  it('a schedule journey has a Temporal Schedule while active; a firing queues one run per subscribed contact; pausing removes it', async () => {
    for (let i = 0; i < 4; i++) await call('/compat/contact', { phone: nextPhone() });
    const unsubscribed = nextPhone();
    await call('/compat/contact', { phone: unsubscribed });
    await tdb.pool.query(`UPDATE contacts SET subscriber_status = 'unsubscribed' WHERE phone_number = $1`, [unsubscribed]);
    const { journey } = await createJourney(stack.deps, stack.scope, {
      name: 'Daily',
      trigger: { type: 'schedule', cron: '0 9 * * *' },
      steps: [{ id: 'bye', type: 'exit' }],
    });
    await changeJourneyStatus(stack.deps, stack.scope, journey.id, 'activate');
    const client = await stack.deps.temporal.get();
    const schedule = client.schedule.getHandle(journeyScheduleId(journey.id));
    const described = await schedule.describe();
    expect(described.spec.calendars?.length ?? 0).toBeGreaterThan(0);
    expect(described.action).toMatchObject({ type: 'startWorkflow', workflowType: 'journeyScheduleTick' });

    const audience = await rows(
      `SELECT id FROM contacts WHERE workspace_id = $1 AND subscriber_status = 'subscribed' AND anonymized_at IS NULL AND phone_number IS NOT NULL ORDER BY id`,
      [stack.scope.workspaceId],
    );
    expect(audience.length).toBeGreaterThan(3);
    await schedule.trigger();
    const runs = await waitFor(
      async () => {
        const r = await rows(`SELECT contact_id, status, trigger_type FROM journey_runs WHERE journey_id = $1 ORDER BY contact_id`, [journey.id]);
        return r.length === audience.length && r.every((x) => x.status === 'exited') && r;
      },
      { what: 'a run per subscribed contact', timeoutMs: 40_000 },
    );
    expect(runs.map((r) => r.contact_id)).toEqual(audience.map((c) => c.id));
    expect(new Set(runs.map((r) => r.trigger_type))).toEqual(new Set(['schedule']));

    await changeJourneyStatus(stack.deps, stack.scope, journey.id, 'pause');
    await expect(schedule.describe()).rejects.toBeInstanceOf(ScheduleNotFoundError);
  }, 60_000);

  // Last: the simulator's late status webhooks for the erased number make a new contact (the
  // provider still knows it), which a test after this one would count.
  it("erasing a contact redacts the compat calls that named it, however the number was written, and empties its runs' personalization", async () => {
    const phone = nextPhone();
    // Digits with spaces: no byte scan for the number would find this body.
    const spaced = `${phone.slice(0, 5)} ${phone.slice(5, 8)} ${phone.slice(8)}`;
    const trigger = await call('/compat/journey-trigger/welcome', { phone: spaced, first_name: 'Erin', coupon: 'SECRET-CODE' });
    const upsert = await call('/compat/contact', { phone: spaced, person_properties: { loyalty: 'platinum' } });
    const run = await runOf(phone, branching);
    await finished(run.id);
    await eraseContactData(stack.deps, stack.scope, run.contact_id);
    const events = await rows(`SELECT id, raw_body IS NULL AS redacted FROM webhook_events WHERE id = ANY($1) ORDER BY id`, [
      [trigger.body.triggerEventId, upsert.body.webhookEventId],
    ]);
    expect(events.map((e) => e.redacted)).toEqual([true, true]);
    expect(await rows(`SELECT personalization FROM journey_runs WHERE id = $1`, [run.id])).toEqual([{ personalization: {} }]);
    expect(await rows(`SELECT properties, source_type FROM contacts WHERE id = $1`, [run.contact_id])).toEqual([{ properties: {}, source_type: null }]);
  }, 60_000);
});
