import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleWorkflowCode } from '@temporalio/worker';
import { WORKFLOWS_PATH } from '@mos/workflows';
import type { Env } from '@mos/config';

/**
 * Workflow code reaches the worker in one of two ways. Development and tests bundle the
 * TypeScript sources at start (`workflowsPath`: edits take effect on restart). Production
 * loads a bundle built once per release (`pnpm build:workflows`), as Temporal's production
 * sample does: no webpack run at start, and every replica runs byte-identical workflow code,
 * which is what replay determinism needs.
 */
export const DEFAULT_WORKFLOW_BUNDLE = fileURLToPath(new URL('../dist/workflow-bundle.js', import.meta.url));

export type WorkflowSource = { workflowBundle: { codePath: string } } | { workflowsPath: string };

export function workflowSourceFor(env: Pick<Env, 'MOS_ENV' | 'MOS_WORKFLOW_BUNDLE'>): WorkflowSource {
  const codePath = resolve(env.MOS_WORKFLOW_BUNDLE ?? DEFAULT_WORKFLOW_BUNDLE);
  if (env.MOS_ENV !== 'production') {
    return env.MOS_WORKFLOW_BUNDLE ? { workflowBundle: { codePath } } : { workflowsPath: WORKFLOWS_PATH };
  }
  if (!existsSync(codePath)) {
    throw new Error(`the workflow bundle ${codePath} does not exist: run \`pnpm build:workflows\` as part of the release (or set MOS_WORKFLOW_BUNDLE)`);
  }
  return { workflowBundle: { codePath } };
}

/** Builds the bundle and writes it to `outPath`; returns its size in bytes. */
export async function buildWorkflowBundle(outPath: string = DEFAULT_WORKFLOW_BUNDLE): Promise<number> {
  const { code } = await bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH });
  mkdirSync(dirname(outPath), { recursive: true });
  writeFileSync(outPath, code);
  return Buffer.byteLength(code);
}
