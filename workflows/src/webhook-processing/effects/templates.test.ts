import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedClock, type TemplateStatus, type TemplateStatusChange, type TemplateUpdatedEvent } from '@mos/core';
import {
  findSyncedTemplate,
  findSyncedTemplateByProviderId,
  findTemplateByKey,
  getTemplate,
  insertTemplate,
  listAccountEvents,
  updateTemplate,
  upsertSyncedTemplate,
  upsertWorkspace,
  type SyncedTemplateRow,
} from '@mos/db';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { applyFamily, composeEffects, type FamilyEffects } from './family-effects';
import { createTemplateEffects } from './templates';

/**
 * Families are built directly (the normalizer is tested in core), with the values of the
 * provider's documented examples. D = https://developers.facebook.com/documentation/business-messaging/whatsapp
 * - status:     D/webhooks/reference/message_template_status_update (docs/provider-reference/webhooks/
 *               message_template_status_update_{approved,rejected_invalid_format}.json; FLAGGED/PAUSED/DISABLED
 *               have no published example: packages/core/src/webhooks/fixtures/provider-docs/constructed_*.json)
 * - quality:    D/webhooks/reference/message_template_quality_update (message_template_quality_update.json)
 * - category:   D/webhooks/reference/template_category_update (template_category_update_{impending,completed}.json)
 * - components: D/webhooks/reference/message_template_components_update (message_template_components_update.json)
 */
const WABA = '102290129340398';
const iso = (unix: number) => new Date(unix * 1000).toISOString();

const ref = (id: string, name: string | null, language: string | null, time: number | null) => ({
  family: 'template.updated' as const,
  accountId: WABA,
  providerTemplateId: id,
  name,
  language,
  occurredAt: time === null ? null : iso(time),
});

/** message_template_status_update_approved.json: order_confirmation, en-US, UTILITY, reason NONE, entry time 1751247548. */
const approved = (time = 1751247548): TemplateStatusChange => ({
  ...ref('1689556908129832', 'order_confirmation', 'en-US', time),
  change: 'status',
  event: 'APPROVED',
  status: 'approved',
  category: 'UTILITY',
  reason: null,
  detail: null,
});
const statusEvent = (event: string, status: TemplateStatus, time: number, detail: TemplateStatusChange['detail'] = null): TemplateStatusChange => ({
  ...approved(time),
  event,
  status,
  detail,
});

describe('template.updated effects against a real database', () => {
  let tdb: TestDatabase;
  let effects: FamilyEffects;
  let ws: string;
  let other: string;
  const clock = fixedClock(new Date('2026-03-01T10:00:00Z'));
  const apply = (workspaceId: string, family: TemplateUpdatedEvent) => applyFamily(effects, tdb.db, workspaceId, family);
  const copy = async (workspaceId: string, id: string) => (await findSyncedTemplateByProviderId(tdb.db, workspaceId, id))!;
  const count = async (workspaceId: string) =>
    (await tdb.pool.query('SELECT count(*)::int AS n FROM synced_templates WHERE workspace_id = $1', [workspaceId])).rows[0].n as number;
  /** Applies the family twice; both must leave the same row (a replay changes nothing). */
  const applyTwice = async (workspaceId: string, family: TemplateUpdatedEvent, id = family.providerTemplateId): Promise<SyncedTemplateRow> => {
    await apply(workspaceId, family);
    const first = await copy(workspaceId, id);
    await apply(workspaceId, family);
    expect(await copy(workspaceId, id)).toEqual(first);
    return first;
  };

  beforeAll(async () => {
    tdb = await createTestDatabase();
    effects = composeEffects(createTemplateEffects({ clock }));
    ws = (await upsertWorkspace(tdb.db, 'tpl-effects-a')).workspace.id;
    other = (await upsertWorkspace(tdb.db, 'tpl-effects-b')).workspace.id;
  });
  afterAll(async () => tdb?.drop());

  it('status APPROVED: library pending_approval -> approved, synced copy seeded from the library, once', async () => {
    const lib = await insertTemplate(
      tdb.db,
      ws,
      {
        name: 'order_confirmation',
        language: 'en-US',
        category: 'UTILITY',
        parameterFormat: 'POSITIONAL',
        components: [{ type: 'BODY', text: 'Your order {{1}} is confirmed.' }],
      },
      clock.now(),
    );
    await updateTemplate(tdb.db, ws, lib.id, { status: 'pending_approval', providerTemplateId: '1689556908129832' }, clock.now());

    const row = await applyTwice(ws, approved());
    expect(row).toMatchObject({
      name: 'order_confirmation',
      language: 'en-US',
      status: 'approved',
      category: 'UTILITY',
      rejectionReason: null,
      statusDetail: { event: 'APPROVED', reason: null, title: null, description: null, recommendation: null, disableDate: null },
      statusChangedAt: new Date(1751247548 * 1000),
      components: [{ type: 'BODY', text: 'Your order {{1}} is confirmed.' }],
    });
    expect(await getTemplate(tdb.db, ws, lib.id)).toMatchObject({ status: 'approved', rejectionReason: null });
    expect(await count(ws)).toBe(1);
    expect(await count(other)).toBe(0);
  });

  it('status REJECTED keeps rejection_info (reason + recommendation) on the copy and in the library', async () => {
    // message_template_status_update_rejected_invalid_format.json (published with a missing comma; values as published).
    const lib = await insertTemplate(
      tdb.db,
      ws,
      { name: 'abandoned_cart', language: 'en', category: 'MARKETING', parameterFormat: 'POSITIONAL', components: [] },
      clock.now(),
    );
    await updateTemplate(tdb.db, ws, lib.id, { status: 'pending_approval', providerTemplateId: '1689556908129835' }, clock.now());
    const info = {
      title: null,
      description: 'Your template has parameters placed next to each other (like {{1}}{{2}}) without text or punctuation between them.',
      recommendation: 'Separate parameters with descriptive text and ensure each parameter is clearly contextualized.',
      disableDate: null,
    };
    const rejected: TemplateUpdatedEvent = {
      ...ref('1689556908129835', 'abandoned_cart', 'en', 1751247548),
      change: 'status',
      event: 'REJECTED',
      status: 'rejected',
      category: 'MARKETING',
      reason: 'INVALID_FORMAT',
      detail: info,
    };
    const row = await applyTwice(ws, rejected);
    expect(row).toMatchObject({
      status: 'rejected',
      rejectionReason: 'INVALID_FORMAT',
      statusDetail: { event: 'REJECTED', reason: 'INVALID_FORMAT', ...info },
    });
    const library = await getTemplate(tdb.db, ws, lib.id);
    expect(library?.status).toBe('rejected');
    expect(library?.rejectionReason).toBe(`INVALID_FORMAT: ${info.description}: Recommendation: ${info.recommendation}`);
  });

  it('FLAGGED, PAUSED (other_info), DISABLED (disable_info), ARCHIVED, PENDING_DELETION, REINSTATED: newest wins, older replays do not', async () => {
    const t = 1751247548;
    const paused = statusEvent('PAUSED', 'paused', t + 100, {
      title: 'FIRST_PAUSE',
      description: 'Your WhatsApp message template has been paused.',
      recommendation: null,
      disableDate: null,
    });
    await applyTwice(ws, statusEvent('FLAGGED', 'flagged', t + 50));
    expect((await copy(ws, '1689556908129832')).status).toBe('flagged');
    const row = await applyTwice(ws, paused);
    expect(row).toMatchObject({
      status: 'paused',
      statusDetail: { event: 'PAUSED', title: 'FIRST_PAUSE', description: 'Your WhatsApp message template has been paused.' },
    });

    // The APPROVED delivery (time t) and the FLAGGED one arrive again late: the pause stands.
    await apply(ws, approved(t));
    await apply(ws, statusEvent('FLAGGED', 'flagged', t + 50));
    expect(await copy(ws, '1689556908129832')).toEqual(row);

    await applyTwice(ws, statusEvent('REINSTATED', 'approved', t + 200));
    expect((await copy(ws, '1689556908129832')).status).toBe('approved');
    const disabled = await applyTwice(
      ws,
      statusEvent('DISABLED', 'disabled', t + 300, { title: null, description: null, recommendation: null, disableDate: iso(1751234563) }),
    );
    expect(disabled).toMatchObject({
      status: 'disabled',
      statusDetail: { event: 'DISABLED', disableDate: '2025-06-29T22:02:43.000Z' },
      statusChangedAt: new Date((t + 300) * 1000),
    });
    for (const [event, status, dt] of [
      ['ARCHIVED', 'archived', 400],
      ['PENDING_DELETION', 'pending_deletion', 500],
    ] as const) {
      await applyTwice(ws, statusEvent(event, status, t + dt));
      expect((await copy(ws, '1689556908129832')).status).toBe(status);
    }
    // LOCKED (other_info; values ours) names no status: the status stays, the detail is kept.
    const locked = await applyTwice(
      ws,
      statusEvent('LOCKED', 'other', t + 600, { title: 'LOCKED', description: 'Editing is locked.', recommendation: null, disableDate: null }),
    );
    expect(locked).toMatchObject({ status: 'pending_deletion', statusDetail: { event: 'LOCKED', title: 'LOCKED' } });
    // UNARCHIVED returns to a status the event does not name: unknown until the next sync.
    expect(await applyTwice(ws, statusEvent('UNARCHIVED', 'other', t + 700))).toMatchObject({ status: 'unknown', statusDetail: { event: 'UNARCHIVED' } });
    // The library left pending_approval long ago: none of this moved it again.
    expect(await findTemplateByKey(tdb.db, ws, 'order_confirmation', 'en-US')).toMatchObject({ status: 'approved' });
    expect((await findSyncedTemplate(tdb.db, ws, 'order_confirmation', 'en-US'))?.id).toBe(row.id);
    expect(await count(ws)).toBe(2);
  });

  it('a full sync is newer than any webhook it has already seen: a late older status does not undo it', async () => {
    await upsertSyncedTemplate(
      tdb.db,
      ws,
      { providerTemplateId: '1689556908129832', name: 'order_confirmation', language: 'en-US', category: 'UTILITY', status: 'approved' },
      clock.now(),
    );
    await apply(ws, statusEvent('PAUSED', 'paused', 1751247548 + 600));
    expect((await copy(ws, '1689556908129832')).status).toBe('approved');
  });

  it('quality: a template we never synced gets a placeholder copy carrying its score; older scores do not win', async () => {
    // message_template_quality_update.json: welcome_template, en-US, GREEN -> YELLOW, entry time 1674864290.
    const quality = (prev: string, next: string, time: number): TemplateUpdatedEvent => ({
      ...ref('806312974732579', 'welcome_template', 'en-US', time),
      change: 'quality',
      previousScore: prev,
      newScore: next,
    });
    const row = await applyTwice(ws, quality('GREEN', 'YELLOW', 1674864290));
    expect(row).toMatchObject({
      name: 'welcome_template',
      language: 'en-US',
      status: 'unknown',
      category: 'UNKNOWN',
      qualityScore: 'YELLOW',
      previousQualityScore: 'GREEN',
      qualityChangedAt: new Date(1674864290 * 1000),
      statusDetail: null,
    });
    await apply(ws, quality('UNKNOWN', 'GREEN', 1674864290 - 3600));
    expect((await copy(ws, '806312974732579')).qualityScore).toBe('YELLOW');
    await apply(ws, quality('YELLOW', 'RED', 1674864290 + 3600));
    expect(await copy(ws, '806312974732579')).toMatchObject({ qualityScore: 'RED', previousQualityScore: 'YELLOW' });
    // The next sync completes the placeholder and keeps the score.
    await upsertSyncedTemplate(
      tdb.db,
      ws,
      { providerTemplateId: '806312974732579', name: 'welcome_template', language: 'en-US', category: 'MARKETING', status: 'approved' },
      clock.now(),
    );
    expect(await copy(ws, '806312974732579')).toMatchObject({ id: row.id, status: 'approved', category: 'MARKETING', qualityScore: 'RED' });
  });

  it('a change naming neither a known id nor a name and language is recorded once as an account event', async () => {
    const anonymous: TemplateUpdatedEvent = { ...ref('999000111', null, null, 1674864290), change: 'quality', previousScore: 'GREEN', newScore: 'YELLOW' };
    await apply(other, anonymous);
    await apply(other, anonymous);
    expect(await count(other)).toBe(0);
    const recorded = await listAccountEvents(tdb.db, other, { limit: 10, offset: 0 });
    expect(recorded).toHaveLength(1);
    expect(recorded[0]).toMatchObject({ field: 'message_template_quality_update', event: 'quality', accountId: WABA, occurredAt: new Date(1674864290 * 1000) });
    expect(recorded[0]!.summary).toContain('999000111');
    expect(await listAccountEvents(tdb.db, ws, { limit: 10, offset: 0 })).toEqual([]);
  });

  it('category: impending stores the pending change and its time; completed applies it; the late impending replay changes nothing', async () => {
    // template_category_update_impending.json (entry time 1746082800) and _completed.json (1746169200).
    const base = ref('278077987957091', 'welcome_template', 'en-US', null);
    const impending: TemplateUpdatedEvent = {
      ...base,
      occurredAt: iso(1746082800),
      change: 'category',
      previousCategory: null,
      newCategory: 'UTILITY',
      correctCategory: 'MARKETING',
      effectiveAt: iso(1746169200),
    };
    const completed: TemplateUpdatedEvent = {
      ...base,
      occurredAt: iso(1746169200),
      change: 'category',
      previousCategory: 'UTILITY',
      newCategory: 'MARKETING',
      correctCategory: null,
      effectiveAt: null,
    };
    await upsertSyncedTemplate(
      tdb.db,
      other,
      { providerTemplateId: '278077987957091', name: 'welcome_template', language: 'en-US', category: 'UTILITY', status: 'approved' },
      clock.now(),
    );
    const pending = await applyTwice(other, impending);
    expect(pending).toMatchObject({
      category: 'UTILITY',
      pendingCategory: 'MARKETING',
      pendingCategoryAt: new Date(1746169200 * 1000),
      previousCategory: null,
    });
    const done = await applyTwice(other, completed);
    expect(done).toMatchObject({ category: 'MARKETING', previousCategory: 'UTILITY', pendingCategory: null, pendingCategoryAt: null });
    await apply(other, impending);
    expect(await copy(other, '278077987957091')).toEqual(done);
  });

  it('a sync that shows the pending category settles the pending change', async () => {
    const impending: TemplateUpdatedEvent = {
      ...ref('278077987957091', 'welcome_template', 'en-US', 1746082800),
      change: 'category',
      previousCategory: null,
      newCategory: 'UTILITY',
      correctCategory: 'MARKETING',
      effectiveAt: iso(1746169200),
    };
    // A workspace of its own: in `ws` the quality example's template (another id) already holds this name.
    const third = (await upsertWorkspace(tdb.db, 'tpl-effects-c')).workspace.id;
    await apply(third, impending);
    expect(await copy(third, '278077987957091')).toMatchObject({ status: 'unknown', category: 'UTILITY', pendingCategory: 'MARKETING' });
    await upsertSyncedTemplate(
      tdb.db,
      third,
      { providerTemplateId: '278077987957091', name: 'welcome_template', language: 'en-US', category: 'MARKETING', status: 'approved' },
      clock.now(),
    );
    expect(await copy(third, '278077987957091')).toMatchObject({ category: 'MARKETING', pendingCategory: null, pendingCategoryAt: null });
  });

  it('components: the copy takes the edited components; an older edit does not win', async () => {
    // message_template_components_update.json (entry time 1751250234), rebuilt in the component shape.
    const edited = [
      { type: 'HEADER', format: 'TEXT', text: 'Your order is confirmed!' },
      {
        type: 'BODY',
        text: 'Thank you for your order, {{1}}! Your order number is {{2}}. If you have any questions, contact support using the buttons below. Thanks again!',
      },
      { type: 'FOOTER', text: 'Lucky Shrub: the Succulent Specialists!' },
      {
        type: 'BUTTONS',
        buttons: [
          { type: 'PHONE_NUMBER', text: 'Phone support', phone_number: '+15550783881' },
          { type: 'URL', text: 'Email support', url: 'https://www.luckyshrub.com/support' },
        ],
      },
    ];
    const components = (list: Record<string, unknown>[], time: number): TemplateUpdatedEvent => ({
      ...ref('1315502779341834', 'order_confirmation', 'en_US', time),
      change: 'components',
      components: list,
    });
    const row = await applyTwice(ws, components(edited, 1751250234));
    expect(row).toMatchObject({ name: 'order_confirmation', language: 'en_US', components: edited, componentsChangedAt: new Date(1751250234 * 1000) });
    await apply(ws, components([{ type: 'BODY', text: 'An older text' }], 1751250234 - 60));
    expect((await copy(ws, '1315502779341834')).components).toEqual(edited);
  });

  it('a copy known by name under another provider id is taken over only by a change newer than its last sync, and starts afresh', async () => {
    const later = (ms: number) => new Date(clock.now().getTime() + ms).toISOString();
    await upsertSyncedTemplate(
      tdb.db,
      other,
      { providerTemplateId: '5550001', name: 'recreated', language: 'it', category: 'UTILITY', status: 'approved' },
      clock.now(),
    );
    const quality = (id: string, score: string, occurredAt: string): TemplateUpdatedEvent => ({
      ...ref(id, 'recreated', 'it', null),
      occurredAt,
      change: 'quality',
      previousScore: null,
      newScore: score,
    });
    await apply(other, quality('5550001', 'GREEN', later(-3_600_000)));
    // A late change about the template this copy replaced (older than the copy's sync): recorded, not applied.
    await apply(other, quality('5550000', 'RED', iso(1751247548)));
    expect(await findSyncedTemplate(tdb.db, other, 'recreated', 'it')).toMatchObject({ providerTemplateId: '5550001', qualityScore: 'GREEN' });
    const recorded = await listAccountEvents(tdb.db, other, { limit: 10, offset: 0, field: 'message_template_quality_update' });
    expect(recorded.map((r) => r.summary).filter((x) => x.includes('5550000'))).toHaveLength(1);

    // The provider re-created it under a new id: the newer change takes the copy over, without the old one's quality.
    await apply(other, { ...approved(0), ...ref('5550002', 'recreated', 'it', null), occurredAt: later(1000) });
    const taken = await findSyncedTemplate(tdb.db, other, 'recreated', 'it');
    expect(taken).toMatchObject({
      providerTemplateId: '5550002',
      status: 'approved',
      qualityScore: null,
      qualityChangedAt: null,
      statusDetail: { event: 'APPROVED' },
    });
    expect(taken!.syncedAt).toEqual(new Date(later(1000)));

    // The same through a sync: a new id for the same name drops what was said about the old one.
    await apply(other, quality('5550002', 'YELLOW', later(2000)));
    await upsertSyncedTemplate(
      tdb.db,
      other,
      { providerTemplateId: '5550003', name: 'recreated', language: 'it', category: 'UTILITY', status: 'pending_approval' },
      new Date(later(3000)),
    );
    expect(await findSyncedTemplate(tdb.db, other, 'recreated', 'it')).toMatchObject({
      providerTemplateId: '5550003',
      status: 'pending_approval',
      qualityScore: null,
      statusDetail: null,
    });
  });
});
