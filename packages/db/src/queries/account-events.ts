import { and, desc, eq, type SQL } from 'drizzle-orm';
import { newId, sha256Hex } from '@mos/core';
import type { DbOrTx } from '../client';
import { accountEvents, type StoredProviderError } from '../schema/index';

export type AccountEventRow = typeof accountEvents.$inferSelect;

export interface AccountEventInput {
  field: string;
  event: string;
  occurredAt: Date | null;
  /** One sentence for operators, free of personal data. */
  summary: string;
  value: unknown;
  errors: StoredProviderError[];
  accountId: string | null;
  phoneNumberId: string | null;
  displayPhoneNumber: string | null;
}

/** JSON with object keys sorted at every level, so equal values hash equally whatever their key order. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

/**
 * What makes two deliveries the same account event: where (account, number), what (field,
 * event), when (the provider's time) and the value itself. A replay or a provider retry of
 * one change maps to one key; two changes differ in at least one of these.
 */
export function accountEventDedupeKey(input: Omit<AccountEventInput, 'summary' | 'errors'>): string {
  return sha256Hex(
    canonicalJson([
      input.accountId,
      input.phoneNumberId,
      input.displayPhoneNumber,
      input.field,
      input.event,
      input.occurredAt?.toISOString() ?? null,
      sha256Hex(canonicalJson(input.value)),
    ]),
  );
}

/** Records one account event; a replay of the same change is a no-op that returns the stored row. */
export async function recordAccountEvent(
  db: DbOrTx,
  workspaceId: string,
  input: AccountEventInput,
  now: Date,
): Promise<{ row: AccountEventRow; created: boolean }> {
  const dedupeKey = accountEventDedupeKey(input);
  const [inserted] = await db
    .insert(accountEvents)
    .values({
      id: newId('accountEvent', now.getTime()),
      workspaceId,
      field: input.field,
      event: input.event,
      occurredAt: input.occurredAt,
      eventAt: input.occurredAt ?? now,
      summary: input.summary,
      value: input.value ?? null,
      errors: input.errors,
      accountId: input.accountId,
      phoneNumberId: input.phoneNumberId,
      displayPhoneNumber: input.displayPhoneNumber,
      dedupeKey,
      createdAt: now,
    })
    .onConflictDoNothing({ target: [accountEvents.workspaceId, accountEvents.dedupeKey] })
    .returning();
  if (inserted) return { row: inserted, created: true };
  const [existing] = await db
    .select()
    .from(accountEvents)
    .where(and(eq(accountEvents.workspaceId, workspaceId), eq(accountEvents.dedupeKey, dedupeKey)));
  return { row: existing!, created: false };
}

/** Newest first (the provider's time, else when we recorded it), optionally one field only. */
export async function listAccountEvents(db: DbOrTx, workspaceId: string, opts: { limit: number; offset: number; field?: string }): Promise<AccountEventRow[]> {
  const where: SQL[] = [eq(accountEvents.workspaceId, workspaceId)];
  if (opts.field) where.push(eq(accountEvents.field, opts.field));
  return db
    .select()
    .from(accountEvents)
    .where(and(...where))
    .orderBy(desc(accountEvents.eventAt), desc(accountEvents.id))
    .limit(opts.limit)
    .offset(opts.offset);
}
