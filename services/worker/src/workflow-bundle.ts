import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
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

/**
 * A digest of the workflow package's sources (tests excluded), written beside the bundle at
 * build and compared at start: a bundle left over from another release is refused instead
 * of silently running old workflow code. Every source under workflows/src is hashed with its
 * path, activities and contracts included (a superset: a stale verdict only costs a rebuild).
 */
export function workflowSourceDigest(root: string = dirname(WORKFLOWS_PATH)): string {
  const hash = createHash('sha256');
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) hash.update(relative(root, path)).update(readFileSync(path));
    }
  };
  walk(root);
  return hash.digest('hex');
}

const digestPathOf = (codePath: string) => `${codePath}.sources`;

export type WorkflowSource = { workflowBundle: { codePath: string } } | { workflowsPath: string };

export function workflowSourceFor(env: Pick<Env, 'MOS_ENV' | 'MOS_WORKFLOW_BUNDLE'>): WorkflowSource {
  const codePath = resolve(env.MOS_WORKFLOW_BUNDLE ?? DEFAULT_WORKFLOW_BUNDLE);
  if (env.MOS_ENV !== 'production') {
    return env.MOS_WORKFLOW_BUNDLE ? { workflowBundle: { codePath } } : { workflowsPath: WORKFLOWS_PATH };
  }
  if (!existsSync(codePath)) {
    throw new Error(`the workflow bundle ${codePath} does not exist: run \`pnpm build:workflows\` as part of the release (or set MOS_WORKFLOW_BUNDLE)`);
  }
  const built = existsSync(digestPathOf(codePath)) ? readFileSync(digestPathOf(codePath), 'utf8').trim() : null;
  if (built !== workflowSourceDigest()) {
    throw new Error(`the workflow bundle ${codePath} was built from other workflow sources: run \`pnpm build:workflows\` for this release`);
  }
  return { workflowBundle: { codePath } };
}

/** Builds the bundle and writes it to `outPath`; returns its size in bytes. */
export async function buildWorkflowBundle(outPath: string = DEFAULT_WORKFLOW_BUNDLE): Promise<number> {
  const { code } = await bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH });
  mkdirSync(dirname(outPath), { recursive: true });
  writeFileSync(outPath, code);
  writeFileSync(digestPathOf(outPath), `${workflowSourceDigest()}\n`);
  return Buffer.byteLength(code);
}
