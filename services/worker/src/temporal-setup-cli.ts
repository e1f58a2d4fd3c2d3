import { parseArgs } from 'node:util';
import { Client, Connection } from '@temporalio/client';
import { describeTemporal, resolveTemporalConnection, type TemporalConnectionSettings } from '@mos/config';
import { setupTemporalNamespace } from './temporal-setup';

/**
 * `pnpm temporal:setup [--namespace NS] [--create-namespace [--retention-days N]] [--json]`:
 * registers every search attribute mos uses on the namespace (TEMPORAL_NAMESPACE unless
 * --namespace), connecting exactly as the worker does (TEMPORAL_ADDRESS, TEMPORAL_API_KEY,
 * TEMPORAL_TLS_*). Idempotent. Exit 0: done; 1: Temporal refused or failed; 2: bad usage or config.
 * Needs no database: a deployment runs it once per namespace, before the workers.
 */
const usage = 'usage: pnpm temporal:setup [--namespace NS] [--create-namespace [--retention-days N]] [--json]';
let args: ReturnType<typeof parse>;
function parse() {
  return parseArgs({
    options: {
      namespace: { type: 'string' },
      'create-namespace': { type: 'boolean', default: false },
      'retention-days': { type: 'string', default: '7' },
      json: { type: 'boolean', default: false },
    },
  }).values;
}
let settings: TemporalConnectionSettings;
try {
  args = parse();
  settings = resolveTemporalConnection(process.env);
} catch (err) {
  process.stderr.write(`temporal:setup: ${(err as Error).message}\n${usage}\n`);
  process.exit(2);
}
const retentionDays = Number(args['retention-days']);
if (!Number.isInteger(retentionDays) || retentionDays < 1) {
  process.stderr.write(`temporal:setup: --retention-days must be a whole number of days, at least 1\n${usage}\n`);
  process.exit(2);
}
const namespace = args.namespace ?? settings.namespace;
const { namespace: _namespace, ...connectOptions } = settings;

let connection: Connection | null = null;
try {
  connection = await Connection.connect({ ...connectOptions, connectTimeout: '10 seconds' });
  const result = await setupTemporalNamespace(new Client({ connection, namespace }), {
    ...(args['create-namespace'] ? { createNamespace: { retentionDays } } : {}),
  });
  if (args.json) process.stdout.write(`${JSON.stringify(result)}\n`);
  else {
    const where = describeTemporal({ ...settings, namespace });
    process.stdout.write(
      `${result.namespaceCreated ? `namespace ${namespace} created; ` : ''}search attributes on ${where.namespace} at ${where.address}: ` +
        `${result.added.length ? `registered ${result.added.join(', ')}` : 'all present'} (${result.required.join(', ')})\n`,
    );
  }
} catch (err) {
  process.stderr.write(`temporal:setup: ${namespace} at ${settings.address}: ${(err as Error).message}\n`);
  process.exitCode = 1;
} finally {
  await connection?.close();
}
