import type { Express, Router } from 'express';

/** One Express route as registered: lower-case method and the full path pattern (`/internal/webhooks/:id`). */
export interface DiscoveredRoute {
  method: string;
  path: string;
}

/** The parts of router@2's Layer this walk reads (Express 5 keeps the registered path as `rawPath`). */
interface Layer {
  rawPath?: unknown;
  route?: { path: unknown; methods: Record<string, boolean> };
  handle?: { stack?: Layer[] };
}

const paths = (raw: unknown): string[] => (Array.isArray(raw) ? raw.flat(Infinity).map(String) : typeof raw === 'string' ? [raw] : ['']);
const join = (prefix: string, path: string): string => (path === '/' ? prefix || '/' : `${prefix}${path}`);

function walk(stack: readonly Layer[], prefix: string, out: DiscoveredRoute[]): void {
  for (const layer of stack) {
    if (layer.route) {
      for (const path of paths(layer.route.path)) {
        for (const [method, on] of Object.entries(layer.route.methods)) if (on && method !== '_all') out.push({ method, path: join(prefix, path) });
      }
    } else if (layer.handle?.stack) {
      // A mounted Router: its routes sit below the mount path (`use(fn)` mounts at '/').
      for (const mount of paths(layer.rawPath)) walk(layer.handle.stack, join(prefix, mount === '/' ? '' : mount), out);
    }
  }
}

/**
 * Every route an Express 5 app (or Router) serves, read from its router stack, so a route
 * added anywhere is discovered without a list to update. Middleware-only mounts (a tRPC
 * adapter, static assets) are not routes and are not listed; enumerate those surfaces from
 * their own source.
 */
export function expressRoutes(appOrRouter: Express | Router): DiscoveredRoute[] {
  const out: DiscoveredRoute[] = [];
  const holder = appOrRouter as unknown as { router?: { stack: Layer[] }; stack?: Layer[] };
  walk(holder.router?.stack ?? holder.stack ?? [], '', out);
  const seen = new Set<string>();
  return out.filter((r) => !seen.has(`${r.method} ${r.path}`) && seen.add(`${r.method} ${r.path}`));
}

/** One tRPC procedure: its dotted path, its kind, and its input parsers (zod schemas in this codebase). */
export interface DiscoveredProcedure {
  path: string;
  type: 'query' | 'mutation' | 'subscription';
  inputs: unknown[];
}

/** Every procedure of a tRPC router (v11 keeps them flattened in `_def.procedures`). */
export function trpcProcedures(router: { _def: { procedures: object } }): DiscoveredProcedure[] {
  return Object.entries(router._def.procedures as Record<string, { _def: { type: DiscoveredProcedure['type']; inputs?: unknown[] } }>).map(([path, p]) => ({
    path,
    type: p._def.type,
    inputs: p._def.inputs ?? [],
  }));
}

/** One OpenAPI operation: the method and path as Express would register them, and the parameters it declares. */
export interface DocumentedOperation {
  method: string;
  /** Express syntax: `/v1/messages/{id}` becomes `/v1/messages/:id`. */
  path: string;
  parameters: { name: string; in: string; schema?: unknown }[];
  requestBody?: unknown;
  /** Documented status -> the error codes the document lists for it (empty for success answers). */
  errors: Record<string, string[]>;
}

const METHODS = new Set(['get', 'put', 'post', 'delete', 'patch', 'head', 'options']);

interface OpenApiOperation {
  parameters?: { name: string; in: string; schema?: unknown }[];
  requestBody?: unknown;
  responses?: Record<string, { content?: Record<string, { schema?: { properties?: { error?: { enum?: string[] } } } }> }>;
}

/** The operations of an OpenAPI 3 document, with the error codes each documents per status. */
export function openApiOperations(doc: { paths: Record<string, Record<string, unknown>> }): DocumentedOperation[] {
  const out: DocumentedOperation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, raw] of Object.entries(item)) {
      if (!METHODS.has(method)) continue;
      const op = raw as OpenApiOperation;
      const errors: Record<string, string[]> = {};
      for (const [status, response] of Object.entries(op.responses ?? {})) {
        errors[status] = response.content?.['application/json']?.schema?.properties?.error?.enum ?? [];
      }
      out.push({
        method,
        path: path.replace(/\{(\w+)\}/g, ':$1'),
        parameters: op.parameters ?? [],
        ...(op.requestBody ? { requestBody: op.requestBody } : {}),
        errors,
      });
    }
  }
  return out;
}
