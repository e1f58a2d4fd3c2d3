import { describe, expect, it } from 'vitest';
import { getHTTPStatusCodeFromError } from '@trpc/server/http';
import { AppError, ERROR_STATUS, type ErrorCode } from '@mos/core';
import { toTRPCError } from './trpc';

describe('tRPC error codes', () => {
  // A frontend calling tRPC must see the status a REST client sees for the same failure:
  // 503 stays 503 (not 500), an upstream failure stays 502.
  it.each(Object.entries(ERROR_STATUS) as [ErrorCode, number][])('%s answers HTTP %i on tRPC too', (code, status) => {
    expect(getHTTPStatusCodeFromError(toTRPCError(new AppError(code)))).toBe(status);
  });

  it('names the classes a client branches on', () => {
    expect(toTRPCError(new AppError('service_unavailable')).code).toBe('SERVICE_UNAVAILABLE');
    expect(toTRPCError(new AppError('provider_ingress_not_configured')).code).toBe('SERVICE_UNAVAILABLE');
    expect(toTRPCError(new AppError('llm_failed')).code).toBe('BAD_GATEWAY');
  });
});
