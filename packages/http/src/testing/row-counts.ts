/** The tables a garbage write would land in: who may act, what is sent, what is configured. */
const TABLES = [
  'members',
  'api_keys',
  'vault_secrets',
  'contacts',
  'templates',
  'synced_templates',
  'messages',
  'outbound_messages',
  'broadcasts',
  'campaigns',
  'journeys',
  'inbound_webhooks',
  'compat_mappings',
];

/**
 * Row counts of the main tables (and the number of workspaces), to show that refused requests
 * wrote nothing; of one workspace's rows when `workspaceId` is given, so callers fuzzing
 * several workspaces at once each see only their own.
 */
export async function countRows(
  pool: { query(sql: string, params?: unknown[]): Promise<{ rows: Record<string, unknown>[] }> },
  workspaceId?: string,
): Promise<Record<string, number>> {
  const where = workspaceId === undefined ? '' : ' WHERE workspace_id = $1';
  const sql = [`SELECT 'workspaces' AS name, count(*)::int AS n FROM workspaces`, ...TABLES.map((t) => `SELECT '${t}', count(*)::int FROM ${t}${where}`)].join(
    ' UNION ALL ',
  );
  const { rows } = await pool.query(sql, workspaceId === undefined ? [] : [workspaceId]);
  return Object.fromEntries(rows.map((r) => [String(r.name), Number(r.n)]));
}
