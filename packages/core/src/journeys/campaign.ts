/**
 * A campaign: one template to a segment at a time, run by the broadcast machinery (a campaign
 * that is scheduled owns one broadcast). Its status follows that broadcast's.
 */
export const CAMPAIGN_STATUSES = ['draft', 'scheduled', 'running', 'completed', 'failed', 'cancelled'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

/** A broadcast's status as its campaign's (a paused broadcast keeps its campaign running or scheduled, with `paused`). */
export function campaignStatusOf(broadcast: { status: string; startedAt: Date | null } | null): CampaignStatus {
  if (!broadcast) return 'draft';
  switch (broadcast.status) {
    case 'scheduled':
      return 'scheduled';
    case 'paused':
      return broadcast.startedAt ? 'running' : 'scheduled';
    case 'running':
    case 'completed':
    case 'failed':
    case 'cancelled':
      return broadcast.status;
    default:
      return 'failed';
  }
}
