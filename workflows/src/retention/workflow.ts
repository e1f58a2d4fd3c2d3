import { continueAsNew, executeChild, proxyActivities, workflowInfo } from '@temporalio/workflow';
import type { RetentionActivities } from './activities';
import { NO_RETENTION_COUNTS, RETENTION_BATCH_SIZE, type RetentionCounts, type RetentionPurgeInput, type RetentionPurgeResult } from './contract';

const { listRetentionTargets, retentionCutoff, purgeRetentionBatch, recordRetentionPurge } = proxyActivities<RetentionActivities>({
  startToCloseTimeout: '2 minutes',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 20 },
});

/** Batches per run before continuing as new, so a huge backlog never bloats one history. */
const BATCHES_PER_RUN = 200;

const COUNT_KEYS = Object.keys(NO_RETENTION_COUNTS) as (keyof RetentionCounts)[];

/** Key by key; a count missing on either side (a run carried over from before that kind existed) adds 0. */
function add(a: Partial<RetentionCounts>, b: Partial<RetentionCounts>): RetentionCounts {
  const sum = { ...NO_RETENTION_COUNTS };
  for (const k of COUNT_KEYS) sum[k] = (a[k] ?? 0) + (b[k] ?? 0);
  return sum;
}

/**
 * Purges one workspace's data older than its retention period: message content, raw
 * webhook bodies, delivery-history rows, message versions and reactions, batch by batch
 * until nothing is left, then one `retention.purge` audit entry with the counts. The cutoff
 * is fixed at the start (and carried across continue-as-new) so the run converges.
 */
export async function retentionPurge(input: RetentionPurgeInput): Promise<RetentionPurgeResult> {
  const plan = input.carry ?? (await retentionCutoff({ workspaceId: input.workspaceId }).then((p) => p && { ...p, batches: 0, counts: NO_RETENTION_COUNTS }));
  if (!plan) return { workspaceId: input.workspaceId, skipped: true, cutoff: null, batches: 0, counts: NO_RETENTION_COUNTS };
  const batchSize = input.batchSize ?? RETENTION_BATCH_SIZE;
  let { batches, counts } = plan;
  for (let run = 0; ; run++) {
    if (run >= BATCHES_PER_RUN) {
      await continueAsNew<typeof retentionPurge>({ ...input, carry: { cutoff: plan.cutoff, days: plan.days, batches, counts } });
    }
    const { done, ...n } = await purgeRetentionBatch({ workspaceId: input.workspaceId, cutoff: plan.cutoff, batchSize });
    batches++;
    counts = add(counts, n);
    if (done) break;
  }
  await recordRetentionPurge({ workspaceId: input.workspaceId, cutoff: plan.cutoff, days: plan.days, batches, counts });
  return { workspaceId: input.workspaceId, skipped: false, cutoff: plan.cutoff, batches, counts };
}

/**
 * Started daily by the `mos-retention-daily` schedule: one child `retentionPurge` per
 * workspace with a retention period, one after another (retention is not urgent, and
 * serial runs keep the database load flat).
 */
export async function retentionSweep(): Promise<RetentionPurgeResult[]> {
  const targets = await listRetentionTargets();
  const results: RetentionPurgeResult[] = [];
  for (const t of targets) {
    // One workspace's failure must not cost the others their purge today; the failed child
    // stays visible (and retryable) in the Temporal UI under its own workflow id.
    try {
      results.push(await executeChild(retentionPurge, { args: [{ workspaceId: t.workspaceId }], workflowId: `${workflowInfo().workflowId}-${t.workspaceId}` }));
    } catch (err) {
      results.push({
        workspaceId: t.workspaceId,
        skipped: true,
        cutoff: null,
        batches: 0,
        counts: NO_RETENTION_COUNTS,
        error: err instanceof Error ? err.message : String(err),
      });
    }
  }
  return results;
}
