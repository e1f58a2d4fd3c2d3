import { AppError, type InboundRunIssue } from '@mos/core';
import { getInboundRun, getInboundWebhook, listInboundRuns, type InboundRunWithMessage } from '@mos/db';
import type { z } from 'zod';
import type { AppDeps } from '../deps';
import type { Scope } from '../scope';
import type { InboundRunView, listInboundRunsInput } from './schemas';

type StatusEntry = { status: string; at: string; code?: number };

export function toInboundRunView(r: InboundRunWithMessage): InboundRunView {
  return {
    id: r.id,
    inboundWebhookId: r.inboundWebhookId,
    status: r.status,
    httpStatus: r.httpStatus,
    dryRun: r.dryRun,
    idempotencyKey: r.idempotencyKey,
    duplicateOfRunId: r.duplicateOfRunId,
    signatureScheme: r.signatureScheme,
    requestId: r.requestId,
    headers: r.headers,
    payloadShape: r.payloadShape,
    mappedRequest: r.mappedRequest,
    errors: r.errors as InboundRunIssue[],
    contactId: r.contactId,
    message:
      r.messageId && r.messageStatus
        ? {
            id: r.messageId,
            // `sending` is ours; callers see it as queued (as on /v1/messages).
            status: r.messageStatus === 'sending' ? 'queued' : r.messageStatus,
            statusHistory: (r.messageStatusHistory as StatusEntry[] | null) ?? [],
            error: r.messageError ?? null,
          }
        : null,
    receivedAt: r.receivedAt.toISOString(),
    finishedAt: r.finishedAt?.toISOString() ?? null,
  };
}

/** Newest first, keyset pages by run id. */
export async function listInboundWebhookRuns(
  deps: AppDeps,
  scope: Scope,
  input: z.output<typeof listInboundRunsInput>,
): Promise<{ runs: InboundRunView[]; nextCursor: string | null }> {
  const ws = scope.workspaceId;
  if (!(await getInboundWebhook(deps.db, ws, input.id))) throw new AppError('not_found', { message: 'No inbound webhook with this id in the workspace' });
  const rows = await listInboundRuns(deps.db, ws, input.id, { cursor: input.cursor, limit: input.limit + 1, status: input.status });
  const page = rows.slice(0, input.limit);
  return { runs: page.map(toInboundRunView), nextCursor: rows.length > input.limit ? page[page.length - 1]!.id : null };
}

export async function getInboundWebhookRun(deps: AppDeps, scope: Scope, runId: string): Promise<InboundRunView> {
  const row = await getInboundRun(deps.db, scope.workspaceId, runId);
  if (!row) throw new AppError('not_found', { message: 'No inbound webhook run with this id in the workspace' });
  return toInboundRunView(row);
}
