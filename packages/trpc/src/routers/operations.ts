import { z } from 'zod';
import { PROVIDER_CONSTRAINTS } from '@mos/core';
import { listAuditLogsInput, listWorkspaceAuditLogs } from '@mos/app';
import { campaignSummary, journeyView, runtimeSnapshot } from '@mos/app';
import { scopeOf } from '@mos/app';
import { auditLogView, outboxJobView, webhookListItem } from '@mos/app';
import { operatorProcedure, router } from '../trpc';

export const auditLogsRouter = router({
  list: operatorProcedure
    .input(listAuditLogsInput.optional())
    .output(z.object({ auditLogEntries: z.array(auditLogView) }))
    .query(({ ctx, input }) => listWorkspaceAuditLogs(ctx.deps, scopeOf(ctx.actor), input ?? {})),
});

/** The caller's workspace's share of an API process's ingress counters (see ingress-metrics). */
const ingressCounters = z.object({
  received: z.number(),
  accepted: z.number(),
  duplicates: z.number(),
  rejected: z.number(),
  tooLarge: z.number(),
  unavailable: z.number(),
  since: z.string(),
});

/** The snapshot through tRPC runs in the control plane, which has no ingress: `runtime.ingress` is null there. */
export const runtimeRouter = router({
  snapshot: operatorProcedure
    .output(
      z.object({
        runtime: z.object({
          buildVersion: z.string(),
          environment: z.string(),
          queueDepth: z.number(),
          outboxJobsByStatus: z.record(z.string(), z.number()),
          pipeline: z.object({
            batchesInFlight: z.number(),
            jobsInBatches: z.number(),
            jobsRetrying: z.number(),
            batchSizes: z.record(z.string(), z.number()),
          }),
          workerStatus: z.string(),
          ingress: ingressCounters.nullable(),
          generatedAt: z.string(),
        }),
        campaigns: z.array(campaignSummary),
        journeys: z.array(journeyView),
        webhooks: z.array(webhookListItem),
        outboxJobs: z.array(outboxJobView),
        providerConstraints: z.object({
          apiVersion: z.literal(PROVIDER_CONSTRAINTS.apiVersion),
          serviceWindowHours: z.number(),
          pairRateLimitSeconds: z.number(),
          defaultThroughputMessagesPerSecond: z.number(),
          eligibleUpgradeThroughputMessagesPerSecond: z.number(),
        }),
      }),
    )
    .query(({ ctx }) => runtimeSnapshot(ctx.deps, scopeOf(ctx.actor))),
});
