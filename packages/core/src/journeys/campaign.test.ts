import { describe, expect, it } from 'vitest';
import { CAMPAIGN_STATUSES, campaignStatusOf } from './campaign';

describe('campaignStatusOf', () => {
  const started = new Date('2025-06-01T09:00:00Z');

  it('is draft without a broadcast', () => {
    expect(campaignStatusOf(null)).toBe('draft');
  });

  it.each([
    ['scheduled', null, 'scheduled'],
    ['scheduled', started, 'scheduled'],
    ['running', started, 'running'],
    ['completed', started, 'completed'],
    ['failed', null, 'failed'],
    ['cancelled', null, 'cancelled'],
    ['cancelled', started, 'cancelled'],
    // A paused broadcast keeps its campaign where it was.
    ['paused', started, 'running'],
    ['paused', null, 'scheduled'],
    // A status the campaign does not know reads as failed rather than as progress.
    ['draft', null, 'failed'],
    ['', null, 'failed'],
    ['RUNNING', started, 'failed'],
    ['toString', null, 'failed'],
  ])('broadcast %j (startedAt %s) -> %s', (status, startedAt, expected) => {
    expect(campaignStatusOf({ status, startedAt })).toBe(expected);
  });

  it('always returns a campaign status', () => {
    for (const status of ['scheduled', 'paused', 'running', 'completed', 'failed', 'cancelled', 'x']) {
      for (const startedAt of [null, started]) expect(CAMPAIGN_STATUSES).toContain(campaignStatusOf({ status, startedAt }));
    }
  });
});
