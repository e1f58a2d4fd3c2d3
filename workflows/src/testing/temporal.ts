import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { Client, Connection } from '@temporalio/client';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { NativeConnection, Worker } from '@temporalio/worker';
import { WORKFLOWS_PATH } from '../index';

/** Test helpers for the real Temporal dev server (`TEMPORAL_ADDRESS`); nothing here is a mock. */

export function temporalAddress(): string {
  const address = process.env.TEMPORAL_ADDRESS;
  if (!address) throw new Error('TEMPORAL_ADDRESS must point at a Temporal server for workflow tests');
  return address;
}

export function uniqueTaskQueue(name: string): string {
  return `test-${name}-${randomBytes(5).toString('hex')}`;
}

export interface StubWorker {
  client: Client;
  taskQueue: string;
  close(): Promise<void>;
}

/**
 * A real Worker on the dev server running the real workflow code, with the activities the
 * test passes (in-memory stubs: no database). Workflow logic (retries, failure mapping,
 * paging) is then tested in seconds, beside the suites that run the real activities.
 */
export async function startStubWorker(name: string, activities: object): Promise<StubWorker> {
  const taskQueue = uniqueTaskQueue(name);
  const workerConnection = await NativeConnection.connect({ address: temporalAddress() });
  const worker = await Worker.create({ connection: workerConnection, namespace: 'default', taskQueue, workflowsPath: WORKFLOWS_PATH, activities });
  const running = worker.run();
  const connection = await Connection.connect({ address: temporalAddress() });
  return {
    client: new Client({ connection, namespace: 'default' }),
    taskQueue,
    async close() {
      worker.shutdown();
      await running.catch(() => {});
      await workerConnection.close();
      await connection.close();
    },
  };
}

/**
 * With `MOS_RECORD_HISTORIES=1`, writes a finished run's history to
 * workflows/src/__histories__/<name>.json, which replay.test.ts guards determinism with.
 * Replays run under the file name as workflow id.
 */
export async function maybeRecordHistory(client: Client, name: string, workflowId: string): Promise<void> {
  if (!process.env.MOS_RECORD_HISTORIES) return;
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  const dir = new URL('../__histories__/', import.meta.url);
  mkdirSync(dir, { recursive: true });
  writeFileSync(new URL(`${name}.json`, dir), historyToJSON(history));
}
