import Stripe from 'stripe';
import { Webhook } from 'standardwebhooks';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hexString, hostileString, hostileValue, utf16String } from '../testing/hostile-input';
import {
  INBOUND_SIGNATURE_TOLERANCE_SECONDS,
  inboundSigningKey,
  parseInboundSignature,
  signInboundBody,
  signInboundBodyStandard,
  standardWebhooksSecret,
  verifyInboundSignature,
  type InboundSignatureHeaders,
} from './signature';

/**
 * Both inbound signature schemes, as laws: what the key signs verifies (also when Stripe's and
 * the Standard Webhooks libraries sign it), any other body, key or digest does not, the clock
 * window is exactly 300 s both ways, and no header value makes either step throw.
 */

const T = 1_750_000_000;
const NOW = T * 1000;
const secretArb = fc.string({ minLength: 1, maxLength: 40 });
const bodyArb = fc.uint8Array({ minLength: 1, maxLength: 256 }).map((b) => Buffer.from(b));
const idArb = fc.stringMatching(/^[\x21-\x7e]{1,40}$/);

/** Parse then verify, as the route does. */
function outcome(h: InboundSignatureHeaders, body: Buffer, key: string, nowMs = NOW): 'ok' | string {
  const parsed = parseInboundSignature(h, nowMs);
  if (!parsed.ok) return parsed.error;
  return verifyInboundSignature(parsed.signature, body, key) ? 'ok' : 'mismatch';
}

const v1 = (key: string, t: number, body: Buffer): InboundSignatureHeaders => ({ serviceSignature: signInboundBody(key, t, body) });
const standard = (key: string, id: string, t: number, body: Buffer): InboundSignatureHeaders => ({
  webhookId: id,
  webhookTimestamp: String(t),
  webhookSignature: signInboundBodyStandard(key, id, t, body),
});

describe('what the key signs verifies', () => {
  it('both schemes, any body, any timestamp within 300 s either way', () => {
    fc.assert(
      fc.property(secretArb, bodyArb, idArb, fc.integer({ min: -300, max: 300 }), (secret, body, id, skew) => {
        const key = inboundSigningKey(secret);
        expect(outcome(v1(key, T + skew, body), body, key)).toBe('ok');
        expect(outcome(standard(key, id, T + skew, body), body, key)).toBe('ok');
      }),
      { numRuns: 200 },
    );
  });

  it("Stripe's and the Standard Webhooks libraries' own signers produce headers that verify", () => {
    fc.assert(
      fc.property(secretArb, fc.string({ minLength: 1, maxLength: 200 }), idArb, (secret, payload, id) => {
        const key = inboundSigningKey(secret);
        const body = Buffer.from(payload, 'utf8');
        const stripeHeader = Stripe.webhooks.generateTestHeaderString({ payload, secret: key, timestamp: T });
        expect(outcome({ serviceSignature: stripeHeader }, body, key)).toBe('ok');
        const swHeader = new Webhook(standardWebhooksSecret(key)).sign(id, new Date(NOW), payload);
        expect(outcome({ webhookId: id, webhookTimestamp: String(T), webhookSignature: swHeader }, body, key)).toBe('ok');
      }),
      { numRuns: 100 },
    );
  });
});

describe('nothing else verifies', () => {
  it('any single-byte change of the body is a mismatch, in both schemes', () => {
    fc.assert(
      fc.property(secretArb, bodyArb, idArb, fc.nat(), fc.integer({ min: 1, max: 255 }), (secret, body, id, at, delta) => {
        const key = inboundSigningKey(secret);
        const changed = Buffer.from(body);
        const i = at % changed.length;
        changed[i] = (changed[i]! + delta) % 256;
        expect(outcome(v1(key, T, body), changed, key)).toBe('mismatch');
        expect(outcome(standard(key, id, T, body), changed, key)).toBe('mismatch');
      }),
      { numRuns: 200 },
    );
  });

  it('any single-character change of a hex digest fails: mismatch, or malformed when it is no longer hex', () => {
    fc.assert(
      fc.property(secretArb, bodyArb, fc.integer({ min: 0, max: 63 }), utf16String({ minLength: 1, maxLength: 1 }), (secret, body, at, c) => {
        const key = inboundSigningKey(secret);
        const header = signInboundBody(key, T, body);
        const digest = header.slice(header.indexOf('v1=') + 3);
        fc.pre(c.toLowerCase() !== digest[at]);
        const changed = `t=${T},v1=${digest.slice(0, at)}${c}${digest.slice(at + 1)}`;
        // `,` splits the entry in two: the digest is then short (malformed) whatever follows.
        expect(outcome({ serviceSignature: changed }, body, key)).toBe(/^[0-9a-fA-F]$/.test(c) ? 'mismatch' : 'malformed');
      }),
      { numRuns: 200 },
    );
  });

  it('any single-character change of a base64 digest fails unless it decodes to the same 32 bytes', () => {
    const b64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
    fc.assert(
      fc.property(
        secretArb,
        bodyArb,
        idArb,
        fc.integer({ min: 0, max: 42 }),
        fc.oneof(fc.constantFrom(...b64), utf16String({ minLength: 1, maxLength: 1 })),
        (secret, body, id, at, c) => {
          const key = inboundSigningKey(secret);
          const good = standard(key, id, T, body);
          const digest = good.webhookSignature!.slice(3);
          fc.pre(c !== digest[at]);
          const changedDigest = `${digest.slice(0, at)}${c}${digest.slice(at + 1)}`;
          const result = outcome({ ...good, webhookSignature: `v1,${changedDigest}` }, body, key);
          if (!b64.includes(c)) expect(result).toBe('malformed');
          // The last character carries two padding bits that decoding drops: such a change names the same digest.
          else expect(result).toBe(Buffer.from(changedDigest, 'base64').equals(Buffer.from(digest, 'base64')) ? 'ok' : 'mismatch');
        },
      ),
      { numRuns: 200 },
    );
  });

  it('another key never verifies, and a key that is not a SHA-256 hex digest verifies nothing', () => {
    fc.assert(
      fc.property(secretArb, secretArb, bodyArb, idArb, fc.oneof(hostileString(), hexString(63, 65)), (a, b, body, id, badKey) => {
        fc.pre(a !== b);
        const key = inboundSigningKey(a);
        const other = inboundSigningKey(b);
        expect(outcome(v1(key, T, body), body, other)).toBe('mismatch');
        expect(outcome(standard(key, id, T, body), body, other)).toBe('mismatch');
        fc.pre(!/^[0-9a-f]{64}$/.test(badKey));
        // Signed with the bad key itself: still refused, since such a key can only be a misconfiguration.
        expect(outcome(v1(badKey, T, body), body, badKey)).toBe('mismatch');
        expect(outcome(standard(badKey, id, T, body), body, badKey)).toBe('mismatch');
      }),
      { numRuns: 200 },
    );
  });

  it('the clock window is 300 s inclusive, both ways, in both schemes', () => {
    const key = inboundSigningKey('clock');
    const body = Buffer.from('{}');
    fc.assert(
      fc.property(fc.integer({ min: -100_000, max: 100_000 }), fc.integer({ min: 0, max: 999 }), idArb, (skew, ms, id) => {
        const fresh = Math.abs(skew) <= INBOUND_SIGNATURE_TOLERANCE_SECONDS;
        const expected = fresh ? 'ok' : 'stale';
        expect(outcome(v1(key, T + skew, body), body, key, NOW + ms)).toBe(expected);
        expect(outcome(standard(key, id, T + skew, body), body, key, NOW + ms)).toBe(expected);
      }),
      { numRuns: 300 },
    );
  });
});

describe('parsing and verifying are total', () => {
  it('any header values (any UTF-16, lone surrogates, 200,000 characters): a typed refusal or a bounded signature list', () => {
    const header = fc.oneof(
      hostileString(),
      fc.constant(undefined),
      hexString(60, 66).map((h) => `t=${T},v1=${h}`),
    );
    fc.assert(
      fc.property(header, header, header, header, (serviceSignature, webhookId, webhookTimestamp, webhookSignature) => {
        const parsed = parseInboundSignature({ serviceSignature, webhookId, webhookTimestamp, webhookSignature }, NOW);
        if (parsed.ok) {
          expect(parsed.signature.signatures.length).toBeGreaterThanOrEqual(1);
          expect(parsed.signature.signatures.length).toBeLessThanOrEqual(8);
          for (const s of parsed.signature.signatures) expect(s.length).toBe(32);
          expect(typeof verifyInboundSignature(parsed.signature, Buffer.from('x'), inboundSigningKey('k'))).toBe('boolean');
        } else {
          expect(['missing', 'malformed', 'stale']).toContain(parsed.error);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('any value where headers, a parsed signature, a body or a key belong: no throw', () => {
    fc.assert(
      fc.property(hostileValue(), hostileValue(), hostileValue(), (h, body, key) => {
        const parsed = parseInboundSignature(h as InboundSignatureHeaders, key as number);
        expect(typeof parsed.ok).toBe('boolean');
        expect(verifyInboundSignature(h as never, body as Buffer, key as string)).toBe(false);
      }),
      { numRuns: 300 },
    );
  });
});
