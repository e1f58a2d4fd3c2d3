import { Router } from 'express';
import type { AppDeps } from '@mos/app';

/** GET /internal/campaigns. */
export function internalCampaignRoutes(_deps: AppDeps): Router {
  const r = Router();
  // TODO(issue 14, campaigns): list the workspace's campaigns.
  r.get('/campaigns', (_req, res) => {
    res.json({ campaigns: [] });
  });
  return r;
}
