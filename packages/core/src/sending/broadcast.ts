import type { TemplateRef } from './outbound';

export const BROADCAST_STATUSES = ['scheduled', 'running', 'paused', 'completed', 'cancelled', 'failed'] as const;
export type BroadcastStatus = (typeof BROADCAST_STATUSES)[number];

export type BroadcastTemplate = TemplateRef;

/** Who receives a broadcast; every given criterion must hold (AND). */
export interface BroadcastSegment {
  subscriberStatus?: 'subscribed' | 'unsubscribed' | 'blocked';
  contactIds?: string[];
  phoneNumbers?: string[];
  updatedSince?: string;
}

/** Which actions a broadcast in a status accepts, and where they lead. */
export const BROADCAST_TRANSITIONS: Record<'pause' | 'resume' | 'cancel', Partial<Record<BroadcastStatus, BroadcastStatus>>> = {
  pause: { scheduled: 'paused', running: 'paused' },
  resume: { paused: 'running' },
  cancel: { scheduled: 'cancelled', running: 'cancelled', paused: 'cancelled' },
};

/** The idempotency key of a broadcast's message to one contact: a re-run page sends nobody twice. */
export const broadcastMessageKey = (broadcastId: string, contactId: string): string => `${broadcastId}:${contactId}`;
