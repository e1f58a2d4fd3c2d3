import { composeEffects, createAccountEffects, createContactEffects, createTemplateEffects, type FamilyEffects } from '@mos/workflows';
import type { Db } from '@mos/db';
import type { Logger } from '@mos/config';

/**
 * The one place production effects are wired. Each aggregate's owner adds its part, e.g.
 *   composeEffects(contactEffects({db, log}), templateEffects({db, log}))
 * Parts not provided fall back to no-ops, so the pipeline always records deliveries.
 */
export function defaultEffects(deps: { db: Db; log: Logger }): FamilyEffects {
  return composeEffects(createContactEffects(deps), createTemplateEffects(deps), createAccountEffects(deps));
}
