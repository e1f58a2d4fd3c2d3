import type { Request, RequestHandler, Response } from 'express';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';

/**
 * A per-key requests-per-second guard (rate-limiter-flexible, in memory per process): past the
 * budget, `Retry-After` and whatever answer the route's callers expect (`refuse` writes it:
 * the provider ingress, the inbound webhooks and the legacy paths each have their own shape).
 */
export function perSecondLimit(opts: { points: number; keyOf(req: Request): string; refuse(res: Response): void }): RequestHandler {
  const limiter = new RateLimiterMemory({ points: opts.points, duration: 1 });
  return async (req, res, next) => {
    try {
      await limiter.consume(opts.keyOf(req));
      next();
    } catch (err) {
      if (!(err instanceof RateLimiterRes)) return next(err);
      res.setHeader('Retry-After', String(Math.max(1, Math.ceil(err.msBeforeNext / 1000))));
      opts.refuse(res);
    }
  };
}
