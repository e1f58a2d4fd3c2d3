import type { Request, Response } from 'express';
import type { z } from 'zod';
import type { ZodOpenApiOperationObject } from 'zod-openapi';
import { AppError, type ErrorCode } from '@mos/core';

/**
 * One /v1 route: how Express serves it and how the OpenAPI document describes it, in one
 * object, so neither can exist without the other. The router registers exactly this table and
 * the document is generated from exactly this table (openapi.test.ts checks both directions).
 */
export interface V1Route {
  method: 'get' | 'post';
  /** Express syntax below /v1 (`/messages/:id`); the document spells it `/v1/messages/{id}`. */
  path: string;
  /** Served without an API key, outside the rate limit (the document and its reference page). */
  public?: boolean;
  /** The operation minus what openapi.ts adds to every keyed route (security, shared errors, rate-limit headers). */
  doc: Omit<ZodOpenApiOperationObject, 'security'>;
  /** Error codes this route itself can answer with, beyond those every keyed route (and every route with a body) can. */
  errors: readonly ErrorCode[];
  handler: (req: Request, res: Response) => Promise<void> | void;
}

/** A zod issue as the API promises it: where, what kind, and why (never the offending input). */
export interface ApiIssue {
  code: string;
  path: (string | number)[];
  message: string;
}

export const toApiIssues = (issues: readonly z.core.$ZodIssue[], prefix: (string | number)[] = []): ApiIssue[] =>
  issues.map((i) => ({
    code: i.code,
    path: [...prefix, ...i.path.map((p) => (typeof p === 'symbol' ? String(p) : p))],
    message: i.message,
  }));

/**
 * The parsed value, or 400 validation_failed with the issues. `where` prefixes issue paths
 * for inputs that are not the body (a header's name).
 */
export function parseOr400<S extends z.ZodType>(schema: S, value: unknown, where: (string | number)[] = []): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new AppError('validation_failed', { message: 'The request did not validate', issues: toApiIssues(parsed.error.issues, where) });
}

/** Express path to OpenAPI path: `/messages/:id` -> `/v1/messages/{id}`. */
export const openApiPath = (expressPath: string): string => `/v1${expressPath.replace(/:(\w+)/g, '{$1}')}`;
