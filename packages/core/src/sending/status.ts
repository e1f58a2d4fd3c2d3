import type { OutboundStatus, OutboundStatusEntry, SendError } from './outbound';

/** Forward-only ranks: a late `delivered` after `read` changes nothing. */
export const STATUS_RANK: Record<'sent' | 'delivered' | 'read', number> = { sent: 1, delivered: 2, read: 3 };

export type ProviderReportedStatus = 'sent' | 'delivered' | 'read' | 'failed';

export interface StatusMove {
  status: OutboundStatus;
  rank: number;
  entry: OutboundStatusEntry;
  error?: SendError;
}

/**
 * The move a provider status makes on a stored message, or null when it changes nothing:
 * terminal messages (failed, skipped) stay put; `sent/delivered/read` only move up; a
 * `failed` after `read` is ignored (the provider cannot un-read), before it wins.
 */
export function statusMove(
  current: { status: OutboundStatus; statusRank: number },
  reported: ProviderReportedStatus,
  at: string,
  error?: SendError,
): StatusMove | null {
  if (current.status === 'failed' || current.status === 'skipped') return null;
  if (reported === 'failed') {
    if (current.statusRank >= STATUS_RANK.read) return null;
    const code = typeof error?.code === 'number' ? error.code : undefined;
    return {
      status: 'failed',
      rank: current.statusRank,
      entry: { status: 'failed', at, ...(code === undefined ? {} : { code }) },
      ...(error ? { error } : {}),
    };
  }
  const rank = STATUS_RANK[reported];
  if (rank <= current.statusRank) return null;
  return { status: reported, rank, entry: { status: reported, at } };
}
