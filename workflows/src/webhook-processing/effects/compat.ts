import { ApplicationFailure } from '@temporalio/common';
import type { Clock, CompatEventSummary, CompatFamily } from '@mos/core';
import {
  activeJourneysTriggeredBy,
  applyCompatContactFields,
  atomically,
  findContactByExternalRef,
  getJourney,
  resolveContact,
  type ContactRow,
  type DbOrTx,
} from '@mos/db';
import type { Logger } from '@mos/config';
import { queueJourneyRun } from '../../journeys/start-run';
import type { FamilyEffects } from './family-effects';

export interface CompatEffectsDeps {
  log: Logger;
  clock: Clock;
}

/**
 * Compat calls, applied by the webhook pipeline: a contact upsert's fields, a journey trigger's
 * run, a partner event's runs (every active `partner_event` journey with its event name). Runs
 * are keyed by the replay chain's first event, so applying a call twice (a retried batch, an
 * operator's replay) starts nothing twice. Logs carry ids only.
 */
export function createCompatEffects(deps: CompatEffectsDeps): Pick<FamilyEffects, 'applyCompat'> {
  const { log, clock } = deps;

  async function contactForRun(tx: DbOrTx, workspaceId: string, phone: string | null, externalReferenceId: string | null): Promise<ContactRow | undefined> {
    if (phone) return resolveContact(tx, workspaceId, { phoneNumber: phone, userId: null }, { at: clock.now() });
    return externalReferenceId ? findContactByExternalRef(tx, workspaceId, externalReferenceId) : undefined;
  }

  async function apply(tx: DbOrTx, workspaceId: string, family: CompatFamily, summary: CompatEventSummary): Promise<void> {
    const now = clock.now();
    switch (family.family) {
      case 'compat.contact_upsert': {
        const applied = await applyCompatContactFields(tx, workspaceId, family.contactId, family.contact, now);
        log.debug({ workspaceId, contactId: family.contactId, applied }, 'compat contact upsert applied');
        return;
      }
      case 'compat.journey_trigger': {
        const journey = await getJourney(tx, workspaceId, family.journeyId);
        // Paused or archived since the call was accepted: the trigger is kept, no run starts.
        if (!journey || journey.status !== 'active') {
          log.info({ workspaceId, journeyId: family.journeyId, status: journey?.status ?? 'deleted' }, 'journey trigger for an inactive journey: no run');
          return;
        }
        const contact = await contactForRun(tx, workspaceId, family.phone, null);
        if (!contact) throw ApplicationFailure.nonRetryable('the trigger names no contact', 'InvalidPayload');
        const runId = await queueJourneyRun(tx, workspaceId, {
          journey,
          contactId: contact.id,
          triggerType: 'api',
          triggerRef: summary.rootEventId,
          personalization: family.personalization,
          now,
        });
        log.info({ workspaceId, journeyId: journey.id, journeyRunId: runId, duplicate: runId === null }, 'journey triggered');
        return;
      }
      case 'compat.partner_event': {
        const journeys = (await activeJourneysTriggeredBy(tx, workspaceId, 'partner_event')).filter(
          (j) => j.trigger.type === 'partner_event' && j.trigger.eventName === family.eventName,
        );
        if (journeys.length === 0) return;
        const contact = await contactForRun(tx, workspaceId, family.contact.phone, family.contact.externalReferenceId);
        if (!contact) {
          log.info({ workspaceId, eventName: family.eventName }, 'partner event: no contact to run journeys for');
          return;
        }
        for (const journey of journeys) {
          await queueJourneyRun(tx, workspaceId, {
            journey,
            contactId: contact.id,
            triggerType: 'partner_event',
            triggerRef: summary.rootEventId,
            personalization: family.personalization,
            now,
          });
        }
        log.info({ workspaceId, eventName: family.eventName, journeys: journeys.length }, 'partner event triggered journeys');
        return;
      }
    }
  }

  return { applyCompat: (db, workspaceId, family, summary) => atomically(db, (tx) => apply(tx, workspaceId, family, summary)) };
}
