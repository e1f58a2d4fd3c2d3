import { newId, parseProviderEnvelope, PROCESS_WEBHOOK_EVENT, sha256Hex, webhookDedupKey, webhookOrderingKey } from '@mos/core';
import type { DbOrTx } from '../client';
import { enqueueOutboxJob, insertOutboxJobSql } from '../queries/outbox-jobs';
import { insertWebhookEvent } from '../queries/webhook-events';

export interface TestWebhook {
  /** The raw body: bytes or text as given, or the JSON of any other value. */
  body: Buffer | string | unknown;
  id?: string;
  topic?: string;
  source?: string;
  /** `pending` (default) for a webhook the pipeline is still to process. */
  normalizationStatus?: string;
  headers?: Record<string, string>;
  receivedAt?: Date;
}

function bodyBytes(body: TestWebhook['body']): Buffer {
  return Buffer.isBuffer(body) ? body : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
}

/** The job's ordering key as ingress computes it: from the parsed body, null when it is not an envelope. */
export function testWebhookOrderingKey(body: TestWebhook['body']): string | null {
  const parsed = parseProviderEnvelope(bodyBytes(body));
  return parsed.ok ? webhookOrderingKey(parsed.envelope) : null;
}

/** Stores a provider webhook as ingress does (signature valid, 200), for tests that start past ingress. */
export async function storeTestWebhook(db: DbOrTx, workspaceId: string, input: TestWebhook): Promise<string> {
  const receivedAt = input.receivedAt ?? new Date();
  const body = bodyBytes(input.body);
  const id = input.id ?? newId('webhookEvent', receivedAt.getTime());
  await insertWebhookEvent(db, workspaceId, {
    id,
    source: input.source ?? 'messaging',
    topic: input.topic ?? 'messages',
    requestId: newId('request'),
    deliveryId: null,
    signatureValid: true,
    headers: input.headers ?? {},
    query: {},
    bodyHash: sha256Hex(body),
    rawBody: body,
    bodySize: body.length,
    summary: {},
    normalizationStatus: input.normalizationStatus ?? 'pending',
    responseStatus: 200,
    receivedAt,
  });
  return id;
}

/**
 * A stored webhook with its pending processing job, as ingress writes them (call it in a
 * transaction to commit both at once). The job's NOTIFY goes out on commit unless
 * `notify: false`, which leaves the job to the relay's polling fallback.
 */
export async function storeTestWebhookJob(
  db: DbOrTx,
  workspaceId: string,
  input: TestWebhook & {
    notify?: boolean;
    /** Overrides the key ingress would compute from the body (tests of the ordering itself). */
    orderingKey?: string | null;
  },
): Promise<{ webhookEventId: string; jobId: string }> {
  const now = input.receivedAt ?? new Date();
  const webhookEventId = await storeTestWebhook(db, workspaceId, input);
  const job = {
    id: newId('job', now.getTime()),
    jobType: PROCESS_WEBHOOK_EVENT,
    dedupKey: webhookDedupKey({ source: input.source ?? 'messaging', deliveryId: null, webhookEventId }),
    payload: { webhookEventId },
    orderingKey: input.orderingKey !== undefined ? input.orderingKey : testWebhookOrderingKey(input.body),
    now,
  };
  if (input.notify === false) await db.execute(insertOutboxJobSql(workspaceId, job));
  else await enqueueOutboxJob(db, workspaceId, job);
  return { webhookEventId, jobId: job.id };
}
