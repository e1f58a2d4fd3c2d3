import {
  composeEffects,
  createAccountEffects,
  createCompatEffects,
  createContactEffects,
  createJourneyReplyEffects,
  createTemplateEffects,
  inOrder,
  type FamilyEffects,
} from '@mos/workflows';
import type { Clock } from '@mos/core';
import type { Logger } from '@mos/config';

/**
 * The one place production effects are wired. Each aggregate's owner adds its part, e.g.
 *   composeEffects(contactEffects({log}), templateEffects({clock}))
 * Parts not provided fall back to no-ops, so the pipeline always records deliveries. No part
 * holds a database: the pipeline passes each effect the executor (pool, transaction or
 * savepoint) it runs on. The worker's clock goes to every part that stamps times, so a test or
 * a replay that injects one sees the same "now" in effects as in the rest of the activity.
 */
export function defaultEffects(deps: { log: Logger; clock: Clock }): FamilyEffects {
  const contacts = createContactEffects(deps);
  const replies = createJourneyReplyEffects(deps);
  return composeEffects(contacts, createTemplateEffects(deps), createAccountEffects(deps), createCompatEffects(deps), {
    // The journey part reads the message the contact part stored, in the same transaction.
    applyInbound: inOrder(contacts.applyInbound, replies.applyInbound),
  });
}
