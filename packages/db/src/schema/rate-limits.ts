import { bigint, integer, pgTable, varchar } from 'drizzle-orm/pg-core';

/**
 * The API's shared rate limiter counters (RATE_LIMIT_STORE=postgres; packages/http
 * per-second-limit.ts): rate-limiter-flexible's RateLimiterPostgres layout, column for column,
 * created here so the library never runs DDL at request time (it is given `tableCreated: true`).
 * Platform-wide like worker_heartbeats: keys are budgets (a webhook source, an inbound slug, a
 * hashed compat caller), not tenant rows. Rows are per key and reused each window; the library
 * deletes those expired an hour ago.
 */
export const rateLimits = pgTable('rate_limits', {
  key: varchar('key', { length: 255 }).primaryKey(),
  points: integer('points').notNull().default(0),
  /** Epoch milliseconds the current window ends (the library's own clock). */
  expire: bigint('expire', { mode: 'number' }),
});
