import { buildWorkflowBundle, DEFAULT_WORKFLOW_BUNDLE } from './workflow-bundle';

/** `pnpm build:workflows [out.js]`: the release step that writes the production workflow bundle. */
const out = process.argv[2] ?? process.env.MOS_WORKFLOW_BUNDLE ?? DEFAULT_WORKFLOW_BUNDLE;
const bytes = await buildWorkflowBundle(out);
process.stdout.write(`workflow bundle written: ${out} (${Math.round(bytes / 1024)} KiB)\n`);
