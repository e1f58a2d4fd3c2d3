import { ActivityFailure, ApplicationFailure, condition, defineQuery, defineSignal, proxyActivities, setHandler, sleep } from '@temporalio/workflow';
import type { JourneyActivities } from './activities';
import {
  JOURNEY_REPLY_SIGNAL,
  JOURNEY_STATE_QUERY,
  JourneyFailureType,
  type JourneyPlanStep,
  type JourneyReplySignal,
  type JourneyRunInput,
  type JourneyRunResult,
  type JourneyState,
} from './contract';

const replySignal = defineSignal<[JourneyReplySignal]>(JOURNEY_REPLY_SIGNAL);
const stateQuery = defineQuery<JourneyState>(JOURNEY_STATE_QUERY);

// Database work: retried with backoff until it succeeds (an outage delays a run, never loses it);
// failures that no retry can fix are non-retryable by type.
const acts = proxyActivities<JourneyActivities>({
  startToCloseTimeout: '30 seconds',
  retry: {
    initialInterval: '1 second',
    maximumInterval: '1 minute',
    nonRetryableErrorTypes: [
      JourneyFailureType.RunNotFound,
      JourneyFailureType.PersonalizationMissing,
      JourneyFailureType.TemplateNotApproved,
      JourneyFailureType.InvalidDefinition,
    ],
  },
});

/** Bounds a walk even if a definition slipped past validation: every valid one is acyclic. */
const MAX_STEPS_WALKED = 200;

function nextOf(steps: JourneyPlanStep[], index: number): string | null {
  const s = steps[index]!;
  if (s.next) return s.next;
  return steps[index + 1]?.id ?? null;
}

function failureReason(err: unknown): string {
  const cause = err instanceof ActivityFailure ? err.cause : err;
  if (cause instanceof ApplicationFailure) return `${cause.type ?? 'failure'}: ${cause.message}`;
  return err instanceof Error ? err.message : String(err);
}

/**
 * Walks one journey for one contact. Waits are durable timers; a reply arrives as a signal
 * (deduplicated by message id) and counts for a reply branch when it came after the run's
 * latest send. Each step's side effect is an activity keyed by (run, step), so a retried or
 * replayed step sends nothing twice. The run's row follows along (current step, final status).
 */
export async function journeyRun(input: JourneyRunInput): Promise<JourneyRunResult> {
  const seen = new Set<string>();
  let replies = 0;
  let repliesAtLastSend = 0;
  let stepId: string | null = null;
  let waitingFor: JourneyState['waitingFor'] = null;
  setHandler(replySignal, ({ messageId }) => {
    if (seen.has(messageId)) return;
    seen.add(messageId);
    replies++;
  });
  setHandler(stateQuery, () => ({ stepId, waitingFor, replies }));

  const plan = await acts.beginJourneyRun(input);
  if (plan.status !== 'running') return { status: 'cancelled', stepsRun: 0, lastStep: null, reason: `run is ${plan.status}` };
  const index = new Map(plan.steps.map((s, i) => [s.id, i]));
  let i: number | undefined = 0;
  let walked = 0;
  try {
    while (i !== undefined) {
      if (++walked > MAX_STEPS_WALKED) throw ApplicationFailure.nonRetryable('the journey walked too many steps', JourneyFailureType.InvalidDefinition);
      const step: JourneyPlanStep = plan.steps[i]!;
      stepId = step.id;
      let next: string | null;
      switch (step.type) {
        case 'send_template': {
          const sent = await acts.sendJourneyStep({ ...input, stepId: step.id });
          if (sent.outcome === 'refused') {
            await acts.finishJourneyRun({ ...input, status: 'exited', reason: sent.reason });
            return { status: 'exited', stepsRun: walked, lastStep: step.id, reason: sent.reason };
          }
          repliesAtLastSend = replies;
          next = nextOf(plan.steps, i);
          break;
        }
        case 'wait':
          await acts.enterJourneyStep({ ...input, stepId: step.id });
          waitingFor = 'timer';
          await sleep((step.seconds ?? 0) * 1000);
          waitingFor = null;
          next = nextOf(plan.steps, i);
          break;
        case 'branch_on_reply': {
          await acts.enterJourneyStep({ ...input, stepId: step.id });
          waitingFor = 'reply';
          const replied = await condition(() => replies > repliesAtLastSend, (step.withinSeconds ?? 0) * 1000);
          waitingFor = null;
          next = (replied ? step.onReply : step.onNoReply) ?? null;
          break;
        }
        case 'branch_on_property': {
          const holds = await acts.evaluateJourneyBranch({ ...input, stepId: step.id });
          next = (holds ? step.onTrue : step.onFalse) ?? null;
          break;
        }
        case 'exit':
          await acts.finishJourneyRun({ ...input, status: 'exited', reason: null });
          return { status: 'exited', stepsRun: walked, lastStep: step.id };
      }
      i = next === null ? undefined : index.get(next);
    }
  } catch (err) {
    const reason = failureReason(err);
    await acts.finishJourneyRun({ ...input, status: 'failed', reason });
    // Failed in the Temporal UI too, where an operator can reset it after fixing the cause.
    throw ApplicationFailure.nonRetryable(reason, 'JourneyRunFailed');
  }
  await acts.finishJourneyRun({ ...input, status: 'completed', reason: null });
  return { status: 'completed', stepsRun: walked, lastStep: stepId };
}
