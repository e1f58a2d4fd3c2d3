import { z } from 'zod';
// zod-openapi: maintained, built on zod v4's own JSON Schema generator and its `.meta({id})`
// registry (the ids our schemas already carry become components), emits OpenAPI 3.1, and takes
// request params and bodies as zod objects, so the document is derived from the very schemas
// the routes validate with. zod's bare z.toJSONSchema would leave paths, parameters, headers and
// component refs to hand-written glue. Pinned to the v5 line: v6 declares Node >= 22.14 and
// this repository supports Node 20.
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject, type ZodOpenApiResponsesObject } from 'zod-openapi';
import { ERROR_STATUS, type ErrorCode } from '@mos/core';
import { API_RATE_LIMIT_PER_MINUTE } from '@mos/app';
import { API_KEY_HEADER } from './auth';
import { openApiPath, type V1Route } from './route';

/** What every keyed route can answer besides its own errors: a malformed request, the key, the budget, a fault. */
const KEYED_ERRORS: readonly ErrorCode[] = ['invalid_request', 'invalid_api_key', 'rate_limited', 'internal_error'];
/** What a route with a body can answer from the JSON parser and body validation. */
const BODY_ERRORS: readonly ErrorCode[] = ['validation_failed', 'payload_too_large', 'unsupported_media_type'];

const issue = z
  .object({ code: z.string(), path: z.array(z.union([z.string(), z.number()])), message: z.string() })
  .meta({ id: 'ValidationIssue', description: 'One reason the request did not validate; `path` locates the field (a header by its name).' });

const errorBody = (codes: ErrorCode[]) =>
  z.object({
    error: z.enum(codes as [ErrorCode, ...ErrorCode[]]),
    message: z.string().optional().describe('Human-readable detail; not stable.'),
    issues: z.array(issue).optional().describe('With validation_failed: what failed, field by field.'),
  });

const ref = (name: string) => ({ $ref: `#/components/headers/${name}` });
const RATE_LIMIT_HEADERS = {
  'RateLimit-Limit': ref('RateLimit-Limit'),
  'RateLimit-Remaining': ref('RateLimit-Remaining'),
  'RateLimit-Reset': ref('RateLimit-Reset'),
  'RateLimit-Policy': ref('RateLimit-Policy'),
};
const integerHeader = (description: string) => ({ description, schema: { type: 'integer' as const, minimum: 0 } });

/** Errors grouped by status, each with the exact codes the route can answer with. */
function errorResponses(route: V1Route): Record<string, { description: string; content: object; headers?: object }> {
  const byStatus = new Map<number, ErrorCode[]>();
  const shared = route.public ? ['internal_error' as const] : [...KEYED_ERRORS, ...(route.doc.requestBody ? BODY_ERRORS : [])];
  for (const code of new Set([...route.errors, ...shared])) {
    const status = ERROR_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const out: Record<string, { description: string; content: object; headers?: object }> = {};
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    // A 401 is answered before any budget is known; every other keyed answer carries the budget.
    const headers = route.public || status === 401 ? undefined : { ...RATE_LIMIT_HEADERS, ...(status === 429 ? { 'Retry-After': ref('Retry-After') } : {}) };
    out[status] = {
      description: `Error: ${codes.join(', ')}`,
      content: { 'application/json': { schema: errorBody(codes) } },
      ...(headers ? { headers } : {}),
    };
  }
  return out;
}

function operation(route: V1Route): ZodOpenApiOperationObject {
  const success = Object.fromEntries(
    Object.entries(route.doc.responses).map(([status, response]) => {
      if (route.public || !response || '$ref' in response) return [status, response];
      return [status, { ...response, headers: { ...RATE_LIMIT_HEADERS, ...(response.headers as object | undefined) } }];
    }),
  );
  const responses = { ...success, ...errorResponses(route) } as ZodOpenApiResponsesObject;
  return { ...route.doc, responses, ...(route.public ? { security: [] } : {}) };
}

/** The OpenAPI 3.1 document of exactly these routes. */
export function buildOpenApiDocument(routes: readonly V1Route[]): ReturnType<typeof createDocument> {
  const paths: ZodOpenApiPathsObject = {};
  for (const route of routes) paths[openApiPath(route.path)] = { ...paths[openApiPath(route.path)], [route.method]: operation(route) };
  return createDocument({
    openapi: '3.1.0',
    info: {
      title: 'mos v1 API',
      version: '1.0.0',
      description:
        `Key-authenticated API for contacts, messages, templates and broadcasts. Send a live API key in \`${API_KEY_HEADER}\` on every request (401 invalid_api_key otherwise). ` +
        `Each key may make ${API_RATE_LIMIT_PER_MINUTE.default} requests per minute unless its workspace sets another limit; every keyed answer carries RateLimit-* headers, and past the limit the answer is 429 rate_limited with Retry-After. ` +
        'Errors are `{error, message?, issues?}`. See docs/api-v1.md.',
    },
    security: [{ ApiKey: [] }],
    paths,
    components: {
      securitySchemes: {
        ApiKey: {
          type: 'apiKey',
          in: 'header',
          name: API_KEY_HEADER,
          description: 'Created under Settings, Integrations, API Keys (or `mos api-keys create`).',
        },
      },
      headers: {
        'RateLimit-Limit': integerHeader("Requests this key may make in the current window (the workspace's limit)."),
        'RateLimit-Remaining': integerHeader('Requests left in the current window.'),
        'RateLimit-Reset': integerHeader('Seconds until the current window ends and the budget is whole again.'),
        'RateLimit-Policy': { description: 'The quota policy: `<limit>;w=60` (requests per 60-second window).', schema: { type: 'string' } },
        'Retry-After': integerHeader('Seconds to wait before trying again.'),
      },
    },
  });
}
