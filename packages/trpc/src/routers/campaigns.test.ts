import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '@mos/core';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { authenticate, recordProviderTemplate, type AppDeps } from '@mos/app';
import { seedOperator, testDeps, type SeededOperator } from '@mos/app/testing';
import { createCaller } from '../router';

/**
 * campaigns.*: a campaign's life through tRPC with its status and audit trail at every step, on
 * a real database and a real Temporal (a task queue no worker polls: the broadcast is created
 * and its workflow started, but it never starts sending, so the campaign stays `scheduled`).
 */
describe('campaigns procedures', () => {
  let tdb: TestDatabase;
  let deps: AppDeps;
  let owner: SeededOperator;
  let viewer: SeededOperator;
  let stranger: SeededOperator;
  const TEMPLATE = { name: 'spring_sale', language: 'en_US', parameters: { body: ['friend'] } };
  const SEGMENT = { subscriberStatus: 'subscribed' as const };

  const caller = async (op: SeededOperator) => createCaller({ deps, actor: await authenticate(deps, op.token), requestId: 'req_test' });
  const audits = async (ws: string, target: string) =>
    (
      await tdb.pool.query<{ action: string; actor_id: string; details: Record<string, unknown> | null }>(
        `SELECT action, actor_id, details FROM audit_logs WHERE workspace_id = $1 AND target_id = $2 ORDER BY created_at, action`,
        [ws, target],
      )
    ).rows;
  const actions = async (target: string) => (await audits(owner.workspaceId, target)).map((a) => a.action);
  const broadcastRow = async (id: string) =>
    (await tdb.pool.query<{ status: string; name: string; template: unknown }>(`SELECT status, name, template FROM broadcasts WHERE id = $1`, [id])).rows[0];
  /** The tRPC failure's class and our code. */
  const failure = async (p: Promise<unknown>) => {
    const err = (await p.then(
      () => null,
      (e: unknown) => e,
    )) as { code?: string; cause?: { code?: string } } | null;
    expect(err, 'expected a refusal').not.toBeNull();
    return { code: err!.code, appCode: err!.cause?.code };
  };

  beforeAll(async () => {
    tdb = await createTestDatabase();
    deps = testDeps(tdb.db, { env: { TEMPORAL_TASK_QUEUE: `nobody-polls-${newId('request')}` } });
    owner = await seedOperator(deps, { phoneNumberId: '106540352242922' });
    viewer = await seedOperator(deps, { workspace: owner.workspaceSlug, role: 'viewer' });
    stranger = await seedOperator(deps, { phoneNumberId: '106540352242923' });
    for (const workspaceId of [owner.workspaceId, stranger.workspaceId])
      await recordProviderTemplate(deps, {
        workspaceId,
        providerTemplateId: '1',
        name: 'spring_sale',
        language: 'en_US',
        category: 'MARKETING',
        status: 'APPROVED',
        components: [{ type: 'BODY', text: 'Hi {{1}}' }],
      });
  }, 60_000);

  afterAll(async () => {
    await deps?.temporal.close();
    await tdb?.drop();
  });

  it('create, update, activate, pause, resume, cancel, archive: statuses and one audit entry per change', async () => {
    const c = await caller(owner);
    const at = new Date(Date.now() + 3_600_000).toISOString();
    const { campaign: created } = await c.campaigns.create({ name: ' Spring sale ', template: TEMPLATE, segment: SEGMENT });
    expect(created).toMatchObject({
      name: 'Spring sale',
      status: 'draft',
      templateName: 'spring_sale',
      template: { name: 'spring_sale', language: 'en_US' },
      segment: SEGMENT,
      scheduledAt: null,
      broadcastId: null,
      paused: false,
      counts: null,
      archivedAt: null,
    });
    expect(created.id).toMatch(/^cmp_[0-9a-z]{26}$/);
    const id = created.id;

    const { campaign: edited } = await c.campaigns.update({ id, name: 'Spring sale 2', scheduledAt: at, segment: { contactIds: [newId('contact')] } });
    expect(edited).toMatchObject({ name: 'Spring sale 2', status: 'draft', scheduledAt: at, segment: { contactIds: [expect.stringMatching(/^ctr_/)] } });
    expect((await c.campaigns.update({ id, scheduledAt: null, segment: SEGMENT })).campaign).toMatchObject({ scheduledAt: null, segment: SEGMENT });
    await c.campaigns.update({ id, scheduledAt: at });

    const { campaign: active } = await c.campaigns.activate({ id });
    expect(active).toMatchObject({ status: 'scheduled', paused: false, scheduledAt: at, counts: { total: 0, queued: 0, sent: 0 } });
    expect(active.broadcastId).toMatch(/^brd_/);
    expect(await broadcastRow(active.broadcastId!)).toMatchObject({ status: 'scheduled', name: 'Spring sale 2', template: TEMPLATE });

    expect(await failure(c.campaigns.update({ id, name: 'too late' }))).toEqual({ code: 'CONFLICT', appCode: 'invalid_campaign_state' });
    expect(await failure(c.campaigns.activate({ id }))).toEqual({ code: 'CONFLICT', appCode: 'invalid_campaign_state' });
    expect(await failure(c.campaigns.resume({ id }))).toEqual({ code: 'CONFLICT', appCode: 'invalid_campaign_state' });

    expect((await c.campaigns.pause({ id })).campaign).toMatchObject({ status: 'scheduled', paused: true });
    expect(await broadcastRow(active.broadcastId!)).toMatchObject({ status: 'paused' });
    expect(await failure(c.campaigns.pause({ id }))).toEqual({ code: 'CONFLICT', appCode: 'invalid_campaign_state' });
    expect((await c.campaigns.resume({ id })).campaign).toMatchObject({ status: 'scheduled', paused: false });
    expect((await c.campaigns.cancel({ id })).campaign).toMatchObject({ status: 'cancelled', paused: false });
    expect(await broadcastRow(active.broadcastId!)).toMatchObject({ status: 'cancelled' });
    for (const call of [() => c.campaigns.cancel({ id }), () => c.campaigns.pause({ id }), () => c.campaigns.resume({ id })])
      expect(await failure(call())).toEqual({ code: 'CONFLICT', appCode: 'invalid_campaign_state' });

    const { campaign: archived } = await c.campaigns.archive({ id });
    expect(archived).toMatchObject({ status: 'cancelled', broadcastId: active.broadcastId });
    expect(archived.archivedAt).not.toBeNull();
    expect(await failure(c.campaigns.archive({ id }))).toEqual({ code: 'CONFLICT', appCode: 'invalid_campaign_state' });
    expect((await c.campaigns.list()).campaigns.find((x) => x.id === id)).toMatchObject({ status: 'cancelled', archivedAt: archived.archivedAt });
    expect((await c.campaigns.get({ id })).campaign).toEqual(archived);

    expect(await actions(id)).toEqual([
      'campaign.create',
      'campaign.update',
      'campaign.update',
      'campaign.update',
      'campaign.activate',
      'campaign.pause',
      'campaign.resume',
      'campaign.cancel',
      'campaign.archive',
    ]);
    const trail = await audits(owner.workspaceId, id);
    expect(trail.every((a) => a.actor_id === owner.memberId)).toBe(true);
    expect(trail[1]!.details).toEqual({ fields: ['name', 'scheduledAt', 'segment'] });
    expect(trail[4]!.details).toEqual({ broadcastId: active.broadcastId });
    expect(trail[8]!.details).toEqual({ cancelled: false });
    // The broadcast keeps its own trail beside the campaign's.
    expect((await audits(owner.workspaceId, active.broadcastId!)).map((a) => a.action)).toEqual([
      'broadcast.create',
      'broadcast.pause',
      'broadcast.resume',
      'broadcast.cancel',
    ]);
  });

  it('archiving cancels what has not finished: a draft, and a scheduled campaign with its broadcast', async () => {
    const c = await caller(owner);
    const { campaign: d } = await c.campaigns.create({ name: 'never sent', template: TEMPLATE, segment: SEGMENT });
    expect((await c.campaigns.archive({ id: d.id })).campaign).toMatchObject({ status: 'cancelled', broadcastId: null, archivedAt: expect.any(String) });
    expect((await audits(owner.workspaceId, d.id)).map((a) => [a.action, a.details])).toEqual([
      ['campaign.create', { template: 'spring_sale' }],
      ['campaign.archive', { cancelled: true }],
      ['campaign.cancel', { via: 'archive' }],
    ]);
    expect(await failure(c.campaigns.activate({ id: d.id }))).toEqual({ code: 'CONFLICT', appCode: 'invalid_campaign_state' });
    expect(await failure(c.campaigns.update({ id: d.id, name: 'x' }))).toEqual({ code: 'CONFLICT', appCode: 'invalid_campaign_state' });

    const { campaign: s } = await c.campaigns.create({
      name: 'later',
      template: TEMPLATE,
      segment: SEGMENT,
      scheduledAt: new Date(Date.now() + 86_400_000).toISOString(),
    });
    const { campaign: active } = await c.campaigns.activate({ id: s.id });
    const { campaign: archived } = await c.campaigns.archive({ id: s.id });
    expect(archived).toMatchObject({ status: 'cancelled', broadcastId: active.broadcastId, archivedAt: expect.any(String) });
    expect(await broadcastRow(active.broadcastId!)).toMatchObject({ status: 'cancelled' });
    expect((await actions(s.id)).sort()).toEqual(['campaign.activate', 'campaign.archive', 'campaign.cancel', 'campaign.create']);

    const { campaign: plain } = await c.campaigns.create({ name: 'cancel a draft', template: TEMPLATE, segment: SEGMENT });
    expect((await c.campaigns.cancel({ id: plain.id })).campaign).toMatchObject({ status: 'cancelled', broadcastId: null, archivedAt: null });
    expect(await failure(c.campaigns.pause({ id: plain.id }))).toEqual({ code: 'CONFLICT', appCode: 'invalid_campaign_state' });
  });

  it('list is { campaigns } newest first for any operator; changes need a settings role', async () => {
    const c = await caller(owner);
    const { campaigns } = await c.campaigns.list();
    expect(campaigns.length).toBeGreaterThanOrEqual(3);
    const times = campaigns.map((x) => x.createdAt);
    expect([...times].sort().reverse()).toEqual(times);
    const v = await caller(viewer);
    expect(await v.campaigns.list()).toEqual({ campaigns });
    expect((await v.campaigns.list({ limit: 1, offset: 1 })).campaigns).toEqual([campaigns[1]]);
    expect((await v.campaigns.get({ id: campaigns[0]!.id })).campaign).toEqual(campaigns[0]);
    for (const call of [
      () => v.campaigns.create({ name: 'nope', template: TEMPLATE, segment: SEGMENT }),
      () => v.campaigns.activate({ id: campaigns[0]!.id }),
      () => v.campaigns.archive({ id: campaigns[0]!.id }),
    ])
      expect((await failure(call())).code).toBe('FORBIDDEN');
    await expect(createCaller({ deps, actor: null, requestId: 'r' }).campaigns.list()).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('refuses bad input with 400 and stores nothing', async () => {
    const c = await caller(owner);
    const before = (await c.campaigns.list({ limit: 200 })).campaigns.length;
    const bad = [
      { name: '', template: TEMPLATE, segment: SEGMENT },
      { name: 'x'.repeat(201), template: TEMPLATE, segment: SEGMENT },
      { name: 'ok', template: { name: 'Bad Name', language: 'en' }, segment: SEGMENT },
      { name: 'ok', template: TEMPLATE, segment: { contactIds: ['nope'] } },
      { name: 'ok', template: TEMPLATE, segment: SEGMENT, scheduledAt: 'tomorrow' },
      { name: 'ok', template: TEMPLATE, segment: SEGMENT, extra: 1 },
    ];
    for (const input of bad)
      expect(await failure(c.campaigns.create(input as never)), JSON.stringify(input).slice(0, 80)).toMatchObject({ code: 'BAD_REQUEST' });
    const { campaign } = await c.campaigns.create({ name: 'valid', template: TEMPLATE, segment: SEGMENT });
    expect(await failure(c.campaigns.update({ id: campaign.id }))).toMatchObject({ code: 'BAD_REQUEST' });
    expect((await c.campaigns.list({ limit: 200 })).campaigns.length).toBe(before + 1);
    for (const id of ['', 'brd_01', `cmp_${'x'.repeat(80)}`]) expect((await failure(c.campaigns.get({ id }))).code, id).toMatch(/BAD_REQUEST|NOT_FOUND/);
    expect(await failure(c.campaigns.get({ id: newId('campaign') }))).toEqual({ code: 'NOT_FOUND', appCode: 'campaign_not_found' });
  });

  it('keeps workspaces apart: another workspace’s campaign is 404 to every procedure and nothing changes', async () => {
    const c = await caller(owner);
    const { campaign } = await c.campaigns.create({ name: 'ours', template: TEMPLATE, segment: SEGMENT });
    const s = await caller(stranger);
    const id = campaign.id;
    for (const call of [
      () => s.campaigns.get({ id }),
      () => s.campaigns.update({ id, name: 'theirs' }),
      () => s.campaigns.activate({ id }),
      () => s.campaigns.pause({ id }),
      () => s.campaigns.resume({ id }),
      () => s.campaigns.cancel({ id }),
      () => s.campaigns.archive({ id }),
    ])
      expect(await failure(call())).toEqual({ code: 'NOT_FOUND', appCode: 'campaign_not_found' });
    expect((await s.campaigns.list()).campaigns).toEqual([]);
    expect((await c.campaigns.get({ id })).campaign).toEqual(campaign);
    expect(await actions(id)).toEqual(['campaign.create']);
    expect(await audits(stranger.workspaceId, id)).toEqual([]);
    expect((await tdb.pool.query(`SELECT count(*)::int AS n FROM broadcasts WHERE workspace_id = $1`, [stranger.workspaceId])).rows[0].n).toBe(0);
  });
});
