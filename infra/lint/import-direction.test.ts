import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

// Lints virtual files at real paths with the repository's eslint.config.mjs, so each case
// proves the import-direction rules as `pnpm lint` applies them.
const root = fileURLToPath(new URL('../../', import.meta.url));
const RULES = new Set(['no-restricted-imports', 'no-restricted-syntax', 'mos/no-relative-climb']);
let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: root });
});

/** The import-direction errors for `import { x } from '<source>'` written in `file`. */
async function importErrors(file: string, source: string, kind: 'value' | 'type' | 'dynamic' = 'value'): Promise<string[]> {
  const code = {
    type: `import type { X } from '${source}';\nexport type Y = X;\n`,
    value: `import { x } from '${source}';\nexport const y = x;\n`,
    dynamic: `export const y = await import('${source}');\n`,
  }[kind];
  const [result] = await eslint.lintText(code, { filePath: `${root}${file}` });
  const fatal = result!.messages.filter((m) => m.fatal || m.ruleId === null);
  expect(fatal, `${file} was not linted`).toEqual([]);
  return result!.messages.filter((m) => m.ruleId && RULES.has(m.ruleId)).map((m) => `${m.ruleId}: ${m.message}`);
}

const refused = async (file: string, source: string, rule = 'no-restricted-imports', kind?: 'value' | 'type' | 'dynamic') => {
  const errors = await importErrors(file, source, kind);
  expect(errors, `${file} importing ${source}`).toHaveLength(1);
  expect(errors[0]).toMatch(new RegExp(`^${rule}: `));
  return errors[0]!;
};
const allowed = async (file: string, source: string, kind?: 'value' | 'type' | 'dynamic') => {
  expect(await importErrors(file, source, kind), `${file} importing ${source}`).toEqual([]);
};

describe('import direction (eslint.config.mjs)', () => {
  it('core and config import no other @mos package', async () => {
    expect(await refused('packages/core/src/probe.ts', '@mos/db')).toContain('core is pure domain logic');
    await refused('packages/config/src/probe.ts', '@mos/core');
  });

  it('db and provider import only core; db tests may use @mos/db/testing', async () => {
    await allowed('packages/db/src/probe.ts', '@mos/core');
    await refused('packages/db/src/probe.ts', '@mos/config');
    await refused('packages/db/src/probe.ts', '@mos/db/testing');
    await allowed('packages/db/src/probe.test.ts', '@mos/db/testing');
    await refused('packages/provider/src/probe.ts', '@mos/db');
    await refused('packages/provider/src/simulator/probe.ts', '@mos/core/testing');
    await allowed('packages/provider/src/simulator/probe.test.ts', '@mos/core/testing');
  });

  it('app reaches workflows only through @mos/workflows/contract, and no transport', async () => {
    expect(await refused('packages/app/src/templates/probe.ts', '@mos/workflows')).toContain('@mos/workflows/contract');
    await refused('packages/app/src/templates/probe.ts', '@mos/workflows/workflows');
    await allowed('packages/app/src/templates/probe.ts', '@mos/workflows/contract');
    await allowed('packages/app/src/templates/probe.ts', '@mos/db');
    await refused('packages/app/src/templates/probe.ts', '@mos/trpc');
    await refused('packages/app/src/templates/probe.ts', '@mos/db/testing');
    await allowed('packages/app/src/testing/probe.ts', '@mos/db/testing');
  });

  it('workflows never import app', async () => {
    await refused('workflows/src/probe.ts', '@mos/app');
    await allowed('workflows/src/probe.ts', '@mos/provider');
  });

  it('trpc and http sit on app, side by side', async () => {
    await refused('packages/http/src/probe.ts', '@mos/trpc');
    await allowed('packages/http/src/probe.ts', '@mos/app');
    await refused('packages/trpc/src/probe.ts', '@mos/db');
    await allowed('packages/trpc/src/probe.test.ts', '@mos/db/testing');
  });

  it('client takes only types from trpc', async () => {
    await allowed('packages/client/src/probe.ts', '@mos/trpc', 'type');
    await refused('packages/client/src/probe.ts', '@mos/trpc');
    await refused('packages/client/src/probe.ts', '@mos/app', 'no-restricted-imports', 'type');
  });

  it('nothing imports a service, except tests driving one end to end', async () => {
    expect(await refused('services/api/src/probe.ts', '@mos/worker')).toContain('Nothing imports a service');
    await refused('services/control-plane/src/routes/probe.ts', '@mos/api');
    await refused('services/api/src/probe.ts', '@mos/db/testing');
    await allowed('services/api/src/probe.ts', '@mos/workflows/contract');
    await allowed('services/worker/src/probe.test.ts', '@mos/api');
    await allowed('services/control-plane/src/testing/probe.ts', '@mos/worker/testing');
    await refused('packages/http/src/probe.ts', '@mos/api');
  });

  it('only the worker loads workflow code, only the control plane speaks tRPC', async () => {
    expect(await refused('services/api/src/routes/probe.ts', '@mos/workflows')).toContain('Only the worker loads workflow code');
    await refused('services/control-plane/src/probe.ts', '@mos/workflows/workflows');
    await refused('services/cli/src/probe.ts', '@mos/workflows');
    await allowed('services/worker/src/probe.ts', '@mos/workflows');
    expect(await refused('services/api/src/probe.ts', '@mos/trpc')).toContain('Only the control plane');
    await refused('services/worker/src/probe.ts', '@mos/trpc');
    await allowed('services/control-plane/src/probe.ts', '@mos/trpc');
  });

  it('workflow code imports no @mos package (the deterministic sandbox)', async () => {
    expect(await refused('workflows/src/template-sync/workflow.ts', '@mos/db')).toContain('deterministic sandbox');
    await refused('workflows/src/workflows.ts', '@mos/core');
    await allowed('workflows/src/template-sync/activities.ts', '@mos/db');
  });

  it('a dynamic import of an @mos package is refused outside tests', async () => {
    expect(await refused('packages/app/src/probe.ts', '@mos/workflows', 'no-restricted-syntax', 'dynamic')).toContain('statically');
    await allowed('packages/app/src/probe.test.ts', '@mos/db', 'dynamic');
    await allowed('packages/app/src/probe.ts', 'node:fs', 'dynamic');
  });

  it('a relative import may not leave its package, except from infra/', async () => {
    const message = await refused('packages/provider/src/simulator/probe.ts', '../../../core/src/index', 'mos/no-relative-climb');
    expect(message).toContain('leaves its package (packages/provider)');
    await refused('services/worker/src/probe.test.ts', '../../../packages/core/src/index', 'mos/no-relative-climb');
    await refused('packages/app/src/probe.ts', '../../config/src/index', 'mos/no-relative-climb');
    await allowed('packages/provider/src/simulator/probe.ts', '../index');
    await allowed('infra/bench/probe.ts', '../../packages/core/src/index');
  });
});
