import { composeEffects, createAccountEffects, createContactEffects, createTemplateEffects, type FamilyEffects } from '@mos/workflows';
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
  return composeEffects(createContactEffects(deps), createTemplateEffects(deps), createAccountEffects(deps));
}
