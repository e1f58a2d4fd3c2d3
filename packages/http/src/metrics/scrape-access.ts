import { constantTimeEqual } from '@mos/core';
import type { Env } from '@mos/config';

export type ScrapeAccess = 'allowed' | 'unauthenticated' | 'off';

/**
 * Who may read /metrics: the platform's scraper, never a tenant. With MOS_METRICS_TOKEN set,
 * only its bearer; without one, off in production (a 404, as if absent) and open elsewhere
 * (the processes listen on 127.0.0.1 by default).
 */
export function scrapeAccess(env: Pick<Env, 'MOS_METRICS_TOKEN' | 'MOS_ENV'>, authorization: string | undefined): ScrapeAccess {
  const token = env.MOS_METRICS_TOKEN;
  if (!token) return env.MOS_ENV === 'production' ? 'off' : 'allowed';
  const auth = authorization ?? '';
  const presented = auth.toLowerCase().startsWith('bearer ') ? auth.slice(7).trim() : '';
  return constantTimeEqual(presented, token) ? 'allowed' : 'unauthenticated';
}
