import { isGrpcServiceError, type Client } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time';
import { ensureSearchAttributes, WEBHOOK_SEARCH_ATTRIBUTES } from '@mos/workflows';

/** gRPC NOT_FOUND: the namespace does not exist (yet, on every service of the cluster). */
const NOT_FOUND = 5;
const isNotFound = (err: unknown) => isGrpcServiceError(err) && err.code === NOT_FOUND;

export interface TemporalSetupResult {
  namespace: string;
  namespaceCreated: boolean;
  /** Search attributes this run registered (empty: all were there). */
  added: string[];
  /** Every search attribute mos uses (WEBHOOK_SEARCH_ATTRIBUTES, the list the worker ensures at start). */
  required: string[];
}

/**
 * What a namespace needs before mos runs on it: optionally the namespace itself (a self-hosted
 * cluster; Temporal Cloud namespaces are made in Cloud), then every search attribute the workflows
 * set, registered through the same function the worker runs at start. Idempotent: a second run
 * changes nothing. The client's namespace is the one set up.
 */
export async function setupTemporalNamespace(
  client: Client,
  opts: { createNamespace?: { retentionDays: number }; waitMs?: number } = {},
): Promise<TemporalSetupResult> {
  const namespace = client.options.namespace;
  const service = client.connection.workflowService;
  let namespaceCreated = false;
  if (opts.createNamespace) {
    try {
      await service.describeNamespace({ namespace });
    } catch (err) {
      if (!isNotFound(err)) throw err;
      await service.registerNamespace({ namespace, workflowExecutionRetentionPeriod: msToTs(opts.createNamespace.retentionDays * 86_400_000) });
      namespaceCreated = true;
    }
  }
  // A namespace just registered takes a moment to reach every service of the cluster.
  const deadline = Date.now() + (opts.waitMs ?? 30_000);
  for (;;) {
    try {
      const added = await ensureSearchAttributes(client);
      return { namespace, namespaceCreated, added, required: WEBHOOK_SEARCH_ATTRIBUTES.map((k) => k.name) };
    } catch (err) {
      if (!isNotFound(err) || Date.now() > deadline) throw err;
      await new Promise((r) => setTimeout(r, 500));
    }
  }
}
