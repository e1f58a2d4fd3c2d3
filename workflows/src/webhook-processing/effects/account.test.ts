import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock, type AccountUpdatedEvent } from '@mos/core';
import { listAccountEvents, listChannelLimits, upsertWorkspace } from '@mos/db';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { createAccountEffects } from './account';
import { applyFamily, composeEffects, type FamilyEffects } from './family-effects';

/**
 * Families are built directly (the normalizer is tested in core) from the provider's
 * documented examples, read from docs/provider-reference/webhooks/ (sources in
 * docs/provider-reference/SOURCES.md). D = https://developers.facebook.com/documentation/business-messaging/whatsapp
 * - phone_number_quality_update_throughput_upgrade.json: D/webhooks/reference/phone_number_quality_update
 * - business_capability_update.json: D/webhooks/reference/business_capability_update
 * - account_update_*.json: D/webhooks/reference/account_update
 * - account_alerts_capabilities_deferred.json: D/webhooks/reference/account_alerts
 * - security_pin_reset_request.json: D/webhooks/reference/security
 * - messages_errors_system_level.json: D/webhooks/reference/messages/errors
 * Limits are stated the way core's normalizer states them (normalize-account.ts).
 */
const REFERENCE = new URL('../../../../docs/provider-reference/webhooks/', import.meta.url);
interface Delivery {
  entry: { id: string; time?: number; changes: { field: string; value: Record<string, any> }[] }[];
}
const delivery = (file: string): Delivery => JSON.parse(readFileSync(new URL(file, REFERENCE), 'utf8'));
const iso = (unix: number) => new Date(unix * 1000).toISOString();

/** An `account.updated` family from a documented delivery's first change. */
function family(file: string, over: Partial<AccountUpdatedEvent> = {}): AccountUpdatedEvent {
  const entry = delivery(file).entry[0]!;
  const change = entry.changes[0]!;
  const v = change.value;
  return {
    family: 'account.updated',
    accountId: entry.id,
    phoneNumberId: null,
    displayPhoneNumber: typeof v.display_phone_number === 'string' ? v.display_phone_number : null,
    field: change.field,
    event: typeof v.event === 'string' ? v.event : change.field === 'account_alerts' ? v.alert_info.alert_type : 'CAPABILITY_UPDATE',
    occurredAt: entry.time === undefined ? null : iso(entry.time),
    summary: `${change.field} ${v.event ?? ''}`.trim(),
    limits: null,
    errors: [],
    value: v,
    ...over,
  };
}

const WABA = '102290129340398';
const upgrade = () =>
  family('phone_number_quality_update_throughput_upgrade.json', {
    limits: {
      messagingLimitTier: 'TIER_UNLIMITED',
      maxDailyConversationsPerBusiness: -1,
      maxPhoneNumbersPerAccount: null,
      throughputLevel: 'HIGH',
      banState: null,
    },
  });

describe('account.updated effects against a real database', () => {
  let tdb: TestDatabase;
  let effects: FamilyEffects;
  let ws: string;
  let other: string;
  const clock = fixedClock(new Date('2026-03-01T10:00:00Z'));
  const apply = (workspaceId: string, f: AccountUpdatedEvent) => applyFamily(effects, tdb.db, workspaceId, f);
  const events = (workspaceId: string, field?: string) => listAccountEvents(tdb.db, workspaceId, { limit: 200, offset: 0, field });

  beforeAll(async () => {
    tdb = await createTestDatabase();
    effects = composeEffects(createAccountEffects({ clock }));
    ws = (await upsertWorkspace(tdb.db, 'acct-effects-a')).workspace.id;
    other = (await upsertWorkspace(tdb.db, 'acct-effects-b')).workspace.id;
  });
  afterAll(async () => tdb?.drop());

  it('every documented account event is recorded once, however often it is delivered', async () => {
    const files = [
      'account_update_account_deleted.json',
      'account_update_account_violation.json',
      'account_update_ad_account_linked.json',
      'account_update_auth_intl_price_eligibility.json',
      'account_update_disabled_update.json',
      'account_update_mm_lite_terms_signed.json',
      'account_update_partner_client_certification_status.json',
      'account_update_primary_location_country.json',
      'account_update_volume_based_pricing_tier.json',
      'account_alerts_capabilities_deferred.json',
      'security_pin_reset_request.json',
    ];
    for (let round = 0; round < 2; round++) for (const file of files) await apply(ws, family(file));
    const rows = await events(ws);
    expect(rows).toHaveLength(files.length);
    const violation = rows.find((r) => r.event === 'ACCOUNT_VIOLATION')!;
    expect(violation).toMatchObject({
      field: 'account_update',
      accountId: WABA,
      occurredAt: new Date(1743451903 * 1000),
      value: { event: 'ACCOUNT_VIOLATION', violation_info: { violation_type: 'ADULT' } },
    });
    expect(violation.id).toMatch(/^acv_/);
    expect((await events(ws, 'security')).map((r) => [r.event, r.displayPhoneNumber])).toEqual([['PIN_RESET_REQUEST', '15550783881']]);
    // Two changes with the same field, event and time but different values are two events.
    await apply(ws, family('account_update_account_violation.json', { value: { event: 'ACCOUNT_VIOLATION', violation_info: { violation_type: 'SCAM' } } }));
    expect(await events(ws, 'account_update')).toHaveLength(10);
    expect(await events(other)).toEqual([]);
  });

  it('an errors-only messages value without a time is recorded once, stamped when first recorded', async () => {
    const v = delivery('messages_errors_system_level.json').entry[0]!.changes[0]!.value;
    const errorsOnly = family('messages_errors_system_level.json', {
      event: 'errors',
      phoneNumberId: v.metadata.phone_number_id,
      displayPhoneNumber: v.metadata.display_phone_number,
      errors: [{ code: 130429, title: 'Rate limit hit', message: 'Rate limit hit', details: v.errors[0].error_data.details, href: v.errors[0].href }],
    });
    await apply(other, errorsOnly);
    clock.advance(60_000);
    await apply(other, errorsOnly);
    const rows = await events(other, 'messages');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      occurredAt: null,
      eventAt: new Date('2026-03-01T10:00:00Z'),
      phoneNumberId: '106540352242922',
      errors: [{ code: 130429 }],
    });
    // Nothing about limits in it.
    expect(await listChannelLimits(tdb.db, other)).toEqual([]);
  });

  it('limits: the number and the account each keep what the newest event stated, field by field', async () => {
    // A DOWNGRADE a day after the documented upgrade, then the upgrade delivered late. Constructed
    // from the reference's syntax (event, old_limit, current_limit) and tier list (Nov 14, 2025);
    // DOWNGRADE ("messaging limit decreased") is from the page's earlier event list, which the
    // current one shortened to ONBOARDING and THROUGHPUT_UPGRADE.
    const upgraded = upgrade();
    const downgrade = family('phone_number_quality_update_throughput_upgrade.json', {
      event: 'DOWNGRADE',
      occurredAt: iso(1748454394 + 86400),
      value: { display_phone_number: '15550783881', event: 'DOWNGRADE', old_limit: 'TIER_10K', current_limit: 'TIER_2K' },
      limits: { messagingLimitTier: 'TIER_2K', maxDailyConversationsPerBusiness: 2000, maxPhoneNumbersPerAccount: null, throughputLevel: null, banState: null },
    });
    await apply(ws, downgrade);
    await apply(ws, upgraded);
    await apply(ws, upgraded);
    const capability = family('business_capability_update.json', {
      limits: { messagingLimitTier: 'TIER_2K', maxDailyConversationsPerBusiness: 2000, maxPhoneNumbersPerAccount: 25, throughputLevel: null, banState: null },
    });
    await apply(ws, capability);
    await apply(ws, capability);

    const rows = await listChannelLimits(tdb.db, ws);
    const number = rows.find((r) => r.scope === 'phone_number')!;
    expect(number).toMatchObject({
      scopeKey: '15550783881',
      displayPhoneNumber: '15550783881',
      accountId: WABA,
      messagingLimitTier: 'TIER_2K',
      maxDailyConversations: 2000,
      qualityEvent: 'DOWNGRADE',
      // Only the late upgrade stated a throughput level, so it is taken.
      throughputLevel: 'HIGH',
      lastEvent: 'DOWNGRADE',
      lastEventAt: new Date((1748454394 + 86400) * 1000),
    });
    expect(number.statedAt).toEqual({
      messagingLimitTier: iso(1748454394 + 86400),
      maxDailyConversations: iso(1748454394 + 86400),
      qualityEvent: iso(1748454394 + 86400),
      throughputLevel: iso(1748454394),
    });
    // business_capability_update comes from another account id in the provider's example: its own row.
    const account = rows.find((r) => r.scope === 'account' && r.accountId === '524126980791429')!;
    expect(account).toMatchObject({ messagingLimitTier: 'TIER_2K', maxDailyConversations: 2000, maxPhoneNumbers: 25, lastField: 'business_capability_update' });

    // DISABLED_UPDATE (ban_info.waba_ban_state REINSTATE) is the account's ban state; the normalizer
    // states it in `limits` (normalize.provider-docs.test.ts checks that part).
    const noLimits = { messagingLimitTier: null, maxDailyConversationsPerBusiness: null, maxPhoneNumbersPerAccount: null, throughputLevel: null };
    await apply(ws, family('account_update_disabled_update.json', { limits: { ...noLimits, banState: 'REINSTATE' } }));
    expect((await listChannelLimits(tdb.db, ws)).find((r) => r.scope === 'account' && r.accountId === WABA)).toMatchObject({ banState: 'REINSTATE' });
    expect(await listChannelLimits(tdb.db, other)).toEqual([]);
  });

  it("writes only through the executor it is given: in the caller's transaction it nests, and commits or rolls back with it", async () => {
    const third = (await upsertWorkspace(tdb.db, 'acct-effects-c')).workspace.id;
    const rollback = new Error('the caller rolls back');
    await expect(
      tdb.db.transaction(async (tx) => {
        await applyFamily(effects, tx, third, upgrade());
        // Visible on the caller's transaction, not yet on the pool.
        expect(await listAccountEvents(tx, third, { limit: 10, offset: 0 })).toHaveLength(1);
        expect(await listChannelLimits(tx, third)).toHaveLength(1);
        expect(await events(third)).toEqual([]);
        throw rollback;
      }),
    ).rejects.toBe(rollback);
    expect(await events(third)).toEqual([]);
    expect(await listChannelLimits(tdb.db, third)).toEqual([]);

    await tdb.db.transaction(async (tx) => applyFamily(effects, tx, third, upgrade()));
    expect(await events(third)).toHaveLength(1);
    expect(await listChannelLimits(tdb.db, third)).toHaveLength(1);
  });
});
