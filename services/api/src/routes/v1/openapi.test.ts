import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '@mos/db/testing';
import { listen, rawRequest } from '@mos/http/testing';
import { testDeps } from '@mos/app/testing';
import type { AppDeps } from '@mos/app';
import { createApiApp } from '../../app';
import { v1Routes } from './index';
import { openApiPath } from './route';

interface Operation {
  security?: unknown[];
  parameters?: { in: string; name: string; required?: boolean }[];
  requestBody?: { content: Record<string, unknown> };
  responses: Record<string, { headers?: Record<string, unknown>; content?: Record<string, { schema: { properties?: { error?: { enum?: string[] } } } }> }>;
}
type Doc = { openapi: string; paths: Record<string, Record<string, Operation>>; components: Record<string, Record<string, unknown>> };

/** What the Express router really serves: every route layer, as `METHOD /v1/path/{param}`. */
function servedRoutes(deps: AppDeps): string[] {
  const router = v1Routes(deps) as unknown as { stack: { route?: { path: string; methods: Record<string, boolean> } }[] };
  return router.stack.flatMap((layer) =>
    layer.route ? Object.keys(layer.route.methods).map((m) => `${m.toUpperCase()} ${openApiPath(layer.route!.path)}`) : [],
  );
}

describe('/v1 OpenAPI document and reference page', () => {
  let tdb: TestDatabase;
  let deps: AppDeps;
  let api: Awaited<ReturnType<typeof listen>>;
  let doc: Doc;

  beforeAll(async () => {
    tdb = await createTestDatabase();
    deps = testDeps(tdb.db);
    api = await listen(createApiApp(deps));
    const res = await rawRequest(`${api.url}/v1/openapi.json`, {});
    expect(res.status).toBe(200);
    doc = res.body;
  });
  afterAll(async () => {
    await api?.close();
    await tdb?.drop();
  });

  const operations = () =>
    Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, op })));

  it('is served without a key and validates as OpenAPI 3.1, every $ref resolving', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    expect(() => validator.resolveRefs()).not.toThrow();
  });

  it('documents exactly the routes the router serves (a route added without docs fails here)', () => {
    const served = servedRoutes(deps);
    expect(served.length).toBeGreaterThanOrEqual(11);
    expect(new Set(served).size).toBe(served.length);
    expect(
      operations()
        .map((o) => o.key)
        .sort(),
    ).toEqual([...served].sort());
    expect(served).toEqual(
      expect.arrayContaining([
        'GET /v1/contacts',
        'POST /v1/messages',
        'GET /v1/messages/{id}',
        'GET /v1/templates',
        'POST /v1/broadcasts',
        'GET /v1/broadcasts/{id}',
        'POST /v1/broadcasts/{id}/pause',
        'POST /v1/broadcasts/{id}/resume',
        'POST /v1/broadcasts/{id}/cancel',
      ]),
    );
  });

  it('describes the key, the rate-limit headers, parameters, bodies and every error status of each keyed route', () => {
    expect(doc.components.securitySchemes).toEqual({ ApiKey: expect.objectContaining({ type: 'apiKey', in: 'header', name: 'X-API-Key' }) });
    expect(Object.keys(doc.components.headers!).sort()).toEqual([
      'RateLimit-Limit',
      'RateLimit-Policy',
      'RateLimit-Remaining',
      'RateLimit-Reset',
      'Retry-After',
    ]);
    const codes = (op: Operation, status: string) => op.responses[status]?.content?.['application/json']?.schema.properties?.error?.enum ?? [];
    for (const { key, op } of operations()) {
      if (key.endsWith('/openapi.json') || key.endsWith('/docs')) {
        expect(op.security, key).toEqual([]);
        continue;
      }
      expect(op.security, key).toBeUndefined(); // the document-wide ApiKey requirement applies
      expect(codes(op, '401'), key).toEqual(['invalid_api_key']);
      expect(codes(op, '429'), key).toEqual(['rate_limited']);
      expect(codes(op, '500'), key).toEqual(['internal_error']);
      expect(codes(op, '400'), key).toContain('invalid_request');
      expect(Object.keys(op.responses['429']!.headers!), key).toContain('Retry-After');
      expect(op.responses['401']!.headers, key).toBeUndefined();
      const success = Object.keys(op.responses).filter((s) => s.startsWith('2'));
      expect(success, key).toHaveLength(1);
      for (const status of Object.keys(op.responses).filter((s) => s !== '401')) {
        expect(Object.keys(op.responses[status]!.headers ?? {}), `${key} ${status}`).toEqual(
          expect.arrayContaining(['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'RateLimit-Policy']),
        );
      }
      for (const name of key.match(/\{(\w+)\}/g) ?? []) {
        expect(op.parameters, key).toContainEqual(expect.objectContaining({ in: 'path', name: name.slice(1, -1), required: true }));
      }
      if (op.requestBody) {
        expect(Object.keys(op.requestBody.content), key).toEqual(['application/json']);
        expect(codes(op, '400'), key).toContain('validation_failed');
        expect(codes(op, '413'), key).toEqual(['payload_too_large']);
        expect(codes(op, '415'), key).toEqual(['unsupported_media_type']);
      }
    }
    const send = doc.paths['/v1/messages']!.post!;
    expect(send.parameters).toContainEqual(expect.objectContaining({ in: 'header', name: 'Idempotency-Key' }));
    expect(Object.keys(send.responses['202']!.headers!)).toContain('Idempotent-Replayed');
    expect(codes(send, '409')).toEqual(['idempotency_key_reused']);
    expect(codes(send, '422').sort()).toEqual([
      'contact_not_found',
      'contact_unsubscribed',
      'no_phone_number',
      'outside_service_window',
      'template_not_approved',
    ]);
    expect(codes(doc.paths['/v1/broadcasts/{id}/pause']!.post!, '409')).toEqual(['invalid_broadcast_state']);
    expect(doc.paths['/v1/contacts']!.get!.parameters!.map((p) => p.name).sort()).toEqual(
      ['cursor', 'email', 'externalReferenceId', 'limit', 'phone', 'subscriberStatus', 'updatedSince'].sort(),
    );
    expect(doc.components.schemas).toEqual(
      expect.objectContaining({ Contact: expect.anything(), SendMessageRequest: expect.anything(), Message: expect.anything() }),
    );
  });

  it('/v1/docs is an HTML page, without a key, whose scripts and styles this server serves (no CDN)', async () => {
    const res = await fetch(`${api.url}/v1/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
    const html = await res.text();
    expect(html).toContain('data-spec-url="/v1/openapi.json"');
    expect(html).not.toMatch(/https?:\/\//);
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(assets).toEqual(expect.arrayContaining(['/v1/docs/assets/swagger-ui-bundle.js', '/v1/docs/assets/mos-init.js', '/v1/docs/assets/swagger-ui.css']));
    for (const path of assets) {
      const asset = await fetch(`${api.url}${path}`);
      expect(asset.status, path).toBe(200);
      expect((await asset.arrayBuffer()).byteLength, path).toBeGreaterThan(100);
    }
    // Only the page's own files: not the package's demo page or its petstore initializer.
    for (const path of ['index.html', 'swagger-initializer.js', '%2e%2e%2fpackage.json', '..%2F..%2Fswagger-ui-dist%2Fpackage.json']) {
      expect((await fetch(`${api.url}/v1/docs/assets/${path}`)).status, path).toBe(404);
    }
  });
});
