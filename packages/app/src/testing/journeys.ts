import { newId, type JourneyStep, type JourneyTrigger } from '@mos/core';
import { compatMappings, journeys, type Db } from '@mos/db';

/**
 * Journeys and compat mappings as stored rows, for the suites of the paths that use them
 * (compat ingress, the pipeline, the journey workflow); the management API has its own suites.
 */
export async function seedJourney(
  db: Db,
  workspaceId: string,
  o: { name?: string; status?: 'draft' | 'active' | 'paused' | 'archived'; trigger?: JourneyTrigger; steps: JourneyStep[] },
): Promise<string> {
  const id = newId('journey');
  const trigger = o.trigger ?? { type: 'api' };
  await db
    .insert(journeys)
    .values({ id, workspaceId, name: o.name ?? 'Test journey', status: o.status ?? 'active', triggerType: trigger.type, trigger, steps: o.steps });
  return id;
}

export async function seedCompatMapping(
  db: Db,
  workspaceId: string,
  journeyId: string,
  m: { organizationId: string; flowId: string; triggerId?: string } | { legacyPath: string },
): Promise<string> {
  const id = newId('compatMapping');
  await db
    .insert(compatMappings)
    .values(
      'legacyPath' in m
        ? { id, workspaceId, journeyId, kind: 'legacy_path', legacyPath: m.legacyPath }
        : { id, workspaceId, journeyId, kind: 'rest_trigger', organizationId: m.organizationId, flowId: m.flowId, triggerId: m.triggerId ?? '' },
    );
  return id;
}
