import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import { PgTransaction } from 'drizzle-orm/pg-core';
import pg from 'pg';
import * as schema from './schema/index';

export type Schema = typeof schema;
export type Db = NodePgDatabase<Schema>;
/** A transaction handle; query functions accept either so callers can compose them. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

/**
 * Runs `work` atomically: directly on `db` when it is already a transaction (the caller's
 * transaction makes it atomic, without a savepoint's two extra round trips), in a new
 * transaction when it is a pool.
 */
export function atomically<T>(db: DbOrTx, work: (tx: DbOrTx) => Promise<T>): Promise<T> {
  return db instanceof PgTransaction ? work(db) : db.transaction(work);
}

export interface Database {
  db: Db;
  pool: pg.Pool;
  close(): Promise<void>;
}

// timestamptz and bigint parsing: keep pg's Date for timestamptz; counts come back as text
// from COUNT(*), so queries cast them explicitly.
export function createDatabase(url: string, options: { max?: number; applicationName?: string } = {}): Database {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.max ?? 10,
    application_name: options.applicationName ?? 'mos',
    connectionTimeoutMillis: 5_000,
    idleTimeoutMillis: 30_000,
  });
  // An idle client erroring (server restart) must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  // A checked-out client whose connection dies mid-query (server restart, terminated backend)
  // also emits 'error'; without a listener that is an uncaught exception that kills the
  // process. The failed query still rejects, so callers see the failure.
  pool.on('connect', (client) => client.on('error', () => {}));
  const db = drizzle(pool, { schema, casing: 'snake_case' });
  return { db, pool, close: () => pool.end() };
}
