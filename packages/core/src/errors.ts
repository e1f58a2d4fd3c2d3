/**
 * Every error code the service answers with, and its HTTP status. Express routes and tRPC
 * procedures both map an AppError through this one table so they answer alike.
 */
export const ERROR_STATUS = {
  unauthenticated: 401,
  forbidden: 403,
  internal_error: 500,
  invalid_request: 400,
  invalid_query: 400,
  create_failed: 400,
  update_failed: 400,
  not_found: 404,
  conflict: 409,
  validation_failed: 400,
  provider_submit_failed: 400,
  no_waba: 400,
  no_access_token: 400,
  no_llm_key: 400,
  llm_not_configured: 400,
  llm_failed: 502,
  verification_failed: 400,
  webhook_not_found: 404,
  webhook_delivery_not_found: 404,
  webhook_rejection_not_found: 404,
  webhook_not_found_or_disabled: 404,
  workspace_required: 400,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  service_unavailable: 503,
  provider_ingress_not_configured: 503,
  invalid_api_key: 401,
  idempotency_key_reused: 409,
  outside_service_window: 422,
  contact_unsubscribed: 422,
  template_not_approved: 422,
  contact_not_found: 422,
  no_phone_number: 422,
  message_not_found: 404,
  broadcast_not_found: 404,
  invalid_broadcast_state: 409,
  campaign_not_found: 404,
  /** The campaign's status (or archival) does not allow the change, or another change holds it. */
  invalid_campaign_state: 409,
  /** Inbound webhooks: a signature that is missing, malformed, stale or does not match. */
  invalid_signature: 401,
  /** Inbound webhooks: a verified body that is not a UTF-8 JSON object or array. */
  invalid_payload: 400,
  /** Inbound webhooks: the payload does not yield a sendable request through the mapping. */
  mapping_failed: 422,
  journey_not_found: 404,
  /** Journeys: the action does not apply to the journey's status (edit an active one, pause a draft). */
  invalid_journey_state: 409,
  compat_mapping_not_found: 404,
  /** Compat mappings: the path is already mapped (in any workspace: paths are looked up before one is known). */
  compat_mapping_conflict: 409,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface AppErrorOptions {
  message?: string;
  issues?: unknown[];
  meta?: unknown;
  cause?: unknown;
}

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly issues?: unknown[];
  readonly meta?: unknown;

  constructor(code: ErrorCode, options: AppErrorOptions = {}) {
    super(options.message ?? code, { cause: options.cause });
    this.name = 'AppError';
    this.code = code;
    this.status = ERROR_STATUS[code];
    if (options.issues) this.issues = options.issues;
    if (options.meta !== undefined) this.meta = options.meta;
  }

  /** The JSON body: `{error, message?, issues?, meta?}`; message only when it adds something. */
  toBody(): Record<string, unknown> {
    const body: Record<string, unknown> = { error: this.code };
    if (this.message && this.message !== this.code) body.message = this.message;
    if (this.issues) body.issues = this.issues;
    if (this.meta !== undefined) body.meta = this.meta;
    return body;
  }
}

export function isAppError(err: unknown): err is AppError {
  return err instanceof AppError;
}
