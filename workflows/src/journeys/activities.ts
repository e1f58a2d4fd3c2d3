import { ApplicationFailure } from '@temporalio/common';
import {
  evaluatePropertyCondition,
  isAppError,
  journeyMessageKey,
  renderParameter,
  systemClock,
  type BranchOnPropertyStep,
  type Clock,
  type JourneyStep,
  type SendTemplateStep,
} from '@mos/core';
import {
  finishJourneyRun,
  getJourneyRun,
  journeyContactView,
  markJourneyRunStarted,
  reopenFailedJourneyRun,
  setJourneyRunStep,
  type Db,
  type JourneyRunRow,
} from '@mos/db';
import type { Logger } from '@mos/config';
import { JourneyFailureType, type JourneyPlan, type JourneyPlanStep, type JourneyRunInput, type JourneySendOutcome, type JourneyStepInput } from './contract';

/** A template message for one contact, through the one send path (app `sendMessage`). */
export interface JourneySendRequest {
  contactId: string;
  template: { name: string; language: string; parameters?: { body: string[] } };
}

export interface JourneyActivityDeps {
  db: Db;
  log: Logger;
  clock?: Clock;
  /** Queues the message (idempotent by key) and wakes the number's governor; throws the send path's AppErrors. */
  sendTemplate(workspaceId: string, request: JourneySendRequest, idempotencyKey: string): Promise<{ messageId: string }>;
}

/** Send-path refusals that end the run (the contact cannot be messaged): exited, with the code as reason. */
const ENDS_RUN = new Set(['contact_unsubscribed', 'contact_not_found', 'no_phone_number']);

function planOf(steps: JourneyStep[]): JourneyPlanStep[] {
  return steps.map((s) => {
    switch (s.type) {
      case 'send_template':
        return { id: s.id, type: s.type, ...(s.next ? { next: s.next } : {}) };
      case 'wait':
        return { id: s.id, type: s.type, seconds: s.seconds, ...(s.next ? { next: s.next } : {}) };
      case 'branch_on_reply':
        return { id: s.id, type: s.type, withinSeconds: s.withinSeconds, onReply: s.onReply, onNoReply: s.onNoReply };
      case 'branch_on_property':
        return { id: s.id, type: s.type, onTrue: s.onTrue, onFalse: s.onFalse };
      case 'exit':
        return { id: s.id, type: s.type };
    }
  });
}

export function createJourneyActivities(deps: JourneyActivityDeps) {
  const clock = deps.clock ?? systemClock;

  async function load(input: JourneyRunInput): Promise<JourneyRunRow> {
    const run = await getJourneyRun(deps.db, input.workspaceId, input.journeyRunId);
    if (!run)
      throw ApplicationFailure.create({ type: JourneyFailureType.RunNotFound, message: `journey run ${input.journeyRunId} not found`, nonRetryable: true });
    return run;
  }

  function stepOf<T extends JourneyStep['type']>(run: JourneyRunRow, stepId: string, type: T): Extract<JourneyStep, { type: T }> {
    const step = run.steps.find((s) => s.id === stepId);
    if (!step || step.type !== type) {
      throw ApplicationFailure.create({
        type: JourneyFailureType.InvalidDefinition,
        message: `step ${stepId} is not a ${type} step of this run`,
        nonRetryable: true,
      });
    }
    return step as Extract<JourneyStep, { type: T }>;
  }

  async function contextOf(run: JourneyRunRow) {
    return { trigger: run.personalization, contact: (await journeyContactView(deps.db, run.workspaceId, run.contactId)) ?? {} };
  }

  return {
    /** pending -> running; the steps as the workflow walks them. A failed run comes back to life (an operator's reset). */
    async beginJourneyRun(input: JourneyRunInput): Promise<JourneyPlan> {
      const run = await load(input);
      const now = clock.now();
      if (run.status === 'pending') await markJourneyRunStarted(deps.db, input.workspaceId, run.id, now);
      else if (run.status === 'failed') await reopenFailedJourneyRun(deps.db, input.workspaceId, run.id, now);
      else if (run.status !== 'running') return { status: run.status, steps: [] };
      return { status: 'running', steps: planOf(run.steps) };
    },

    /** Records the step a run is on (waits and reply branches, where it may stay for a while). */
    async enterJourneyStep(input: JourneyStepInput): Promise<void> {
      await setJourneyRunStep(deps.db, input.workspaceId, input.journeyRunId, input.stepId, clock.now());
    },

    /**
     * Renders the step's parameters from the trigger's personalization and the contact, and
     * queues the template through the send path under the key (run, step): a retried attempt
     * gets the first message back. A contact that cannot be messaged ends the run (refused).
     */
    async sendJourneyStep(input: JourneyStepInput): Promise<JourneySendOutcome> {
      const run = await load(input);
      const step: SendTemplateStep = stepOf(run, input.stepId, 'send_template');
      await setJourneyRunStep(deps.db, input.workspaceId, run.id, step.id, clock.now());
      const ctx = await contextOf(run);
      const body: string[] = [];
      for (const text of step.parameters?.body ?? []) {
        const r = renderParameter(text, ctx);
        if (!r.ok) {
          throw ApplicationFailure.create({
            type: JourneyFailureType.PersonalizationMissing,
            message: `step ${step.id}: no value for ${r.missing.join(', ')}`,
            nonRetryable: true,
          });
        }
        body.push(r.text);
      }
      const template = { name: step.template.name, language: step.template.language, ...(body.length ? { parameters: { body } } : {}) };
      try {
        const { messageId } = await deps.sendTemplate(run.workspaceId, { contactId: run.contactId, template }, journeyMessageKey(run.id, step.id));
        return { outcome: 'queued', messageId };
      } catch (err) {
        if (isAppError(err) && ENDS_RUN.has(err.code)) return { outcome: 'refused', reason: err.code };
        if (isAppError(err) && err.code === 'template_not_approved') {
          throw ApplicationFailure.create({ type: JourneyFailureType.TemplateNotApproved, message: `step ${step.id}: ${err.message}`, nonRetryable: true });
        }
        if (isAppError(err)) {
          throw ApplicationFailure.create({ type: err.code, message: `step ${step.id}: ${err.code}`, nonRetryable: err.status < 500 });
        }
        throw err;
      }
    },

    async evaluateJourneyBranch(input: JourneyStepInput): Promise<boolean> {
      const run = await load(input);
      const step: BranchOnPropertyStep = stepOf(run, input.stepId, 'branch_on_property');
      await setJourneyRunStep(deps.db, input.workspaceId, run.id, step.id, clock.now());
      const contact = (await journeyContactView(deps.db, run.workspaceId, run.contactId)) ?? {};
      const actual = Object.prototype.hasOwnProperty.call(contact, step.property) ? contact[step.property] : undefined;
      return evaluatePropertyCondition(actual, step.operator, step.value);
    },

    async finishJourneyRun(input: JourneyRunInput & { status: 'completed' | 'exited' | 'failed'; reason: string | null }): Promise<void> {
      await finishJourneyRun(deps.db, input.workspaceId, input.journeyRunId, { status: input.status, failureReason: input.reason, now: clock.now() });
      deps.log.info({ journeyRunId: input.journeyRunId, status: input.status }, 'journey run finished');
    },
  };
}

export type JourneyActivities = ReturnType<typeof createJourneyActivities>;
