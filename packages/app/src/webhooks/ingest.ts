import {
  decodeContentEncoding,
  escapeNul,
  newId,
  parseProviderEnvelope,
  PROCESS_WEBHOOK_EVENT,
  publicSummary,
  sha256Hex,
  verifyProviderSignature,
  webhookDedupKey,
  webhookOrderingKey,
  type EnvelopeSummary,
  type SignatureError,
  type WebhookSource,
} from '@mos/core';
import { findOutboxJobByDedupKey, insertWebhookEvent, storeRejectedDelivery, storeSignedDelivery, type NewWebhookEvent } from '@mos/db';
import type { AppDeps } from '../deps';
import type { IngressTarget } from './ingress-target';

/** One provider webhook request, as the HTTP layer hands it over (raw bytes, untouched). */
export interface IngestRequest {
  source: WebhookSource;
  rawBody: Buffer;
  headers: Record<string, string | string[] | undefined>;
  query: Record<string, unknown>;
  requestId: string;
  receivedAt: Date;
  /** process.hrtime.bigint() when the request arrived, for the stored timing. */
  startedAt: bigint;
  /** The largest payload a Content-Encoding may expand to (the ingress body limit). */
  maxBodyBytes: number;
}

export type IngestResponse =
  | {
      accepted: true;
      requestId: string;
      signatureValid: true;
      webhookEventId: string;
      outboxJobId: string;
      /** true when the delivery id was already queued: stored, but no new job. */
      duplicate: boolean;
      duplicateOfId: string | null;
      summary: ReturnType<typeof publicSummary>;
    }
  | {
      accepted: false;
      reason: 'invalid_signature';
      requestId: string;
      webhookEventId: string;
      signatureValid: false;
      summary: ReturnType<typeof publicSummary>;
    };

export interface IngestOutcome {
  body: IngestResponse;
  signatureError: SignatureError | null;
  duplicate: boolean;
  topic: EnvelopeSummary['topic'];
}

/** Headers never stored: credentials that may ride along (the signature header is kept: it is not a secret). */
const DROPPED_HEADERS = new Set(['cookie', 'authorization', 'proxy-authorization', 'x-api-key']);
const DELIVERY_ID_RE = /^[\x21-\x7e]{1,256}$/;

export function storableHeaders(headers: IngestRequest['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (v === undefined || DROPPED_HEADERS.has(k.toLowerCase())) continue;
    out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  }
  return out;
}

/** The provider delivery id when it is a sane token; anything else is ignored for dedup (kept in headers). */
export function deliveryIdOf(headers: IngestRequest['headers']): string | null {
  const raw = headers['x-provider-delivery-id'];
  const v = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  return v && DELIVERY_ID_RE.test(v) ? v : null;
}

function header(headers: IngestRequest['headers'], name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/**
 * Verify, store, enqueue: the envelope row, and for a valid signature the outbox job and the
 * relay's NOTIFY (or, for a repeated delivery id, a duplicate row pointing at the first and
 * no job), or for an invalid one the rejection row. Each outcome is written atomically by a
 * single statement. Throws if the store fails, in which case nothing was committed and the
 * caller answers 503.
 */
export async function ingestProviderWebhook(deps: AppDeps, target: IngressTarget, req: IngestRequest): Promise<IngestOutcome> {
  // The provider signs the payload; a Content-Encoding is undone first. A body that cannot be
  // decoded is still stored as received (and fails verification): nothing is lost.
  const decoded = decodeContentEncoding(req.rawBody, header(req.headers, 'content-encoding'), req.maxBodyBytes);
  const payload = decoded.ok ? decoded.bytes : req.rawBody;
  const verdict = verifyProviderSignature({ rawBody: payload, header: header(req.headers, 'x-hub-signature-256'), secret: target.signingSecret });
  const parsed = parseProviderEnvelope(payload);
  const { summary } = parsed;
  const ws = target.workspaceId;
  const eventId = newId('webhookEvent', req.receivedAt.getTime());
  const deliveryId = deliveryIdOf(req.headers);

  const event = (extra: { duplicateOfId: string | null; normalizationStatus: string }): NewWebhookEvent => ({
    id: eventId,
    source: req.source,
    topic: summary.topic,
    requestId: req.requestId,
    deliveryId,
    duplicateOfId: extra.duplicateOfId,
    signatureValid: verdict.ok,
    signatureError: verdict.ok ? null : verdict.error,
    headers: storableHeaders(req.headers),
    // A plain object (Express's parsed query has a null prototype); jsonb cannot hold a NUL,
    // and the delivery must still be stored, so NULs are escaped rather than refused.
    query: escapeNul({ ...req.query }) as Record<string, unknown>,
    bodyHash: sha256Hex(payload),
    rawBody: payload,
    bodySize: payload.length,
    accountId: summary.accountId,
    phoneNumberId: summary.phoneNumberId,
    displayPhoneNumber: summary.displayPhoneNumber,
    summary: { ...summary, ...(parsed.ok ? {} : { issues: parsed.issues }), ...(decoded.ok ? {} : { bodyEncodingError: decoded.error }) },
    normalizationStatus: extra.normalizationStatus,
    responseStatus: 200,
    // Request arrival to the start of the store; the store itself (one round trip) is not included.
    ingestMicros: Number((process.hrtime.bigint() - req.startedAt) / 1000n),
    receivedAt: req.receivedAt,
  });

  let outcome: { jobId: string | null; duplicateOfId: string | null; duplicate: boolean };
  if (!verdict.ok) {
    await storeRejectedDelivery(deps.db, ws, event({ duplicateOfId: null, normalizationStatus: 'skipped' }), {
      id: newId('rejection', req.receivedAt.getTime()),
      reason: verdict.error,
    });
    outcome = { jobId: null, duplicateOfId: null, duplicate: false };
  } else {
    const dedupKey = webhookDedupKey({ source: req.source, deliveryId, webhookEventId: eventId });
    const job = {
      id: newId('job', req.receivedAt.getTime()),
      jobType: PROCESS_WEBHOOK_EVENT,
      dedupKey,
      payload: { webhookEventId: eventId },
      // The same conversation's webhooks are applied in receipt order (core's ordering.ts); a
      // body that is not an envelope touches nothing and can go any time.
      orderingKey: parsed.ok ? webhookOrderingKey(parsed.envelope) : null,
      now: req.receivedAt,
    };
    // The common case is one statement: job + event + NOTIFY, or nothing if the key is taken.
    const jobId = await storeSignedDelivery(deps.db, ws, event({ duplicateOfId: null, normalizationStatus: 'pending' }), job);
    if (jobId) {
      outcome = { jobId, duplicateOfId: null, duplicate: false };
    } else {
      // A repeated delivery id: the first delivery's job is committed (ON CONFLICT waited for
      // it), so record this request as a duplicate of it, with no job of its own.
      const first = await findOutboxJobByDedupKey(deps.db, ws, dedupKey);
      if (!first) throw new Error('outbox dedup key taken but its job is not visible');
      const duplicateOfId = typeof first.payload.webhookEventId === 'string' ? first.payload.webhookEventId : first.id;
      await insertWebhookEvent(deps.db, ws, event({ duplicateOfId, normalizationStatus: 'duplicate' }));
      outcome = { jobId: first.id, duplicateOfId, duplicate: true };
    }
  }

  const pub = publicSummary(summary);
  if (!verdict.ok) {
    return {
      body: { accepted: false, reason: 'invalid_signature', requestId: req.requestId, webhookEventId: eventId, signatureValid: false, summary: pub },
      signatureError: verdict.error,
      duplicate: false,
      topic: summary.topic,
    };
  }
  return {
    body: {
      accepted: true,
      requestId: req.requestId,
      signatureValid: true,
      webhookEventId: eventId,
      outboxJobId: outcome.jobId!,
      duplicate: outcome.duplicate,
      duplicateOfId: outcome.duplicateOfId,
      summary: pub,
    },
    signatureError: null,
    duplicate: outcome.duplicate,
    topic: summary.topic,
  };
}
