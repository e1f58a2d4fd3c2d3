import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../testing/index';
import { applyTemplateStatusUpdate } from './template-status';
import { findSyncedTemplate, listSyncedTemplates, upsertSyncedTemplate } from './synced-templates';
import { deleteDraftTemplate, getTemplate, insertTemplate, isUniqueViolation, listTemplates, updateTemplate, upsertTemplateByKey } from './templates';
import { upsertWorkspace } from './workspaces';

const fields = (name: string, language = 'en_US') => ({
  name,
  language,
  category: 'UTILITY' as const,
  parameterFormat: 'POSITIONAL' as const,
  components: [{ type: 'BODY', text: 'Hello there friend' }],
});

describe('template queries', () => {
  let tdb: TestDatabase;
  let ws: string;
  let other: string;
  const t0 = new Date('2026-01-01T00:00:00Z');
  const at = (s: number) => new Date(t0.getTime() + s * 1000);

  beforeAll(async () => {
    tdb = await createTestDatabase();
    ws = (await upsertWorkspace(tdb.db, 'tpl-a')).workspace.id;
    other = (await upsertWorkspace(tdb.db, 'tpl-b')).workspace.id;
  });
  afterAll(async () => tdb?.drop());

  it('lists most recently updated first, scoped to the workspace', async () => {
    const a = await insertTemplate(tdb.db, ws, fields('a'), at(1));
    const b = await insertTemplate(tdb.db, ws, fields('b'), at(2));
    await insertTemplate(tdb.db, other, fields('a'), at(3));
    expect((await listTemplates(tdb.db, ws)).map((r) => r.name)).toEqual(['b', 'a']);
    await updateTemplate(tdb.db, ws, a.id, { category: 'MARKETING' }, at(4));
    expect((await listTemplates(tdb.db, ws)).map((r) => r.id)).toEqual([a.id, b.id]);
    expect(await getTemplate(tdb.db, other, a.id)).toBeUndefined();
    expect(await updateTemplate(tdb.db, other, a.id, { name: 'x' }, at(5))).toBeUndefined();
  });

  it('is unique per (workspace, name, language)', async () => {
    await insertTemplate(tdb.db, ws, fields('dup'), at(1));
    await insertTemplate(tdb.db, ws, fields('dup', 'it'), at(1));
    const err = await insertTemplate(tdb.db, ws, fields('dup'), at(1)).catch((e: unknown) => e);
    expect(isUniqueViolation(err)).toBe(true);
  });

  it('deletes drafts only', async () => {
    const d = await insertTemplate(tdb.db, ws, fields('to_delete'), at(1));
    const p = await insertTemplate(tdb.db, ws, fields('submitted'), at(1));
    await updateTemplate(tdb.db, ws, p.id, { status: 'pending_approval', providerTemplateId: '1' }, at(2));
    expect(await deleteDraftTemplate(tdb.db, other, d.id)).toBe(false);
    expect(await deleteDraftTemplate(tdb.db, ws, d.id)).toBe(true);
    expect(await deleteDraftTemplate(tdb.db, ws, p.id)).toBe(false);
    expect(await getTemplate(tdb.db, ws, p.id)).toBeDefined();
  });

  it('upserts by (workspace, name, language) without duplicating', async () => {
    const first = await upsertTemplateByKey(tdb.db, ws, { ...fields('pack'), status: 'pending_approval', providerTemplateId: '9' }, at(1));
    const again = await upsertTemplateByKey(tdb.db, ws, { ...fields('pack'), status: 'rejected', rejectionReason: 'no' }, at(2));
    expect(again.id).toBe(first.id);
    expect(again).toMatchObject({ status: 'rejected', rejectionReason: 'no', providerTemplateId: '9' });
  });

  it('synced upserts keep one row per (name, language) and follow a re-created provider id', async () => {
    const base = { name: 's1', language: 'en_US', category: 'UTILITY', status: 'approved', components: [] };
    await upsertSyncedTemplate(tdb.db, ws, { ...base, providerTemplateId: '100' }, at(1));
    await upsertSyncedTemplate(tdb.db, ws, { ...base, providerTemplateId: '101' }, at(2));
    await upsertSyncedTemplate(tdb.db, ws, { ...base, name: 's2', providerTemplateId: '100' }, at(3));
    const rows = await listSyncedTemplates(tdb.db, ws, { limit: 50, offset: 0 });
    expect(rows.map((r) => [r.name, r.providerTemplateId])).toEqual([
      ['s1', '101'],
      ['s2', '100'],
    ]);
    expect(await listSyncedTemplates(tdb.db, other, { limit: 50, offset: 0 })).toEqual([]);
    expect((await listSyncedTemplates(tdb.db, ws, { limit: 1, offset: 1 })).map((r) => r.name)).toEqual(['s2']);
  });

  it('applyTemplateStatusUpdate moves pending_approval to approved or rejected, idempotently', async () => {
    const ok = await insertTemplate(tdb.db, ws, fields('will_pass'), at(1));
    await updateTemplate(tdb.db, ws, ok.id, { status: 'pending_approval', providerTemplateId: '500' }, at(2));
    const approved = await applyTemplateStatusUpdate(
      tdb.db,
      ws,
      { providerTemplateId: '500', name: 'will_pass', language: 'en_US', event: 'APPROVED', reason: 'NONE' },
      at(3),
    );
    expect(approved).toMatchObject({
      libraryChanged: true,
      template: { status: 'approved', rejectionReason: null },
      synced: { status: 'approved', category: 'UTILITY' },
    });
    expect(approved.synced.components).toEqual(fields('x').components);
    const repeat = await applyTemplateStatusUpdate(tdb.db, ws, { providerTemplateId: '500', name: 'will_pass', language: 'en_US', event: 'APPROVED' }, at(4));
    expect(repeat.libraryChanged).toBe(false);

    const bad = await insertTemplate(tdb.db, ws, fields('will_fail', 'it'), at(1));
    await updateTemplate(tdb.db, ws, bad.id, { status: 'pending_approval', providerTemplateId: '501' }, at(2));
    const rejected = await applyTemplateStatusUpdate(
      tdb.db,
      ws,
      { providerTemplateId: '501', name: 'will_fail', language: 'it', event: 'REJECTED', reason: 'INVALID_FORMAT' },
      at(3),
    );
    expect(rejected).toMatchObject({
      libraryChanged: true,
      template: { status: 'rejected', rejectionReason: 'INVALID_FORMAT' },
      synced: { status: 'rejected' },
    });
  });

  it('applyTemplateStatusUpdate never moves a draft and still records a template it does not know', async () => {
    const draft = await insertTemplate(tdb.db, ws, fields('still_draft'), at(1));
    const res = await applyTemplateStatusUpdate(tdb.db, ws, { providerTemplateId: '600', name: 'still_draft', language: 'en_US', event: 'APPROVED' }, at(2));
    expect(res.libraryChanged).toBe(false);
    expect((await getTemplate(tdb.db, ws, draft.id))?.status).toBe('draft');
    const unknown = await applyTemplateStatusUpdate(
      tdb.db,
      other,
      { providerTemplateId: '700', name: 'made_elsewhere', language: 'it', event: 'APPROVED', category: 'MARKETING' },
      at(2),
    );
    expect(unknown.template).toBeNull();
    expect(await findSyncedTemplate(tdb.db, other, 'made_elsewhere', 'it')).toMatchObject({ status: 'approved', category: 'MARKETING' });
  });
});
