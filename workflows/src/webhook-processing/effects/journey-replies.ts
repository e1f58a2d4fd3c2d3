import type { Clock, InboundMessageEvent } from '@mos/core';
import { newId, SIGNAL_JOURNEY_REPLY } from '@mos/core';
import { activeJourneysTriggeredBy, atomically, enqueueOutboxJob, getMessageByProviderId, liveRunsOfContact, recordJourneyReply, type DbOrTx } from '@mos/db';
import type { Logger } from '@mos/config';
import { queueJourneyRun } from '../../journeys/start-run';
import type { FamilyEffects } from './family-effects';

export interface JourneyReplyEffectsDeps {
  log: Logger;
  clock: Clock;
}

/** A keyword matches as a whole word of the message text, in any case. */
function matchesKeyword(text: string | null, keyword: string | undefined): boolean {
  if (!keyword) return true;
  if (!text) return false;
  const escaped = keyword.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`(^|[^\\p{L}\\p{N}])${escaped}($|[^\\p{L}\\p{N}])`, 'iu').test(text);
}

/**
 * What an inbound message means for journeys, after the contact effects stored it (same
 * transaction): every live run of the contact gets a reply signal (an outbox job the journey
 * starter delivers, keyed by run and message), and active `inbound_message` journeys start for
 * a contact not already in them. Opt-out keywords start nothing.
 */
export function createJourneyReplyEffects(deps: JourneyReplyEffectsDeps): Pick<FamilyEffects, 'applyInbound'> {
  const { log, clock } = deps;

  async function apply(tx: DbOrTx, workspaceId: string, ev: InboundMessageEvent): Promise<void> {
    const message = await getMessageByProviderId(tx, workspaceId, ev.providerMessageId);
    if (!message?.contactId) return;
    const now = clock.now();
    const live = await liveRunsOfContact(tx, workspaceId, message.contactId);
    for (const run of live) {
      await enqueueOutboxJob(tx, workspaceId, {
        id: newId('job', now.getTime()),
        jobType: SIGNAL_JOURNEY_REPLY,
        dedupKey: `journey-reply:${run.id}:${message.id}`,
        payload: { journeyRunId: run.id, workflowId: run.workflowId, messageId: message.id },
        now,
      });
      await recordJourneyReply(tx, workspaceId, run.id, new Date(ev.sentAt));
    }
    if (ev.optKeyword) return;
    const journeys = await activeJourneysTriggeredBy(tx, workspaceId, 'inbound_message');
    if (journeys.length === 0) return;
    // The runs signalled above are the contact's live ones: a journey it is in does not start again.
    const inJourney = new Set(live.map((r) => r.journeyId));
    for (const journey of journeys) {
      if (journey.trigger.type !== 'inbound_message' || inJourney.has(journey.id)) continue;
      if (!matchesKeyword(ev.text, journey.trigger.keyword)) continue;
      const runId = await queueJourneyRun(tx, workspaceId, {
        journey,
        contactId: message.contactId,
        triggerType: 'inbound_message',
        triggerRef: message.id,
        personalization: {},
        now,
      });
      log.info({ workspaceId, journeyId: journey.id, journeyRunId: runId }, 'inbound message started a journey');
    }
  }

  return { applyInbound: (db, workspaceId, ev) => atomically(db, (tx) => apply(tx, workspaceId, ev)) };
}
