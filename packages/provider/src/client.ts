import type { z } from 'zod';
import { isRetryableStatus, providerErrorBodySchema, ProviderError } from './errors';
import {
  createTemplateResponseSchema,
  editTemplateResponseSchema,
  sendMessageResponseSchema,
  templatePageSchema,
  type CreateTemplateRequest,
  type CreateTemplateResponse,
  type EditTemplateRequest,
  type ProviderTemplate,
  type SendMessageRequest,
  type SendMessageResponse,
  type TemplatePage,
} from './types';

export interface ProviderClientOptions {
  baseUrl: string;
  /** Graph API version segment, e.g. `v23.0`. */
  apiVersion: string;
  fetch?: typeof fetch;
  /** Per-request timeout; a timeout is a retryable ProviderError. */
  timeoutMs?: number;
}

export interface ProviderClient {
  createTemplate(auth: { wabaId: string; accessToken: string }, body: CreateTemplateRequest): Promise<CreateTemplateResponse>;
  listTemplates(auth: { wabaId: string; accessToken: string }, page?: { limit?: number; after?: string }): Promise<TemplatePage>;
  /** Every template on the account, following `paging.cursors.after` until the last page. */
  listAllTemplates(auth: { wabaId: string; accessToken: string }, pageSize?: number): Promise<ProviderTemplate[]>;
  sendMessage(auth: { phoneNumberId: string; accessToken: string }, body: SendMessageRequest): Promise<SendMessageResponse>;
  /**
   * Edits an existing template (`POST /{version}/{template-id}`): the provider allows it for
   * APPROVED, REJECTED and PAUSED templates and puts it back into review (PENDING, same id).
   */
  editTemplate(auth: { accessToken: string }, templateId: string, body: EditTemplateRequest): Promise<{ success: boolean }>;
}

const NEVER_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);

/** The provider's Graph-style API, typed. Holds no secrets: every call carries its token. */
export function createProviderClient(options: ProviderClientOptions): ProviderClient {
  const doFetch = options.fetch ?? fetch;
  const base = options.baseUrl.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? 15_000;

  async function call<S extends z.ZodType>(method: string, path: string, token: string, schema: S, body?: unknown): Promise<z.infer<S>> {
    const url = `${base}/${options.apiVersion}/${path}`;
    let res: Response;
    try {
      res = await doFetch(url, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      const timedOut = (err as Error)?.name === 'TimeoutError' || (err as Error)?.name === 'AbortError';
      const code = ((err as { cause?: { code?: string } })?.cause?.code ?? '') as string;
      // A refused or unresolvable connection never carried the request; anything else might have.
      const neverSent = !timedOut && NEVER_SENT_CODES.has(code);
      throw new ProviderError(timedOut ? `provider timed out after ${timeoutMs} ms` : 'provider unreachable', {
        status: null,
        retryable: true,
        cause: err,
        outcomeUnknown: !neverSent,
      });
    }
    const text = await res.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    if (!res.ok) {
      const parsed = providerErrorBodySchema.safeParse(json);
      const errBody = parsed.success ? parsed.data.error : null;
      throw new ProviderError(errBody?.message ?? `provider answered ${res.status}`, {
        status: res.status,
        retryable: isRetryableStatus(res.status),
        error: errBody,
      });
    }
    const parsed = schema.safeParse(json);
    if (!parsed.success) {
      // A 2xx we cannot read is a provider-side fault; retrying may get a good answer.
      throw new ProviderError(`unexpected provider response for ${method} ${path}`, { status: res.status, retryable: true, cause: parsed.error });
    }
    return parsed.data;
  }

  const seg = (id: string) => encodeURIComponent(id);

  const client: ProviderClient = {
    createTemplate: (auth, body) => call('POST', `${seg(auth.wabaId)}/message_templates`, auth.accessToken, createTemplateResponseSchema, body),
    listTemplates(auth, page = {}) {
      const q = new URLSearchParams();
      if (page.limit !== undefined) q.set('limit', String(page.limit));
      if (page.after) q.set('after', page.after);
      const qs = q.toString();
      return call('GET', `${seg(auth.wabaId)}/message_templates${qs ? `?${qs}` : ''}`, auth.accessToken, templatePageSchema);
    },
    async listAllTemplates(auth, pageSize = 100) {
      const all: ProviderTemplate[] = [];
      let after: string | undefined;
      for (let guard = 0; guard < 10_000; guard++) {
        const page = await client.listTemplates(auth, { limit: pageSize, after });
        all.push(...page.data);
        after = page.paging?.next ? page.paging.cursors?.after : undefined;
        if (!after || page.data.length === 0) break;
      }
      return all;
    },
    editTemplate: (auth, templateId, body) => call('POST', seg(templateId), auth.accessToken, editTemplateResponseSchema, body),
    sendMessage: (auth, body) =>
      call('POST', `${seg(auth.phoneNumberId)}/messages`, auth.accessToken, sendMessageResponseSchema, {
        messaging_product: 'whatsapp',
        recipient_type: 'individual',
        ...body,
      }),
  };
  return client;
}
