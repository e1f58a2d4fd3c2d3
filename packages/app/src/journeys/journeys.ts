import type { z } from 'zod';
import {
  AppError,
  JOURNEY_TRANSITIONS,
  hasPrefix,
  journeyStepSchema,
  journeyTriggerSchema,
  temporalUiRunUrl,
  validateJourneySteps,
  type JourneyDefinitionIssue,
  type JourneyStep,
  type JourneyStatus,
} from '@mos/core';
import {
  countCompatMappingsOfJourney,
  getJourney,
  insertJourney,
  listJourneyRows,
  listJourneyRunListings,
  updateJourney,
  writeAuditLog,
  type DbOrTx,
  type JourneyPatch,
  type JourneyRow,
  type JourneyRunListing,
} from '@mos/db';
import type { AppDeps } from '../deps';
import { syncJourneySchedule } from './schedule-sync';
import type { Scope } from '../scope';
import { checkApprovedTemplate } from '../messages/approved-template';
import type { CreateJourneyInput, JourneyDetailView, JourneyResult, JourneyRunView, JourneyView, UpdateJourneyInput, listJourneyRunsInput } from './schemas';

/** Journeys of one workspace in a list: far more than anyone manages by hand, small enough for one answer. */
export const JOURNEY_LIST_LIMIT = 500;

export type JourneyAction = keyof typeof JOURNEY_TRANSITIONS;
/** Edits are for journeys no trigger is starting: a draft, or a paused one before it goes on. */
const EDITABLE: readonly JourneyStatus[] = ['draft', 'paused'];

export function toJourneyView(row: JourneyRow): JourneyView {
  return {
    id: row.id,
    name: row.name,
    status: row.status,
    triggerType: row.triggerType,
    trigger: row.trigger,
    version: row.version,
    stepCount: row.steps.length,
    createdBy: row.createdBy,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function toJourneyDetail(row: JourneyRow): JourneyDetailView {
  return { ...toJourneyView(row), steps: row.steps };
}

const notFound = () => new AppError('journey_not_found', { message: 'No journey with this id in the workspace' });

/** The workspace's journey, or 404 (another workspace's id included: it is not told apart). */
export async function requireJourney(db: DbOrTx, ws: string, id: string, lock = false): Promise<JourneyRow> {
  const row = hasPrefix(id, 'journey') && id.length <= 64 ? await getJourney(db, ws, id, lock) : undefined;
  if (!row) throw notFound();
  return row;
}

function checkSteps(steps: readonly JourneyStep[]): void {
  const issues = validateJourneySteps(steps);
  if (issues.length > 0) throw new AppError('validation_failed', { message: 'The journey steps are not valid', issues });
}

/** Key order does not matter in a definition (jsonb reorders keys on the way in). */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== undefined);
    return `{${entries
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, x]) => `${JSON.stringify(k)}:${canonical(x)}`)
      .join(',')}}`;
  }
  return JSON.stringify(v);
}

/** Every journey of the workspace, newest first (bounded): journeys.list, GET /internal/journeys and the runtime snapshot. */
export async function internalJourneyList(deps: AppDeps, scope: Scope): Promise<JourneyView[]> {
  return (await listJourneyRows(deps.db, scope.workspaceId, JOURNEY_LIST_LIMIT)).map(toJourneyView);
}

export async function listJourneys(deps: AppDeps, scope: Scope): Promise<{ journeys: JourneyView[] }> {
  return { journeys: await internalJourneyList(deps, scope) };
}

export async function getWorkspaceJourney(deps: AppDeps, scope: Scope, id: string): Promise<JourneyResult> {
  return { journey: toJourneyDetail(await requireJourney(deps.db, scope.workspaceId, id)) };
}

/** A new journey is a draft: nothing starts it until it is activated (which checks its templates). */
export async function createJourney(deps: AppDeps, scope: Scope, input: CreateJourneyInput): Promise<JourneyResult> {
  checkSteps(input.steps);
  const ws = scope.workspaceId;
  return deps.db.transaction(async (tx) => {
    const row = await insertJourney(
      tx,
      ws,
      { name: input.name, triggerType: input.trigger.type, trigger: input.trigger, steps: input.steps, createdBy: scope.actorId },
      deps.clock.now(),
    );
    await writeAuditLog(tx, ws, {
      action: 'journey.create',
      actorId: scope.actorId,
      targetId: row.id,
      details: { name: row.name, triggerType: row.triggerType, steps: row.steps.length },
    });
    return { journey: toJourneyDetail(row) };
  });
}

/**
 * Name, trigger and steps, while the journey is a draft or paused (409 otherwise: an active
 * journey is starting runs from the definition, an archived one is final). A change to the
 * steps or the trigger bumps `version`; runs already going keep the steps they began with.
 */
export async function updateJourneyDefinition(deps: AppDeps, scope: Scope, input: UpdateJourneyInput): Promise<JourneyResult> {
  if (input.steps) checkSteps(input.steps);
  const ws = scope.workspaceId;
  return deps.db.transaction(async (tx) => {
    const row = await requireJourney(tx, ws, input.id, true);
    if (!EDITABLE.includes(row.status)) {
      throw new AppError('invalid_journey_state', {
        message: `Cannot edit a journey that is ${row.status}${row.status === 'active' ? ': pause it first' : ''}`,
      });
    }
    const stepsChanged = input.steps !== undefined && canonical(input.steps) !== canonical(row.steps);
    const triggerChanged = input.trigger !== undefined && canonical(input.trigger) !== canonical(row.trigger);
    // Mappings only ever start `api` journeys: moving a mapped journey to another trigger would strand them.
    if (triggerChanged && input.trigger!.type !== 'api' && row.triggerType === 'api' && (await countCompatMappingsOfJourney(tx, ws, row.id)) > 0) {
      throw new AppError('invalid_journey_state', { message: 'The journey has compat mappings: remove them before changing it from an api trigger' });
    }
    const patch: JourneyPatch = {};
    if (input.name !== undefined) patch.name = input.name;
    if (stepsChanged) patch.steps = input.steps;
    if (triggerChanged) Object.assign(patch, { trigger: input.trigger, triggerType: input.trigger!.type });
    if (stepsChanged || triggerChanged) patch.version = row.version + 1;
    const updated = (await updateJourney(tx, ws, row.id, patch, deps.clock.now()))!;
    const changed = (['name', 'trigger', 'steps'] as const).filter((k) => patch[k] !== undefined && (k !== 'name' || patch.name !== row.name));
    await writeAuditLog(tx, ws, {
      action: 'journey.update',
      actorId: scope.actorId,
      targetId: row.id,
      details: { changed, version: { before: row.version, after: updated.version } },
    });
    return { journey: toJourneyDetail(updated) };
  });
}

/**
 * What activation requires of a stored definition: it still parses and walks (rules may have
 * tightened since it was saved), and every template it sends is approved in this workspace
 * with as many body parameters as the step gives.
 */
async function checkActivatable(db: DbOrTx, ws: string, row: JourneyRow): Promise<void> {
  const trigger = journeyTriggerSchema.safeParse(row.trigger);
  const issues: JourneyDefinitionIssue[] = trigger.success
    ? []
    : trigger.error.issues.map((i) => ({ path: ['trigger', ...i.path].join('.'), message: i.message }));
  row.steps.forEach((s, i) => {
    const parsed = journeyStepSchema.safeParse(s);
    if (!parsed.success) issues.push(...parsed.error.issues.map((x) => ({ path: [`steps.${i}`, ...x.path].join('.'), message: x.message })));
  });
  if (issues.length === 0) issues.push(...validateJourneySteps(row.steps));
  if (issues.length > 0) throw new AppError('validation_failed', { message: 'The journey definition is not valid', issues });

  const unapproved: JourneyDefinitionIssue[] = [];
  const counts: JourneyDefinitionIssue[] = [];
  for (const [i, s] of row.steps.entries()) {
    if (s.type !== 'send_template') continue;
    const check = await checkApprovedTemplate(db, ws, s.template.name, s.template.language, s.parameters?.body?.length ?? 0);
    if (check.ok) continue;
    if (check.code === 'template_not_approved') unapproved.push({ path: `steps.${i}.template`, message: check.message });
    else counts.push({ path: `steps.${i}.parameters.body`, message: check.message });
  }
  if (unapproved.length > 0) {
    throw new AppError('template_not_approved', { message: 'Every template the journey sends must be approved in this workspace', issues: unapproved });
  }
  if (counts.length > 0) throw new AppError('validation_failed', { message: 'A step gives the wrong number of body parameters', issues: counts });
}

/** activate, pause or archive (core JOURNEY_TRANSITIONS); 409 invalid_journey_state when the status does not allow it. */
export async function changeJourneyStatus(deps: AppDeps, scope: Scope, id: string, action: JourneyAction): Promise<JourneyResult> {
  const ws = scope.workspaceId;
  return deps.db.transaction(async (tx) => {
    const row = await requireJourney(tx, ws, id, true);
    const next = JOURNEY_TRANSITIONS[action][row.status];
    if (!next) throw new AppError('invalid_journey_state', { message: `Cannot ${action} a journey that is ${row.status}` });
    if (action === 'activate') await checkActivatable(tx, ws, row);
    const updated = (await updateJourney(tx, ws, row.id, { status: next }, deps.clock.now()))!;
    // A schedule journey's Temporal Schedule follows the status before the change commits: if
    // Temporal refuses or is away (400 / 503), the status stays as it was.
    if (updated.trigger.type === 'schedule') await syncJourneySchedule(deps, updated);
    await writeAuditLog(tx, ws, {
      action: `journey.${action}`,
      actorId: scope.actorId,
      targetId: row.id,
      details: { before: row.status, after: next, version: row.version },
    });
    return { journey: toJourneyDetail(updated) };
  });
}

function toJourneyRunView(r: JourneyRunListing, temporalUi: { baseUrl: string | null; namespace: string }): JourneyRunView {
  return {
    id: r.id,
    journeyId: r.journeyId,
    journeyVersion: r.journeyVersion,
    contactId: r.contactId,
    status: r.status,
    currentStep: r.currentStep,
    triggerType: r.triggerType,
    triggerRef: r.triggerRef,
    workflowId: r.workflowId,
    temporalUiUrl: temporalUiRunUrl({ ...temporalUi, workflowId: r.workflowId, runId: null }),
    failureReason: r.failureReason,
    startedAt: r.startedAt?.toISOString() ?? null,
    finishedAt: r.finishedAt?.toISOString() ?? null,
    createdAt: r.createdAt.toISOString(),
  };
}

/** A journey's runs, newest first, keyset pages by run id. */
export async function listJourneyRuns(
  deps: AppDeps,
  scope: Scope,
  input: z.output<typeof listJourneyRunsInput>,
): Promise<{ runs: JourneyRunView[]; nextCursor: string | null }> {
  const ws = scope.workspaceId;
  await requireJourney(deps.db, ws, input.id);
  const rows = await listJourneyRunListings(deps.db, ws, input.id, { cursor: input.cursor, limit: input.limit + 1, status: input.status });
  const page = rows.slice(0, input.limit);
  const temporalUi = { baseUrl: deps.env.TEMPORAL_UI_URL ?? null, namespace: deps.env.TEMPORAL_NAMESPACE };
  return { runs: page.map((r) => toJourneyRunView(r, temporalUi)), nextCursor: rows.length > input.limit ? page[page.length - 1]!.id : null };
}
