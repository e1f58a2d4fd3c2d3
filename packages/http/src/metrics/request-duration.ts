import type { Request, RequestHandler } from 'express';
import { Histogram, type Registry } from 'prom-client';
import { REQUEST_SECONDS_BUCKETS } from './registry';

/** The answer's class; `aborted` when the client went away before the answer was written. */
export type StatusClass = '2xx' | '3xx' | '4xx' | '5xx' | 'aborted';

function statusClass(status: number, finished: boolean): StatusClass {
  if (!finished) return 'aborted';
  if (status >= 500) return '5xx';
  if (status >= 400) return '4xx';
  if (status >= 300) return '3xx';
  return '2xx';
}

/**
 * Times every request from arrival to its answer, as `<name>{family, status_class}`. The family
 * comes from `familyOf`, which maps a request to one of a fixed set of names (null: not timed),
 * so raw paths, slugs and ids never become label values. Mount it before everything it times.
 */
export function requestDuration<F extends string>(registry: Registry, opts: { name: string; help: string; familyOf(req: Request): F | null }): RequestHandler {
  const histogram = new Histogram({
    name: opts.name,
    help: opts.help,
    labelNames: ['family', 'status_class'] as const,
    buckets: REQUEST_SECONDS_BUCKETS,
    registers: [registry],
  });
  return (req, res, next) => {
    const family = opts.familyOf(req);
    if (family === null) return next();
    const end = histogram.startTimer({ family });
    // 'close' fires once per response, answered or not; writableFinished tells which.
    res.once('close', () => end({ status_class: statusClass(res.statusCode, res.writableFinished) }));
    next();
  };
}
