import { z } from 'zod';

/**
 * The provider's Graph-style error object (WhatsApp Cloud API "Error codes" reference):
 * `{error: {message, type, code, error_subcode, error_user_title, error_user_msg,
 * error_data: {messaging_product, details}, fbtrace_id}}`. Loose: the provider adds fields.
 */
export const providerErrorObjectSchema = z.looseObject({
  message: z.string(),
  type: z.string().optional(),
  code: z.number().int().optional(),
  error_subcode: z.number().int().optional(),
  is_transient: z.boolean().optional(),
  error_user_title: z.string().optional(),
  error_user_msg: z.string().optional(),
  error_data: z.union([z.looseObject({ messaging_product: z.string().optional(), details: z.string().optional() }), z.string()]).optional(),
  fbtrace_id: z.string().optional(),
});
export type ProviderErrorObject = z.infer<typeof providerErrorObjectSchema>;

export const providerErrorBodySchema = z.object({ error: providerErrorObjectSchema });

/**
 * A failed provider call. `retryable` is true for timeouts, network failures, 429 and 5xx
 * (the same request may succeed later) and false for other 4xx (it never will).
 * `error` is the provider's raw error object when it sent one.
 */
export class ProviderError extends Error {
  readonly status: number | null;
  readonly retryable: boolean;
  readonly error: ProviderErrorObject | null;
  /**
   * No answer, and the request may have reached the provider (a timeout, a connection dropped
   * mid-call): it may have acted on it. False for a refused connection or an answer.
   */
  readonly outcomeUnknown: boolean;

  constructor(
    message: string,
    options: { status: number | null; retryable: boolean; error?: ProviderErrorObject | null; cause?: unknown; outcomeUnknown?: boolean },
  ) {
    super(message, { cause: options.cause });
    this.name = 'ProviderError';
    this.status = options.status;
    this.retryable = options.retryable;
    this.error = options.error ?? null;
    this.outcomeUnknown = options.outcomeUnknown ?? false;
  }

  /** The most useful human text: the provider's user message, then details, then its message. */
  get userMessage(): string {
    const details = typeof this.error?.error_data === 'object' ? this.error.error_data.details : undefined;
    return this.error?.error_user_msg ?? details ?? this.error?.message ?? this.message;
  }
}

export function isProviderError(err: unknown): err is ProviderError {
  return err instanceof ProviderError;
}

export function isRetryableStatus(status: number): boolean {
  return status === 429 || status >= 500;
}
