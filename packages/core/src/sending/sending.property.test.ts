import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostileString, hostileValue } from '../testing/hostile-input';
import { mediaContentSchema, OUTBOUND_STATUSES, providerSendBody, templateRefSchema, textContentSchema, type OutboundStatus } from './outbound';
import { classifyProviderFailure, PAIR_RATE_ERROR, WINDOW_CLOSED_ERROR } from './provider-outcome';
import { STATUS_RANK, statusMove, type ProviderReportedStatus } from './status';

/**
 * The send path reads two kinds of outside input: what a caller asks to send (the content
 * schemas) and what the provider answers (error codes, statuses). Any provider answer gives one
 * of the governor's outcomes with a usable delay; statuses only ever move a message forward.
 */

const KINDS = ['throttled', 'pair_limited', 'window_closed', 'rejected', 'transient', 'unknown'];
const anyNumber = fc.oneof(fc.integer(), fc.double(), fc.constantFrom(NaN, -0, Infinity, -Infinity, 130429, 131056, 131047, 190, 4, 500, 429, 408));

describe('classifyProviderFailure', () => {
  it('any provider answer: one outcome, a finite delay within a minute (or the pair spacing), and the provider words kept', () => {
    const failure = fc.record(
      {
        status: fc.oneof(fc.constant(null), fc.integer({ min: 100, max: 599 }), anyNumber),
        outcomeUnknown: fc.boolean(),
        code: anyNumber,
        title: hostileString(),
        message: hostileString(),
        details: hostileString(),
      },
      { requiredKeys: ['status', 'outcomeUnknown'] },
    );
    fc.assert(
      fc.property(failure, fc.integer({ min: 1, max: 1000 }), fc.integer({ min: 0, max: 120_000 }), (f, attempt, spacing) => {
        const out = classifyProviderFailure(f, attempt, spacing);
        expect(KINDS).toContain(out.kind);
        if ('retryAfterMs' in out) {
          expect(Number.isFinite(out.retryAfterMs)).toBe(true);
          if (out.kind === 'pair_limited') expect(out.retryAfterMs).toBe(spacing);
          else {
            expect(out.retryAfterMs).toBeGreaterThanOrEqual(1000);
            expect(out.retryAfterMs).toBeLessThanOrEqual(60_000);
          }
        }
        if (out.kind === 'pair_limited') expect(f.code).toBe(PAIR_RATE_ERROR);
        if (out.kind === 'window_closed') expect(f.code).toBe(WINDOW_CLOSED_ERROR);
        if (out.kind === 'unknown') expect(f.status === null && f.outcomeUnknown).toBe(true);
        if (out.kind === 'rejected' || out.kind === 'window_closed') {
          expect(out.error.code).toBe(f.code ?? f.status);
          expect(typeof out.error.title).toBe('string');
          expect(out.error.title).toBe(f.title ?? f.message ?? `provider answered ${f.status}`);
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('statusMove', () => {
  const current = fc.record({ status: fc.constantFrom(...OUTBOUND_STATUSES), statusRank: fc.integer({ min: 0, max: 3 }) });
  const reported = fc.constantFrom<ProviderReportedStatus>('sent', 'delivered', 'read', 'failed');

  it('never moves a terminal message, never lowers the rank, and a repeat of the same report changes nothing', () => {
    fc.assert(
      fc.property(current, reported, fc.option(fc.record({ code: fc.oneof(fc.integer(), fc.string()), title: fc.string() })), (cur, rep, error) => {
        const move = statusMove(cur, rep, '2025-01-01T00:00:00.000Z', error ?? undefined);
        if (cur.status === 'failed' || cur.status === 'skipped') expect(move).toBeNull();
        if (move === null) return;
        expect(move.rank).toBeGreaterThanOrEqual(cur.statusRank);
        expect(move.status).toBe(rep);
        if (rep !== 'failed') expect(move.rank).toBe(STATUS_RANK[rep]);
        else expect(cur.statusRank).toBeLessThan(STATUS_RANK.read);
        expect(statusMove({ status: move.status, statusRank: move.rank }, rep, '2025-01-01T00:00:01.000Z', error ?? undefined)).toBeNull();
      }),
      { numRuns: 300 },
    );
  });

  it('any order of reports ends at the highest rank reported, unless a failure came before read', () => {
    fc.assert(
      fc.property(fc.array(reported, { maxLength: 8 }), (reports) => {
        let cur: { status: OutboundStatus; statusRank: number } = { status: 'sending', statusRank: 0 };
        for (const r of reports) {
          const m = statusMove(cur, r, '2025-01-01T00:00:00.000Z');
          if (m) cur = { status: m.status, statusRank: m.rank };
        }
        const ranks = reports.filter((r) => r !== 'failed').map((r) => STATUS_RANK[r as 'sent']);
        const firstFailure = reports.indexOf('failed');
        const ranksBeforeFailure = reports
          .slice(0, firstFailure < 0 ? reports.length : firstFailure)
          .filter((r) => r !== 'failed')
          .map((r) => STATUS_RANK[r as 'sent']);
        if (firstFailure >= 0 && Math.max(0, ...ranksBeforeFailure) < STATUS_RANK.read) expect(cur.status).toBe('failed');
        else expect(cur.statusRank).toBe(Math.max(0, ...ranks));
      }),
      { numRuns: 300 },
    );
  });
});

describe('outbound content', () => {
  it('the content schemas take any value without throwing, and what they accept carries no NUL and fits the provider body', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          hostileValue(),
          fc.record({ body: hostileString(5000) }),
          fc.record({ link: fc.oneof(fc.webUrl(), hostileString()), caption: fc.option(hostileString(), { nil: undefined }) }),
          fc.record({
            name: fc.oneof(fc.stringMatching(/^[a-z0-9_]{1,20}$/), hostileString()),
            language: fc.constantFrom('en', 'en_US', 'pt_BR', 'x', 'english'),
          }),
        ),
        (v) => {
          const text = textContentSchema.safeParse(v);
          const media = mediaContentSchema.safeParse(v);
          const template = templateRefSchema.safeParse(v);
          const to = '+15551234567';
          if (text.success) {
            expect(text.data.body).not.toContain('\u0000');
            expect(providerSendBody('msg_1', to, { kind: 'text', text: text.data }).text).toEqual({ preview_url: false, body: text.data.body });
          }
          if (media.success) {
            expect(media.data.link).toMatch(/^https?:\/\//i);
            expect(providerSendBody('msg_1', to, { kind: 'image', media: media.data }).to).toBe('15551234567');
          }
          if (template.success) {
            expect(template.data.name).toMatch(/^[a-z0-9_]{1,512}$/);
            const body = providerSendBody('msg_1', to, { kind: 'template', template: template.data });
            expect(body.template).toMatchObject({ name: template.data.name, language: { code: template.data.language } });
          }
        },
      ),
      { numRuns: 100 },
    );
  });
});
