import {
  compatEventIdOf,
  hasNul,
  parseCompatContactUpsert,
  parseCompatJson,
  parseCompatPartnerEvent,
  parseCompatTrigger,
  sha256Hex,
  type CompatContactFields,
  type CompatTopic,
} from '@mos/core';
import {
  findContactBy,
  findContactByExternalRef,
  findLegacyPathMapping,
  findRestTriggerMapping,
  getJourney,
  lockCompatKey,
  resolveContact,
  updateContact,
  type DbOrTx,
} from '@mos/db';
import type { AppDeps } from '../deps';
import { compatError, compatSuccess, type CompatAnswer } from './answers';
import { authenticateCompat, type CompatCaller } from './auth';
import { storeCompatCall, type CompatCall } from './store';

/** Which legacy path was called, with its path parameters (as sent; judged here). */
export type CompatRoute =
  | { kind: 'contact'; route: string }
  | { kind: 'legacy_trigger'; route: string; legacyPath: string }
  | { kind: 'rest_trigger'; route: string; organizationId: string; flowId: string; triggerId: string | null }
  | { kind: 'partner_event'; route: string };

export interface CompatRequest {
  route: CompatRoute;
  headers: Record<string, string | string[] | undefined>;
  query: Record<string, unknown>;
  requestId: string;
  /** Reads the body (the HTTP layer enforces type and size; it throws an answer-shaped error). */
  readBody(): Promise<Buffer>;
}

const PATH_PARAM = /^[A-Za-z0-9_.~-]{1,128}$/;
const LEGACY_PATH = /^(?!.*\.\.)[A-Za-z0-9_.~-]+(\/[A-Za-z0-9_.~-]+){0,7}$/;
const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

function header(h: CompatRequest['headers'], name: string): string | undefined {
  const v = h[name];
  return Array.isArray(v) ? v[0] : v;
}

const notFound = () => compatError(404, 'No journey is mapped to this path');

/**
 * A legacy-compatible call (docs/compat.md), in this order: authenticate (401, nothing
 * stored), read and validate the body (400), resolve the workspace's mapping or contact
 * (404/409), then store it as an event with its outbox job: the webhook pipeline applies it.
 * Duplicates answer the first call's ids. Throws only when the store fails (the caller answers 503).
 */
export async function receiveCompatCall(deps: AppDeps, req: CompatRequest): Promise<CompatAnswer> {
  const auth = await authenticateCompat(deps, {
    apiKey: header(req.headers, 'x-api-key'),
    secret: req.query.secret,
    partnerPath: req.route.kind === 'partner_event',
  });
  if (!auth.ok) return auth.answer;
  const caller = auth.caller;

  // Path parameters are judged before the body is read: a bad one maps to nothing.
  const r = req.route;
  if (r.kind === 'legacy_trigger' && (!LEGACY_PATH.test(r.legacyPath) || hasNul(r.legacyPath))) return notFound();
  if (r.kind === 'rest_trigger' && ![r.organizationId, r.flowId, ...(r.triggerId ? [r.triggerId] : [])].every((p) => PATH_PARAM.test(p))) return notFound();

  const rawBody = await req.readBody();
  const parsed = parseCompatJson(rawBody);
  if (!parsed.ok) return compatError(400, parsed.message);
  const body = parsed.value;

  const idemHeader = header(req.headers, 'idempotency-key');
  if (idemHeader !== undefined && !IDEMPOTENCY_KEY.test(idemHeader)) return compatError(400, 'Idempotency-Key must be 1-255 printable ASCII characters');
  const callerKey = idemHeader ?? compatEventIdOf(body);
  const now = deps.clock.now();
  const base = { rawBody, headers: req.headers, query: req.query, requestId: req.requestId, receivedAt: now };

  switch (r.kind) {
    case 'contact': {
      const c = parseCompatContactUpsert(body);
      if (!c.ok) return compatError(400, c.message);
      return deps.db.transaction(async (tx) => {
        const staged = await stageContact(tx, caller, c.value, now);
        if ('answer' in staged) return staged.answer;
        const stored = await storeCompatCall(tx, caller.workspaceId, {
          ...base,
          topic: 'contact_upsert',
          route: r.route,
          // Contact updates are never deduplicated by content: A, B, then A again must end at A.
          dedup: callerKey ? { kind: 'key', value: callerKey } : null,
          orderingKey: `compat:contact:${staged.contactId}`,
          summary: summaryOf({ contactId: staged.contactId }),
        });
        return compatSuccess(stored.duplicateOf ? 'Duplicate contact update: already queued' : 'Contact update queued', {
          contactId: staged.contactId,
          webhookEventId: stored.webhookEventId,
          outboxJobId: stored.outboxJobId,
        });
      });
    }
    case 'legacy_trigger':
    case 'rest_trigger': {
      const mapping =
        r.kind === 'legacy_trigger'
          ? await findLegacyPathMapping(deps.db, r.legacyPath)
          : await findRestTriggerMapping(deps.db, r.organizationId, r.flowId, r.triggerId);
      // Another workspace's mapping answers exactly like no mapping.
      if (!mapping || mapping.workspaceId !== caller.workspaceId) return notFound();
      const t = parseCompatTrigger(body);
      if (!t.ok) return compatError(400, t.message);
      const journey = await getJourney(deps.db, caller.workspaceId, mapping.journeyId);
      if (!journey || journey.status !== 'active')
        return compatError(409, `The mapped journey is ${journey?.status ?? 'deleted'}, not active: nothing was queued`);
      return storeTrigger(deps, caller, 'journey_trigger', r.route, base, {
        callerKey,
        orderingSubject: t.value.phone,
        summary: summaryOf({ mappingId: mapping.id, journeyId: journey.id }),
        messages: ['Journey trigger queued', 'Duplicate trigger: already queued'],
        idName: 'triggerEventId',
      });
    }
    case 'partner_event': {
      const p = parseCompatPartnerEvent(body);
      if (!p.ok) return compatError(400, p.message);
      return storeTrigger(deps, caller, 'partner_event', r.route, base, {
        callerKey,
        orderingSubject: p.value.contact.phone ?? `ext:${p.value.contact.externalReferenceId}`,
        summary: summaryOf({ eventName: p.value.eventName }),
        messages: ['Event received', 'Duplicate event: already received'],
        idName: 'webhookEventId',
      });
    }
  }
}

function summaryOf(s: { mappingId?: string; journeyId?: string; contactId?: string; eventName?: string }) {
  return { mappingId: s.mappingId ?? null, journeyId: s.journeyId ?? null, contactId: s.contactId ?? null, eventName: s.eventName ?? null };
}

/** Triggers and partner events: deduplicated by the caller's key, else by an identical body within the window. */
async function storeTrigger(
  deps: AppDeps,
  caller: CompatCaller,
  topic: CompatTopic,
  route: string,
  base: Pick<CompatCall, 'rawBody' | 'headers' | 'query' | 'requestId' | 'receivedAt'>,
  o: {
    callerKey: string | null;
    orderingSubject: string;
    summary: CompatCall['summary'];
    messages: [string, string];
    idName: 'triggerEventId' | 'webhookEventId';
  },
): Promise<CompatAnswer> {
  const stored = await deps.db.transaction((tx) =>
    storeCompatCall(tx, caller.workspaceId, {
      ...base,
      topic,
      route,
      dedup: o.callerKey ? { kind: 'key', value: o.callerKey } : { kind: 'body', value: sha256Hex(base.rawBody) },
      orderingKey: `compat:contact:${sha256Hex(o.orderingSubject).slice(0, 32)}`,
      summary: o.summary,
    }),
  );
  return compatSuccess(stored.duplicateOf ? o.messages[1] : o.messages[0], { [o.idName]: stored.webhookEventId, outboxJobId: stored.outboxJobId });
}

/**
 * The contact a legacy upsert names: by phone number first, then by external reference id;
 * a new phone number creates the contact now, so the answer carries its id (the pipeline then
 * applies the fields). Two keys naming two different contacts is a conflict (409), and so is
 * an external reference id held by a contact with another phone number: a legacy call never
 * moves an identity silently.
 */
async function stageContact(tx: DbOrTx, caller: CompatCaller, c: CompatContactFields, now: Date): Promise<{ contactId: string } | { answer: CompatAnswer }> {
  const ws = caller.workspaceId;
  // Concurrent upserts of the same person serialize here (released at commit).
  await lockCompatKey(tx, ws, `contact:${c.phone ?? `ext:${c.externalReferenceId}`}`);
  const byPhone = c.phone ? await findContactBy(tx, ws, { phoneNumber: c.phone }) : undefined;
  const byRef = c.externalReferenceId ? await findContactByExternalRef(tx, ws, c.externalReferenceId, true) : undefined;
  if (byPhone && byRef && byPhone.id !== byRef.id) {
    return { answer: compatError(409, 'The phone number and the external_reference_id belong to two different contacts') };
  }
  if (byRef) {
    if (c.phone && byRef.phoneNumber !== c.phone) {
      return { answer: compatError(409, 'The external_reference_id belongs to a contact with another phone number') };
    }
    return { contactId: byRef.id };
  }
  if (!byPhone && !c.phone) return { answer: compatError(404, 'No contact has this external_reference_id: send a phone number to create one') };
  const contact = byPhone ?? (await resolveContact(tx, ws, { phoneNumber: c.phone!, userId: null }, { at: now }));
  // The keys are set now, not by the pipeline: the next call (and its conflict check) must see them.
  if (c.externalReferenceId && contact.externalReferenceId !== c.externalReferenceId) {
    await updateContact(tx, ws, contact.id, { externalReferenceId: c.externalReferenceId }, now);
  }
  return { contactId: contact.id };
}
