import { sha256Hex, systemClock, type Clock } from '@mos/core';
import { getJourney, journeyAudiencePage, type Db } from '@mos/db';
import type { Logger } from '@mos/config';
import type { JourneyAudiencePage, JourneyScheduleTickInput } from './contract';
import { queueJourneyRun } from './start-run';

export interface JourneyScheduleActivityDeps {
  db: Db;
  log: Logger;
  clock?: Clock;
  /** Contacts per page; each page is one transaction. */
  pageSize?: number;
}

export function createJourneyScheduleActivities(deps: JourneyScheduleActivityDeps) {
  const clock = deps.clock ?? systemClock;
  const pageSize = deps.pageSize ?? 200;
  return {
    /**
     * The next page of a schedule journey's audience (subscribed contacts with a phone number,
     * by id), each queued a run keyed by the tick. A journey no longer active with a schedule
     * trigger queues nothing (the schedule is being removed).
     */
    async queueScheduledJourneyRuns(input: JourneyScheduleTickInput & { tick: string; cursor: string | null }): Promise<JourneyAudiencePage> {
      return deps.db.transaction(async (tx) => {
        const journey = await getJourney(tx, input.workspaceId, input.journeyId);
        if (!journey || journey.status !== 'active' || journey.trigger.type !== 'schedule') return { queued: 0, nextCursor: null };
        const since = journey.trigger.segment?.updatedSince ? new Date(journey.trigger.segment.updatedSince) : null;
        const contacts = await journeyAudiencePage(tx, input.workspaceId, {
          after: input.cursor,
          limit: pageSize,
          updatedSince: since && !Number.isNaN(since.getTime()) ? since : null,
        });
        const now = clock.now();
        const triggerRef = `tick-${sha256Hex(input.tick).slice(0, 24)}`;
        let queued = 0;
        for (const contactId of contacts) {
          const runId = await queueJourneyRun(tx, input.workspaceId, { journey, contactId, triggerType: 'schedule', triggerRef, personalization: {}, now });
          if (runId) queued++;
        }
        deps.log.info({ workspaceId: input.workspaceId, journeyId: journey.id, queued, page: contacts.length }, 'schedule journey page queued');
        return { queued, nextCursor: contacts.length === pageSize ? contacts[contacts.length - 1]! : null };
      });
    },
  };
}

export type JourneyScheduleActivities = ReturnType<typeof createJourneyScheduleActivities>;
