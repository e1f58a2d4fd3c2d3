import { Router } from 'express';
import { jsonBody } from '@mos/http';
import type { AppDeps } from '@mos/app';
import { apiKeyAuth } from './auth';
import { broadcastRoutes } from './broadcasts';
import { contactRoutes } from './contacts';
import { docRoutes, docsAssets } from './docs';
import { messageRoutes } from './messages';
import { templateRoutes } from './templates';
import { buildOpenApiDocument } from './openapi';
import { apiRateLimit, type ApiRateLimitOptions } from './rate-limit';
import type { V1Route } from './route';

/**
 * Request bodies on /v1 are small JSON documents. A broadcast segment listed by id is the
 * largest: about 1,900 contact ids or 3,400 phone numbers fit (larger segments: by filter).
 */
export const V1_BODY_LIMIT = '64kb';

/** Every /v1 route, in one table: what the router serves and what the document describes. */
export function v1RouteTable(deps: AppDeps): V1Route[] {
  let document: object | undefined;
  const routes: V1Route[] = [
    // Built on first request, from the final table (which includes these two routes).
    ...docRoutes(() => (document ??= buildOpenApiDocument(routes))),
    ...contactRoutes(deps),
    ...messageRoutes(deps),
    ...templateRoutes(deps),
    ...broadcastRoutes(deps),
  ];
  return routes;
}

/**
 * The keyed /v1 surface, mounted at /v1. Order: the public document and reference page; then
 * the key check (401), the per-key budget (429, RateLimit-* headers); then the routes, those
 * with a body behind the JSON parser (415/413/400, up to 64 kb). Errors fall through to the
 * app's errorHandler.
 */
export function v1Routes(deps: AppDeps, options: { rateLimit?: ApiRateLimitOptions } = {}): Router {
  const table = v1RouteTable(deps);
  const r = Router();
  // A route parses a body exactly when its document declares one, so the 413/415 it can
  // answer are the ones documented; a stray body on any other route is not read.
  const body = jsonBody(V1_BODY_LIMIT);
  const register = (route: V1Route) => r[route.method](route.path, ...(route.doc.requestBody ? body : []), route.handler);
  table.filter((route) => route.public).forEach(register);
  r.use('/docs/assets', docsAssets());
  r.use(apiKeyAuth(deps));
  r.use(apiRateLimit(deps, options.rateLimit));
  table.filter((route) => !route.public).forEach(register);
  return r;
}
