import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Worker } from '@temporalio/worker';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { WORKFLOWS_PATH } from './index';

/**
 * Determinism guard: histories recorded from real runs on the Temporal dev server (with
 * MOS_RECORD_HISTORIES=1: the services/worker suites for webhook processing, webhook-processing/workflow.test.ts,
 * retention/workflow.test.ts, template-sync/workflow.test.ts,
 * send-governor/workflow.test.ts, broadcasts/workflow.test.ts, journeys/workflow.test.ts,
 * services/worker/src/journey-kill.test.ts) must replay against today's
 * workflow code. A failure here means a change would break runs that are in flight during a
 * deploy: use `patched()` instead.
 */
const DIR = new URL('./__histories__/', import.meta.url);
const files = readdirSync(DIR)
  .filter((f) => f.endsWith('.json'))
  .sort();

describe('recorded workflow histories replay', () => {
  it('has recorded histories of every workflow: success, failure and a worker restart', () => {
    expect(files).toEqual(
      expect.arrayContaining([
        // processWebhookBatch: a batch of one; a poison webhook handed to its own run; a worker SIGKILLed mid-batch
        'batch-processed-inbound-text.json',
        'batch-with-poison.json',
        'batch-after-worker-kill.json',
        // processWebhookEvent: before batching (runs in flight across the deploy), and a handed-off webhook failing for good
        'processed-inbound-text.json',
        'failed-invalid-json.json',
        'processed-after-worker-restart.json',
        // retentionPurge, retentionSweep
        'retention-purge-batches.json',
        'retention-sweep.json',
        // templateSync (paging; a rejected page), templateSyncAll (one child failing)
        'template-sync-paged.json',
        'template-sync-provider-rejected.json',
        'template-sync-all.json',
        // sendGovernor (idle, woken while lingering); runBroadcast (to completion; paused and resumed)
        'send-governor-idle-wake.json',
        'broadcast-completed.json',
        'broadcast-paused-resumed.json',
        // journeyRun: linear with a wait, a reply branch, a failed run, a worker SIGKILLed mid-wait
        'journey-run-linear.json',
        'journey-run-replied.json',
        'journey-run-failed.json',
        'journey-run-after-worker-kill.json',
      ]),
    );
  });

  it('replays every history without a determinism error', async () => {
    const histories = files.map((f) => ({
      workflowId: f.replace(/\.json$/, ''),
      history: historyFromJSON(JSON.parse(readFileSync(new URL(f, DIR), 'utf8'))),
    }));
    const results = [];
    for await (const result of Worker.runReplayHistories({ workflowsPath: WORKFLOWS_PATH }, histories)) results.push(result);
    expect(results).toHaveLength(files.length);
    for (const r of results) expect(r.error, `${r.workflowId}: ${String(r.error)}`).toBeUndefined();
  }, 60_000);
});
