import { describe, expect, it } from 'vitest';
import { temporalUiRunUrl } from './temporal-ui';

const base = 'http://127.0.0.1:8233';

describe('temporalUiRunUrl', () => {
  it('links to the run history when workflow and run ids are known', () => {
    expect(temporalUiRunUrl({ baseUrl: base, namespace: 'default', workflowId: 'webhook-batch-b1', runId: 'r1' })).toBe(
      'http://127.0.0.1:8233/namespaces/default/workflows/webhook-batch-b1/r1/history',
    );
  });

  it('links to the latest run when only the workflow id is known', () => {
    expect(temporalUiRunUrl({ baseUrl: base, namespace: 'default', workflowId: 'webhook-evt_01', runId: null })).toBe(
      'http://127.0.0.1:8233/namespaces/default/workflows/webhook-evt_01',
    );
    expect(temporalUiRunUrl({ baseUrl: base, namespace: 'default', workflowId: 'webhook-evt_01', runId: '' })).toBe(
      'http://127.0.0.1:8233/namespaces/default/workflows/webhook-evt_01',
    );
  });

  it('encodes namespace, workflow id and run id (spaces, slashes, ?, #, %)', () => {
    expect(temporalUiRunUrl({ baseUrl: base, namespace: 'mos prod', workflowId: 'a/b c?d#e%', runId: 'r/1 x' })).toBe(
      'http://127.0.0.1:8233/namespaces/mos%20prod/workflows/a%2Fb%20c%3Fd%23e%25/r%2F1%20x/history',
    );
    expect(temporalUiRunUrl({ baseUrl: base, namespace: 'n/s', workflowId: 'w/1', runId: null })).toBe(
      'http://127.0.0.1:8233/namespaces/n%2Fs/workflows/w%2F1',
    );
  });

  it('keeps a path prefix on the base and drops trailing slashes', () => {
    expect(temporalUiRunUrl({ baseUrl: 'https://ops.example.com/temporal//', namespace: 'mos', workflowId: 'w', runId: 'r' })).toBe(
      'https://ops.example.com/temporal/namespaces/mos/workflows/w/r/history',
    );
  });

  it('is null without a base URL or without a workflow id', () => {
    for (const baseUrl of [null, undefined, '', '/']) {
      expect(temporalUiRunUrl({ baseUrl, namespace: 'default', workflowId: 'w', runId: 'r' })).toBeNull();
    }
    for (const workflowId of [null, undefined, '']) {
      expect(temporalUiRunUrl({ baseUrl: base, namespace: 'default', workflowId, runId: 'r' })).toBeNull();
    }
  });
});
