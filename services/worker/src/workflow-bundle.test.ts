import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { outboxJobs } from '@mos/db';
import { createTestDatabase } from '@mos/db/testing';
import { composeEffects, WORKFLOWS_PATH } from '@mos/workflows';
import { fixtureBody, seedWorkspace, storeDelivery, temporalAddress, testLog, uniqueTaskQueue, waitFor } from './testing';
import { startWorkerRuntime } from './worker';
import { buildWorkflowBundle, workflowSourceDigest, workflowSourceFor } from './workflow-bundle';

const dir = mkdtempSync(join(tmpdir(), 'mos-bundle-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('workflow code source', () => {
  it('development and tests bundle the sources at start', () => {
    expect(workflowSourceFor({ MOS_ENV: 'development' })).toEqual({ workflowsPath: WORKFLOWS_PATH });
    expect(workflowSourceFor({ MOS_ENV: 'test' })).toEqual({ workflowsPath: WORKFLOWS_PATH });
  });

  it('the source digest covers every non-test source in the feature folders, by path', () => {
    expect(workflowSourceDigest()).toBe(workflowSourceDigest(dirname(WORKFLOWS_PATH)));
    const root = join(dir, 'digest-src');
    mkdirSync(join(root, 'template-sync'), { recursive: true });
    writeFileSync(join(root, 'workflows.ts'), 'export {};\n');
    writeFileSync(join(root, 'template-sync', 'workflow.ts'), 'export const a = 1;\n');
    writeFileSync(join(root, 'template-sync', 'workflow.test.ts'), 'test 1\n');
    const before = workflowSourceDigest(root);
    writeFileSync(join(root, 'template-sync', 'workflow.test.ts'), 'test 2\n');
    expect(workflowSourceDigest(root)).toBe(before);
    writeFileSync(join(root, 'template-sync', 'workflow.ts'), 'export const a = 2;\n');
    const edited = workflowSourceDigest(root);
    expect(edited).not.toBe(before);
    // The same file under another feature is another source.
    mkdirSync(join(root, 'retention'));
    rmSync(join(root, 'template-sync', 'workflow.ts'));
    writeFileSync(join(root, 'retention', 'workflow.ts'), 'export const a = 2;\n');
    expect(workflowSourceDigest(root)).not.toBe(edited);
  });

  it('production refuses to start without a prebuilt bundle, naming the release step', () => {
    expect(() => workflowSourceFor({ MOS_ENV: 'production', MOS_WORKFLOW_BUNDLE: join(dir, 'missing.js') })).toThrow(/pnpm build:workflows/);
  });

  it('production loads the bundle the release step wrote', async () => {
    const out = join(dir, 'workflow-bundle.js');
    const bytes = await buildWorkflowBundle(out);
    expect(bytes).toBeGreaterThan(10_000);
    // The bundle carries every workflow the worker registers.
    const code = readFileSync(out, 'utf8');
    for (const name of ['processWebhookEvent', 'templateSync', 'retentionPurge']) expect(code).toContain(name);
    const source = workflowSourceFor({ MOS_ENV: 'production', MOS_WORKFLOW_BUNDLE: out });
    expect(source).toEqual({ workflowBundle: { codePath: out } });
    // A bundle from other workflow sources (a release that skipped the build step) is refused.
    const sources = `${out}.sources`;
    const digest = readFileSync(sources, 'utf8');
    writeFileSync(sources, 'another-release\n');
    expect(() => workflowSourceFor({ MOS_ENV: 'production', MOS_WORKFLOW_BUNDLE: out })).toThrow(/other workflow sources/);
    writeFileSync(sources, digest);

    // A worker on that file runs a delivery through the webhook workflow.
    const tdb = await createTestDatabase();
    const runtime = await startWorkerRuntime({
      db: tdb.db,
      databaseUrl: tdb.url,
      log: testLog,
      effects: composeEffects(),
      temporal: { address: temporalAddress(), namespace: 'default', taskQueue: uniqueTaskQueue('bundle') },
      relay: { pollIntervalMs: 250 },
      heartbeatIntervalMs: 1_000,
      worker: { workflowBundle: { codePath: out } },
    });
    try {
      const ws = await seedWorkspace(tdb.db);
      const { jobId } = await storeDelivery(tdb.db, ws, { body: fixtureBody('inbound-text') });
      const job = await waitFor(
        async () => {
          const [row] = await tdb.db.select().from(outboxJobs).where(eq(outboxJobs.id, jobId));
          return row?.status === 'completed' || row?.status === 'failed' ? row : null;
        },
        { timeoutMs: 30_000, what: 'the job to finish' },
      );
      expect(job.status).toBe('completed');
    } finally {
      await runtime.stop();
      await tdb.drop();
    }
  }, 90_000);
});
