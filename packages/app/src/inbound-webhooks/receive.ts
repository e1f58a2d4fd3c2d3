import type { IncomingHttpHeaders } from 'node:http';
import {
  applyMapping,
  isAppError,
  parseInboundSignature,
  payloadShape,
  redactInboundHeaders,
  runReservesKey,
  sanitizeMappedRequest,
  validateMapping,
  verifyInboundSignature,
  type InboundRunStatus,
  type InboundRunIssue,
  type MappedRequest,
  type ParsedInboundSignature,
} from '@mos/core';
import {
  findContactBy,
  findInboundWebhookBySlug,
  findKeyHolderRun,
  insertInboundRun,
  lockInboundIdempotencyKey,
  updateInboundRun,
  type DbOrTx,
  type InboundWebhookRow,
  type InboundWebhookRunRow,
} from '@mos/db';
import type { AppDeps } from '../deps';
import { wakeGovernor } from '../messages/governor';
import { idempotencyKeySchema, sendMessageInput, type SendMessageInput } from '../messages/schemas';
import { enqueueMessage } from '../messages/send';

export interface InboundWebhookRequest {
  slug: string;
  headers: IncomingHttpHeaders;
  requestId?: string;
  /** Reads the raw body; throws AppError('payload_too_large') past the limit. */
  readBody: () => Promise<Buffer>;
}

export interface InboundAccepted {
  accepted: true;
  runId: string;
  status: InboundRunStatus;
  dryRun: boolean;
  messageId?: string;
  duplicateOfRunId?: string;
}
export interface InboundRefused {
  error: string;
  message?: string;
  issues?: InboundRunIssue[];
  runId?: string;
}
export interface InboundAnswer {
  status: number;
  body: InboundAccepted | InboundRefused;
}

const SLUG_RE = /^[a-z0-9][a-z0-9-]{0,99}$/;
const SIGNATURE_MESSAGES = {
  missing: 'X-Service-Signature is required',
  malformed: 'X-Service-Signature must be t=<unix seconds>,v1=<hex HMAC-SHA256>',
  stale: 'The signature timestamp is more than 5 minutes from the server clock',
} as const;

const header = (h: IncomingHttpHeaders, name: string): string | undefined => {
  const v = h[name];
  return typeof v === 'string' ? v : undefined;
};

/**
 * POST /api/v1/inbound-webhooks/{slug}. The order is the contract: a missing, malformed or
 * stale signature header is 401 whatever the slug (nothing is looked up); a well-formed
 * request to an unknown or disabled configuration is 404; the signature is then checked
 * against that configuration's key (401 and a `failed` run, no idempotency key reserved);
 * only a verified request is mapped, and sent when the configuration is live.
 * A store failure throws: the route answers 503 so the sender retries.
 */
export async function receiveInboundWebhook(deps: AppDeps, req: InboundWebhookRequest): Promise<InboundAnswer> {
  const receivedAt = deps.clock.now();
  const parsed = parseInboundSignature(
    {
      serviceSignature: header(req.headers, 'x-service-signature'),
      webhookId: header(req.headers, 'webhook-id'),
      webhookTimestamp: header(req.headers, 'webhook-timestamp'),
      webhookSignature: header(req.headers, 'webhook-signature'),
    },
    receivedAt.getTime(),
  );
  if (!parsed.ok) return { status: 401, body: { error: 'invalid_signature', message: SIGNATURE_MESSAGES[parsed.error] } };

  const config = SLUG_RE.test(req.slug) ? await findInboundWebhookBySlug(deps.db, req.slug) : undefined;
  if (!config?.enabled) {
    return { status: 404, body: { error: 'webhook_not_found_or_disabled', message: 'No enabled inbound webhook at this URL' } };
  }
  const base = {
    inboundWebhookId: config.id,
    dryRun: config.dryRun,
    signatureScheme: parsed.signature.scheme,
    requestId: req.requestId ?? null,
    headers: redactInboundHeaders(req.headers),
    receivedAt,
  };
  const ws = config.workspaceId;

  let rawBody: Buffer;
  try {
    rawBody = await req.readBody();
  } catch (err) {
    if (!isAppError(err)) throw err;
    await insertInboundRun(deps.db, ws, {
      ...base,
      status: 'failed',
      httpStatus: err.status,
      errors: [{ code: err.code, message: err.message }],
      finishedAt: deps.clock.now(),
    });
    throw err;
  }

  if (!verifyInboundSignature(parsed.signature, rawBody, config.secretHash)) {
    const run = await insertInboundRun(deps.db, ws, {
      ...base,
      status: 'failed',
      httpStatus: 401,
      errors: [{ code: 'invalid_signature', message: 'No signature entry matches this configuration’s secret' }],
      finishedAt: deps.clock.now(),
    });
    deps.log.warn({ requestId: req.requestId, inboundWebhookId: config.id, runId: run.id }, 'inbound webhook: signature mismatch');
    return { status: 401, body: { error: 'invalid_signature', message: 'The signature does not match', runId: run.id } };
  }

  const key = idempotencyKeyOf(req.headers, parsed.signature);
  if (key.error) {
    const run = await insertInboundRun(deps.db, ws, { ...base, status: 'failed', httpStatus: 400, errors: [key.error], finishedAt: deps.clock.now() });
    return { status: 400, body: { error: 'invalid_request', message: key.error.message, runId: run.id } };
  }
  // Recorded at once, so a request whose processing is interrupted still shows as `verified`.
  const run = await insertInboundRun(deps.db, ws, { ...base, status: 'verified', idempotencyKey: key.value ?? null });
  const outcome = await deps.db.transaction((tx) => processVerified(deps, tx, config, run, rawBody, key.value));
  if (outcome.wake) await wakeGovernor(deps, ws, outcome.wake);
  deps.log.info(
    { requestId: req.requestId, inboundWebhookId: config.id, runId: run.id, status: outcome.run.status, httpStatus: outcome.answer.status },
    'inbound webhook run finished',
  );
  return outcome.answer;
}

function idempotencyKeyOf(h: IncomingHttpHeaders, sig: ParsedInboundSignature): { value?: string; error?: InboundRunIssue } {
  const raw = header(h, 'idempotency-key') ?? (sig.scheme === 'standard' ? sig.id : undefined);
  if (raw === undefined) return {};
  const ok = idempotencyKeySchema.safeParse(raw);
  return ok.success
    ? { value: ok.data }
    : { error: { code: 'invalid_idempotency_key', message: 'Idempotency-Key must be 1 to 255 printable ASCII characters' } };
}

type RunPatch = Omit<Parameters<typeof updateInboundRun>[3], 'status'>;

interface Outcome {
  run: InboundWebhookRunRow;
  answer: InboundAnswer;
  /** The phone number id whose governor to wake after commit. */
  wake?: string;
}

/**
 * One transaction per verified request: the key check (serialised per key), the mapping, the
 * message insert and the run's outcome commit together, so a repeat never sees a half-done
 * first request and a failure leaves nothing but the `verified` run.
 */
async function processVerified(
  deps: AppDeps,
  tx: DbOrTx,
  config: InboundWebhookRow,
  run: InboundWebhookRunRow,
  rawBody: Buffer,
  key: string | undefined,
): Promise<Outcome> {
  const ws = config.workspaceId;
  const finish = async (status: InboundRunStatus, httpStatus: number, patch: RunPatch = {}) =>
    updateInboundRun(tx, ws, run.id, { ...patch, status, httpStatus, reservesKey: key !== undefined && runReservesKey(status), finishedAt: deps.clock.now() });
  const refuse = async (httpStatus: number, error: string, message: string, errors: InboundRunIssue[], patch: RunPatch = {}): Promise<Outcome> => {
    const done = await finish('failed', httpStatus, { ...patch, errors });
    return { run: done, answer: { status: httpStatus, body: { error, message, ...(errors.length ? { issues: errors } : {}), runId: run.id } } };
  };

  if (key !== undefined) {
    await lockInboundIdempotencyKey(tx, config.id, key);
    const holder = await findKeyHolderRun(tx, ws, config.id, key);
    if (holder) {
      const done = await finish('skipped_duplicate', 200, { duplicateOfRunId: holder.id, messageId: holder.messageId, contactId: holder.contactId });
      const body: InboundAccepted = { accepted: true, runId: run.id, status: 'skipped_duplicate', dryRun: holder.dryRun, duplicateOfRunId: holder.id };
      if (holder.messageId) body.messageId = holder.messageId;
      return { run: done, answer: { status: 200, body } };
    }
  }

  const payload = parseJson(rawBody);
  if (!payload.ok) return refuse(400, 'invalid_payload', payload.message, [{ code: 'invalid_payload', message: payload.message }]);
  const shape = { payloadShape: payloadShape(payload.value) };

  const fixed = { templateName: config.templateName, templateLocale: config.templateLocale };
  const compiled = validateMapping(config.mapping, fixed);
  if (!compiled.ok) return refuse(422, 'mapping_failed', 'The configuration’s mapping is not valid', compiled.issues, shape);
  const mapped = applyMapping(compiled.mapping, payload.value, fixed);
  const diagnostics = { ...shape, mappedRequest: sanitizeMappedRequest(compiled.mapping, mapped.ok ? mapped.request : mapped.partial) };
  if (!mapped.ok) return refuse(422, 'mapping_failed', 'The payload does not map to a sendable request', mapped.issues, diagnostics);

  const input = sendMessageInput.safeParse(toSendInput(mapped.request));
  if (!input.success) {
    const issues = input.error.issues.map((i) => ({ code: 'invalid_value', target: i.path.join('.'), message: i.message }));
    return refuse(422, 'mapping_failed', 'The mapped request is not a valid template send', issues, diagnostics);
  }

  if (config.dryRun) {
    // Links the run to a contact we already know (for their GDPR export); creates nobody.
    const contact = await findContactBy(tx, ws, { phoneNumber: mapped.request.to }, { lock: false });
    const done = await finish('dry_run', 200, { ...diagnostics, contactId: contact?.id ?? null });
    return { run: done, answer: { status: 200, body: { accepted: true, runId: run.id, status: 'dry_run', dryRun: true } } };
  }

  try {
    // A savepoint: a refusal rolls back only the send, and the run records it.
    const queued = await tx.transaction((sp) =>
      enqueueMessage(deps, sp, { workspaceId: ws, actorId: `inbound_webhook:${config.id}`, role: 'platform' }, input.data),
    );
    const done = await finish('queued', 200, { ...diagnostics, messageId: queued.row.id, contactId: queued.row.contactId });
    return {
      run: done,
      answer: { status: 200, body: { accepted: true, runId: run.id, status: 'queued', dryRun: false, messageId: queued.row.id } },
      ...(queued.created ? { wake: queued.row.phoneNumberId } : {}),
    };
  } catch (err) {
    if (!isAppError(err)) throw err;
    const issues = [{ code: err.code, message: err.message }];
    return refuse(err.status, err.code, err.message, issues, diagnostics);
  }
}

function parseJson(raw: Buffer): { ok: true; value: unknown } | { ok: false; message: string } {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(raw);
  } catch {
    return { ok: false, message: 'The body is not UTF-8' };
  }
  try {
    const value: unknown = JSON.parse(text);
    if (value === null || typeof value !== 'object') return { ok: false, message: 'The body must be a JSON object or array' };
    return { ok: true, value };
  } catch {
    return { ok: false, message: 'The body is not valid JSON' };
  }
}

function toSendInput(r: MappedRequest): SendMessageInput {
  const doc = r.parameters.header?.document;
  const parameters = {
    ...(r.parameters.body.length ? { body: r.parameters.body } : {}),
    ...(doc ? { header: { type: 'document' as const, link: doc.link, ...(doc.filename ? { filename: doc.filename } : {}) } } : {}),
  };
  return {
    type: 'template',
    to: r.to,
    template: { name: r.templateName, language: r.templateLocale, ...(Object.keys(parameters).length ? { parameters } : {}) },
  };
}
