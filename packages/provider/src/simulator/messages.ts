import type { Response } from 'express';
import type { SimEngine } from './engine';
import * as E from './graph-errors';
import { checkTemplate, parseSend } from './send-rules';
import type { SimMessage } from './store';

const roll = (random: () => number, share: number) => share >= 1 || (share > 0 && random() < share);

/**
 * Everything between a send's request and its acceptance, in the provider's order: the
 * throughput gate (which every attempt past it uses up), the request checks, the template or
 * the customer service window, the pair limit. Returns the accepted message or the error.
 */
export function trySend(engine: SimEngine, phoneNumberId: string, raw: unknown, nowMs: number): { message: SimMessage } | { error: E.GraphError } {
  if (!engine.throughput.take(phoneNumberId, nowMs)) return { error: E.rateLimitHit() };
  const send = parseSend(raw);
  if ('error' in send) return send;
  let category = 'service';
  if (send.template) {
    const t = checkTemplate(engine.store, send.template, engine.config.wabaId);
    if ('error' in t) return t;
    category = t.category.toLowerCase();
  } else if (!engine.windows.isOpen(phoneNumberId, send.waId, nowMs)) return { error: E.reEngagement() };
  if (!engine.pairs.allowed(phoneNumberId, send.waId, nowMs)) return { error: E.pairRateLimitHit() };

  engine.pairs.accepted(phoneNumberId, send.waId, nowMs);
  const { readShare, failShare, failCodes } = engine.statuses.options;
  const fails = roll(engine.random, failShare);
  const message: SimMessage = {
    id: engine.newMessageId(),
    phoneNumberId,
    to: send.to,
    waId: send.waId,
    type: send.type,
    body: send.body,
    acceptedAt: new Date(nowMs).toISOString(),
    ...(send.callbackData === undefined ? {} : { callbackData: send.callbackData }),
    category,
    plan: fails
      ? { fails, read: false, failCode: failCodes[failCodes.length > 1 ? Math.floor(engine.random() * failCodes.length) : 0] }
      : { fails, read: roll(engine.random, readShare) },
    statuses: [],
  };
  engine.store.messages.push(message);
  engine.stats.accepted({
    phoneNumberId,
    waId: send.waId,
    callbackData: send.callbackData,
    nowMs,
    limit: engine.throughput.limitOf(phoneNumberId),
    pairSpacingMs: engine.pairs.spacingMs,
  });
  engine.statuses.accept(message);
  return { message };
}

/** `message_status` (template pacing) is only part of the answer for template sends, as documented. */
export function acceptedBody(m: SimMessage) {
  return {
    messaging_product: 'whatsapp',
    contacts: [{ input: m.to, wa_id: m.waId }],
    messages: [{ id: m.id, ...(m.type === 'template' ? { message_status: 'accepted' } : {}) }],
  };
}

/** `POST /{version}/{phone-number-id}/messages` once the token and phone number checked out: faults first, then the send. */
export function handleSend(engine: SimEngine, phoneNumberId: string, raw: unknown, res: Response): void {
  const nowMs = engine.clock();
  const fault = engine.faults.roll();
  const hangUntil = () => Date.now() + engine.faults.faults.hangMs;
  if (fault === 'server_error') {
    const e = E.unexpectedError(engine.faults.serverStatus());
    engine.stats.rejected(phoneNumberId, e.body.error.code ?? 1, nowMs);
    return void res.status(e.status).json(e.body);
  }
  if (fault === 'timeout' && engine.faults.faults.timeoutMode === 'before_accept') {
    engine.stats.timedOut(phoneNumberId, false);
    return engine.hangs.hold(res, hangUntil());
  }
  const out = trySend(engine, phoneNumberId, raw, nowMs);
  if ('error' in out) {
    engine.stats.rejected(phoneNumberId, out.error.body.error.code ?? 0, nowMs);
    return void res.status(out.error.status).json(out.error.body);
  }
  if (fault === 'timeout') {
    // Accepted, counted and its statuses flow; only the answer is lost.
    out.message.responseLost = true;
    engine.stats.timedOut(phoneNumberId, true);
    return engine.hangs.hold(res, hangUntil());
  }
  res.json(acceptedBody(out.message));
}
