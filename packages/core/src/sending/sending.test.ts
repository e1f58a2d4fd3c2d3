import { describe, expect, it } from 'vitest';
import { classifyProviderFailure, providerSendBody, statusMove, transientBackoffMs } from './index';

describe('statusMove: forward only', () => {
  const at = '2026-11-20T12:00:00.000Z';
  it('moves sent < delivered < read and never back', () => {
    expect(statusMove({ status: 'queued', statusRank: 0 }, 'sent', at)).toMatchObject({ status: 'sent', rank: 1 });
    expect(statusMove({ status: 'sent', statusRank: 1 }, 'read', at)).toMatchObject({ status: 'read', rank: 3, entry: { status: 'read', at } });
    expect(statusMove({ status: 'read', statusRank: 3 }, 'delivered', at)).toBeNull();
    expect(statusMove({ status: 'delivered', statusRank: 2 }, 'delivered', at)).toBeNull();
  });
  it('failed wins before read, never after; terminal states stay', () => {
    const error = { code: 131026, title: 'Message undeliverable' };
    expect(statusMove({ status: 'sent', statusRank: 1 }, 'failed', at, error)).toEqual({
      status: 'failed',
      rank: 1,
      entry: { status: 'failed', at, code: 131026 },
      error,
    });
    expect(statusMove({ status: 'read', statusRank: 3 }, 'failed', at, error)).toBeNull();
    expect(statusMove({ status: 'failed', statusRank: 1 }, 'delivered', at)).toBeNull();
    expect(statusMove({ status: 'skipped', statusRank: 0 }, 'sent', at)).toBeNull();
  });
});

describe('classifyProviderFailure: by the provider code', () => {
  const f = (status: number | null, code?: number, outcomeUnknown = false) => classifyProviderFailure({ status, code, outcomeUnknown, title: 't' }, 1, 6000);
  it('throughput and pair limits back off and retry', () => {
    expect(f(400, 130429)).toEqual({ kind: 'throttled', retryAfterMs: 1000, code: 130429 });
    expect(f(400, 131056)).toEqual({ kind: 'pair_limited', retryAfterMs: 6000 });
  });
  it('131047 closes the window; template and request errors fail the message with the details', () => {
    expect(f(400, 131047).kind).toBe('window_closed');
    expect(f(400, 132000)).toEqual({ kind: 'rejected', error: { code: 132000, title: 't' } });
    expect(f(400, 132001).kind).toBe('rejected');
    expect(f(400, 100).kind).toBe('rejected');
  });
  it('5xx and a refused connection retry; a timeout is an unknown outcome', () => {
    expect(f(500, 1)).toEqual({ kind: 'transient', retryAfterMs: 1000 });
    expect(f(503)).toEqual({ kind: 'transient', retryAfterMs: 1000 });
    expect(f(null, undefined, false).kind).toBe('transient');
    expect(f(null, undefined, true)).toEqual({ kind: 'unknown' });
  });
  it('token problems keep the message queued with a long back-off', () => {
    expect(f(401, 190)).toEqual({ kind: 'transient', retryAfterMs: 30_000 });
  });
  it('back-off doubles to a minute', () => {
    expect([1, 2, 3, 7, 20].map(transientBackoffMs)).toEqual([1000, 2000, 4000, 60_000, 60_000]);
  });
});

describe('providerSendBody', () => {
  it('carries our id as callback data and the number without +', () => {
    expect(providerSendBody('msg_1', '+15551234567', { kind: 'text', text: { body: 'hi' } })).toEqual({
      to: '15551234567',
      type: 'text',
      biz_opaque_callback_data: 'msg_1',
      text: { preview_url: false, body: 'hi' },
    });
  });
  it('builds template components from parameters', () => {
    const body = providerSendBody('msg_2', '+15551234567', {
      kind: 'template',
      template: { name: 'order_update', language: 'en_US', parameters: { body: ['Ana', 'A-1'], header: { type: 'image', link: 'https://x/y.png' } } },
    });
    expect(body.template).toEqual({
      name: 'order_update',
      language: { code: 'en_US' },
      components: [
        { type: 'header', parameters: [{ type: 'image', image: { link: 'https://x/y.png' } }] },
        {
          type: 'body',
          parameters: [
            { type: 'text', text: 'Ana' },
            { type: 'text', text: 'A-1' },
          ],
        },
      ],
    });
  });
  it('media keep caption and filename', () => {
    expect(providerSendBody('msg_3', '+15551234567', { kind: 'document', media: { link: 'https://x/a.pdf', filename: 'a.pdf' } })).toMatchObject({
      type: 'document',
      document: { link: 'https://x/a.pdf', filename: 'a.pdf' },
    });
  });
});
