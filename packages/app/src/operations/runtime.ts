import { buildVersion } from '@mos/config';
import { PROCESS_WEBHOOK_EVENT, PROVIDER_CONSTRAINTS } from '@mos/core';
import { countBatchesInFlight, countOutboxJobsByStatus, getWorkerStatus, listOutboxJobs, listWebhookEvents, liveBatchSizes } from '@mos/db';
import type { AppDeps } from '../deps';
import type { WorkspaceIngressCounters } from '../webhooks/ingress-metrics';
import type { Scope } from '../scope';
import { toOutboxJobView, toWebhookListItem, type WebhookListItem } from '../webhooks/views';
import { internalCampaignList } from '../campaigns/campaigns';
import type { CampaignSummary } from '../campaigns/schemas';
import { internalJourneyList } from '../journeys/journeys';
import type { JourneyView } from '../journeys/schemas';

export interface RuntimeSnapshot {
  runtime: {
    buildVersion: string;
    environment: string;
    /** Pending outbox jobs of this workspace. */
    queueDepth: number;
    outboxJobsByStatus: Record<string, number>;
    /**
     * This workspace's webhooks in the pipeline: batch runs carrying them, jobs in those batches
     * (`dispatched`) and jobs handed to their own runs (`retrying`). `batchSizes` is the one
     * platform-level figure (batches mix workspaces; counts only): the sizes the live workers'
     * relays have dispatched (buckets '1', '2-5', '6-10', '11-25', '26-50').
     */
    pipeline: { batchesInFlight: number; jobsInBatches: number; jobsRetrying: number; batchSizes: Record<string, number> };
    workerStatus: string;
    /** This API process's ingress counters for this workspace only; null where no ingress runs (e.g. the control plane). */
    ingress: (WorkspaceIngressCounters & { since: string }) | null;
    generatedAt: string;
  };
  /** Every campaign and journey of the workspace (newest first, up to 500 each), as /internal/campaigns and /internal/journeys list them. */
  campaigns: CampaignSummary[];
  journeys: JourneyView[];
  webhooks: WebhookListItem[];
  outboxJobs: ReturnType<typeof toOutboxJobView>[];
  providerConstraints: typeof PROVIDER_CONSTRAINTS;
}

/** GET /internal/runtime: a one-look operational picture of the caller's workspace. */
export async function runtimeSnapshot(
  deps: AppDeps,
  scope: Scope,
  input: { ingress?: (WorkspaceIngressCounters & { since: string }) | null } = {},
): Promise<RuntimeSnapshot> {
  const now = deps.clock.now();
  const [byStatus, webhooks, jobs, workerStatus, batchesInFlight, batchSizes, campaigns, journeys] = await Promise.all([
    countOutboxJobsByStatus(deps.db, scope.workspaceId),
    listWebhookEvents(deps.db, scope.workspaceId, { limit: 10 }),
    listOutboxJobs(deps.db, scope.workspaceId, { limit: 10 }),
    getWorkerStatus(deps.db, now),
    countBatchesInFlight(deps.db, scope.workspaceId, PROCESS_WEBHOOK_EVENT),
    liveBatchSizes(deps.db, now),
    internalCampaignList(deps, scope),
    internalJourneyList(deps, scope),
  ]);
  return {
    runtime: {
      buildVersion: buildVersion(),
      environment: deps.env.MOS_ENV,
      queueDepth: byStatus.pending ?? 0,
      outboxJobsByStatus: byStatus,
      pipeline: { batchesInFlight, jobsInBatches: byStatus.dispatched ?? 0, jobsRetrying: byStatus.retrying ?? 0, batchSizes },
      workerStatus,
      ingress: input.ingress ?? null,
      generatedAt: now.toISOString(),
    },
    campaigns,
    journeys,
    webhooks: webhooks.map(toWebhookListItem),
    outboxJobs: jobs.map(toOutboxJobView),
    providerConstraints: PROVIDER_CONSTRAINTS,
  };
}
