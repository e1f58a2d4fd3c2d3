import { Router } from 'express';
import { pageQuery } from '@mos/core';
import { actorOf } from '@mos/http';
import { CAMPAIGN_PAGE, getCampaign, listCampaigns, scopeOf, type AppDeps } from '@mos/app';

/**
 * GET /internal/campaigns[?limit&offset] and /internal/campaigns/{id}: the session's workspace's
 * campaigns, newest first, archived ones included; the same body as tRPC campaigns.list|get.
 */
export function internalCampaignRoutes(deps: AppDeps): Router {
  const r = Router();
  r.get('/campaigns', async (req, res) => {
    res.json(await listCampaigns(deps, scopeOf(actorOf(req)), pageQuery(req.query, CAMPAIGN_PAGE)));
  });
  r.get('/campaigns/:id', async (req, res) => {
    res.json(await getCampaign(deps, scopeOf(actorOf(req)), String(req.params.id)));
  });
  return r;
}
