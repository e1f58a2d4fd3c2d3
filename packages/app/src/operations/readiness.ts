import { sql } from 'drizzle-orm';
import { buildVersion } from '@mos/config';
import { countPendingJobs, findProviderIngressWorkspace, getWorkerStatus, type WorkerStatus } from '@mos/db';
import type { AppDeps } from '../deps';

export interface ReadinessReport {
  ready: boolean;
  buildVersion: string;
  environment: string;
  providerConfigured: boolean;
  wabaId: string;
  queueDepth: number;
  workerStatus: WorkerStatus | 'unknown';
  checks: { database: boolean; provider: boolean; worker: boolean };
}

/**
 * Ready means: the store answers, the provider-ingress workspace has a business account and
 * a signing secret, and a worker has beaten recently. The body has one shape either way.
 */
export async function readiness(deps: AppDeps): Promise<ReadinessReport> {
  const report: ReadinessReport = {
    ready: false,
    buildVersion: buildVersion(),
    environment: deps.env.MOS_ENV,
    providerConfigured: false,
    wabaId: '',
    queueDepth: 0,
    workerStatus: 'unknown',
    checks: { database: false, provider: false, worker: false },
  };
  try {
    await deps.db.execute(sql`SELECT 1`);
    report.checks.database = true;
    const ws = await findProviderIngressWorkspace(deps.db);
    report.wabaId = ws?.wabaId ?? '';
    if (ws?.wabaId) {
      report.providerConfigured = Boolean(await deps.vault.get(deps.db, ws.id, 'webhook-signing-secret'));
    }
    report.checks.provider = report.providerConfigured;
    report.queueDepth = await countPendingJobs(deps.db);
    report.workerStatus = await getWorkerStatus(deps.db, deps.clock.now());
    report.checks.worker = report.workerStatus === 'idle' || report.workerStatus === 'busy';
  } catch (err) {
    deps.log.warn({ err }, 'readiness check failed');
  }
  report.ready = report.checks.database && report.checks.provider && report.checks.worker;
  return report;
}
