import { buildVersion } from '@mos/config';
import { PROVIDER_CONSTRAINTS } from '@mos/core';
import { countOutboxJobsByStatus, getWorkerStatus, listOutboxJobs, listWebhookEvents } from '@mos/db';
import type { AppDeps } from '../deps';
import type { WorkspaceIngressCounters } from '../webhooks/ingress-metrics';
import type { Scope } from '../scope';
import { toOutboxJobView, toWebhookListItem, type WebhookListItem } from '../webhooks/views';

export interface RuntimeSnapshot {
  runtime: {
    buildVersion: string;
    environment: string;
    /** Pending outbox jobs of this workspace. */
    queueDepth: number;
    outboxJobsByStatus: Record<string, number>;
    workerStatus: string;
    /** This API process's ingress counters for this workspace only; null where no ingress runs (e.g. the control plane). */
    ingress: (WorkspaceIngressCounters & { since: string }) | null;
    generatedAt: string;
  };
  /** Campaigns and journeys do not exist yet: always empty. */
  campaigns: unknown[];
  journeys: unknown[];
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
  const [byStatus, webhooks, jobs, workerStatus] = await Promise.all([
    countOutboxJobsByStatus(deps.db, scope.workspaceId),
    listWebhookEvents(deps.db, scope.workspaceId, { limit: 10 }),
    listOutboxJobs(deps.db, scope.workspaceId, { limit: 10 }),
    getWorkerStatus(deps.db, now),
  ]);
  return {
    runtime: {
      buildVersion: buildVersion(),
      environment: deps.env.MOS_ENV,
      queueDepth: byStatus.pending ?? 0,
      outboxJobsByStatus: byStatus,
      workerStatus,
      ingress: input.ingress ?? null,
      generatedAt: now.toISOString(),
    },
    campaigns: [],
    journeys: [],
    webhooks: webhooks.map(toWebhookListItem),
    outboxJobs: jobs.map(toOutboxJobView),
    providerConstraints: PROVIDER_CONSTRAINTS,
  };
}
