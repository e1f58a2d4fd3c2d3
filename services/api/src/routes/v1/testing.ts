import { createApiKey, type AppDeps } from '@mos/app';
import { seedOperator, type SeededOperator } from '@mos/app/testing';
import { jsonRequest, rawRequest } from '@mos/http/testing';

/** Shared by the /v1 suites: a workspace with an owner and a live API key. */
export interface SeededKey {
  op: SeededOperator;
  workspaceId: string;
  keyId: string;
  key: string;
}

export async function seedApiKey(deps: AppDeps, options: { workspace?: string } = {}): Promise<SeededKey> {
  const op = await seedOperator(deps, { role: 'owner', ...(options.workspace ? { workspace: options.workspace } : {}) });
  const created = await createApiKey(deps, { workspaceId: op.workspaceId, actorId: op.memberId, role: op.role }, { name: 'test key' });
  return { op, workspaceId: op.workspaceId, keyId: created.id, key: created.key };
}

/** A JSON request to `${base}/v1${path}` with the key (null: none). */
export function v1(base: string, key: string | null, path: string, init: { method?: string; headers?: Record<string, string>; body?: unknown } = {}) {
  return jsonRequest(`${base}/v1${path}`, { ...init, headers: { ...(key === null ? {} : { 'x-api-key': key }), ...init.headers } });
}

/** Exactly these bytes and headers, with the key (hostile-input tests). */
export function v1Raw(base: string, key: string, path: string, init: { method?: string; headers?: Record<string, string>; body?: string | Uint8Array } = {}) {
  return rawRequest(`${base}/v1${path}`, { ...init, headers: { 'x-api-key': key, ...init.headers } });
}
