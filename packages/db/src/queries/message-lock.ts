import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../client';

/**
 * Serialises, per provider message id and for the rest of the transaction, storing a message
 * with recording what joins it (statuses, edits, a revoke). Without it two transactions under
 * READ COMMITTED miss each other: the message inserted while a revoke is being recorded finds
 * no revoke yet, and the revoke finds no message yet, so neither applies it. Holding this lock
 * first, the second transaction waits for the first to commit and then sees its rows. A hash
 * collision only makes two unrelated messages wait for each other.
 */
export async function lockProviderMessage(db: DbOrTx, workspaceId: string, providerMessageId: string): Promise<void> {
  await db.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${workspaceId} || ':' || ${providerMessageId}, 0))`);
}
