import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { createTestDatabase, type TestDatabase } from './index';

describe('createTestDatabase', () => {
  let a: TestDatabase;
  let b: TestDatabase;
  beforeAll(async () => {
    [a, b] = await Promise.all([createTestDatabase(), createTestDatabase()]);
  });
  afterAll(async () => {
    await Promise.all([a?.drop(), b?.drop()]);
  });

  it('gives each suite its own migrated database', async () => {
    expect(a.name).not.toBe(b.name);
    await a.db.execute(sql`INSERT INTO workspaces (id, workspace_id, slug, name) VALUES ('ws_a', 'ws_a', 'a', 'A')`);
    const inA = await a.db.execute(sql`SELECT count(*)::int AS n FROM workspaces`);
    const inB = await b.db.execute(sql`SELECT count(*)::int AS n FROM workspaces`);
    expect(inA.rows[0]).toEqual({ n: 1 });
    expect(inB.rows[0]).toEqual({ n: 0 });
  });
});
