import { inboundSigningKey, signInboundBody } from '@mos/core';
import { upsertSyncedTemplate } from '@mos/db';
import { rawRequest } from '@mos/http/testing';
import type { AppDeps } from '@mos/app';

/** An approved template of `category` whose body takes `params` parameters ({{1}}..{{n}}). */
export async function seedApprovedTemplate(deps: AppDeps, workspaceId: string, name: string, params: number, category = 'UTILITY'): Promise<void> {
  const text = `Hello ${Array.from({ length: params }, (_, i) => `{{${i + 1}}}`).join(' ')}`;
  await upsertSyncedTemplate(
    deps.db,
    workspaceId,
    { providerTemplateId: `${name}-${category}`, name, language: 'en_US', category, status: 'approved', components: [{ type: 'BODY', text }] },
    new Date(),
  );
}

export interface SignedPost {
  body?: string | Buffer;
  /** Unix seconds; default the deps clock's now. */
  t?: number;
  secret?: string;
  /** A whole X-Service-Signature value instead of a computed one; null: no header. */
  signature?: string | null;
  headers?: Record<string, string>;
}

/** POSTs `body` to /api/v1/inbound-webhooks/{slug}, signed as an external system would. */
export function postInbound(base: string, slug: string, nowSeconds: number, o: SignedPost & { secret: string }) {
  const body = o.body ?? '{}';
  const t = o.t ?? nowSeconds;
  const signature = o.signature === undefined ? signInboundBody(inboundSigningKey(o.secret), t, body) : o.signature;
  return rawRequest(`${base}/api/v1/inbound-webhooks/${slug}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(signature === null ? {} : { 'x-service-signature': signature }), ...o.headers },
    body: typeof body === 'string' ? body : new Uint8Array(body),
  });
}
