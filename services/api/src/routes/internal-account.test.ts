import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountUpdatedEvent, TemplateUpdatedEvent } from '@mos/core';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { bearer, jsonRequest, listen } from '@mos/http/testing';
import { seedOperator, testDeps, type SeededOperator } from '@mos/app/testing';
import { applyFamily, composeEffects, createAccountEffects, createTemplateEffects } from '@mos/workflows';
import { createApiApp } from '../app';

/**
 * GET /internal/account-events, /internal/account-limits and the new synced-template fields,
 * fed through the production effects with families carrying the provider's documented
 * example values (docs/provider-reference/webhooks/; D = https://developers.facebook.com/documentation/business-messaging/whatsapp):
 * phone_number_quality_update_throughput_upgrade.json (D/webhooks/reference/phone_number_quality_update),
 * security_pin_reset_request.json (D/webhooks/reference/security), account_update_account_deleted.json
 * (D/webhooks/reference/account_update), message_template_quality_update.json
 * (D/webhooks/reference/message_template_quality_update), template_category_update_impending.json
 * (D/webhooks/reference/template_category_update), message_template_status_update with
 * other_info (constructed: packages/core/src/webhooks/fixtures/provider-docs/constructed_message_template_status_update_paused_other_info.json).
 */
const WABA = '102290129340398';
const iso = (unix: number) => new Date(unix * 1000).toISOString();
const account = (over: Partial<AccountUpdatedEvent> & Pick<AccountUpdatedEvent, 'field' | 'event' | 'value'>): AccountUpdatedEvent => ({
  family: 'account.updated',
  accountId: WABA,
  phoneNumberId: null,
  displayPhoneNumber: null,
  occurredAt: null,
  summary: `${over.field} ${over.event}.`,
  limits: null,
  errors: [],
  ...over,
});
const tpl = { family: 'template.updated' as const, accountId: WABA };

describe('GET /internal/account-events, /internal/account-limits, and synced templates with quality, pending category and status detail', () => {
  let tdb: TestDatabase;
  let api: Awaited<ReturnType<typeof listen>>;
  let a: SeededOperator;
  let aViewer: SeededOperator;
  let b: SeededOperator;

  beforeAll(async () => {
    tdb = await createTestDatabase();
    const deps = testDeps(tdb.db);
    api = await listen(createApiApp(deps));
    a = await seedOperator(deps, { role: 'developer' });
    aViewer = await seedOperator(deps, { workspace: a.workspaceSlug, role: 'viewer' });
    b = await seedOperator(deps, { role: 'owner' });
    const effects = composeEffects(createAccountEffects(), createTemplateEffects());
    const families = [
      account({
        field: 'phone_number_quality_update',
        event: 'THROUGHPUT_UPGRADE',
        displayPhoneNumber: '15550783881',
        occurredAt: iso(1748454394),
        value: { display_phone_number: '15550783881', event: 'THROUGHPUT_UPGRADE', current_limit: 'TIER_UNLIMITED' },
        limits: {
          messagingLimitTier: 'TIER_UNLIMITED',
          maxDailyConversationsPerBusiness: -1,
          maxPhoneNumbersPerAccount: null,
          throughputLevel: 'HIGH',
          banState: null,
        },
      }),
      account({
        field: 'security',
        event: 'PIN_RESET_REQUEST',
        displayPhoneNumber: '15550783881',
        occurredAt: iso(1748811473),
        value: { display_phone_number: '15550783881', event: 'PIN_RESET_REQUEST', requester: '61555822107539' },
      }),
    ];
    for (const f of families) await applyFamily(effects, tdb.db, a.workspaceId, f);
    await applyFamily(
      effects,
      tdb.db,
      b.workspaceId,
      account({ field: 'account_update', event: 'ACCOUNT_DELETED', occurredAt: iso(1743451903), value: { event: 'ACCOUNT_DELETED' } }),
    );

    const templates: TemplateUpdatedEvent[] = [
      {
        ...tpl,
        providerTemplateId: '806312974732579',
        name: 'welcome_template',
        language: 'en-US',
        occurredAt: iso(1674864290),
        change: 'quality',
        previousScore: 'GREEN',
        newScore: 'YELLOW',
      },
      {
        ...tpl,
        providerTemplateId: '806312974732579',
        name: 'welcome_template',
        language: 'en-US',
        occurredAt: iso(1746082800),
        change: 'category',
        previousCategory: null,
        newCategory: 'UTILITY',
        correctCategory: 'MARKETING',
        effectiveAt: iso(1746169200),
      },
      {
        ...tpl,
        providerTemplateId: '806312974732579',
        name: 'welcome_template',
        language: 'en-US',
        occurredAt: iso(1751247548),
        change: 'status',
        event: 'PAUSED',
        status: 'paused',
        category: 'MARKETING',
        reason: null,
        detail: { title: 'FIRST_PAUSE', description: 'Your WhatsApp message template has been paused.', recommendation: null, disableDate: null },
      },
    ];
    for (const f of templates) await applyFamily(effects, tdb.db, a.workspaceId, f);
  });
  afterAll(async () => {
    await api?.close();
    await tdb?.drop();
  });

  const get = (path: string, op: SeededOperator | null = a) => jsonRequest(`${api.url}/internal${path}`, { headers: op ? bearer(op.token) : {} });

  it('needs a session', async () => {
    expect(await get('/account-events', null)).toMatchObject({ status: 401, body: { error: 'unauthenticated' } });
    expect(await get('/account-limits', null)).toMatchObject({ status: 401, body: { error: 'unauthenticated' } });
  });

  it("lists the workspace's events newest first, filtered and paged; B sees only its own", async () => {
    const res = await get('/account-events');
    expect(res.status).toBe(200);
    expect(res.body.accountEvents.map((e: { event: string }) => e.event)).toEqual(['PIN_RESET_REQUEST', 'THROUGHPUT_UPGRADE']);
    expect(res.body.accountEvents[0]).toMatchObject({ field: 'security', value: { requester: '61555822107539' }, summary: 'security PIN_RESET_REQUEST.' });
    expect((await get('/account-events?field=phone_number_quality_update')).body.accountEvents).toEqual([
      expect.objectContaining({ event: 'THROUGHPUT_UPGRADE', occurredAt: '2025-05-28T17:46:34.000Z', displayPhoneNumber: '15550783881' }),
    ]);
    expect((await get('/account-events?limit=1&offset=1')).body.accountEvents).toHaveLength(1);
    expect((await get('/account-events', b)).body.accountEvents.map((e: { event: string }) => e.event)).toEqual(['ACCOUNT_DELETED']);
    expect((await get('/account-events', aViewer)).body.accountEvents[0].value.requester).toBe('[redacted]');
  });

  it('refuses bad query values with 400 invalid_query', async () => {
    for (const q of [
      'limit=0',
      'limit=201',
      'limit=x',
      'limit=1e2',
      'offset=-1',
      'field=UPPER',
      'field=Nope%20Field',
      'field=' + 'a'.repeat(65),
      'field=a&field=b',
      'limit=1&limit=2',
      'field=templates',
    ]) {
      expect(await get(`/account-events?${q}`), q).toMatchObject({ status: 400, body: { error: 'invalid_query' } });
    }
    // A NUL is refused like everywhere else (docs/security.md).
    for (const q of ['field=%00', 'limit=%00', 'offset=1%00']) {
      expect(await get(`/account-events?${q}`), q).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
    }
  });

  it('account limits: the number row for A, nothing for B', async () => {
    const res = await get('/account-limits');
    expect(res.body.channelLimits).toEqual([
      expect.objectContaining({
        scope: 'phone_number',
        displayPhoneNumber: '15550783881',
        messagingLimitTier: 'TIER_UNLIMITED',
        throughputLevel: 'HIGH',
        qualityEvent: 'THROUGHPUT_UPGRADE',
      }),
    ]);
    expect((await get('/account-limits', b)).body).toEqual({ channelLimits: [] });
  });

  it('GET /internal/templates shows the quality score, the pending category change and the status detail', async () => {
    const { templates } = (await get('/templates')).body;
    expect(templates).toEqual([
      expect.objectContaining({
        providerTemplateId: '806312974732579',
        name: 'welcome_template',
        status: 'paused',
        category: 'UTILITY',
        qualityScore: 'YELLOW',
        previousQualityScore: 'GREEN',
        qualityChangedAt: '2023-01-28T00:04:50.000Z',
        pendingCategoryChange: { category: 'MARKETING', effectiveAt: '2025-05-02T07:00:00.000Z' },
        statusDetail: {
          event: 'PAUSED',
          reason: null,
          title: 'FIRST_PAUSE',
          description: 'Your WhatsApp message template has been paused.',
          recommendation: null,
          disableDate: null,
        },
        statusChangedAt: '2025-06-30T01:39:08.000Z',
      }),
    ]);
    expect((await get('/templates', b)).body).toEqual({ templates: [] });
  });
});
