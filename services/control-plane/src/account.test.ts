import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { authenticate, type AppDeps } from '@mos/app';
import { createCaller } from '@mos/trpc';
import { seedOperator, testDeps, type SeededOperator } from '@mos/app/testing';
import { seedAccountA, seedAccountB, WABA } from './testing/account';

describe('account.events / account.limits (tRPC; REST is GET /internal/account-*, services/api)', () => {
  let tdb: TestDatabase;
  let deps: AppDeps;
  let developer: SeededOperator;
  let viewer: SeededOperator;
  let otherOwner: SeededOperator;
  const as = async (op: SeededOperator) => createCaller({ deps, actor: (await authenticate(deps, op.token))!, requestId: 't' });

  beforeAll(async () => {
    tdb = await createTestDatabase();
    deps = testDeps(tdb.db);
    developer = await seedOperator(deps, { role: 'developer' });
    viewer = await seedOperator(deps, { workspace: developer.workspaceSlug, role: 'viewer' });
    otherOwner = await seedOperator(deps, { role: 'owner' });
    await seedAccountA(tdb.db, developer.workspaceId);
    await seedAccountB(tdb.db, otherOwner.workspaceId);
  });
  afterAll(async () => {
    await tdb?.drop();
  });

  it('lists newest first by the provider time, pages, and filters by field', async () => {
    const c = await as(developer);
    const all = (await c.account.events()).accountEvents;
    expect(all.map((e) => e.event)).toEqual(['PIN_RESET_REQUEST', 'THROUGHPUT_UPGRADE', 'ACCOUNT_VIOLATION']);
    expect(all[0]).toMatchObject({
      id: expect.stringMatching(/^acv_/),
      field: 'security',
      occurredAt: '2025-06-01T20:57:53.000Z',
      accountId: WABA,
      displayPhoneNumber: '15550783881',
      value: { requester: '61555822107539' },
      errors: [],
    });
    expect((await c.account.events({ limit: 1, offset: 1 })).accountEvents.map((e) => e.event)).toEqual(['THROUGHPUT_UPGRADE']);
    expect((await c.account.events({ field: 'account_update' })).accountEvents.map((e) => e.event)).toEqual(['ACCOUNT_VIOLATION']);
    await expect(c.account.events({ field: 'Account Update!' as never })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
    await expect(c.account.events({ limit: 201 })).rejects.toMatchObject({ code: 'BAD_REQUEST' });
  });

  it('viewers read every event, with the person inside security values redacted', async () => {
    const events = (await (await as(viewer)).account.events()).accountEvents;
    expect(events).toHaveLength(3);
    expect(events[0]!.value).toEqual({ display_phone_number: '15550783881', event: 'PIN_RESET_REQUEST', requester: '[redacted]' });
    expect(events.find((e) => e.event === 'ACCOUNT_VIOLATION')!.value).toEqual({ event: 'ACCOUNT_VIOLATION', violation_info: { violation_type: 'ADULT' } });
  });

  it('limits: the current row per scope', async () => {
    const { channelLimits } = await (await as(viewer)).account.limits();
    expect(channelLimits).toEqual([
      expect.objectContaining({
        scope: 'phone_number',
        displayPhoneNumber: '15550783881',
        messagingLimitTier: 'TIER_UNLIMITED',
        maxDailyConversations: -1,
        throughputLevel: 'HIGH',
        qualityEvent: 'THROUGHPUT_UPGRADE',
        lastEvent: 'THROUGHPUT_UPGRADE',
        lastEventAt: '2025-05-28T17:46:34.000Z',
      }),
    ]);
  });

  it('workspace A never sees B, nor B A', async () => {
    const b = await as(otherOwner);
    expect((await b.account.events()).accountEvents.map((e) => e.event)).toEqual(['ACCOUNT_DELETED']);
    expect((await b.account.limits()).channelLimits).toEqual([expect.objectContaining({ scope: 'account', maxDailyConversations: 2000, maxPhoneNumbers: 25 })]);
    expect((await (await as(developer)).account.events()).accountEvents.map((e) => e.event)).not.toContain('ACCOUNT_DELETED');
  });

  it('needs a signed-in operator', async () => {
    await expect(createCaller({ deps, actor: null, requestId: 't' }).account.events()).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });
});
