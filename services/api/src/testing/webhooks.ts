import { readFileSync } from 'node:fs';
import { signProviderBody } from '@mos/core';
import { loadEnv } from '@mos/config';
import type { AppDeps } from '@mos/app';
import { seedOperator, type SeededOperator } from '@mos/app/testing';

/** Shared by the ingress and /internal suites: fixtures, signed posts, a configured workspace. */

const FIXTURES = new URL('../../../../packages/core/src/webhooks/fixtures/', import.meta.url);
export const fixture = (name: string): Buffer => readFileSync(new URL(name, FIXTURES));

export const SIGNING_SECRET = 'whsec-test-secret';
export const VERIFY_TOKEN = 'verify-me-please';

/** A workspace marked for provider ingress, with both secrets in the vault, and its owner signed in. */
export async function seedIngressWorkspace(deps: AppDeps, options: { secret?: string | null } = {}): Promise<SeededOperator> {
  const op = await seedOperator(deps, { providerIngress: true, wabaId: '102290129340398' });
  if (options.secret !== null) await deps.vault.set(deps.db, op.workspaceId, 'webhook-signing-secret', options.secret ?? SIGNING_SECRET);
  await deps.vault.set(deps.db, op.workspaceId, 'provider-verify-token', VERIFY_TOKEN);
  return op;
}

export interface PostOptions {
  path?: string;
  secret?: string;
  /** Overrides the computed signature header; null sends none. */
  signature?: string | null;
  deliveryId?: string;
  headers?: Record<string, string>;
}

export async function postWebhook(baseUrl: string, body: Buffer | string, options: PostOptions = {}): Promise<{ status: number; body: any }> {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  const signature = options.signature === undefined ? signProviderBody(options.secret ?? SIGNING_SECRET, bytes) : options.signature;
  const res = await fetch(`${baseUrl}${options.path ?? '/webhooks/messaging'}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(signature === null ? {} : { 'x-hub-signature-256': signature }),
      ...(options.deliveryId ? { 'x-provider-delivery-id': options.deliveryId } : {}),
      ...options.headers,
    },
    body: bytes,
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    /* keep text */
  }
  return { status: res.status, body: parsed };
}

/** The same deps (and so the same vault key) with some env settings changed. */
export function withEnv(deps: AppDeps, env: Record<string, string>): AppDeps {
  return { ...deps, env: loadEnv({ ...process.env, MOS_ENV: 'test', ...env }) };
}
