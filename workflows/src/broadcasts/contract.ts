/** A broadcast's workflow: pages its segment into queued messages and watches them go out. */
export const BROADCAST_WORKFLOW_TYPE = 'runBroadcast';
/** Its status changed (pause, resume, cancel): look again now rather than at the next poll. */
export const BROADCAST_CHANGED_SIGNAL = 'changed';

export function broadcastWorkflowId(broadcastId: string): string {
  return `broadcast-${broadcastId}`;
}

export interface BroadcastInput {
  workspaceId: string;
  broadcastId: string;
}

export interface BroadcastStep {
  /** The broadcast's status after the step. */
  status: 'scheduled' | 'running' | 'paused' | 'completed' | 'cancelled' | 'failed';
  /** Enqueueing has reached the end of the segment. */
  enqueueDone: boolean;
  /** Messages not yet settled (queued or in flight). */
  remaining: number;
  /** It has begun sending (its start time came and it was not paused before). */
  started: boolean;
  /** When to start (ISO); null: at once. */
  scheduledAt: string | null;
}
