import { fileURLToPath } from 'node:url';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import { createDatabase } from './client';

export const MIGRATIONS_DIR = fileURLToPath(new URL('../migrations', import.meta.url));

/** Applies the committed drizzle-kit migrations; safe to run repeatedly and concurrently. */
export async function runMigrations(url: string): Promise<void> {
  const database = createDatabase(url, { max: 1, applicationName: 'mos-migrate' });
  try {
    // An advisory lock serialises concurrent starts (up.sh and a test run, two workers).
    await database.pool.query('SELECT pg_advisory_lock(727274)');
    await migrate(database.db, { migrationsFolder: MIGRATIONS_DIR });
  } finally {
    await database.pool.query('SELECT pg_advisory_unlock(727274)').catch(() => {});
    await database.close();
  }
}
