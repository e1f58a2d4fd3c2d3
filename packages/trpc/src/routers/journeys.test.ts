import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId, type JourneyStep, type SendTemplateStep } from '@mos/core';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { authenticate, recordProviderTemplate, type AppDeps } from '@mos/app';
import { seedOperator, testDeps, type SeededOperator } from '@mos/app/testing';
import { createCaller } from '../router';
import { appErrorOf } from '../trpc';

/** journeys.* and compatMappings.*: definitions, transitions, versions, runs, mappings, isolation. */
describe('journeys and compatMappings procedures', () => {
  let tdb: TestDatabase;
  let deps: AppDeps;
  let owner: SeededOperator;
  let viewer: SeededOperator;
  let other: SeededOperator;

  const caller = async (op: SeededOperator) => createCaller({ deps, actor: await authenticate(deps, op.token), requestId: 'req_test' });
  /** The AppError behind a rejected call: its code and issues. */
  const failure = async (p: Promise<unknown>) => {
    const err = await p.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(err, 'the call succeeded').toBeDefined();
    const app = appErrorOf(err);
    return { code: app?.code, status: app?.status, issues: app?.issues, message: app?.message };
  };

  const send = (id: string, next?: string): SendTemplateStep => ({
    id,
    type: 'send_template',
    template: { name: 'welcome', language: 'en_US' },
    parameters: { body: ['{{first_name|there}}'] },
    ...(next ? { next } : {}),
  });
  const steps: JourneyStep[] = [
    send('hello'),
    { id: 'wait', type: 'branch_on_reply', withinSeconds: 3600, onReply: 'done', onNoReply: 'nudge' },
    { id: 'nudge', type: 'wait', seconds: 60, next: 'done' },
    { id: 'done', type: 'exit' },
  ];

  beforeAll(async () => {
    tdb = await createTestDatabase();
    deps = testDeps(tdb.db, { env: { TEMPORAL_UI_URL: 'http://temporal-ui.test:8080', TEMPORAL_NAMESPACE: 'default' } });
    owner = await seedOperator(deps);
    viewer = await seedOperator(deps, { workspace: owner.workspaceSlug, role: 'viewer' });
    other = await seedOperator(deps);
    const template = { providerTemplateId: '1', name: 'welcome', language: 'en_US', category: 'UTILITY', components: [{ type: 'BODY', text: 'Hi {{1}}' }] };
    await recordProviderTemplate(deps, { ...template, workspaceId: owner.workspaceId, status: 'APPROVED' });
    // The other workspace has the template too, but not approved.
    await recordProviderTemplate(deps, { ...template, workspaceId: other.workspaceId, status: 'PENDING' });
  }, 60_000);
  afterAll(async () => tdb?.drop());

  const audit = async () =>
    (await tdb.pool.query<{ action: string; target_id: string; actor_id: string }>(`SELECT action, target_id, actor_id FROM audit_logs ORDER BY id`)).rows;

  it('creates a draft, lists it newest first, gets it with steps and trigger', async () => {
    const c = await caller(owner);
    const first = (await c.journeys.create({ name: 'Welcome', trigger: { type: 'partner_event', eventName: 'signed_up' }, steps })).journey;
    expect(first).toMatchObject({
      id: expect.stringMatching(/^jrn_/),
      name: 'Welcome',
      status: 'draft',
      triggerType: 'partner_event',
      trigger: { type: 'partner_event', eventName: 'signed_up' },
      version: 1,
      stepCount: 4,
      createdBy: owner.memberId,
      steps,
    });
    const second = (await c.journeys.create({ name: '  Second ', trigger: { type: 'api' }, steps: [{ id: 'bye', type: 'exit' }] })).journey;
    expect(second.name).toBe('Second');
    const listed = await (await caller(viewer)).journeys.list();
    expect(Object.keys(listed)).toEqual(['journeys']);
    expect(listed.journeys.map((j) => j.id).slice(0, 2)).toEqual([second.id, first.id]);
    expect(listed.journeys[0]).not.toHaveProperty('steps');
    expect((await (await caller(viewer)).journeys.get({ id: first.id })).journey).toEqual(first);
    expect((await audit()).filter((a) => a.action === 'journey.create').map((a) => a.target_id)).toEqual(expect.arrayContaining([first.id, second.id]));
  });

  it('refuses invalid definitions: 400 validation_failed with issues (cycle, unknown step, duplicate id, none), bad shapes 400', async () => {
    const c = await caller(owner);
    const create = (s: JourneyStep[]) => c.journeys.create({ name: 'Bad', trigger: { type: 'api' }, steps: s });
    const cycle = await failure(
      create([
        { id: 'a', type: 'wait', seconds: 5, next: 'b' },
        { id: 'b', type: 'wait', seconds: 5, next: 'a' },
      ]),
    );
    expect(cycle).toMatchObject({ code: 'validation_failed', status: 400, issues: [expect.objectContaining({ message: expect.stringMatching(/cycle/) })] });
    const unknown = await failure(create([send('a', 'nowhere')]));
    expect(unknown).toMatchObject({ code: 'validation_failed', issues: [{ path: 'steps.0', message: 'unknown step nowhere' }] });
    const duplicate = await failure(
      create([
        { id: 'a', type: 'exit' },
        { id: 'a', type: 'exit' },
      ]),
    );
    expect(duplicate.issues).toEqual([expect.objectContaining({ path: 'steps.1.id' })]);
    expect((await failure(create([]))).code).toBe('validation_failed');
    // Shapes are the input schema's: 400 invalid_request naming the field.
    const partner = await failure(c.journeys.create({ name: 'x', trigger: { type: 'partner_event' } as never, steps: [{ id: 'a', type: 'exit' }] }));
    expect(partner).toMatchObject({ code: 'invalid_request', status: 400 });
    for (const name of ['', 'x'.repeat(201)]) {
      expect((await failure(c.journeys.create({ name, trigger: { type: 'api' }, steps: [{ id: 'a', type: 'exit' }] }))).code).toBe('invalid_request');
    }
    const badStep = await failure(c.journeys.create({ name: 'x', trigger: { type: 'api' }, steps: [{ id: 'a', type: 'teleport' } as never] }));
    expect(badStep.code).toBe('invalid_request');
    expect((await c.journeys.list()).journeys.map((j) => j.name)).not.toContain('Bad');
  });

  it('edits in draft without a version bump for the name only, bumps it on steps or trigger, ignores unchanged ones', async () => {
    const c = await caller(owner);
    const j = (await c.journeys.create({ name: 'Edit me', trigger: { type: 'api' }, steps })).journey;
    expect((await c.journeys.update({ id: j.id, name: 'Renamed' })).journey).toMatchObject({ name: 'Renamed', version: 1 });
    // The same steps, keys in another order: no change.
    const reordered = steps.map((s) => Object.fromEntries(Object.entries(s).reverse()) as JourneyStep);
    expect((await c.journeys.update({ id: j.id, steps: reordered, trigger: { type: 'api' } })).journey.version).toBe(1);
    const v2 = (await c.journeys.update({ id: j.id, steps: [send('only')] })).journey;
    expect(v2).toMatchObject({ version: 2, stepCount: 1, steps: [send('only')] });
    const v3 = (await c.journeys.update({ id: j.id, trigger: { type: 'inbound_message', keyword: 'start' } })).journey;
    expect(v3).toMatchObject({ version: 3, triggerType: 'inbound_message', trigger: { type: 'inbound_message', keyword: 'start' } });
    expect((await failure(c.journeys.update({ id: j.id, steps: [send('a', 'a')] }))).code).toBe('validation_failed');
    expect((await failure(c.journeys.update({ id: j.id }))).code).toBe('invalid_request');
    const [last] = (await c.auditLogs.list({ limit: 1 })).auditLogEntries;
    expect(last).toMatchObject({ action: 'journey.update', targetId: j.id, details: { changed: ['trigger'], version: { before: 2, after: 3 } } });
  });

  it('walks the transitions: activate (templates checked), pause, edit while paused, activate again, archive; 409 otherwise', async () => {
    const c = await caller(owner);
    const j = (await c.journeys.create({ name: 'Lifecycle', trigger: { type: 'api' }, steps })).journey;
    expect((await failure(c.journeys.pause({ id: j.id }))).code).toBe('invalid_journey_state');
    expect((await c.journeys.activate({ id: j.id })).journey.status).toBe('active');
    const edit = await failure(c.journeys.update({ id: j.id, name: 'x' }));
    expect(edit).toMatchObject({ code: 'invalid_journey_state', status: 409 });
    expect((await failure(c.journeys.activate({ id: j.id }))).status).toBe(409);
    expect((await c.journeys.pause({ id: j.id })).journey.status).toBe('paused');
    expect((await c.journeys.update({ id: j.id, steps: [{ id: 'end', type: 'exit' }] })).journey).toMatchObject({ status: 'paused', version: 2 });
    expect((await c.journeys.activate({ id: j.id })).journey.status).toBe('active');
    expect((await c.journeys.archive({ id: j.id })).journey.status).toBe('archived');
    for (const p of [
      () => c.journeys.activate({ id: j.id }),
      () => c.journeys.pause({ id: j.id }),
      () => c.journeys.archive({ id: j.id }),
      () => c.journeys.update({ id: j.id, name: 'x' }),
    ]) {
      expect((await failure(p())).code).toBe('invalid_journey_state');
    }
    const actions = (await audit()).filter((a) => a.target_id === j.id).map((a) => a.action);
    expect(actions).toEqual(expect.arrayContaining(['journey.activate', 'journey.pause', 'journey.update', 'journey.archive']));
  });

  it('activation needs approved templates with the right parameter count', async () => {
    const c = await caller(owner);
    const missing = (
      await c.journeys.create({ name: 'Unknown template', trigger: { type: 'api' }, steps: [{ ...send('a'), template: { name: 'nope', language: 'en' } }] })
    ).journey;
    expect(await failure(c.journeys.activate({ id: missing.id }))).toMatchObject({
      code: 'template_not_approved',
      status: 422,
      issues: [{ path: 'steps.0.template', message: expect.stringMatching(/nope/) }],
    });
    const count = (await c.journeys.create({ name: 'No parameters', trigger: { type: 'api' }, steps: [{ ...send('a'), parameters: undefined }] })).journey;
    expect(await failure(c.journeys.activate({ id: count.id }))).toMatchObject({ code: 'validation_failed', issues: [{ path: 'steps.0.parameters.body' }] });
    expect((await c.journeys.get({ id: count.id })).journey.status).toBe('draft');
    // The same definition in a workspace where the template is pending.
    const o = await caller(other);
    const there = (await o.journeys.create({ name: 'Pending there', trigger: { type: 'api' }, steps })).journey;
    expect((await failure(o.journeys.activate({ id: there.id }))).code).toBe('template_not_approved');
  });

  it('lists a journey’s runs in keyset pages without personalization', async () => {
    const c = await caller(owner);
    const j = (await c.journeys.create({ name: 'With runs', trigger: { type: 'api' }, steps })).journey;
    expect(await c.journeys.runs({ id: j.id })).toEqual({ runs: [], nextCursor: null });
    // Runs are the journey machinery's to write: seeded here as its rows.
    const contact = { id: newId('contact') };
    await tdb.pool.query(`INSERT INTO contacts (id, workspace_id, phone_number) VALUES ($1, $2, '+15550001111')`, [contact.id, owner.workspaceId]);
    const runIds: string[] = [];
    for (let i = 0; i < 3; i++) {
      const id = newId('journeyRun', Date.now() + i);
      runIds.push(id);
      await tdb.pool.query(
        `INSERT INTO journey_runs (id, workspace_id, journey_id, journey_version, steps, contact_id, trigger_type, trigger_ref, personalization, workflow_id)
         VALUES ($1, $2, $3, 1, $4, $5, 'api', $6, $7, $8)`,
        [
          id,
          owner.workspaceId,
          j.id,
          JSON.stringify(steps),
          contact.id,
          `evt_${i}`,
          JSON.stringify({ first_name: 'Secret Name' }),
          `journey-${j.id}-evt_${i}-${contact.id}`,
        ],
      );
    }
    const first = await (await caller(viewer)).journeys.runs({ id: j.id, limit: 2 });
    expect(first.runs.map((r) => r.id)).toEqual([runIds[2], runIds[1]]);
    expect(first.runs[0]).toEqual({
      id: runIds[2],
      journeyId: j.id,
      journeyVersion: 1,
      contactId: contact.id,
      status: 'pending',
      currentStep: null,
      triggerType: 'api',
      triggerRef: 'evt_2',
      workflowId: `journey-${j.id}-evt_2-${contact.id}`,
      temporalUiUrl: `http://temporal-ui.test:8080/namespaces/default/workflows/${encodeURIComponent(`journey-${j.id}-evt_2-${contact.id}`)}`,
      failureReason: null,
      startedAt: null,
      finishedAt: null,
      createdAt: expect.any(String),
    });
    expect(JSON.stringify(first)).not.toContain('Secret Name');
    const rest = await c.journeys.runs({ id: j.id, limit: 2, cursor: first.nextCursor! });
    expect(rest).toEqual({ runs: [expect.objectContaining({ id: runIds[0] })], nextCursor: null });
    expect((await c.journeys.runs({ id: j.id, status: 'failed' })).runs).toEqual([]);
    expect((await failure(c.journeys.runs({ id: j.id, limit: 201 }))).code).toBe('invalid_request');
    expect((await failure((await caller(other)).journeys.runs({ id: j.id }))).code).toBe('journey_not_found');
  });

  it('keeps workspaces apart: another workspace’s journey is 404 and unchanged', async () => {
    const c = await caller(owner);
    const j = (await c.journeys.create({ name: 'Mine', trigger: { type: 'api' }, steps })).journey;
    const o = await caller(other);
    expect((await o.journeys.list()).journeys.map((x) => x.id)).not.toContain(j.id);
    for (const p of [
      () => o.journeys.get({ id: j.id }),
      () => o.journeys.update({ id: j.id, name: 'Stolen' }),
      () => o.journeys.activate({ id: j.id }),
      () => o.journeys.pause({ id: j.id }),
      () => o.journeys.archive({ id: j.id }),
      () => o.compatMappings.create({ kind: 'legacy_path', journeyId: j.id, legacyPath: 'stolen' }),
    ]) {
      expect(await failure(p())).toMatchObject({ code: 'journey_not_found', status: 404 });
    }
    expect((await failure(c.journeys.get({ id: 'jrn_nope' }))).code).toBe('journey_not_found');
    expect((await failure(c.journeys.get({ id: 'brd_01' }))).code).toBe('journey_not_found');
    expect((await c.journeys.get({ id: j.id })).journey).toEqual(j);
  });

  it('roles: viewers read, settings roles change', async () => {
    const v = await caller(viewer);
    const j = (await (await caller(owner)).journeys.create({ name: 'Roles', trigger: { type: 'api' }, steps })).journey;
    for (const p of [
      () => v.journeys.create({ name: 'x', trigger: { type: 'api' }, steps }),
      () => v.journeys.update({ id: j.id, name: 'x' }),
      () => v.journeys.activate({ id: j.id }),
      () => v.journeys.archive({ id: j.id }),
      () => v.compatMappings.create({ kind: 'legacy_path', journeyId: j.id, legacyPath: 'viewer' }),
      () => v.compatMappings.delete({ id: 'cmap_x' }),
    ]) {
      expect((await failure(p())).code).toBe('forbidden');
    }
    expect((await v.compatMappings.list()).compatMappings).toBeInstanceOf(Array);
    await expect(createCaller({ deps, actor: null, requestId: 'r' }).journeys.list()).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  describe('compat mappings', () => {
    let journeyId: string;
    let otherJourneyId: string;
    beforeAll(async () => {
      journeyId = (await (await caller(owner)).journeys.create({ name: 'Mapped', trigger: { type: 'api' }, steps })).journey.id;
      otherJourneyId = (await (await caller(other)).journeys.create({ name: 'Theirs', trigger: { type: 'api' }, steps })).journey.id;
    });

    it('creates rest-trigger (trigger and flow-wide) and legacy-path mappings, lists and deletes them', async () => {
      const c = await caller(owner);
      const trigger = (await c.compatMappings.create({ kind: 'rest_trigger', journeyId, organizationId: 'org-1', flowId: 'flow.1', triggerId: 'trg~1' }))
        .compatMapping;
      expect(trigger).toEqual({
        id: expect.stringMatching(/^cmap_/),
        kind: 'rest_trigger',
        organizationId: 'org-1',
        flowId: 'flow.1',
        triggerId: 'trg~1',
        legacyPath: null,
        path: '/webhooks/v0/rest-trigger/organization/org-1/flow/flow.1/trigger/trg~1/',
        journeyId,
        journeyName: 'Mapped',
        createdBy: owner.memberId,
        createdAt: expect.any(String),
      });
      const flow = (await c.compatMappings.create({ kind: 'rest_trigger', journeyId, organizationId: 'org-1', flowId: 'flow.1' })).compatMapping;
      expect(flow).toMatchObject({ triggerId: null, path: '/webhooks/v0/rest-trigger/organization/org-1/flow/flow.1/trigger/' });
      const legacy = (await c.compatMappings.create({ kind: 'legacy_path', journeyId, legacyPath: 'shop/orders/new' })).compatMapping;
      expect(legacy).toMatchObject({ organizationId: null, legacyPath: 'shop/orders/new', path: '/compat/journey-trigger/shop/orders/new' });

      const listed = await (await caller(viewer)).compatMappings.list();
      expect(Object.keys(listed)).toEqual(['compatMappings']);
      expect(listed.compatMappings.map((m) => m.id)).toEqual([legacy.id, flow.id, trigger.id]);
      expect((await c.compatMappings.list({ journeyId: 'jrn_other' })).compatMappings).toEqual([]);
      expect((await c.compatMappings.get({ id: flow.id })).compatMapping).toEqual(flow);

      expect(await c.compatMappings.delete({ id: flow.id })).toEqual({ ok: true });
      expect((await failure(c.compatMappings.delete({ id: flow.id }))).code).toBe('compat_mapping_not_found');
      expect((await c.compatMappings.list()).compatMappings.map((m) => m.id)).toEqual([legacy.id, trigger.id]);
      const actions = (await audit()).filter((a) => a.action.startsWith('compat_mapping.'));
      expect(actions.map((a) => [a.action, a.target_id])).toEqual(
        expect.arrayContaining([
          ['compat_mapping.create', trigger.id],
          ['compat_mapping.create', flow.id],
          ['compat_mapping.delete', flow.id],
        ]),
      );
    });

    it('a taken path is 409 whichever workspace holds it, and says nothing of that workspace', async () => {
      const c = await caller(owner);
      const o = await caller(other);
      await c.compatMappings.create({ kind: 'rest_trigger', journeyId, organizationId: 'shared', flowId: 'f', triggerId: 't' });
      await c.compatMappings.create({ kind: 'legacy_path', journeyId, legacyPath: 'shared/path' });
      const attempts = [
        () => o.compatMappings.create({ kind: 'rest_trigger', journeyId: otherJourneyId, organizationId: 'shared', flowId: 'f', triggerId: 't' }),
        () => o.compatMappings.create({ kind: 'legacy_path', journeyId: otherJourneyId, legacyPath: 'shared/path' }),
        () => c.compatMappings.create({ kind: 'legacy_path', journeyId, legacyPath: 'shared/path' }),
      ];
      for (const p of attempts) {
        const f = await failure(p());
        expect(f).toMatchObject({ code: 'compat_mapping_conflict', status: 409 });
        expect(f.message).not.toContain(owner.workspaceId);
        expect(f.message).not.toContain(owner.workspaceSlug);
      }
      // A flow-wide mapping of the same flow is another key; so is the same path as the other kind.
      await o.compatMappings.create({ kind: 'rest_trigger', journeyId: otherJourneyId, organizationId: 'shared', flowId: 'f' });
      expect((await failure(c.compatMappings.create({ kind: 'rest_trigger', journeyId, organizationId: 'shared', flowId: 'f' }))).code).toBe(
        'compat_mapping_conflict',
      );
      expect((await o.compatMappings.list()).compatMappings.map((m) => m.journeyId)).toEqual([otherJourneyId]);
    });

    it('concurrent creates of one path: one mapping, the rest 409', async () => {
      const c = await caller(owner);
      const o = await caller(other);
      const results = await Promise.allSettled(
        [c, o, c, o, c].map((x, i) => x.compatMappings.create({ kind: 'legacy_path', journeyId: i % 2 ? otherJourneyId : journeyId, legacyPath: 'raced' })),
      );
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      for (const r of results) if (r.status === 'rejected') expect(appErrorOf(r.reason)?.code).toBe('compat_mapping_conflict');
      const { rows } = await tdb.pool.query(`SELECT count(*)::int AS n FROM compat_mappings WHERE legacy_path = 'raced'`);
      expect(rows[0].n).toBe(1);
    });

    it('another workspace’s mapping is 404 to list, get and delete, and stays', async () => {
      const c = await caller(owner);
      const mine = (await c.compatMappings.create({ kind: 'legacy_path', journeyId, legacyPath: 'mine-only' })).compatMapping;
      const o = await caller(other);
      expect((await o.compatMappings.list()).compatMappings.map((m) => m.id)).not.toContain(mine.id);
      expect((await failure(o.compatMappings.get({ id: mine.id }))).code).toBe('compat_mapping_not_found');
      expect((await failure(o.compatMappings.delete({ id: mine.id }))).code).toBe('compat_mapping_not_found');
      expect((await c.compatMappings.get({ id: mine.id })).compatMapping).toEqual(mine);
    });

    it('refuses bad ids and paths, non-api and archived journeys', async () => {
      const c = await caller(owner);
      const badPaths = ['', '/lead', 'trail/', 'a//b', 'a/../b', '..', 'a/./b', 'sp ace', 'q?x=1', 'é', 'x'.repeat(129)];
      for (const legacyPath of badPaths) {
        expect((await failure(c.compatMappings.create({ kind: 'legacy_path', journeyId, legacyPath }))).code, legacyPath).toBe('invalid_request');
      }
      for (const organizationId of ['', 'a/b', '..', '.', 'x'.repeat(129), 'a b']) {
        expect((await failure(c.compatMappings.create({ kind: 'rest_trigger', journeyId, organizationId, flowId: 'f' }))).code, organizationId).toBe(
          'invalid_request',
        );
      }
      expect((await failure(c.compatMappings.create({ kind: 'legacy_path', journeyId, legacyPath: 'x', organizationId: 'o' } as never))).code).toBe(
        'invalid_request',
      );
      const partner = (await c.journeys.create({ name: 'Partner', trigger: { type: 'partner_event', eventName: 'e' }, steps })).journey;
      expect(await failure(c.compatMappings.create({ kind: 'legacy_path', journeyId: partner.id, legacyPath: 'partner' }))).toMatchObject({
        code: 'validation_failed',
      });
      const archived = (await c.journeys.create({ name: 'Gone', trigger: { type: 'api' }, steps })).journey;
      await c.journeys.archive({ id: archived.id });
      expect((await failure(c.compatMappings.create({ kind: 'legacy_path', journeyId: archived.id, legacyPath: 'gone' }))).code).toBe('invalid_journey_state');
      expect((await failure(c.compatMappings.create({ kind: 'legacy_path', journeyId: 'jrn_unknown', legacyPath: 'nowhere' }))).code).toBe('journey_not_found');
    });

    it('a mapped journey keeps its api trigger until its mappings are removed', async () => {
      const c = await caller(owner);
      const j = (await c.journeys.create({ name: 'Pinned', trigger: { type: 'api' }, steps })).journey;
      const m = (await c.compatMappings.create({ kind: 'legacy_path', journeyId: j.id, legacyPath: 'pinned' })).compatMapping;
      expect((await failure(c.journeys.update({ id: j.id, trigger: { type: 'inbound_message' } }))).code).toBe('invalid_journey_state');
      await c.compatMappings.delete({ id: m.id });
      expect((await c.journeys.update({ id: j.id, trigger: { type: 'inbound_message' } })).journey.triggerType).toBe('inbound_message');
    });
  });
});
