import type { Request } from 'express';
import { z } from 'zod';
import { AppError } from '@mos/core';
import {
  broadcastResult,
  changeBroadcast,
  createBroadcast,
  createBroadcastInput,
  createBroadcastResult,
  getBroadcast,
  type AppDeps,
  type BroadcastAction,
} from '@mos/app';
import { apiScopeOf } from './auth';
import { parseOr400, type V1Route } from './route';

const BROADCAST_ID = /^brd_[0-9a-z]{26}$/;
const broadcastIdParam = z.object({ id: z.string().regex(BROADCAST_ID).describe('A broadcast id (brd_…).') });

/** Not an id we could have issued: not found, without asking the database. */
function broadcastIdOf(req: Request): string {
  const id = req.params.id;
  if (typeof id !== 'string' || !BROADCAST_ID.test(id)) throw new AppError('broadcast_not_found');
  return id;
}

const ACTIONS: Record<BroadcastAction, string> = {
  pause: 'Pause a scheduled or running broadcast; messages already queued still go out.',
  resume: 'Resume a paused broadcast.',
  cancel: 'Cancel a broadcast that has not finished; contacts not yet messaged are skipped.',
};

/** One route per action (rather than `/:action`), so each is its own documented operation. */
const actionRoute = (deps: AppDeps, action: BroadcastAction): V1Route => ({
  method: 'post',
  path: `/broadcasts/:id/${action}`,
  errors: ['broadcast_not_found', 'invalid_broadcast_state'],
  doc: {
    operationId: `${action}Broadcast`,
    tags: ['Broadcasts'],
    summary: ACTIONS[action],
    description: 'No request body. 409 invalid_broadcast_state when the broadcast’s status does not allow the action.',
    requestParams: { path: broadcastIdParam },
    responses: { 200: { description: 'The broadcast after the change', content: { 'application/json': { schema: broadcastResult } } } },
  },
  handler: async (req, res) => {
    res.json(await changeBroadcast(deps, apiScopeOf(req), broadcastIdOf(req), action));
  },
});

export const broadcastRoutes = (deps: AppDeps): V1Route[] => [
  {
    method: 'post',
    path: '/broadcasts',
    errors: ['validation_failed', 'template_not_approved', 'no_phone_number', 'service_unavailable'],
    doc: {
      operationId: 'createBroadcast',
      tags: ['Broadcasts'],
      summary: 'Trigger a broadcast of an approved template to a segment',
      description: 'Answers 202 at once; progress and counts are on GET /v1/broadcasts/{id}. Unsubscribed and blocked contacts are always skipped.',
      requestBody: { required: true, content: { 'application/json': { schema: createBroadcastInput } } },
      responses: { 202: { description: 'Accepted', content: { 'application/json': { schema: createBroadcastResult } } } },
    },
    handler: async (req, res) => {
      const input = parseOr400(createBroadcastInput, req.body);
      res.status(202).json(await createBroadcast(deps, apiScopeOf(req), input));
    },
  },
  {
    method: 'get',
    path: '/broadcasts/:id',
    errors: ['broadcast_not_found'],
    doc: {
      operationId: 'getBroadcast',
      tags: ['Broadcasts'],
      summary: 'A broadcast, its status and counts',
      requestParams: { path: broadcastIdParam },
      responses: { 200: { description: 'The broadcast', content: { 'application/json': { schema: broadcastResult } } } },
    },
    handler: async (req, res) => {
      res.json(await getBroadcast(deps, apiScopeOf(req), broadcastIdOf(req)));
    },
  },
  actionRoute(deps, 'pause'),
  actionRoute(deps, 'resume'),
  actionRoute(deps, 'cancel'),
];
