import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ActivityFailure, ApplicationFailure, WorkflowFailedError } from '@temporalio/client';
import { maybeRecordHistory, startStubWorker, type StubWorker } from '../testing/temporal';
import type { TemplateActivities } from './activities';
import {
  TEMPLATE_SYNC_ALL_WORKFLOW_TYPE,
  TEMPLATE_SYNC_WORKFLOW_TYPE,
  TemplateSyncFailureType,
  type TemplateSyncAllResult,
  type TemplateSyncPageInput,
  type TemplateSyncPageResult,
  type TemplateSyncResult,
} from './contract';

/**
 * templateSync and templateSyncAll on the real Temporal dev server with in-memory activities:
 * the paging loop, skips, failure types and the nightly fan-out. The real activities (database
 * and provider simulator) run in services/api (internal-templates.test.ts).
 * `MOS_RECORD_HISTORIES=1` records these runs for replay.test.ts.
 */
type Pages = (input: TemplateSyncPageInput, attempt: number) => TemplateSyncPageResult;

const providers = new Map<string, Pages>();
const calls: TemplateSyncPageInput[] = [];
let workspaces: string[] = [];

const activities: TemplateActivities = {
  async syncTemplatePage(input) {
    calls.push(input);
    const attempt = calls.filter((c) => c.workspaceId === input.workspaceId && c.after === input.after).length;
    return providers.get(input.workspaceId)!(input, attempt);
  },
  async listTemplateSyncWorkspaces() {
    return workspaces;
  },
};

/** A provider holding `total` templates, served `pageSize` at a time with opaque cursors. */
const paged =
  (total: number): Pages =>
  (input) => {
    const offset = input.after ? Number(input.after.replace('cursor-', '')) : 0;
    const upserted = Math.max(0, Math.min(input.pageSize, total - offset));
    return offset + upserted < total ? { upserted, next: `cursor-${offset + upserted}` } : { upserted };
  };
const rejecting =
  (type: TemplateSyncFailureType): Pages =>
  () => {
    throw ApplicationFailure.create({ type, message: `provider said no (${type})`, nonRetryable: true });
  };

let worker: StubWorker;
beforeAll(async () => {
  worker = await startStubWorker('template-sync-stubs', activities);
}, 60_000);
afterAll(async () => {
  await worker?.close();
});

const newWorkspace = (pages: Pages) => {
  const id = `ws_${randomBytes(6).toString('hex')}`;
  providers.set(id, pages);
  return id;
};
const callsFor = (workspaceId: string) => calls.filter((c) => c.workspaceId === workspaceId).map(({ after, pageSize }) => ({ after, pageSize }));
const sync = (workspaceId: string, pageSize?: number, workflowId = `template-sync-test-${randomBytes(6).toString('hex')}`) =>
  worker.client.workflow.execute(TEMPLATE_SYNC_WORKFLOW_TYPE, {
    taskQueue: worker.taskQueue,
    workflowId,
    args: [{ workspaceId, pageSize }],
  }) as Promise<TemplateSyncResult>;

describe('templateSync (stub activities)', () => {
  it("follows the provider's cursors page by page to the last page", async () => {
    const ws = newWorkspace(paged(5));
    const workflowId = `template-sync-paged-${randomBytes(6).toString('hex')}`;
    expect(await sync(ws, 2, workflowId)).toEqual({ workspaceId: ws, pages: 3, upserted: 5 });
    expect(callsFor(ws)).toEqual([
      { after: undefined, pageSize: 2 },
      { after: 'cursor-2', pageSize: 2 },
      { after: 'cursor-4', pageSize: 2 },
    ]);
    await maybeRecordHistory(worker.client, 'template-sync-paged', workflowId);
  });

  it("asks for the provider's default page size of 100 when none is given", async () => {
    const ws = newWorkspace(paged(150));
    expect(await sync(ws)).toEqual({ workspaceId: ws, pages: 2, upserted: 150 });
    expect(callsFor(ws)).toEqual([
      { after: undefined, pageSize: 100 },
      { after: 'cursor-100', pageSize: 100 },
    ]);
  });

  it('stops at a skipped page and says why', async () => {
    const ws = newWorkspace(() => ({ upserted: 0, skipped: 'no_access_token' }));
    expect(await sync(ws)).toEqual({ workspaceId: ws, pages: 0, upserted: 0, skipped: 'no_access_token' });
  });

  it.each([TemplateSyncFailureType.ProviderRejected, TemplateSyncFailureType.WorkspaceNotFound])(
    'fails on %s after one attempt, with that type',
    async (type) => {
      const ws = newWorkspace(rejecting(type));
      const workflowId = `template-sync-failed-${randomBytes(6).toString('hex')}`;
      const err = await sync(ws, 10, workflowId).then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(WorkflowFailedError);
      const activity = (err as WorkflowFailedError).cause;
      expect(activity).toBeInstanceOf(ActivityFailure);
      expect(activity?.cause).toMatchObject({ type, nonRetryable: true });
      expect(callsFor(ws)).toHaveLength(1);
      if (type === TemplateSyncFailureType.ProviderRejected) await maybeRecordHistory(worker.client, 'template-sync-provider-rejected', workflowId);
    },
  );

  it('a failure type the workflow lists as non-retryable is not retried even when thrown as retryable', async () => {
    const ws = newWorkspace(() => {
      throw ApplicationFailure.retryable('workspace vanished', TemplateSyncFailureType.WorkspaceNotFound);
    });
    const err = await sync(ws).then(
      () => null,
      (e: unknown) => e,
    );
    expect((err as WorkflowFailedError).cause?.cause).toMatchObject({ type: TemplateSyncFailureType.WorkspaceNotFound });
    expect(callsFor(ws)).toHaveLength(1);
  });

  it('retries a transient failure of a page and carries on from that page', async () => {
    const ws = newWorkspace((input, attempt) => {
      if (input.after === 'cursor-1' && attempt === 1) throw new Error('provider timed out');
      return paged(2)(input, attempt);
    });
    expect(await sync(ws, 1)).toEqual({ workspaceId: ws, pages: 2, upserted: 2 });
    expect(callsFor(ws)).toEqual([
      { after: undefined, pageSize: 1 },
      { after: 'cursor-1', pageSize: 1 },
      { after: 'cursor-1', pageSize: 1 },
    ]);
  }, 20_000);
});

describe('templateSyncAll (stub activities)', () => {
  it('syncs every listed workspace one after another; one failing does not stop the others', async () => {
    const a = newWorkspace(paged(3));
    const b = newWorkspace(rejecting(TemplateSyncFailureType.ProviderRejected));
    const c = newWorkspace(paged(1));
    workspaces = [a, b, c];
    const workflowId = `template-sync-all-${randomBytes(6).toString('hex')}`;
    const result = (await worker.client.workflow.execute(TEMPLATE_SYNC_ALL_WORKFLOW_TYPE, {
      taskQueue: worker.taskQueue,
      workflowId,
      args: [],
    })) as TemplateSyncAllResult;
    expect(result).toEqual({ workspaces: 3 });
    expect(callsFor(a)).toEqual([{ after: undefined, pageSize: 100 }]);
    expect(callsFor(b)).toHaveLength(1);
    expect(callsFor(c)).toEqual([{ after: undefined, pageSize: 100 }]);
    // Sequential: a's page came before b's, b's before c's.
    const order = calls.map((x) => x.workspaceId).filter((w) => [a, b, c].includes(w));
    expect(order).toEqual([a, b, c]);
    await maybeRecordHistory(worker.client, 'template-sync-all', workflowId);
  });
});
