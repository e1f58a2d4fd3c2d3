/**
 * The send governor: one long-running workflow per business number sends its due messages in
 * rate-limited slices (activities), so Temporal's cost grows with time spent sending, not with
 * messages. Constants and types only.
 */
export const SEND_GOVERNOR_WORKFLOW_TYPE = 'sendGovernor';
/** Something was enqueued (or a broadcast resumed): look at the queue now. */
export const GOVERNOR_WAKE_SIGNAL = 'wake';
/** The governor's view of its queue, for operators in the Temporal UI. */
export const GOVERNOR_BACKLOG_QUERY = 'backlog';

export function sendGovernorWorkflowId(workspaceId: string, phoneNumberId: string): string {
  return `send-governor-${workspaceId}-${phoneNumberId}`;
}

export interface SendGovernorInput {
  workspaceId: string;
  phoneNumberId: string;
  /** Carried across continue-as-new so the query keeps its totals. */
  totals?: GovernorTotals;
  /** How long an idle governor waits for a wake before it ends (default 5 minutes). */
  idleLingerMs?: number;
}

export interface GovernorTotals {
  slices: number;
  sent: number;
  retried: number;
  failed: number;
}

export interface SendSliceInput {
  workspaceId: string;
  phoneNumberId: string;
  /** How long one activity call may keep sending before it hands back to the workflow. */
  maxDurationMs?: number;
}

export interface SendSliceResult {
  sent: number;
  retried: number;
  failed: number;
  /** Nothing queued or in flight: the governor row went idle and the workflow may end. */
  idle: boolean;
  /** When something next becomes due (ISO), when the queue is not empty but nothing is due now. */
  nextDueAt: string | null;
  queued: number;
  sending: number;
}

export interface GovernorBacklog {
  workspaceId: string;
  phoneNumberId: string;
  queued: number;
  sending: number;
  nextDueAt: string | null;
  lastSliceAt: string | null;
  totals: GovernorTotals;
}
