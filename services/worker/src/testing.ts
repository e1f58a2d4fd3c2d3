import { readFileSync } from 'node:fs';
import { bundleWorkflowCode } from '@temporalio/worker';
import { Client, Connection } from '@temporalio/client';
import { newId } from '@mos/core';
import { workspaces, type Db } from '@mos/db';
import { storeTestWebhookJob } from '@mos/db/testing';
import { createLogger } from '@mos/config';
import { WORKFLOWS_PATH } from '@mos/workflows';

/** Test and benchmark helpers: real database rows, real Temporal; nothing here is a mock. */

const FIXTURES = new URL('../../../packages/core/src/webhooks/fixtures/', import.meta.url);

export function fixtureBody(name: string): Buffer {
  return readFileSync(new URL(`${name}.json`, FIXTURES));
}

export const testLog = createLogger({ name: 'worker-test', level: process.env.LOG_LEVEL ?? 'warn' });

export function temporalAddress(): string {
  const address = process.env.TEMPORAL_ADDRESS;
  if (!address) throw new Error('TEMPORAL_ADDRESS must point at a Temporal server for worker tests');
  return address;
}

export async function connectTestClient(): Promise<{ client: Client; close(): Promise<void> }> {
  const connection = await Connection.connect({ address: temporalAddress() });
  return { client: new Client({ connection, namespace: 'default' }), close: () => connection.close() };
}

let bundle: Promise<{ code: string }> | null = null;
/** Bundling takes seconds; a process bundles once and every worker it starts reuses it. */
export function sharedWorkflowBundle(): Promise<{ code: string }> {
  bundle ??= bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, logger: undefined });
  return bundle;
}

export function uniqueTaskQueue(name: string): string {
  return `test-${name}-${newId('request').slice(4, 18)}`;
}

export async function seedWorkspace(db: Db): Promise<string> {
  const id = newId('workspace');
  await db.insert(workspaces).values({ id, workspaceId: id, slug: id.replace('_', '-'), name: 'Pipeline test' });
  return id;
}

/**
 * What the ingress stores for one provider delivery: the event row and its job, in one
 * transaction, then a NOTIFY (unless `notify: false`, to exercise the polling fallback).
 */
export async function storeDelivery(
  db: Db,
  workspaceId: string,
  input: { body: Buffer | string; topic?: string; notify?: boolean; source?: string; receivedAt?: Date },
): Promise<{ webhookEventId: string; jobId: string }> {
  return db.transaction((tx) => storeTestWebhookJob(tx, workspaceId, input));
}

export async function waitFor<T>(
  fn: () => Promise<T | null | undefined | false>,
  opts: { timeoutMs?: number; intervalMs?: number; what?: string } = {},
): Promise<T> {
  const deadline = Date.now() + (opts.timeoutMs ?? 20_000);
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${opts.what ?? 'condition'}`);
    await new Promise((r) => setTimeout(r, opts.intervalMs ?? 50));
  }
}

/** Recording histories for the replay test is the workflows package's own helper. */
export { maybeRecordHistory } from '@mos/workflows/testing';
