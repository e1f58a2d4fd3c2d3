import { newId } from '@mos/core';
import { eq } from 'drizzle-orm';
import { contacts, outboundMessages, upsertSyncedTemplate, upsertWorkspace, type Db } from '@mos/db';
import { createApiApp } from '@mos/api';
import { listen } from '@mos/http/testing';
import { testDeps } from '@mos/app/testing';
import { sendJourneyTemplate, signalGovernor, wakeGovernor, type AppDeps, type Scope } from '@mos/app';
import { createProviderClient } from '@mos/provider';
import { startSimulator, type RunningSimulator, type SimulatorConfig } from '@mos/provider/simulator';
import { createJourneyActivities, createJourneyScheduleActivities, createSendingActivities, createTemplateActivities } from '@mos/workflows';
import { sharedWorkflowBundle, temporalAddress, testLog, uniqueTaskQueue } from '../testing';
import { startWorkerRuntime, type WorkerRuntime } from '../worker';
import type { WorkerMetrics } from '../metrics';

/**
 * The whole send path for tests: the provider simulator, the API (whose ingress receives the
 * simulator's signed status webhooks), and a worker running the governor, broadcasts and the
 * webhook pipeline, on one workspace whose number the simulator serves. Real parts only: the
 * simulator stands in for the provider.
 */
export const PHONE_NUMBER_ID = '106540352242922';
const TOKEN = 'sim-access-token';
const SECRET = 'whsec-send-stack';

export interface SendStack {
  deps: AppDeps;
  scope: Scope;
  sim: RunningSimulator;
  /** The API app this stack runs (provider webhooks, inbound webhooks, /v1). */
  apiUrl: string;
  runtime: WorkerRuntime;
  taskQueue: string;
  /** Stops the worker and starts a fresh one on the same queue (a restart). */
  restartWorker(): Promise<void>;
  close(): Promise<void>;
}

export interface SendStackOptions {
  sim?: Partial<SimulatorConfig>;
  pairSpacingMs?: number;
  requeueUnansweredAfterMs?: number;
  providerTimeoutMs?: number;
  /** The worker's counters, wired as main.ts wires them (relay, activities, sends). */
  metrics?: WorkerMetrics;
}

export async function startSendStack(db: Db, databaseUrl: string, o: SendStackOptions = {}): Promise<SendStack> {
  const taskQueue = uniqueTaskQueue('send');
  const slug = `send-${newId('request').slice(-10)}`;
  const sim = await startSimulator({ accessToken: TOKEN, phoneNumberId: PHONE_NUMBER_ID, signingSecret: SECRET, statusFlushMs: 50, ...o.sim });
  const deps = testDeps(db, { env: { TEMPORAL_TASK_QUEUE: taskQueue, PROVIDER_BASE_URL: sim.url, WEBHOOK_INGRESS_CACHE_MS: '0' } });
  const api = await listen(createApiApp(deps));
  sim.setWebhook({ url: `${api.url}/webhooks/messaging/${slug}`, signingSecret: SECRET });
  const { workspace } = await upsertWorkspace(db, slug, { wabaId: '102290129340398', phoneNumberId: PHONE_NUMBER_ID });
  await deps.vault.set(db, workspace.id, 'webhook-signing-secret', SECRET);
  await deps.vault.set(db, workspace.id, 'provider-access-token', TOKEN);
  const provider = createProviderClient({ baseUrl: sim.url, apiVersion: 'v23.0', timeoutMs: o.providerTimeoutMs ?? 2000 });

  const bundle = await sharedWorkflowBundle();
  const start = () =>
    startWorkerRuntime({
      db,
      databaseUrl,
      log: testLog,
      temporal: { address: temporalAddress(), namespace: 'default', taskQueue },
      temporalClient: deps.temporal,
      relay: { pollIntervalMs: 250 },
      heartbeatIntervalMs: 1_000,
      worker: { workflowBundle: bundle },
      extraActivities: {
        ...createTemplateActivities({ db, log: testLog, vault: deps.vault, provider }),
        ...createSendingActivities({
          db,
          log: testLog,
          vault: deps.vault,
          provider,
          pairSpacingMs: o.pairSpacingMs,
          requeueUnansweredAfterMs: o.requeueUnansweredAfterMs,
          pageSize: 100,
          wakeGovernor: (ws, phone) => wakeGovernor(deps, ws, phone),
          ...(o.metrics ? { observeSend: o.metrics.sends } : {}),
        }),
        ...createJourneyActivities({ db, log: testLog, sendTemplate: (ws, request, key) => sendJourneyTemplate(deps, ws, request, key) }),
        ...createJourneyScheduleActivities({ db, log: testLog, pageSize: 2 }),
      },
      governorSweep: { intervalMs: 2000, signal: (ws, phone) => signalGovernor(deps, ws, phone) },
      ...(o.metrics ? { metrics: o.metrics } : {}),
    });
  const stack: SendStack = {
    deps,
    scope: { workspaceId: workspace.id, actorId: 'key_test', role: 'developer' },
    sim,
    apiUrl: api.url,
    runtime: await start(),
    taskQueue,
    async restartWorker() {
      await stack.runtime.stop();
      stack.runtime = await start();
    },
    async close() {
      await stack.runtime.stop();
      await api.close();
      await sim.close();
      await deps.temporal.close();
    },
  };
  return stack;
}

/** The same approved template in mos (synced) and in the simulator. */
export async function seedTemplate(
  stack: SendStack,
  name: string,
  bodyText: string,
  opts: { simBodyText?: string; inSimulator?: boolean; simStatus?: 'APPROVED' | 'PAUSED' | 'DISABLED' } = {},
): Promise<void> {
  const components = [{ type: 'BODY', text: bodyText }];
  await upsertSyncedTemplate(
    stack.deps.db,
    stack.scope.workspaceId,
    { providerTemplateId: newId('request').slice(-12), name, language: 'en_US', category: 'UTILITY', status: 'approved', components },
    new Date(),
  );
  if (opts.inSimulator !== false)
    stack.sim.seedApprovedTemplate({
      name,
      language: 'en_US',
      category: 'UTILITY',
      components: [{ type: 'BODY', text: opts.simBodyText ?? bodyText }],
      ...(opts.simStatus ? { status: opts.simStatus } : {}),
    });
}

let seeded = 0;

/** `n` contacts of the stack's workspace with fresh phone numbers, the first `unsubscribed` of them unsubscribed. */
export async function seedContacts(stack: SendStack, n: number, unsubscribed = 0): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const id = newId('contact');
    ids.push(id);
    await stack.deps.db.insert(contacts).values({
      id,
      workspaceId: stack.scope.workspaceId,
      phoneNumber: `+1666${String(++seeded).padStart(8, '0')}`,
      subscriberStatus: i < unsubscribed ? 'unsubscribed' : 'subscribed',
    });
  }
  return ids;
}

/** Sends the simulator accepted for this broadcast's messages (our id rides in the callback data). */
export async function acceptedFor(stack: SendStack, broadcastId: string): Promise<{ total: number; distinct: number }> {
  const rows = await stack.deps.db.select({ id: outboundMessages.id }).from(outboundMessages).where(eq(outboundMessages.broadcastId, broadcastId));
  const ours = new Set(rows.map((r) => r.id));
  const sent = stack.sim
    .messages()
    .map((m) => (m.body as { biz_opaque_callback_data?: string }).biz_opaque_callback_data)
    .filter((id): id is string => !!id && ours.has(id));
  return { total: sent.length, distinct: new Set(sent).size };
}
