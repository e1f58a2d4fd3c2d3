import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAppError } from '@mos/core';
import { getTemplate, listAuditLogs, listTemplates } from '@mos/db';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { providerClientFromEnv } from '@mos/provider';
import { seedOperator, testDeps } from '../testing/index';
import type { AppDeps } from '../deps';
import { createWorkspaceTemplate } from './library';
import { seedStarterPack } from './starter-pack';
import { submitWorkspaceTemplate } from './submit';

/** With no PROVIDER_BASE_URL the deps carry a refusing client: a submit says so and changes nothing. */
describe('template submit without a provider configured', () => {
  let tdb: TestDatabase;
  let deps: AppDeps;

  beforeAll(async () => {
    tdb = await createTestDatabase();
    // The factory's client for an env without PROVIDER_BASE_URL, whatever this shell sets.
    deps = { ...testDeps(tdb.db), provider: providerClientFromEnv({ PROVIDER_API_VERSION: 'v23.0' }) };
  });
  afterAll(async () => {
    await tdb?.drop();
  });

  it('is 503 service_unavailable naming the missing setting, and the draft stays a draft', async () => {
    const op = await seedOperator(deps, { role: 'owner', wabaId: '102290129340398' });
    await deps.vault.set(deps.db, op.workspaceId, 'provider-access-token', 'token');
    const scope = { workspaceId: op.workspaceId, actorId: op.memberId, role: op.role };
    const created = await createWorkspaceTemplate(deps, scope, {
      name: 'order_shipped',
      language: 'en_US',
      category: 'UTILITY',
      components: [{ type: 'BODY', text: 'Hi {{1}}, your order {{2}} has shipped today.', example: { body_text: [['Ann', '#42']] } }],
    } as Parameters<typeof createWorkspaceTemplate>[2]);

    const err = await submitWorkspaceTemplate(deps, scope, created.id).catch((e: unknown) => e);
    expect(isAppError(err) && { code: err.code, message: err.message }).toEqual({
      code: 'service_unavailable',
      message: 'No provider configured (PROVIDER_BASE_URL)',
    });
    expect((await getTemplate(deps.db, op.workspaceId, created.id))?.status).toBe('draft');
    const audit = await listAuditLogs(deps.db, op.workspaceId, { limit: 50 });
    expect(audit.some((e) => e.action === 'template.submit')).toBe(false);
  });

  it('the starter pack is 503 naming the missing setting too, and stores nothing', async () => {
    const op = await seedOperator(deps, { role: 'owner', wabaId: '102290129340398' });
    await deps.vault.set(deps.db, op.workspaceId, 'provider-access-token', 'token');
    const scope = { workspaceId: op.workspaceId, actorId: op.memberId, role: op.role };

    const err = await seedStarterPack(deps, scope).catch((e: unknown) => e);
    expect(isAppError(err) && { code: err.code, message: err.message }).toEqual({
      code: 'service_unavailable',
      message: 'No provider configured (PROVIDER_BASE_URL)',
    });
    expect(await listTemplates(deps.db, op.workspaceId)).toEqual([]);
  });
});
