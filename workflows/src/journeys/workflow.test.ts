import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { WorkflowFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { maybeRecordHistory, startStubWorker, type StubWorker } from '../testing/temporal';
import {
  JOURNEY_REPLY_SIGNAL,
  JOURNEY_RUN_WORKFLOW_TYPE,
  JOURNEY_STATE_QUERY,
  JourneyFailureType,
  type JourneyPlanStep,
  type JourneyRunInput,
  type JourneyRunResult,
  type JourneySendOutcome,
  type JourneyState,
  type JourneyStepInput,
} from './contract';

/**
 * journeyRun's walk on the real dev server, over in-memory runs the stub activities keep (as
 * the real ones keep journey_runs): linear steps, durable waits, the reply branch (a reply
 * counts only after the latest send, and a signal delivered twice counts once), property
 * branches, a refused send ending the run, and a permanent failure recorded before the run fails.
 */
interface Fake {
  plan: JourneyPlanStep[];
  status: string;
  calls: string[];
  finished?: { status: string; reason: string | null };
  refuse?: string;
  failOn?: string;
  branch?: boolean;
}
const fakes = new Map<string, Fake>();
let worker: StubWorker;

beforeAll(async () => {
  worker = await startStubWorker('journey', {
    async beginJourneyRun({ journeyRunId }: JourneyRunInput) {
      const f = fakes.get(journeyRunId)!;
      f.calls.push('begin');
      if (f.status === 'pending') f.status = 'running';
      return { status: f.status, steps: f.status === 'running' ? f.plan : [] };
    },
    async enterJourneyStep({ journeyRunId, stepId }: JourneyStepInput) {
      fakes.get(journeyRunId)!.calls.push(`enter:${stepId}`);
    },
    async sendJourneyStep({ journeyRunId, stepId }: JourneyStepInput): Promise<JourneySendOutcome> {
      const f = fakes.get(journeyRunId)!;
      f.calls.push(`send:${stepId}`);
      if (f.failOn === stepId)
        throw ApplicationFailure.create({ type: JourneyFailureType.PersonalizationMissing, message: 'no value for x', nonRetryable: true });
      if (f.refuse) return { outcome: 'refused', reason: f.refuse };
      return { outcome: 'queued', messageId: `msg_${stepId}` };
    },
    async evaluateJourneyBranch({ journeyRunId, stepId }: JourneyStepInput) {
      const f = fakes.get(journeyRunId)!;
      f.calls.push(`branch:${stepId}`);
      return f.branch ?? false;
    },
    async finishJourneyRun({ journeyRunId, status, reason }: JourneyRunInput & { status: string; reason: string | null }) {
      const f = fakes.get(journeyRunId)!;
      f.calls.push(`finish:${status}`);
      f.status = status;
      f.finished = { status, reason };
    },
  });
}, 60_000);

afterAll(async () => {
  await worker?.close();
});

function start(plan: JourneyPlanStep[], extra: Partial<Fake> = {}) {
  const id = `jrr_${randomBytes(6).toString('hex')}`;
  const fake: Fake = { plan, status: 'pending', calls: [], ...extra };
  fakes.set(id, fake);
  const workflowId = `journey-test-${id}`;
  const handle = worker.client.workflow.start(JOURNEY_RUN_WORKFLOW_TYPE, {
    taskQueue: worker.taskQueue,
    workflowId,
    args: [{ workspaceId: 'ws_test', journeyRunId: id } satisfies JourneyRunInput],
  });
  return { fake, workflowId, handle };
}

const waitState = async (workflowId: string, pred: (s: JourneyState) => boolean) => {
  const h = worker.client.workflow.getHandle(workflowId);
  for (let i = 0; i < 200; i++) {
    const s = await h.query<JourneyState>(JOURNEY_STATE_QUERY).catch(() => null);
    if (s && pred(s)) return s;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('state never reached');
};

const replyBranch: JourneyPlanStep[] = [
  { id: 'ask', type: 'send_template' },
  { id: 'wait-reply', type: 'branch_on_reply', withinSeconds: 3, onReply: 'yes', onNoReply: 'no' },
  { id: 'yes', type: 'send_template', next: 'end' },
  { id: 'no', type: 'send_template' },
  { id: 'end', type: 'exit' },
];

describe('journeyRun', () => {
  it('walks linear steps with a durable wait and completes', async () => {
    const { fake, workflowId, handle } = start([
      { id: 'a', type: 'send_template' },
      { id: 'w', type: 'wait', seconds: 1 },
      { id: 'b', type: 'send_template' },
    ]);
    const began = Date.now();
    const result = await (await handle).result();
    expect(Date.now() - began).toBeGreaterThanOrEqual(1000);
    expect(result).toEqual<JourneyRunResult>({ status: 'completed', stepsRun: 3, lastStep: 'b' });
    expect(fake.calls).toEqual(['begin', 'send:a', 'enter:w', 'send:b', 'finish:completed']);
    await maybeRecordHistory(worker.client, 'journey-run-linear', workflowId);
  });

  it('a reply during the branch takes the reply branch; the same message signalled twice counts once', async () => {
    const { fake, workflowId, handle } = start(replyBranch);
    const h = await handle;
    await waitState(workflowId, (s) => s.waitingFor === 'reply');
    await h.signal(JOURNEY_REPLY_SIGNAL, { messageId: 'msg_reply' });
    await h.signal(JOURNEY_REPLY_SIGNAL, { messageId: 'msg_reply' });
    expect(await h.result()).toEqual({ status: 'exited', stepsRun: 4, lastStep: 'end' });
    expect(fake.calls).toEqual(['begin', 'send:ask', 'enter:wait-reply', 'send:yes', 'finish:exited']);
    expect(await h.query<JourneyState>(JOURNEY_STATE_QUERY)).toMatchObject({ replies: 1 });
    await maybeRecordHistory(worker.client, 'journey-run-replied', workflowId);
  });

  it('no reply within the time takes the no-reply branch', async () => {
    const { fake, handle } = start(replyBranch);
    const result = await (await handle).result();
    expect(result.status).toBe('exited');
    expect(fake.calls).toEqual(['begin', 'send:ask', 'enter:wait-reply', 'send:no', 'finish:exited']);
  });

  it('a reply before the latest send does not answer it', async () => {
    const { fake, workflowId, handle } = start([
      { id: 'w', type: 'wait', seconds: 2 },
      { id: 'ask', type: 'send_template' },
      { id: 'r', type: 'branch_on_reply', withinSeconds: 1, onReply: 'yes', onNoReply: 'no' },
      { id: 'yes', type: 'exit' },
      { id: 'no', type: 'send_template' },
    ]);
    const h = await handle;
    await waitState(workflowId, (s) => s.stepId === 'w');
    await h.signal(JOURNEY_REPLY_SIGNAL, { messageId: 'msg_early' });
    expect((await h.result()).status).toBe('completed');
    expect(fake.calls).toContain('send:no');
  });

  it('a property branch follows the activity', async () => {
    const plan: JourneyPlanStep[] = [
      { id: 'p', type: 'branch_on_property', onTrue: 't', onFalse: 'f' },
      { id: 't', type: 'send_template', next: 'x' },
      { id: 'f', type: 'send_template' },
      { id: 'x', type: 'exit' },
    ];
    const yes = start(plan, { branch: true });
    const no = start(plan, { branch: false });
    await (await yes.handle).result();
    await (await no.handle).result();
    expect(yes.fake.calls).toEqual(['begin', 'branch:p', 'send:t', 'finish:exited']);
    expect(no.fake.calls).toEqual(['begin', 'branch:p', 'send:f', 'finish:exited']);
  });

  it('a refused send ends the run as exited with the reason', async () => {
    const { fake, handle } = start(replyBranch, { refuse: 'contact_unsubscribed' });
    expect(await (await handle).result()).toEqual({ status: 'exited', stepsRun: 1, lastStep: 'ask', reason: 'contact_unsubscribed' });
    expect(fake.finished).toEqual({ status: 'exited', reason: 'contact_unsubscribed' });
  });

  it('a permanent failure is recorded on the run, then fails the workflow (visible and resettable in the UI)', async () => {
    const { fake, workflowId, handle } = start(replyBranch, { failOn: 'ask' });
    const err = await (await handle).result().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WorkflowFailedError);
    expect(fake.finished?.status).toBe('failed');
    expect(fake.finished?.reason).toContain('no value for x');
    expect(fake.calls.filter((c) => c === 'send:ask')).toHaveLength(1);
    await maybeRecordHistory(worker.client, 'journey-run-failed', workflowId);
  });

  it('a run that already ended does nothing (a second start after a reset of the row)', async () => {
    const { fake, handle } = start(replyBranch, { status: 'completed' });
    expect(await (await handle).result()).toEqual({ status: 'cancelled', stepsRun: 0, lastStep: null, reason: 'run is completed' });
    expect(fake.calls).toEqual(['begin']);
  });
});
