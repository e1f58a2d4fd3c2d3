import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { Router, type Request } from 'express';
import { z } from 'zod';
import type { V1Route } from './route';

/**
 * The API reference page, offline: Swagger UI's own files from the swagger-ui-dist package
 * (the Swagger project's prebuilt distribution, maintained with Swagger UI and OpenAPI 3.1
 * capable), served from this process; no CDN, so it works air-gapped and under a strict CSP.
 * Resolved by path rather than imported: its entry point would load the 1.7 MB bundle into Node.
 */
const DIST = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
/** Only what the page uses (not the package's demo index.html or its petstore initializer). */
const ASSETS = new Set(['swagger-ui.css', 'swagger-ui-bundle.js', 'favicon-32x32.png']);

/** Our initializer, a file rather than inline script so the CSP can forbid inline scripts. */
const INIT_JS = `window.addEventListener('load', function () {
  var el = document.getElementById('swagger-ui');
  window.ui = SwaggerUIBundle({ url: el.dataset.specUrl, dom_id: '#swagger-ui', deepLinking: true, presets: [SwaggerUIBundle.presets.apis], layout: 'BaseLayout' });
});
`;

const CSP = "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; object-src 'none'; frame-ancestors 'none'; base-uri 'none'";

function page(base: string): string {
  const assets = `${base}/docs/assets`;
  return `<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <title>mos v1 API reference</title>
    <link rel="stylesheet" href="${assets}/swagger-ui.css">
    <link rel="icon" type="image/png" href="${assets}/favicon-32x32.png">
  </head>
  <body>
    <div id="swagger-ui" data-spec-url="${base}/openapi.json"></div>
    <script src="${assets}/swagger-ui-bundle.js"></script>
    <script src="${assets}/mos-init.js"></script>
  </body>
</html>
`;
}

/** `req.baseUrl` is the mount path (`/v1`), never request input; still, only a plain path is used. */
const baseOf = (req: Request): string => (/^[\w/-]*$/.test(req.baseUrl) ? req.baseUrl : '/v1');

/** /v1/docs/assets/*: mounted beside the routes below, before the key check. */
export function docsAssets(): Router {
  const r = Router();
  r.get('/mos-init.js', (_req, res) => {
    res.type('application/javascript').setHeader('Cache-Control', 'no-cache');
    res.send(INIT_JS);
  });
  r.get('/:file', (req, res, next) => {
    const file = req.params.file;
    if (!ASSETS.has(file)) return next();
    // Relative to `root`: the pnpm store path has a dot segment (.pnpm) that send() would refuse.
    res.sendFile(file, { root: DIST, maxAge: '1h' });
  });
  r.use((_req, res) => {
    res.status(404).json({ error: 'not_found' });
  });
  return r;
}

/** GET /v1/openapi.json and GET /v1/docs: public, so integrators can read before they have a key. */
export const docRoutes = (document: () => object): V1Route[] => [
  {
    method: 'get',
    path: '/openapi.json',
    public: true,
    errors: [],
    doc: {
      operationId: 'getOpenApiDocument',
      tags: ['Reference'],
      summary: 'This OpenAPI 3.1 document',
      responses: { 200: { description: 'The document', content: { 'application/json': { schema: z.looseObject({ openapi: z.string() }) } } } },
    },
    handler: (_req, res) => {
      res.json(document());
    },
  },
  {
    method: 'get',
    path: '/docs',
    public: true,
    errors: [],
    doc: {
      operationId: 'getApiReference',
      tags: ['Reference'],
      summary: 'The rendered API reference (HTML; works offline)',
      responses: { 200: { description: 'An HTML page', content: { 'text/html': { schema: z.string() } } } },
    },
    handler: (req, res) => {
      res.setHeader('Content-Security-Policy', CSP);
      res.type('html').send(page(baseOf(req)));
    },
  },
];
