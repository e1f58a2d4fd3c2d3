import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { newId, SERVICE_WINDOW_MS } from '@mos/core';
import type { DbOrTx } from '../client';
import { conversations, conversationWindows } from '../schema/index';

export type ConversationRow = typeof conversations.$inferSelect;
export type ConversationWindowRow = typeof conversationWindows.$inferSelect;

/**
 * Creates or updates the contact's conversation for an inbound message at `at`, opening or
 * extending the 24-hour service window. Order-independent: the expiry is the latest inbound
 * time + 24 h; the opening moves to `at` when `at` falls after the window closed (a new
 * window), or earlier when a late-arriving older message still touches the window.
 */
export async function touchConversationInbound(db: DbOrTx, workspaceId: string, contactId: string, at: Date): Promise<ConversationRow> {
  const expires = new Date(at.getTime() + SERVICE_WINDOW_MS);
  const c = conversations;
  const [row] = await db
    .insert(c)
    .values({ id: newId('conversation'), workspaceId, contactId, lastMessageAt: at, lastInboundAt: at, windowOpenedAt: at, windowExpiresAt: expires })
    .onConflictDoUpdate({
      target: [c.workspaceId, c.contactId],
      set: {
        windowOpenedAt: sql`CASE
          WHEN ${c.windowExpiresAt} IS NULL OR excluded.last_inbound_at > ${c.windowExpiresAt} THEN excluded.window_opened_at
          WHEN excluded.last_inbound_at < ${c.windowOpenedAt} AND excluded.window_expires_at >= ${c.windowOpenedAt} THEN excluded.window_opened_at
          ELSE ${c.windowOpenedAt} END`,
        windowExpiresAt: sql`greatest(${c.windowExpiresAt}, excluded.window_expires_at)`,
        lastMessageAt: sql`greatest(${c.lastMessageAt}, excluded.last_message_at)`,
        lastInboundAt: sql`greatest(${c.lastInboundAt}, excluded.last_inbound_at)`,
        updatedAt: sql`now()`,
      },
    })
    .returning();
  return row!;
}

/** The contact's conversation, created without a window when it does not exist (statuses). */
export async function ensureConversation(db: DbOrTx, workspaceId: string, contactId: string): Promise<ConversationRow> {
  const [inserted] = await db
    .insert(conversations)
    .values({ id: newId('conversation'), workspaceId, contactId })
    .onConflictDoNothing({ target: [conversations.workspaceId, conversations.contactId] })
    .returning();
  if (inserted) return inserted;
  const [row] = await db
    .select()
    .from(conversations)
    .where(and(eq(conversations.workspaceId, workspaceId), eq(conversations.contactId, contactId)));
  return row!;
}

/**
 * The provider reported the service window closed at `at` (a 131047 failure). Our window
 * ends no later than that, unless an inbound message at or after `at` reopened it.
 */
export async function closeServiceWindow(db: DbOrTx, workspaceId: string, conversationId: string, at: Date): Promise<void> {
  const c = conversations;
  await db
    .update(c)
    .set({ windowExpiresAt: sql`least(${c.windowExpiresAt}, ${at})`, updatedAt: sql`now()` })
    .where(
      and(
        eq(c.workspaceId, workspaceId),
        eq(c.id, conversationId),
        sql`${c.windowExpiresAt} > ${at}`,
        sql`(${c.lastInboundAt} IS NULL OR ${c.lastInboundAt} < ${at})`,
      ),
    );
}

/** Moves `last_message_at` forward (an outbound message); never backwards. */
export async function touchConversationMessage(db: DbOrTx, workspaceId: string, conversationId: string, at: Date): Promise<void> {
  await db
    .update(conversations)
    .set({ lastMessageAt: sql`greatest(${conversations.lastMessageAt}, ${at})`, updatedAt: sql`now()` })
    .where(and(eq(conversations.workspaceId, workspaceId), eq(conversations.id, conversationId)));
}

export interface ProviderWindowInput {
  conversationId: string;
  providerConversationId: string;
  originType?: string | null;
  expiresAt?: Date | null;
  billable?: boolean | null;
  pricingModel?: string | null;
  pricingCategory?: string | null;
  /** The time of the status that reported it. */
  at: Date;
}

/**
 * Records a provider conversation (pricing) window from a status: one row per provider
 * conversation id; repeated reports merge (earliest opening, known values kept). The thread
 * then points at the window that closes last.
 */
export async function upsertProviderWindow(db: DbOrTx, workspaceId: string, input: ProviderWindowInput): Promise<ConversationWindowRow> {
  const w = conversationWindows;
  const [row] = await db
    .insert(w)
    .values({
      id: newId('conversationWindow'),
      workspaceId,
      conversationId: input.conversationId,
      providerConversationId: input.providerConversationId,
      originType: input.originType ?? null,
      openedAt: input.at,
      expiresAt: input.expiresAt ?? null,
      billable: input.billable ?? null,
      pricingModel: input.pricingModel ?? null,
      pricingCategory: input.pricingCategory ?? null,
    })
    .onConflictDoUpdate({
      target: [w.workspaceId, w.providerConversationId],
      set: {
        openedAt: sql`least(${w.openedAt}, excluded.opened_at)`,
        expiresAt: sql`coalesce(excluded.expires_at, ${w.expiresAt})`,
        originType: sql`coalesce(excluded.origin_type, ${w.originType})`,
        billable: sql`coalesce(excluded.billable, ${w.billable})`,
        pricingModel: sql`coalesce(excluded.pricing_model, ${w.pricingModel})`,
        pricingCategory: sql`coalesce(excluded.pricing_category, ${w.pricingCategory})`,
        updatedAt: sql`now()`,
      },
    })
    .returning();
  const c = conversations;
  await db
    .update(c)
    .set({
      providerConversationId: row!.providerConversationId,
      providerWindowExpiresAt: row!.expiresAt,
      pricingCategory: row!.pricingCategory ?? row!.originType,
      updatedAt: sql`now()`,
    })
    .where(
      and(
        eq(c.workspaceId, workspaceId),
        eq(c.id, input.conversationId),
        sql`(${c.providerWindowExpiresAt} IS NULL OR ${c.providerConversationId} = ${row!.providerConversationId}
             OR ${row!.expiresAt}::timestamptz >= ${c.providerWindowExpiresAt})`,
      ),
    );
  return row!;
}

export async function getConversation(db: DbOrTx, workspaceId: string, conversationId: string): Promise<ConversationRow | undefined> {
  const [row] = await db
    .select()
    .from(conversations)
    .where(and(eq(conversations.workspaceId, workspaceId), eq(conversations.id, conversationId)));
  return row;
}

export async function listContactConversations(db: DbOrTx, workspaceId: string, contactId: string): Promise<ConversationRow[]> {
  return db
    .select()
    .from(conversations)
    .where(and(eq(conversations.workspaceId, workspaceId), eq(conversations.contactId, contactId)))
    .orderBy(desc(conversations.lastMessageAt));
}

export async function listConversationWindows(db: DbOrTx, workspaceId: string, conversationIds: string[]): Promise<ConversationWindowRow[]> {
  if (conversationIds.length === 0) return [];
  return db
    .select()
    .from(conversationWindows)
    .where(and(eq(conversationWindows.workspaceId, workspaceId), inArray(conversationWindows.conversationId, conversationIds)))
    .orderBy(conversationWindows.openedAt);
}

/** The contact's conversation (one per contact), if it ever had one. */
export async function getConversationOfContact(db: DbOrTx, workspaceId: string, contactId: string): Promise<ConversationRow | undefined> {
  const [row] = await db
    .select()
    .from(conversations)
    .where(and(eq(conversations.workspaceId, workspaceId), eq(conversations.contactId, contactId)));
  return row;
}
