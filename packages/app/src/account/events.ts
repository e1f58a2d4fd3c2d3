import { z } from 'zod';
import { ACCOUNT_EVENT_FIELDS, enumParam, LIMITS, pageQuery, pageSchema, redactPersonalData, seesPersonalData } from '@mos/core';
import { listAccountEvents, listChannelLimits, type AccountEventRow, type ChannelLimitRow } from '@mos/db';
import type { AppDeps } from '../deps';
import type { Scope } from '../scope';

/**
 * Operator reads of what the provider said about the business account and its numbers
 * (docs/account.md). The same functions back tRPC `account.*`, GET /internal/account-events
 * and /internal/account-limits (API app) and `mos account`.
 * Any operator reads them; values of `security` events name who asked for a PIN reset, so
 * viewers get those values redacted (docs/security.md).
 */

export const listAccountEventsInput = z.object({
  ...pageSchema(LIMITS.accountEvents).shape,
  field: z.enum(ACCOUNT_EVENT_FIELDS).optional(),
});

/**
 * The same input from query strings (GET /internal/account-events, `mos account events`):
 * each bad value is 400 invalid_query naming it; absent or empty means the default.
 */
export function accountEventsQuery(query: Readonly<Record<string, unknown>>): z.input<typeof listAccountEventsInput> {
  return {
    ...pageQuery(query, LIMITS.accountEvents),
    field: enumParam(query.field, 'field', ACCOUNT_EVENT_FIELDS),
  };
}

const providerErrorView = z.object({
  code: z.number(),
  title: z.string().nullable(),
  message: z.string().nullable(),
  details: z.string().nullable(),
  href: z.string().nullable(),
});

export const accountEventView = z.object({
  id: z.string(),
  field: z.string(),
  event: z.string(),
  /** The provider's time; null when the delivery gave none. */
  occurredAt: z.string().nullable(),
  summary: z.string(),
  /** The provider's value verbatim (redacted for viewers on `security` events). */
  value: z.unknown(),
  errors: z.array(providerErrorView),
  accountId: z.string().nullable(),
  phoneNumberId: z.string().nullable(),
  displayPhoneNumber: z.string().nullable(),
  recordedAt: z.string(),
});
export type AccountEventView = z.infer<typeof accountEventView>;

export const channelLimitView = z.object({
  scope: z.enum(['account', 'phone_number']),
  accountId: z.string().nullable(),
  phoneNumberId: z.string().nullable(),
  displayPhoneNumber: z.string().nullable(),
  messagingLimitTier: z.string().nullable(),
  maxDailyConversations: z.number().nullable(),
  maxPhoneNumbers: z.number().nullable(),
  throughputLevel: z.string().nullable(),
  qualityEvent: z.string().nullable(),
  banState: z.string().nullable(),
  /** Per field, the provider time of the event that stated it (null: that event had no time). */
  statedAt: z.record(z.string(), z.string().nullable()),
  lastField: z.string().nullable(),
  lastEvent: z.string().nullable(),
  lastEventAt: z.string().nullable(),
  updatedAt: z.string(),
});
export type ChannelLimitView = z.infer<typeof channelLimitView>;

/** Fields whose values may name a person (the PIN reset requester); everything else is business data. */
const PERSONAL_FIELDS = new Set(['security']);

export function toAccountEventView(r: AccountEventRow, opts: { redactPersonalData: boolean }): AccountEventView {
  return {
    id: r.id,
    field: r.field,
    event: r.event,
    occurredAt: r.occurredAt?.toISOString() ?? null,
    summary: r.summary,
    value: opts.redactPersonalData && PERSONAL_FIELDS.has(r.field) ? redactPersonalData(r.value) : r.value,
    errors: r.errors,
    accountId: r.accountId,
    phoneNumberId: r.phoneNumberId,
    displayPhoneNumber: r.displayPhoneNumber,
    recordedAt: r.createdAt.toISOString(),
  };
}

export function toChannelLimitView(r: ChannelLimitRow): ChannelLimitView {
  return {
    scope: r.scope,
    accountId: r.accountId,
    phoneNumberId: r.phoneNumberId,
    displayPhoneNumber: r.displayPhoneNumber,
    messagingLimitTier: r.messagingLimitTier,
    maxDailyConversations: r.maxDailyConversations,
    maxPhoneNumbers: r.maxPhoneNumbers,
    throughputLevel: r.throughputLevel,
    qualityEvent: r.qualityEvent,
    banState: r.banState,
    statedAt: r.statedAt as Record<string, string | null>,
    lastField: r.lastField,
    lastEvent: r.lastEvent,
    lastEventAt: r.lastEventAt?.toISOString() ?? null,
    updatedAt: r.updatedAt.toISOString(),
  };
}

/** Newest first (the provider's time), optionally one field; the caller's workspace only. */
export async function listWorkspaceAccountEvents(
  deps: AppDeps,
  scope: Scope,
  input: z.input<typeof listAccountEventsInput> = {},
): Promise<{ accountEvents: AccountEventView[] }> {
  const q = listAccountEventsInput.parse(input);
  const rows = await listAccountEvents(deps.db, scope.workspaceId, q);
  const redact = !seesPersonalData(scope.role);
  return { accountEvents: rows.map((r) => toAccountEventView(r, { redactPersonalData: redact })) };
}

/** The current limits per scope (the account, each business number), as the send governor reads them. */
export async function listWorkspaceChannelLimits(deps: AppDeps, scope: Scope): Promise<{ channelLimits: ChannelLimitView[] }> {
  return { channelLimits: (await listChannelLimits(deps.db, scope.workspaceId)).map(toChannelLimitView) };
}
