import { AppError, BROADCAST_TRANSITIONS, campaignStatusOf, hasPrefix, isAppError, type BroadcastStatus } from '@mos/core';
import {
  getCampaignRow,
  insertCampaign,
  isLockNotAvailable,
  listCampaignRows,
  listCampaignSummaries,
  updateCampaignRow,
  writeAuditLog,
  type CampaignRow,
  type DbOrTx,
} from '@mos/db';
import type { AppDeps } from '../deps';
import type { Scope } from '../scope';
import { changeBroadcast, createBroadcast, getBroadcast, type BroadcastAction } from '../broadcasts/broadcasts';
import { createBroadcastInput, type broadcastView } from '../broadcasts/schemas';
import type { CampaignSummary, CampaignView, CreateCampaignInput, UpdateCampaignInput } from './schemas';
import type { z } from 'zod';

type BroadcastView = z.infer<typeof broadcastView>;

/** Bound of the runtime snapshot's list. */
const SUMMARY_LIMIT = 500;

const stateOf = (b: Pick<BroadcastView, 'status' | 'startedAt'>) =>
  campaignStatusOf({ status: b.status, startedAt: b.startedAt ? new Date(b.startedAt) : null });

function toView(c: CampaignRow, b: BroadcastView | null): CampaignView {
  return {
    id: c.id,
    name: c.name,
    status: b ? stateOf(b) : c.status,
    templateName: c.template.name,
    template: { name: c.template.name, language: c.template.language },
    segment: c.segment,
    scheduledAt: c.scheduledAt?.toISOString() ?? null,
    broadcastId: c.broadcastId,
    paused: b?.status === 'paused',
    counts: b?.counts ?? null,
    archivedAt: c.archivedAt?.toISOString() ?? null,
    createdAt: c.createdAt.toISOString(),
    updatedAt: c.updatedAt.toISOString(),
  };
}

/** The campaign's broadcast as operators see it (null before activation, or if it was deleted). */
async function broadcastOf(deps: AppDeps, scope: Scope, c: CampaignRow): Promise<BroadcastView | null> {
  if (!c.broadcastId) return null;
  try {
    return (await getBroadcast(deps, scope, c.broadcastId)).broadcast;
  } catch (err) {
    if (isAppError(err) && err.code === 'broadcast_not_found') return null;
    throw err;
  }
}

const validId = (id: string) => hasPrefix(id, 'campaign') && id.length <= 64;
const invalidState = (message: string) => new AppError('invalid_campaign_state', { message });

/**
 * Runs a change under the campaign's row lock, so changes of one campaign never interleave
 * (two activations make one broadcast). NOWAIT: activation and the broadcast actions hold the
 * lock while the broadcast code uses other pool connections, so a second request is refused
 * at once (409) rather than queueing a connection behind the first.
 */
async function underLock<T>(deps: AppDeps, scope: Scope, id: string, work: (tx: DbOrTx, c: CampaignRow) => Promise<T>): Promise<T> {
  if (!validId(id)) throw new AppError('campaign_not_found');
  try {
    return await deps.db.transaction(async (tx) => {
      const c = await getCampaignRow(tx, scope.workspaceId, id, 'nowait');
      if (!c) throw new AppError('campaign_not_found');
      return work(tx, c);
    });
  } catch (err) {
    if (isLockNotAvailable(err)) throw invalidState('Another change of this campaign is in progress; try again');
    throw err;
  }
}

function requireOpen(c: CampaignRow, action: string): void {
  if (c.archivedAt) throw invalidState(`Cannot ${action} an archived campaign`);
}

const audit = (tx: DbOrTx, scope: Scope, action: string, targetId: string, details?: Record<string, unknown>) =>
  writeAuditLog(tx, scope.workspaceId, { action: `campaign.${action}`, actorId: scope.actorId, targetId, details });

export async function createCampaign(deps: AppDeps, scope: Scope, input: CreateCampaignInput): Promise<{ campaign: CampaignView }> {
  const now = deps.clock.now();
  const row = await deps.db.transaction(async (tx) => {
    const c = await insertCampaign(
      tx,
      scope.workspaceId,
      {
        name: input.name,
        template: input.template,
        segment: input.segment,
        scheduledAt: input.scheduledAt ? new Date(input.scheduledAt) : null,
        createdBy: scope.actorId,
      },
      now,
    );
    await audit(tx, scope, 'create', c.id, { template: input.template.name });
    return c;
  });
  return { campaign: toView(row, null) };
}

export async function getCampaign(deps: AppDeps, scope: Scope, id: string): Promise<{ campaign: CampaignView }> {
  const row = validId(id) ? await getCampaignRow(deps.db, scope.workspaceId, id) : undefined;
  if (!row) throw new AppError('campaign_not_found');
  return { campaign: toView(row, await broadcastOf(deps, scope, row)) };
}

/** Operators' list (tRPC, /internal): newest first, archived ones included. */
export async function listCampaigns(deps: AppDeps, scope: Scope, page: { limit: number; offset: number }): Promise<{ campaigns: CampaignView[] }> {
  const rows = await listCampaignRows(deps.db, scope.workspaceId, page);
  return { campaigns: await Promise.all(rows.map(async (c) => toView(c, await broadcastOf(deps, scope, c)))) };
}

/** The runtime snapshot's campaigns: the spec's fields, newest first, bounded. */
export async function internalCampaignList(deps: AppDeps, scope: Scope): Promise<CampaignSummary[]> {
  const rows = await listCampaignSummaries(deps.db, scope.workspaceId, SUMMARY_LIMIT);
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    status: r.broadcastStatus ? campaignStatusOf({ status: r.broadcastStatus, startedAt: r.broadcastStartedAt }) : r.status,
    templateName: r.template.name,
  }));
}

/** A draft's name, template, segment or start time; 409 once it is activated, cancelled or archived. */
export async function updateCampaign(deps: AppDeps, scope: Scope, input: UpdateCampaignInput): Promise<{ campaign: CampaignView }> {
  const { id, scheduledAt, ...rest } = input;
  const row = await underLock(deps, scope, id, async (tx, c) => {
    requireOpen(c, 'update');
    if (c.status !== 'draft' || c.broadcastId) throw invalidState(`Cannot update a campaign that is ${c.status}`);
    const patch = { ...rest, ...(scheduledAt !== undefined ? { scheduledAt: scheduledAt === null ? null : new Date(scheduledAt) } : {}) };
    const updated = (await updateCampaignRow(tx, scope.workspaceId, id, patch, deps.clock.now()))!;
    await audit(tx, scope, 'update', id, { fields: Object.keys(patch).sort() });
    return updated;
  });
  return { campaign: toView(row, null) };
}

/**
 * Draft -> its one broadcast, through createBroadcast (the approved-template check, the
 * workflow start and its failure handling are the broadcast's). The campaign row stays locked
 * until the broadcast id is stored, so a concurrent activation is refused; if the broadcast
 * cannot be created the transaction rolls back and the campaign stays a draft. Should storing
 * fail after the broadcast exists, the broadcast is cancelled so nothing sends unowned.
 */
export async function activateCampaign(deps: AppDeps, scope: Scope, id: string): Promise<{ campaign: CampaignView }> {
  let created: string | undefined;
  let row: CampaignRow;
  try {
    row = await underLock(deps, scope, id, async (tx, c) => {
      requireOpen(c, 'activate');
      if (c.status !== 'draft' || c.broadcastId) throw invalidState(`Cannot activate a campaign that is ${c.status}`);
      const input = createBroadcastInput.parse({
        name: c.name,
        template: c.template,
        segment: c.segment,
        ...(c.scheduledAt ? { scheduledAt: c.scheduledAt.toISOString() } : {}),
      });
      const { broadcast } = await createBroadcast(deps, scope, input);
      created = broadcast.id;
      const status = campaignStatusOf({ status: broadcast.status, startedAt: null });
      const updated = (await updateCampaignRow(tx, scope.workspaceId, c.id, { broadcastId: broadcast.id, status }, deps.clock.now()))!;
      await audit(tx, scope, 'activate', c.id, { broadcastId: broadcast.id });
      return updated;
    });
  } catch (err) {
    if (created) {
      deps.log.error({ err, campaignId: id, broadcastId: created }, 'could not record the campaign activation; cancelling its broadcast');
      await changeBroadcast(deps, scope, created, 'cancel').catch((e: unknown) =>
        deps.log.error({ err: e, broadcastId: created }, 'could not cancel the broadcast'),
      );
    }
    throw err;
  }
  return { campaign: toView(row, await broadcastOf(deps, scope, row)) };
}

/** changeBroadcast for the campaign, its refusals in campaign terms. */
async function changeItsBroadcast(deps: AppDeps, scope: Scope, broadcastId: string, action: BroadcastAction): Promise<BroadcastView> {
  try {
    return (await changeBroadcast(deps, scope, broadcastId, action)).broadcast;
  } catch (err) {
    if (!isAppError(err)) throw err;
    // The stored status may lag the broadcast's (it finished meanwhile): name the broadcast's.
    if (err.code === 'invalid_broadcast_state') throw invalidState(`Cannot ${action} the campaign: ${err.message}`);
    if (err.code === 'broadcast_not_found') throw invalidState(`Cannot ${action} a campaign whose broadcast no longer exists`);
    throw err;
  }
}

/**
 * Pause, resume or cancel: the broadcast's own actions (effective at once, see changeBroadcast),
 * the campaign row kept in step. A draft can only be cancelled (it has nothing to pause).
 */
export async function changeCampaign(deps: AppDeps, scope: Scope, id: string, action: BroadcastAction): Promise<{ campaign: CampaignView }> {
  return underLock(deps, scope, id, async (tx, c) => {
    requireOpen(c, action);
    const now = deps.clock.now();
    if (!c.broadcastId) {
      if (action !== 'cancel' || c.status !== 'draft') throw invalidState(`Cannot ${action} a campaign that is ${c.status}`);
      const row = (await updateCampaignRow(tx, scope.workspaceId, c.id, { status: 'cancelled' }, now))!;
      await audit(tx, scope, 'cancel', c.id);
      return { campaign: toView(row, null) };
    }
    const b = await changeItsBroadcast(deps, scope, c.broadcastId, action);
    const row = (await updateCampaignRow(tx, scope.workspaceId, c.id, { status: stateOf(b) }, now))!;
    await audit(tx, scope, action, c.id, { broadcastId: b.id });
    return { campaign: toView(row, b) };
  });
}

const live = (s: BroadcastStatus) => BROADCAST_TRANSITIONS.cancel[s] !== undefined;

/**
 * Archive: hidden from nothing (lists keep it, with `archivedAt`), closed to every change. A
 * campaign not yet finished is cancelled first (its own `campaign.cancel` entry).
 */
export async function archiveCampaign(deps: AppDeps, scope: Scope, id: string): Promise<{ campaign: CampaignView }> {
  return underLock(deps, scope, id, async (tx, c) => {
    requireOpen(c, 'archive');
    const now = deps.clock.now();
    let b = await broadcastOf(deps, scope, c);
    let status = b ? stateOf(b) : c.status;
    let cancelled = false;
    if (b && live(b.status)) {
      try {
        b = (await changeBroadcast(deps, scope, b.id, 'cancel')).broadcast;
        cancelled = true;
      } catch (err) {
        // It finished between the read and the cancel: archive it as it ended.
        if (!isAppError(err) || err.code !== 'invalid_broadcast_state') throw err;
        b = await broadcastOf(deps, scope, c);
      }
      status = b ? stateOf(b) : c.status;
    } else if (!b && c.status === 'draft') {
      status = 'cancelled';
      cancelled = true;
    }
    if (cancelled) await audit(tx, scope, 'cancel', c.id, { via: 'archive', ...(b ? { broadcastId: b.id } : {}) });
    const row = (await updateCampaignRow(tx, scope.workspaceId, c.id, { status, archivedAt: now }, now))!;
    await audit(tx, scope, 'archive', c.id, { cancelled });
    return { campaign: toView(row, b) };
  });
}
