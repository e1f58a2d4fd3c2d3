import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { createDatabase, type Database } from '../client';
import { MIGRATIONS_DIR, runMigrations } from '../migrate';

/**
 * Each integration suite gets its own fresh database, cloned from a migrated template.
 * A database (rather than a schema) also isolates LISTEN/NOTIFY channels and advisory
 * locks, which the outbox relay relies on.
 */
function migrationsDigest(dir: string): string {
  const hash = createHash('sha256');
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else hash.update(name).update(readFileSync(p));
    }
  };
  walk(dir);
  return hash.digest('hex').slice(0, 12);
}

/**
 * Content-addressed: the template's name carries a digest of the migrations, so concurrent
 * test runs share it safely and a changed migration gets a new template.
 */
const TEMPLATE_DB = `mos_tpl_${migrationsDigest(MIGRATIONS_DIR)}`;

function baseUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('DATABASE_URL must point at a PostgreSQL server for integration tests (./infra/test.sh sets it)');
  return url;
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: withDatabase(baseUrl(), 'postgres') });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Builds the migrated template unless it exists (vitest globalSetup calls this). */
export async function prepareTemplateDatabase(): Promise<void> {
  await admin(async (c) => {
    await c.query('SELECT pg_advisory_lock(727275)');
    try {
      const ready = await c.query(`SELECT 1 FROM pg_database WHERE datname = $1`, [TEMPLATE_DB]);
      if (ready.rowCount) return;
      // Build under a scratch name and rename, so a half-migrated template is never cloned.
      const scratch = `${TEMPLATE_DB}_build`;
      await c.query(`DROP DATABASE IF EXISTS ${scratch} WITH (FORCE)`);
      await c.query(`CREATE DATABASE ${scratch}`);
      await runMigrations(withDatabase(baseUrl(), scratch));
      await c.query(`ALTER DATABASE ${scratch} RENAME TO ${TEMPLATE_DB}`);
    } finally {
      await c.query('SELECT pg_advisory_unlock(727275)');
    }
  });
}

export interface TestDatabase extends Database {
  url: string;
  name: string;
  drop(): Promise<void>;
}

export async function createTestDatabase(options: { max?: number } = {}): Promise<TestDatabase> {
  const name = `mos_t_${randomBytes(6).toString('hex')}`;
  await admin(async (c) => {
    // CREATE DATABASE ... TEMPLATE needs the template to have no other connections.
    for (let attempt = 0; ; attempt++) {
      try {
        await c.query(`CREATE DATABASE ${name} TEMPLATE ${TEMPLATE_DB}`);
        return;
      } catch (err) {
        if (attempt > 50 || !String((err as Error).message).includes('being accessed')) throw err;
        await new Promise((r) => setTimeout(r, 100));
      }
    }
  });
  const url = withDatabase(baseUrl(), name);
  const database = createDatabase(url, { max: options.max ?? 5, applicationName: 'mos-test' });
  return {
    ...database,
    url,
    name,
    async drop() {
      await database.close();
      await admin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
    },
  };
}
export * from './webhooks';
export * from './account-examples';
