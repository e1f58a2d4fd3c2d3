import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApplicationFailure } from '@temporalio/common';
import { WorkflowFailedError } from '@temporalio/client';
import { maybeRecordHistory, startStubWorker, type StubWorker } from '../testing/temporal';
import type { HandOffInput, RecordFailureInput, WebhookActivities } from './activities';
import {
  SA_TOPIC,
  SA_WEBHOOK_EVENT_ID,
  WEBHOOK_BATCH_WORKFLOW_TYPE,
  WEBHOOK_WORKFLOW_TYPE,
  WebhookFailureType,
  webhookBatchWorkflowId,
  webhookWorkflowId,
  type ApplyWebhookBatchResult,
  type ProcessWebhookBatchInput,
  type ProcessWebhookBatchResult,
  type ProcessWebhookEventInput,
  type ProcessWebhookEventResult,
} from './contract';

/**
 * processWebhookEvent's own logic on the real Temporal dev server, with in-memory activities:
 * how an activity failure becomes the run's failure type, and that a transient failure is
 * retried. The real activities run end to end in services/worker (pipeline.test.ts).
 */
type Behaviour = (attempt: number) => ProcessWebhookEventResult;

const behaviours = new Map<string, Behaviour>();
const attempts = new Map<string, number>();
const failures: RecordFailureInput[] = [];
/** Batch behaviours by batch id: what each applyWebhookBatch call returns (or throws). */
const batchBehaviours = new Map<string, (input: ProcessWebhookBatchInput, call: number) => ApplyWebhookBatchResult>();
const batchCalls = new Map<string, ProcessWebhookBatchInput[]>();
const handedOff: HandOffInput[] = [];

const activities: WebhookActivities = {
  async applyWebhookBatch(input) {
    const calls = batchCalls.get(input.batchId) ?? [];
    calls.push(input);
    batchCalls.set(input.batchId, calls);
    return batchBehaviours.get(input.batchId)!(input, calls.length);
  },
  async handOffWebhooks(input) {
    handedOff.push(input);
  },
  async processEvent(input) {
    const attempt = (attempts.get(input.webhookEventId) ?? 0) + 1;
    attempts.set(input.webhookEventId, attempt);
    return behaviours.get(input.webhookEventId)!(attempt);
  },
  async recordFailure(input) {
    failures.push(input);
  },
};

let worker: StubWorker;
beforeAll(async () => {
  worker = await startStubWorker('webhook-stubs', activities);
}, 60_000);
afterAll(async () => {
  await worker?.close();
});

/** Runs the workflow for a new event whose processEvent behaves as given. */
function run(behaviour: Behaviour) {
  const webhookEventId = `evt_${randomBytes(8).toString('hex')}`;
  behaviours.set(webhookEventId, behaviour);
  const input: ProcessWebhookEventInput = { workspaceId: 'ws_stub', webhookEventId, jobId: `job_${webhookEventId}`, deliveryId: `del_${webhookEventId}` };
  const result = worker.client.workflow.execute(WEBHOOK_WORKFLOW_TYPE, {
    taskQueue: worker.taskQueue,
    workflowId: `webhook-${webhookEventId}`,
    args: [input],
  }) as Promise<ProcessWebhookEventResult>;
  return { input, result, attempts: () => attempts.get(webhookEventId), failures: () => failures.filter((f) => f.webhookEventId === webhookEventId) };
}

/** The run's failure: a WorkflowFailedError whose cause is the ApplicationFailure the workflow threw. */
async function failureOf(result: Promise<unknown>): Promise<ApplicationFailure> {
  const err = await result.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(WorkflowFailedError);
  const cause = (err as WorkflowFailedError).cause;
  expect(cause).toBeInstanceOf(ApplicationFailure);
  return cause as ApplicationFailure;
}

const processed = (deliveryId: string): ProcessWebhookEventResult => ({ deliveryId, status: 'processed', topic: 'messages', familyCount: 1, skippedCount: 0 });

describe('processWebhookEvent (stub activities)', () => {
  it('returns what processEvent returned, and records no failure', async () => {
    const r = run(() => processed('del_ok'));
    expect(await r.result).toEqual(processed('del_ok'));
    expect(r.attempts()).toBe(1);
    expect(r.failures()).toEqual([]);
  });

  it.each([WebhookFailureType.InvalidJson, WebhookFailureType.InvalidPayload, WebhookFailureType.EventNotFound])(
    'a non-retryable %s ends the run with that type after one attempt, recorded first',
    async (type) => {
      const r = run(() => {
        throw ApplicationFailure.create({ type, message: `the stored event says ${type}`, nonRetryable: true });
      });
      const failure = await failureOf(r.result);
      expect(failure).toMatchObject({ type, message: `the stored event says ${type}`, nonRetryable: true });
      expect(r.attempts()).toBe(1);
      expect(r.failures()).toEqual([{ ...r.input, type, message: `the stored event says ${type}` }]);
    },
  );

  it("an effect's own non-retryable failure ends the run as EffectRejected, naming its type", async () => {
    const r = run(() => {
      throw ApplicationFailure.create({ type: 'TemplateGone', message: 'no such template', nonRetryable: true });
    });
    const failure = await failureOf(r.result);
    expect(failure).toMatchObject({ type: WebhookFailureType.EffectRejected, message: 'TemplateGone: no such template', nonRetryable: true });
    expect(r.attempts()).toBe(1);
    expect(r.failures()).toEqual([{ ...r.input, type: WebhookFailureType.EffectRejected, message: 'TemplateGone: no such template' }]);
  });

  it('a retryable failure is retried with backoff, and the run completes', async () => {
    const r = run((attempt) => {
      if (attempt < 3) throw new Error(`database restarting (attempt ${attempt})`);
      return processed('del_retried');
    });
    expect(await r.result).toEqual(processed('del_retried'));
    expect(r.attempts()).toBe(3);
    expect(r.failures()).toEqual([]);
  }, 20_000);
});

describe('processWebhookBatch (stub activities)', () => {
  function batchOf(n: number) {
    const batchId = `job_${randomBytes(6).toString('hex')}`;
    const jobs: ProcessWebhookEventInput[] = Array.from({ length: n }, (_, i) => {
      const webhookEventId = `evt_${batchId}_${i}`;
      return { workspaceId: 'ws_stub', webhookEventId, jobId: i === 0 ? batchId : `job_${batchId}_${i}`, deliveryId: `del_${batchId}_${i}` };
    });
    return { batchId, jobs };
  }
  const start = (input: ProcessWebhookBatchInput) =>
    worker.client.workflow.execute(WEBHOOK_BATCH_WORKFLOW_TYPE, {
      taskQueue: worker.taskQueue,
      workflowId: webhookBatchWorkflowId(input.batchId),
      args: [input],
    }) as Promise<ProcessWebhookBatchResult>;

  it('a poison webhook goes to its own run, which fails visibly; the batch completes with the others applied', async () => {
    const input = batchOf(3);
    const poison = input.jobs[1]!;
    batchBehaviours.set(input.batchId, (call, _n) => ({
      outcomes: call.jobs.map((j) =>
        j.jobId === poison.jobId
          ? { jobId: j.jobId, outcome: 'failed', type: WebhookFailureType.InvalidJson, message: 'the body is not UTF-8 JSON', topic: 'invalid_json' }
          : { jobId: j.jobId, outcome: 'applied' },
      ),
    }));
    // Its own run meets the same body and fails for good.
    behaviours.set(poison.webhookEventId, () => {
      throw ApplicationFailure.create({ type: WebhookFailureType.InvalidJson, message: 'the body is not UTF-8 JSON', nonRetryable: true });
    });
    expect(await start(input)).toEqual({ batchId: input.batchId, applied: 2, alreadyApplied: 0, handedOff: [poison.webhookEventId], calls: 1 });
    expect(handedOff.filter((h) => h.jobs.some((j) => j.jobId === poison.jobId))).toEqual([
      { jobs: [{ ...poison, type: WebhookFailureType.InvalidJson, message: 'the body is not UTF-8 JSON', topic: 'invalid_json' }] },
    ]);
    const child = worker.client.workflow.getHandle(webhookWorkflowId(poison.webhookEventId));
    const failure = await failureOf(child.result());
    expect(failure.type).toBe(WebhookFailureType.InvalidJson);
    const described = await child.describe();
    expect(described.status.name).toBe('FAILED');
    expect(described.typedSearchAttributes.get(SA_WEBHOOK_EVENT_ID)).toBe(poison.webhookEventId);
    expect(described.typedSearchAttributes.get(SA_TOPIC)).toBe('invalid_json');
    expect(described.memo).toMatchObject({ batchId: input.batchId, failedInBatch: WebhookFailureType.InvalidJson });
    // The child outlives its parent (ABANDON) and records its own failure once.
    expect(failures.filter((f) => f.webhookEventId === poison.webhookEventId)).toHaveLength(1);
    await maybeRecordHistory(worker.client, 'batch-with-poison', webhookBatchWorkflowId(input.batchId));
  });

  it('calls again for what a call left unattempted, until every webhook is done', async () => {
    const input = batchOf(3);
    batchBehaviours.set(input.batchId, (call, _n) => ({
      outcomes: call.jobs.map((j, i) => ({ jobId: j.jobId, outcome: i === 0 ? 'applied' : 'not_attempted' })),
    }));
    expect(await start(input)).toMatchObject({ applied: 3, handedOff: [], calls: 3 });
    expect(batchCalls.get(input.batchId)!.map((c) => c.jobs.length)).toEqual([3, 2, 1]);
  });

  it('a call that keeps failing hands every webhook not applied to its own run (BatchCallFailed)', async () => {
    const input = batchOf(2);
    batchBehaviours.set(input.batchId, () => {
      throw new Error('database unavailable');
    });
    for (const j of input.jobs) behaviours.set(j.webhookEventId, () => processed(j.deliveryId));
    const result = await start(input);
    expect(result).toMatchObject({ applied: 0, handedOff: input.jobs.map((j) => j.webhookEventId), calls: 1 });
    // The local activity's retry policy: 4 attempts, then the hand-off.
    expect(batchCalls.get(input.batchId)).toHaveLength(4);
    const handed = handedOff.find((h) => h.jobs[0]?.jobId === input.jobs[0]!.jobId)!;
    expect(handed.jobs.map((j) => j.type)).toEqual([WebhookFailureType.BatchCallFailed, WebhookFailureType.BatchCallFailed]);
    for (const j of input.jobs) expect(await worker.client.workflow.getHandle(webhookWorkflowId(j.webhookEventId)).result()).toEqual(processed(j.deliveryId));
  }, 30_000);
});
