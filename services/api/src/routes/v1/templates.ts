import { z } from 'zod';
import { approvedTemplatesResult, listApprovedTemplatesForApi, type AppDeps } from '@mos/app';
import { apiScopeOf } from './auth';
import { parseOr400, type V1Route } from './route';

/** No parameters: any query parameter is refused, as on every /v1 list. */
const noQuery = z.strictObject({});

export const templateRoutes = (deps: AppDeps): V1Route[] => [
  {
    method: 'get',
    path: '/templates',
    errors: ['validation_failed'],
    doc: {
      operationId: 'listTemplates',
      tags: ['Templates'],
      summary: 'Fetch approved templates',
      description:
        "The workspace's templates the provider approved, as of the last template sync or status webhook, by name then language. Only these can be sent (otherwise 422 template_not_approved).",
      responses: { 200: { description: 'Approved templates', content: { 'application/json': { schema: approvedTemplatesResult } } } },
    },
    handler: async (req, res) => {
      parseOr400(noQuery, req.query);
      res.json(await listApprovedTemplatesForApi(deps, apiScopeOf(req)));
    },
  },
];
