import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError, newId } from '@mos/core';
import { upsertSyncedTemplate, upsertWorkspace } from '@mos/db';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { testDeps } from '../testing/index';
import type { AppDeps } from '../deps';
import type { Scope } from '../scope';
import { activateCampaign, changeCampaign, createCampaign, getCampaign, internalCampaignList, updateCampaign } from './campaigns';
import { createCampaignInput } from './schemas';

/**
 * Activation's guarantees on a real database and a real Temporal (a task queue no worker polls,
 * so broadcasts start but send nothing; sending is tested with the worker): one broadcast per
 * campaign however many activations race, and a campaign whose broadcast cannot be created
 * stays a draft.
 */
let tdb: TestDatabase;
let deps: AppDeps;
let scope: Scope;
let other: Scope;
const TEMPLATE = { name: 'spring_sale', language: 'en_US' };

const draft = (name: string, template: { name: string; language: string } = TEMPLATE, s: Scope = scope) =>
  createCampaign(deps, s, createCampaignInput.parse({ name, template, segment: { subscriberStatus: 'subscribed' } })).then((r) => r.campaign);

async function refusal(p: Promise<unknown>): Promise<AppError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}

const q = async <T>(sql: string, params: unknown[]) => (await tdb.pool.query(sql, params)).rows as T[];
const broadcastsNamed = (ws: string, name: string) =>
  q<{ id: string; status: string }>(`SELECT id, status FROM broadcasts WHERE workspace_id = $1 AND name = $2`, [ws, name]);
const auditActions = async (ws: string, target: string) =>
  (await q<{ action: string }>(`SELECT action FROM audit_logs WHERE workspace_id = $1 AND target_id = $2 ORDER BY created_at, id`, [ws, target])).map(
    (r) => r.action,
  );

beforeAll(async () => {
  tdb = await createTestDatabase();
  deps = testDeps(tdb.db, { env: { TEMPORAL_TASK_QUEUE: `nobody-polls-${newId('request')}` } });
  const { workspace } = await upsertWorkspace(tdb.db, `cmp-${newId('request').slice(-8)}`, { phoneNumberId: '106540352242922' });
  const { workspace: ws2 } = await upsertWorkspace(tdb.db, `cmp-other-${newId('request').slice(-8)}`, { phoneNumberId: '999' });
  scope = { workspaceId: workspace.id, actorId: 'mem_test', role: 'owner' };
  other = { workspaceId: ws2.id, actorId: 'mem_other', role: 'owner' };
  await upsertSyncedTemplate(
    tdb.db,
    scope.workspaceId,
    {
      providerTemplateId: '1',
      name: TEMPLATE.name,
      language: 'en_US',
      category: 'MARKETING',
      status: 'approved',
      components: [{ type: 'BODY', text: 'Sale!' }],
    },
    new Date(),
  );
}, 60_000);

afterAll(async () => {
  await deps?.temporal.close();
  await tdb?.drop();
});

describe('activating a campaign', () => {
  it('makes one broadcast however many activations race; the others are 409', async () => {
    const c = await draft('racing');
    const results = await Promise.allSettled(Array.from({ length: 4 }, () => activateCampaign(deps, scope, c.id)));
    const ok = results.filter((r) => r.status === 'fulfilled');
    expect(ok).toHaveLength(1);
    for (const r of results.filter((x) => x.status === 'rejected'))
      expect((r as PromiseRejectedResult).reason).toMatchObject({ code: 'invalid_campaign_state', status: 409 });
    const made = await broadcastsNamed(scope.workspaceId, 'racing');
    expect(made).toHaveLength(1);
    const { campaign } = await getCampaign(deps, scope, c.id);
    expect(campaign).toMatchObject({ broadcastId: made[0]!.id, status: 'scheduled', paused: false });
    expect((await refusal(activateCampaign(deps, scope, c.id))).code).toBe('invalid_campaign_state');
    expect(await broadcastsNamed(scope.workspaceId, 'racing')).toHaveLength(1);
    expect((await auditActions(scope.workspaceId, c.id)).filter((a) => a === 'campaign.activate')).toHaveLength(1);
  });

  it('refuses a template that is not approved: 422, the campaign stays a draft, no broadcast', async () => {
    const c = await draft('unapproved', { name: 'not_synced_yet', language: 'en_US' });
    const err = await refusal(activateCampaign(deps, scope, c.id));
    expect(err).toMatchObject({ code: 'template_not_approved', status: 422 });
    expect((await getCampaign(deps, scope, c.id)).campaign).toMatchObject({ status: 'draft', broadcastId: null, counts: null });
    expect(await broadcastsNamed(scope.workspaceId, 'unapproved')).toEqual([]);
    expect(await auditActions(scope.workspaceId, c.id)).toEqual(['campaign.create']);
    // Still a draft: it can be fixed and activated.
    await updateCampaign(deps, scope, { id: c.id, template: TEMPLATE });
    expect((await activateCampaign(deps, scope, c.id)).campaign.status).toBe('scheduled');
  });

  it('stays a draft when Temporal cannot take the broadcast (503), and can be activated later', async () => {
    const c = await draft('temporal-down');
    const down = testDeps(tdb.db, { env: { TEMPORAL_ADDRESS: '127.0.0.1:1' } });
    const err = await refusal(activateCampaign(down, scope, c.id));
    expect(err).toMatchObject({ code: 'service_unavailable', status: 503 });
    expect((await getCampaign(deps, scope, c.id)).campaign).toMatchObject({ status: 'draft', broadcastId: null });
    // The broadcast createBroadcast stored is marked failed and owned by nobody.
    expect(await broadcastsNamed(scope.workspaceId, 'temporal-down')).toEqual([expect.objectContaining({ status: 'failed' })]);
    await down.temporal.close();
    const { campaign } = await activateCampaign(deps, scope, c.id);
    expect(campaign.status).toBe('scheduled');
    expect((await broadcastsNamed(scope.workspaceId, 'temporal-down')).map((b) => b.status).sort()).toEqual(['failed', 'scheduled']);
  }, 30_000);

  it('refuses a workspace without a sending number (422), leaving the draft', async () => {
    const { workspace } = await upsertWorkspace(tdb.db, `cmp-nophone-${newId('request').slice(-8)}`, {});
    const s: Scope = { workspaceId: workspace.id, actorId: 'mem_x', role: 'owner' };
    const c = await draft('no-number', TEMPLATE, s);
    expect((await refusal(activateCampaign(deps, s, c.id))).code).toBe('no_phone_number');
    expect((await getCampaign(deps, s, c.id)).campaign.status).toBe('draft');
  });

  it('is per workspace: another workspace’s id is 404 and changes nothing', async () => {
    const c = await draft('isolated');
    for (const call of [
      () => activateCampaign(deps, other, c.id),
      () => getCampaign(deps, other, c.id),
      () => changeCampaign(deps, other, c.id, 'cancel'),
      () => updateCampaign(deps, other, { id: c.id, name: 'stolen' }),
    ])
      expect(await refusal(call())).toMatchObject({ code: 'campaign_not_found', status: 404 });
    expect((await getCampaign(deps, scope, c.id)).campaign).toMatchObject({ name: 'isolated', status: 'draft', updatedAt: c.updatedAt });
    expect(await broadcastsNamed(scope.workspaceId, 'isolated')).toEqual([]);
    expect(await broadcastsNamed(other.workspaceId, 'isolated')).toEqual([]);
    expect(await auditActions(other.workspaceId, c.id)).toEqual([]);
  });
});

describe('internalCampaignList', () => {
  it('answers the spec’s fields, newest first, the status following the broadcast', async () => {
    const { workspace } = await upsertWorkspace(tdb.db, `cmp-list-${newId('request').slice(-8)}`, { phoneNumberId: '106540352242922' });
    const s: Scope = { workspaceId: workspace.id, actorId: 'mem_l', role: 'owner' };
    await upsertSyncedTemplate(
      tdb.db,
      s.workspaceId,
      {
        providerTemplateId: '2',
        name: TEMPLATE.name,
        language: 'en_US',
        category: 'MARKETING',
        status: 'approved',
        components: [{ type: 'BODY', text: 'Sale!' }],
      },
      new Date(),
    );
    const a = await draft('first', TEMPLATE, s);
    await new Promise((r) => setTimeout(r, 5));
    const b = await draft('second', { name: 'other_template', language: 'en' }, s);
    await activateCampaign(deps, s, a.id);
    await changeCampaign(deps, s, a.id, 'pause');
    expect(await internalCampaignList(deps, s)).toEqual([
      { id: b.id, name: 'second', status: 'draft', templateName: 'other_template' },
      { id: a.id, name: 'first', status: 'scheduled', templateName: TEMPLATE.name },
    ]);
    expect(await internalCampaignList(deps, { ...s, workspaceId: other.workspaceId })).toEqual([]);
  });
});
