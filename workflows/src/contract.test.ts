import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as contract from './contract';

/**
 * The contract rule: `@mos/workflows/contract` is what HTTP processes import, so no contract
 * file may reach activity code, the database, configuration or the Temporal client. Each
 * imports nothing but `@temporalio/common` (the root contract.ts re-exports the features').
 */
const SRC = fileURLToPath(new URL('.', import.meta.url));

function contractFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? contractFiles(join(dir, e.name)) : e.name === 'contract.ts' ? [join(dir, e.name)] : [],
  );
}

/** Every module specifier a file imports or re-exports from (static, dynamic and `require`). */
function specifiers(source: string): string[] {
  const found = [...source.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)['"]([^'"]+)['"]/g)].map((m) => m[1]!);
  return [...new Set(found)];
}

describe('the workflow contract', () => {
  const files = contractFiles(SRC)
    .map((f) => relative(SRC, f))
    .sort();

  it('has one contract per feature and the root one', () => {
    expect(files).toEqual([
      'broadcasts/contract.ts',
      'contract.ts',
      'journeys/contract.ts',
      'retention/contract.ts',
      'send-governor/contract.ts',
      'template-sync/contract.ts',
      'webhook-processing/contract.ts',
    ]);
  });

  it.each(files)('%s imports nothing but @temporalio/common (and the feature contracts, from the root)', (file) => {
    const allowed =
      file === 'contract.ts' ? ['@temporalio/common', ...files.filter((f) => f !== file).map((f) => `./${f.replace(/\.ts$/, '')}`)] : ['@temporalio/common'];
    for (const spec of specifiers(readFileSync(join(SRC, file), 'utf8'))) expect(allowed, `${file} imports ${spec}`).toContain(spec);
  });

  it('names what the API and the relay start', () => {
    expect(contract).toMatchObject({
      WEBHOOK_WORKFLOW_TYPE: 'processWebhookEvent',
      TEMPLATE_SYNC_WORKFLOW_TYPE: 'templateSync',
      TEMPLATE_SYNC_ALL_WORKFLOW_TYPE: 'templateSyncAll',
      RETENTION_PURGE: 'retentionPurge',
      RETENTION_SWEEP: 'retentionSweep',
      SEND_GOVERNOR_WORKFLOW_TYPE: 'sendGovernor',
      BROADCAST_WORKFLOW_TYPE: 'runBroadcast',
    });
    expect(contract.sendGovernorWorkflowId('ws_1', '1065')).toBe('send-governor-ws_1-1065');
    expect(contract.broadcastWorkflowId('brd_1')).toBe('broadcast-brd_1');
    expect(contract.webhookWorkflowId('evt_1')).toBe('webhook-evt_1');
    expect(contract.templateSyncWorkflowId('ws_1')).toBe('template-sync-ws_1');
    expect(Object.values(contract.TemplateSyncFailureType)).toEqual(['WorkspaceNotFound', 'ProviderRejected']);
  });
});
