import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApplicationFailure } from '@temporalio/common';
import { WorkflowFailedError } from '@temporalio/client';
import { startStubWorker, type StubWorker } from '../testing/temporal';
import type { RecordFailureInput, WebhookActivities } from './activities';
import { WEBHOOK_WORKFLOW_TYPE, WebhookFailureType, type ProcessWebhookEventInput, type ProcessWebhookEventResult } from './contract';

/**
 * processWebhookEvent's own logic on the real Temporal dev server, with in-memory activities:
 * how an activity failure becomes the run's failure type, and that a transient failure is
 * retried. The real activities run end to end in services/worker (pipeline.test.ts).
 */
type Behaviour = (attempt: number) => ProcessWebhookEventResult;

const behaviours = new Map<string, Behaviour>();
const attempts = new Map<string, number>();
const failures: RecordFailureInput[] = [];

const activities: WebhookActivities = {
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
