import { apiContactsQuery, apiContactsResult, listContactsForApi, type AppDeps } from '@mos/app';
import type { ZodOpenApiOverrideMeta } from 'zod-openapi';
import { LIMITS } from '@mos/core';
import { apiScopeOf } from './auth';
import { parseOr400, type V1Route } from './route';

const LIMIT = LIMITS.contacts.limit;

/**
 * The query schema takes strings (a query string has nothing else); the document shows
 * `limit` as the integer it stands for, which is what client generators need.
 */
const asInteger: ZodOpenApiOverrideMeta = ({ jsonSchema }) => {
  for (const key of Object.keys(jsonSchema)) delete jsonSchema[key];
  Object.assign(jsonSchema, { type: 'integer', minimum: LIMIT.min, maximum: LIMIT.max, default: LIMIT.default });
};
const documentedQuery = apiContactsQuery.extend({ limit: apiContactsQuery.shape.limit.meta({ override: asInteger }) });

export const contactRoutes = (deps: AppDeps): V1Route[] => [
  {
    method: 'get',
    path: '/contacts',
    errors: ['validation_failed'],
    doc: {
      operationId: 'listContacts',
      tags: ['Contacts'],
      summary: 'List and filter contacts',
      description:
        'Keyset pages in creation order; every given filter must match. Erased contacts are not listed. Unknown query parameters are refused (400), so a misspelt filter never returns an unfiltered list.',
      requestParams: { query: documentedQuery },
      responses: { 200: { description: 'A page of contacts', content: { 'application/json': { schema: apiContactsResult } } } },
    },
    handler: async (req, res) => {
      const query = parseOr400(apiContactsQuery, req.query);
      res.json(await listContactsForApi(deps, apiScopeOf(req), query));
    },
  },
];
