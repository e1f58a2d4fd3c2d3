import { z } from 'zod';
import { AppError, BROADCAST_TRANSITIONS, hasPrefix, LIMITS, pageSchema, safeString } from '@mos/core';
import {
  broadcastStatusCounts,
  getBroadcastRow,
  getWorkspace,
  insertBroadcast,
  listBroadcastRows,
  skipQueuedBroadcastMessages,
  updateBroadcast,
  writeAuditLog,
  type BroadcastRow,
} from '@mos/db';
import { BROADCAST_CHANGED_SIGNAL, BROADCAST_WORKFLOW_TYPE, broadcastWorkflowId, type BroadcastInput } from '@mos/workflows/contract';
import type { AppDeps } from '../deps';
import type { Scope } from '../scope';
import { requireApprovedTemplate } from '../messages/approved-template';
import { wakeGovernor } from '../messages/governor';
import type { BroadcastCounts, broadcastResult, broadcastView, createBroadcastResult, CreateBroadcastInput } from './schemas';

export type BroadcastAction = 'pause' | 'resume' | 'cancel';

function countsOf(byStatus: Record<string, number>): BroadcastCounts {
  const n = (s: string) => byStatus[s] ?? 0;
  const counts = {
    queued: n('queued') + n('sending'),
    sent: n('sent'),
    delivered: n('delivered'),
    read: n('read'),
    failed: n('failed'),
    skipped: n('skipped'),
  };
  return { total: Object.values(counts).reduce((a, b) => a + b, 0), ...counts };
}

async function toView(deps: AppDeps, b: BroadcastRow): Promise<z.infer<typeof broadcastView>> {
  return {
    id: b.id,
    name: b.name,
    status: b.status,
    template: { name: b.template.name, language: b.template.language },
    scheduledAt: b.scheduledAt?.toISOString() ?? null,
    startedAt: b.startedAt?.toISOString() ?? null,
    finishedAt: b.finishedAt?.toISOString() ?? null,
    createdAt: b.createdAt.toISOString(),
    counts: countsOf(await broadcastStatusCounts(deps.db, b.workspaceId, b.id)),
  };
}

/**
 * POST /v1/broadcasts: the template must be approved (and its parameters fit) before anything
 * is stored; the broadcast is stored, then its workflow started. If Temporal cannot take it the
 * broadcast is marked failed and the caller gets 503, so no broadcast waits for a run that
 * does not exist.
 */
export async function createBroadcast(deps: AppDeps, scope: Scope, input: CreateBroadcastInput): Promise<z.infer<typeof createBroadcastResult>> {
  const ws = await getWorkspace(deps.db, scope.workspaceId);
  if (!ws?.phoneNumberId) throw new AppError('no_phone_number', { message: 'The workspace has no sending phone number configured' });
  await requireApprovedTemplate(deps.db, scope.workspaceId, input.template);
  const now = deps.clock.now();
  const scheduledAt = input.scheduledAt ? new Date(input.scheduledAt) : null;
  const row = await deps.db.transaction(async (tx) => {
    const b = await insertBroadcast(
      tx,
      scope.workspaceId,
      { name: input.name ?? null, template: input.template, segment: input.segment, phoneNumberId: ws.phoneNumberId!, status: 'scheduled', scheduledAt },
      now,
    );
    await writeAuditLog(tx, scope.workspaceId, {
      action: 'broadcast.create',
      actorId: scope.actorId,
      targetId: b.id,
      details: { template: input.template.name },
    });
    return b;
  });
  try {
    const client = await deps.temporal.get();
    const args: [BroadcastInput] = [{ workspaceId: scope.workspaceId, broadcastId: row.id }];
    await client.workflow.start(BROADCAST_WORKFLOW_TYPE, { taskQueue: deps.env.TEMPORAL_TASK_QUEUE, workflowId: broadcastWorkflowId(row.id), args });
  } catch (err) {
    deps.log.error({ err, broadcastId: row.id }, 'could not start the broadcast workflow');
    await updateBroadcast(deps.db, scope.workspaceId, row.id, { status: 'failed', failureReason: 'temporal_unavailable', finishedAt: deps.clock.now() });
    throw new AppError('service_unavailable', { message: 'Temporal is unavailable; the broadcast was not started' });
  }
  const due = !scheduledAt || scheduledAt.getTime() <= now.getTime();
  return { broadcast: { id: row.id, status: due ? 'running' : 'scheduled' } };
}

export async function getBroadcast(deps: AppDeps, scope: Scope, id: string): Promise<z.infer<typeof broadcastResult>> {
  const row = hasPrefix(id, 'broadcast') && id.length <= 64 ? await getBroadcastRow(deps.db, scope.workspaceId, id) : undefined;
  if (!row) throw new AppError('broadcast_not_found');
  return { broadcast: await toView(deps, row) };
}

/**
 * Pause, resume or cancel, effective at once: the governor claims only messages of running
 * broadcasts, and a cancel skips every queued message in the same transaction. The workflow is
 * signalled afterwards only to shorten its wait. 409 `invalid_broadcast_state` when the status
 * does not allow the action.
 */
export async function changeBroadcast(deps: AppDeps, scope: Scope, id: string, action: BroadcastAction): Promise<z.infer<typeof broadcastResult>> {
  if (!hasPrefix(id, 'broadcast') || id.length > 64) throw new AppError('broadcast_not_found');
  const now = deps.clock.now();
  const row = await deps.db.transaction(async (tx) => {
    const b = await getBroadcastRow(tx, scope.workspaceId, id, true);
    if (!b) throw new AppError('broadcast_not_found');
    let next = BROADCAST_TRANSITIONS[action][b.status];
    if (!next) throw new AppError('invalid_broadcast_state', { message: `Cannot ${action} a broadcast that is ${b.status}` });
    // A broadcast paused before it began goes back to waiting for its start time.
    if (action === 'resume' && !b.startedAt) next = 'scheduled';
    const patch = next === 'cancelled' ? { status: next, finishedAt: now } : { status: next };
    const updated = (await updateBroadcast(tx, scope.workspaceId, id, patch))!;
    if (next === 'cancelled') await skipQueuedBroadcastMessages(tx, scope.workspaceId, id, now);
    await writeAuditLog(tx, scope.workspaceId, { action: `broadcast.${action}`, actorId: scope.actorId, targetId: id });
    return updated;
  });
  if (row.status === 'running') await wakeGovernor(deps, scope.workspaceId, row.phoneNumberId);
  try {
    const client = await deps.temporal.get();
    await client.workflow.getHandle(broadcastWorkflowId(id)).signal(BROADCAST_CHANGED_SIGNAL);
  } catch (err) {
    // The change is stored; the workflow sees it at its next poll (running) or we log why not.
    deps.log.warn({ err, broadcastId: id }, 'could not signal the broadcast workflow');
  }
  return { broadcast: await toView(deps, row) };
}

const idSchema = safeString().min(1).max(64);
export const listBroadcastsInput = z.object({ cursor: idSchema.optional(), ...pageSchema({ limit: LIMITS.contacts.limit }).shape });

/** Operators' list (tRPC, /internal): newest first. */
export async function listBroadcasts(deps: AppDeps, scope: Scope, input: z.output<typeof listBroadcastsInput>) {
  const rows = await listBroadcastRows(deps.db, scope.workspaceId, { cursor: input.cursor, limit: input.limit + 1 });
  const page = rows.slice(0, input.limit);
  return { broadcasts: await Promise.all(page.map((b) => toView(deps, b))), nextCursor: rows.length > input.limit ? page[page.length - 1]!.id : null };
}
