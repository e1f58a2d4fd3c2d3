import { AppError, hasPrefix } from '@mos/core';
import {
  deleteCompatMapping,
  getCompatMappingListing,
  insertCompatMapping,
  isUniqueViolation,
  listCompatMappingListings,
  writeAuditLog,
  type CompatMappingListing,
} from '@mos/db';
import type { AppDeps } from '../deps';
import type { Scope } from '../scope';
import { requireJourney } from './journeys';
import type { CompatMappingView, CreateCompatMappingInput } from './schemas';

export const REST_TRIGGER_PATH_PREFIX = '/webhooks/v0/rest-trigger/organization/';
export const LEGACY_PATH_PREFIX = '/compat/journey-trigger/';
/** Mappings of one workspace in a list (one answer, no pages). */
export const COMPAT_MAPPING_LIST_LIMIT = 500;

/** The path a mapping answers on the API; the legacy callers send these paths unchanged. */
export function compatMappingPath(m: Pick<CompatMappingListing, 'kind' | 'organizationId' | 'flowId' | 'triggerId' | 'legacyPath'>): string {
  if (m.kind === 'legacy_path') return `${LEGACY_PATH_PREFIX}${m.legacyPath}`;
  return `${REST_TRIGGER_PATH_PREFIX}${m.organizationId}/flow/${m.flowId}/trigger/${m.triggerId ? `${m.triggerId}/` : ''}`;
}

export function toCompatMappingView(m: CompatMappingListing): CompatMappingView {
  return {
    id: m.id,
    kind: m.kind,
    organizationId: m.organizationId,
    flowId: m.flowId,
    triggerId: m.kind === 'rest_trigger' && m.triggerId !== '' ? m.triggerId : null,
    legacyPath: m.legacyPath,
    path: compatMappingPath(m),
    journeyId: m.journeyId,
    journeyName: m.journeyName,
    createdBy: m.createdBy,
    createdAt: m.createdAt.toISOString(),
  };
}

const notFound = () => new AppError('compat_mapping_not_found', { message: 'No compat mapping with this id in the workspace' });
// The same answer whoever holds the path: which workspace uses a path is not ours to tell.
const taken = () => new AppError('compat_mapping_conflict', { message: 'This path is already mapped to a journey' });

export async function listCompatMappings(deps: AppDeps, scope: Scope, input: { journeyId?: string } = {}): Promise<{ compatMappings: CompatMappingView[] }> {
  const rows = await listCompatMappingListings(deps.db, scope.workspaceId, { journeyId: input.journeyId, limit: COMPAT_MAPPING_LIST_LIMIT });
  return { compatMappings: rows.map(toCompatMappingView) };
}

/**
 * Maps a legacy path to a journey of the caller's workspace (404 for any other journey). The
 * journey must be triggered by `api` and not archived. Paths are unique across workspaces (the
 * ingress finds the workspace through them): a taken one is 409, whoever holds it.
 */
export async function createCompatMapping(deps: AppDeps, scope: Scope, input: CreateCompatMappingInput): Promise<{ compatMapping: CompatMappingView }> {
  const ws = scope.workspaceId;
  const values =
    input.kind === 'rest_trigger'
      ? { kind: input.kind, organizationId: input.organizationId, flowId: input.flowId, triggerId: input.triggerId ?? '', legacyPath: null }
      : { kind: input.kind, organizationId: null, flowId: null, triggerId: '', legacyPath: input.legacyPath };
  try {
    // The insert's unique violation aborts the transaction, so it is mapped outside it.
    return await deps.db.transaction(async (tx) => {
      // Locked: an archive cannot slip in between this check and the insert.
      const journey = await requireJourney(tx, ws, input.journeyId, true);
      if (journey.status === 'archived') throw new AppError('invalid_journey_state', { message: 'The journey is archived' });
      if (journey.triggerType !== 'api') {
        throw new AppError('validation_failed', {
          message: `Mappings start journeys triggered by api; this one is triggered by ${journey.triggerType}`,
          issues: [{ path: 'journeyId', message: 'the journey’s trigger must be of type api' }],
        });
      }
      const row = await insertCompatMapping(tx, ws, { ...values, journeyId: journey.id, createdBy: scope.actorId }, deps.clock.now());
      const view = toCompatMappingView({ ...row, journeyName: journey.name });
      await writeAuditLog(tx, ws, {
        action: 'compat_mapping.create',
        actorId: scope.actorId,
        targetId: row.id,
        details: { kind: row.kind, path: view.path, journeyId: journey.id },
      });
      return { compatMapping: view };
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw taken();
    throw err;
  }
}

export async function getWorkspaceCompatMapping(deps: AppDeps, scope: Scope, id: string): Promise<{ compatMapping: CompatMappingView }> {
  const row = hasPrefix(id, 'compatMapping') && id.length <= 64 ? await getCompatMappingListing(deps.db, scope.workspaceId, id) : undefined;
  if (!row) throw notFound();
  return { compatMapping: toCompatMappingView(row) };
}

/** The path stops resolving at once: the legacy caller then gets the ingress's unknown-path answer. */
export async function deleteWorkspaceCompatMapping(deps: AppDeps, scope: Scope, id: string): Promise<{ ok: true }> {
  const ws = scope.workspaceId;
  if (!hasPrefix(id, 'compatMapping') || id.length > 64) throw notFound();
  return deps.db.transaction(async (tx) => {
    const row = await deleteCompatMapping(tx, ws, id);
    if (!row) throw notFound();
    await writeAuditLog(tx, ws, {
      action: 'compat_mapping.delete',
      actorId: scope.actorId,
      targetId: id,
      details: { kind: row.kind, path: compatMappingPath(row), journeyId: row.journeyId },
    });
    return { ok: true as const };
  });
}
