import { Router } from 'express';
import type { z } from 'zod';
import { AppError, LIMITS, pageQuery } from '@mos/core';
import { actorOf } from '@mos/http';
import { getBroadcast, getMessage, listBroadcasts, listBroadcastsInput, listMessages, listMessagesInput, scopeOf, type AppDeps } from '@mos/app';

const PAGE = { limit: LIMITS.contacts.limit };

/**
 * A list's query: the page read like every /internal list (`pageQuery`), the string filters
 * through the list's own schema; a repeated or malformed filter is 400 invalid_query.
 */
function listQuery<S extends z.ZodType>(schema: S, q: Record<string, unknown>, filters: string[]): z.output<S> {
  const input: Record<string, unknown> = { ...pageQuery(q, PAGE) };
  for (const name of filters) if (q[name] !== undefined && q[name] !== '') input[name] = q[name];
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw new AppError('invalid_query', { issues: parsed.error.issues.map((i) => ({ path: i.path, message: i.message })) });
  return parsed.data;
}

/**
 * GET /internal/messages[/{id}] and /internal/broadcasts[/{id}]: what was sent, with status
 * history and counts, for the session's workspace. The same functions as tRPC and /v1.
 */
export function internalSendingRoutes(deps: AppDeps): Router {
  const r = Router();
  r.get('/messages', async (req, res) => {
    res.json(await listMessages(deps, scopeOf(actorOf(req)), listQuery(listMessagesInput, req.query, ['status', 'broadcastId', 'contactId', 'cursor'])));
  });
  r.get('/messages/:id', async (req, res) => {
    res.json(await getMessage(deps, scopeOf(actorOf(req)), String(req.params.id)));
  });
  r.get('/broadcasts', async (req, res) => {
    res.json(await listBroadcasts(deps, scopeOf(actorOf(req)), listQuery(listBroadcastsInput, req.query, ['cursor'])));
  });
  r.get('/broadcasts/:id', async (req, res) => {
    res.json(await getBroadcast(deps, scopeOf(actorOf(req)), String(req.params.id)));
  });
  return r;
}
