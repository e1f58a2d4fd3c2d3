import { newId, START_JOURNEY_RUN, type JourneyTriggerType } from '@mos/core';
import { enqueueOutboxJob, insertJourneyRun, type DbOrTx, type JourneyRow } from '@mos/db';
import { journeyRunWorkflowId } from './contract';

/**
 * A run for (journey, trigger, contact), in the caller's transaction: the row (unique by its
 * workflow id) and, when it is new, the outbox job the worker's journey starter turns into the
 * Temporal run. Applying the same trigger again (a retried batch, a replay) finds the row and
 * queues nothing. Returns the run id when it was created.
 */
export async function queueJourneyRun(
  tx: DbOrTx,
  workspaceId: string,
  input: {
    journey: JourneyRow;
    contactId: string;
    triggerType: JourneyTriggerType;
    triggerRef: string;
    personalization: Record<string, unknown>;
    now: Date;
  },
): Promise<string | null> {
  const workflowId = journeyRunWorkflowId(input.journey.id, input.triggerRef, input.contactId);
  const run = await insertJourneyRun(
    tx,
    workspaceId,
    {
      id: newId('journeyRun', input.now.getTime()),
      journeyId: input.journey.id,
      journeyVersion: input.journey.version,
      steps: input.journey.steps,
      contactId: input.contactId,
      triggerType: input.triggerType,
      triggerRef: input.triggerRef,
      personalization: input.personalization,
      workflowId,
    },
    input.now,
  );
  if (!run) return null;
  await enqueueOutboxJob(tx, workspaceId, {
    id: newId('job', input.now.getTime()),
    jobType: START_JOURNEY_RUN,
    dedupKey: `journey-run:${workflowId}`,
    payload: { journeyRunId: run.id, workflowId },
    now: input.now,
  });
  return run.id;
}
