import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import {
  activateCampaign,
  archiveCampaign,
  changeCampaign,
  createCampaign,
  createCampaignInput,
  getCampaign,
  internalCampaignList,
  type CampaignView,
} from '@mos/app';
import { waitFor } from './testing';
import { acceptedFor, seedContacts, seedTemplate, startSendStack, type SendStack } from './testing/send-stack';

/**
 * Campaigns end to end: activated through the app, run by the broadcast workflow in a real
 * worker, sent through the governor to the provider simulator, and reaching `completed` with
 * exact counts. Status webhooks are off so the counts stay at `sent`.
 */
let tdb: TestDatabase;
let stack: SendStack;
const TEMPLATE = { name: 'spring_sale', language: 'en_US', parameters: { body: ['friend'] } };

const view = async (id: string) => (await getCampaign(stack.deps, stack.scope, id)).campaign;
const completed = (id: string, timeoutMs = 45_000) =>
  waitFor(
    async () => {
      const c = await view(id);
      return c.status === 'completed' ? c : null;
    },
    { timeoutMs, what: 'the campaign to complete' },
  );
const draft = async (name: string, contactIds: string[], scheduledAt?: string): Promise<CampaignView> =>
  (
    await createCampaign(
      stack.deps,
      stack.scope,
      createCampaignInput.parse({ name, template: TEMPLATE, segment: { contactIds }, ...(scheduledAt ? { scheduledAt } : {}) }),
    )
  ).campaign;

beforeAll(async () => {
  tdb = await createTestDatabase();
  stack = await startSendStack(tdb.db, tdb.url, { sim: { statusWebhooks: false } });
  await seedTemplate(stack, 'spring_sale', 'Spring sale for you, {{1}}');
}, 120_000);

afterAll(async () => {
  await stack?.close();
  await tdb?.drop();
});

describe('a campaign through the worker and the provider simulator', () => {
  it('runs its one broadcast to completed with exact counts', async () => {
    const contacts = await seedContacts(stack, 45, 5);
    const c = await draft('Spring sale', contacts);
    const { campaign } = await activateCampaign(stack.deps, stack.scope, c.id);
    expect(['scheduled', 'running']).toContain(campaign.status);
    const broadcastId = campaign.broadcastId!;
    expect(broadcastId).toMatch(/^brd_/);

    const done = await completed(c.id);
    expect(done).toMatchObject({ status: 'completed', paused: false, broadcastId });
    expect(done.counts).toEqual({ total: 45, queued: 0, sent: 40, delivered: 0, read: 0, failed: 0, skipped: 5 });
    expect(await acceptedFor(stack, broadcastId)).toEqual({ total: 40, distinct: 40 });
    expect(stack.sim.stats().duplicates).toBe(0);
    expect(await internalCampaignList(stack.deps, stack.scope)).toContainEqual({
      id: c.id,
      name: 'Spring sale',
      status: 'completed',
      templateName: 'spring_sale',
    });
    // A finished campaign takes no more changes but can be archived, keeping its counts.
    await expect(changeCampaign(stack.deps, stack.scope, c.id, 'pause')).rejects.toMatchObject({ code: 'invalid_campaign_state' });
    const { campaign: archived } = await archiveCampaign(stack.deps, stack.scope, c.id);
    expect(archived).toMatchObject({ status: 'completed', counts: done.counts, archivedAt: expect.any(String) });
    const { rows } = await tdb.pool.query(`SELECT count(*)::int AS n FROM broadcasts WHERE workspace_id = $1 AND name = 'Spring sale'`, [
      stack.scope.workspaceId,
    ]);
    expect(rows[0].n).toBe(1);
  }, 60_000);

  it('a scheduled campaign paused before its time waits, then resumes and completes', async () => {
    const contacts = await seedContacts(stack, 12);
    const at = new Date(Date.now() + 2500).toISOString();
    const c = await draft('Later', contacts, at);
    const { campaign } = await activateCampaign(stack.deps, stack.scope, c.id);
    expect(campaign).toMatchObject({ status: 'scheduled', scheduledAt: at });
    expect((await changeCampaign(stack.deps, stack.scope, c.id, 'pause')).campaign).toMatchObject({ status: 'scheduled', paused: true });
    await new Promise((r) => setTimeout(r, 3500));
    expect(await view(c.id)).toMatchObject({ status: 'scheduled', paused: true });
    expect((await acceptedFor(stack, campaign.broadcastId!)).total).toBe(0);
    expect((await changeCampaign(stack.deps, stack.scope, c.id, 'resume')).campaign).toMatchObject({ paused: false });
    const done = await completed(c.id, 30_000);
    expect(done.counts).toMatchObject({ total: 12, sent: 12, queued: 0, skipped: 0 });
    expect(await acceptedFor(stack, campaign.broadcastId!)).toEqual({ total: 12, distinct: 12 });
  }, 45_000);
});
