import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { newId, signProviderBody } from '@mos/core';
import { loadEnv, resolveMasterKey } from '@mos/config';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { expressRoutes, jsonRequest, listen, trpcProcedures } from '@mos/http/testing';
import { appRouter } from '@mos/trpc';
import type { AppDeps } from '@mos/app';
import { seedOperator, testDeps } from '@mos/app/testing';
import { createApiApp } from '@mos/api';
import { createControlPlaneApp } from './app';
import { trpcCall } from './testing/trpc-calls';

/**
 * What MOS_ENV=production changes (spec: Authentication; infra/production/README.md), each
 * against the same setup outside production so the difference is production's doing. Covered
 * elsewhere: /metrics is off (404) in production without MOS_METRICS_TOKEN
 * (services/api/src/routes/metrics.test.ts); the vault's webhook-signing-secret fallback at the
 * storage level (packages/db/src/vault.test.ts).
 */
const SIGNING = 'env-signing-secret';
const VERIFY = 'env-verify-token';
const PARTNER = 'env-partner-secret-0123456789';
const FALLBACKS = { WEBHOOK_SIGNING_SECRET: SIGNING, PROVIDER_WEBHOOK_VERIFY_TOKEN: VERIFY, PARTNER_WEBHOOK_SECRET: PARTNER };
const MASTER_KEY = randomBytes(32).toString('base64');

describe('MOS_ENV=production', () => {
  let tdb: TestDatabase;
  const apps: Record<'test' | 'production', { deps: AppDeps; api: string; cp: string; close(): Promise<void> }> = {} as never;

  beforeAll(async () => {
    tdb = await createTestDatabase();
    for (const mode of ['test', 'production'] as const) {
      const env = {
        ...FALLBACKS,
        TEMPORAL_TASK_QUEUE: `nobody-polls-${newId('request')}`,
        ...(mode === 'production' ? { MOS_ENV: 'production', MOS_MASTER_KEY: MASTER_KEY } : {}),
      };
      const deps = testDeps(tdb.db, { env });
      const api = await listen(createApiApp(deps));
      const cp = await listen(createControlPlaneApp(deps));
      apps[mode] = { deps, api: api.url, cp: cp.url, close: async () => (await api.close(), await cp.close()) };
    }
    // The ingress workspace has no secrets in its vault: only the environment could supply them.
    await seedOperator(apps.test.deps, { providerIngress: true, wabaId: '102290129340398' });
  }, 60_000);
  afterAll(async () => {
    for (const app of Object.values(apps)) await app.close();
    for (const app of Object.values(apps)) await app.deps.temporal.close();
    await tdb?.drop();
  });

  it('refuses the environment fallbacks of the vault secrets (verify token, signing secret, partner secret)', async () => {
    const outcome = async (mode: 'test' | 'production') => {
      const { api } = apps[mode];
      const handshake = await fetch(`${api}/webhooks/messaging?hub.mode=subscribe&hub.verify_token=${VERIFY}&hub.challenge=42`);
      const body = Buffer.from(JSON.stringify({ object: 'messaging_business_account', entry: [] }));
      const signed = await jsonRequest(`${api}/webhooks/messaging`, {
        headers: { 'x-hub-signature-256': signProviderBody(SIGNING, body) },
        body: JSON.parse(body.toString()),
      });
      const partner = await jsonRequest(`${api}/api/v0/webhooks/incoming/partner/custom_external_event?secret=${PARTNER}`, {
        body: { event_name: 'order_shipped', phone: '+15550003333' },
      });
      return { handshake: handshake.status, signatureValid: signed.body.signatureValid, partner: partner.status };
    };
    const test = await outcome('test');
    expect(test).toMatchObject({ handshake: 200, signatureValid: true });
    expect(test.partner).toBeLessThan(300);
    expect(await outcome('production')).toEqual({ handshake: 400, signatureValid: false, partner: 401 });
  });

  it('refuses the generated development vault key and requires MOS_MASTER_KEY', () => {
    const dir = mkdtempSync(join(tmpdir(), 'mos-master-key-'));
    try {
      const devKey = randomBytes(32);
      writeFileSync(join(dir, 'master.key'), devKey.toString('base64'));
      expect(resolveMasterKey({ MOS_ENV: 'development', MOS_DATA_DIR: dir, MOS_MASTER_KEY: undefined })).toEqual(devKey);
      expect(() => resolveMasterKey({ MOS_ENV: 'production', MOS_DATA_DIR: dir, MOS_MASTER_KEY: undefined })).toThrow(
        /MOS_MASTER_KEY is required in production/,
      );
      expect(() => loadEnv({ DATABASE_URL: process.env.DATABASE_URL, MOS_ENV: 'production', MOS_DATA_DIR: dir })).toThrow(
        /MOS_MASTER_KEY: required in production/,
      );
      expect(resolveMasterKey({ MOS_ENV: 'production', MOS_DATA_DIR: dir, MOS_MASTER_KEY: MASTER_KEY })).toEqual(Buffer.from(MASTER_KEY, 'base64'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('sets the session cookie Secure, HttpOnly and SameSite=Lax on both apps', async () => {
    const op = await seedOperator(apps.production.deps, { role: 'viewer' });
    const cookie = async (base: string) =>
      (await jsonRequest(`${base}/api/auth/login`, { body: { email: op.email, password: op.password } })).headers.get('set-cookie') ?? '';
    for (const base of [apps.production.cp, apps.production.api]) {
      const set = await cookie(base);
      expect(set).toMatch(/^mos_session=mos_sess_/);
      expect(set).toMatch(/;\s*Secure/i);
      expect(set).toMatch(/;\s*HttpOnly/i);
      expect(set).toMatch(/;\s*SameSite=Lax/i);
    }
    // Outside production (MOS_COOKIE_SECURE unset) a plain-http dev stack still gets its cookie.
    expect(await cookie(apps.test.cp)).not.toMatch(/;\s*Secure/i);
  });

  it('answers 401 to every unauthenticated /internal route and /trpc procedure', async () => {
    const internal = expressRoutes(createApiApp(apps.production.deps)).filter((r) => r.path.startsWith('/internal/'));
    expect(internal.length).toBeGreaterThan(15);
    for (const { method, path } of internal) {
      const res = await jsonRequest(`${apps.production.api}${path.replace(/:(\w+)/g, 'x')}`, {
        method: method.toUpperCase(),
        ...(method === 'get' ? {} : { body: {} }),
      });
      expect(res.status, `${method} ${path}`).toBe(401);
    }
    for (const procedure of trpcProcedures(appRouter)) {
      expect((await trpcCall(apps.production.cp, procedure, {}, {})).status, procedure.path).toBe(401);
    }
  });
});
