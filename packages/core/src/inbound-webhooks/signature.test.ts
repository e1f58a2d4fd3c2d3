import Stripe from 'stripe';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../hashing';
import {
  inboundSigningKey,
  parseInboundSignature,
  signInboundBody,
  signInboundBodyStandard,
  standardWebhooksSecret,
  verifyInboundSignature,
  type InboundSignatureHeaders,
} from './signature';

const secret = 'iwhs_one-time-secret-shown-once';
const key = inboundSigningKey(secret);
const otherKey = inboundSigningKey('another secret');
const rawText = '{"customer": {"phone": "+44 20 7946 0958"},  "order": 42}';
const raw = Buffer.from(rawText);
const T = 1_750_000_000;
const NOW = T * 1000;

/** Parse then verify, as the route does: the outcome the sender sees. */
function check(h: InboundSignatureHeaders, body: Buffer = raw, signingKey = key, nowMs = NOW): 'ok' | string {
  const parsed = parseInboundSignature(h, nowMs);
  if (!parsed.ok) return parsed.error;
  return verifyInboundSignature(parsed.signature, body, signingKey) ? 'ok' : 'mismatch';
}

const hmacHex = (k: string, t: number, body: string) => signInboundBody(k, t, body).split('v1=')[1]!;

describe('signing key', () => {
  it('is the lowercase hex SHA-256 of the secret, and the Standard Webhooks secret wraps its ASCII bytes', () => {
    expect(key).toBe(sha256Hex(secret));
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    const sw = standardWebhooksSecret(key);
    expect(sw.startsWith('whsec_')).toBe(true);
    expect(Buffer.from(sw.slice(6), 'base64').toString('ascii')).toBe(key);
  });
});

describe('X-Service-Signature', () => {
  it('accepts our own signature over the exact bytes', () => {
    const header = signInboundBody(key, T, raw);
    expect(header).toMatch(/^t=1750000000,v1=[0-9a-f]{64}$/);
    expect(check({ serviceSignature: header })).toBe('ok');
    const parsed = parseInboundSignature({ serviceSignature: header }, NOW);
    expect(parsed).toMatchObject({ ok: true, signature: { scheme: 'v1', timestamp: T } });
  });

  it('accepts upper-case hex, spaces around entries and unknown schemes', () => {
    const hex = hmacHex(key, T, rawText);
    expect(check({ serviceSignature: ` t=${T} , v1=${hex.toUpperCase()} ` })).toBe('ok');
    expect(check({ serviceSignature: `v0=abc,t=${T},v1=${hex},v2=zzz` })).toBe('ok');
  });

  it('accepts several v1 entries when any one is valid (key rotation), whatever its position', () => {
    const good = hmacHex(key, T, rawText);
    const bad1 = hmacHex(otherKey, T, rawText);
    const bad2 = 'a'.repeat(64);
    expect(check({ serviceSignature: `t=${T},v1=${bad1},v1=${good},v1=${bad2}` })).toBe('ok');
    expect(check({ serviceSignature: `t=${T},v1=${good},v1=${bad1}` })).toBe('ok');
    expect(check({ serviceSignature: `t=${T},v1=${bad1},v1=${bad2}` })).toBe('mismatch');
    const eight = Array.from({ length: 7 }, () => `v1=${bad2}`).join(',');
    expect(check({ serviceSignature: `t=${T},${eight},v1=${good}` })).toBe('ok');
  });

  it('accepts timestamps exactly 300 s in the past or future and refuses 301 s either way', () => {
    for (const offset of [-300, 300, 0]) expect(check({ serviceSignature: signInboundBody(key, T + offset, raw) })).toBe('ok');
    for (const offset of [-301, 301]) expect(check({ serviceSignature: signInboundBody(key, T + offset, raw) })).toBe('stale');
    // Whole seconds, as Stripe counts: 300.999 s later is still 300 s.
    expect(check({ serviceSignature: signInboundBody(key, T, raw) }, raw, key, NOW + 300_999)).toBe('ok');
    expect(check({ serviceSignature: signInboundBody(key, T, raw) }, raw, key, NOW + 301_000)).toBe('stale');
  });

  it('refuses a wrong key, a changed body and re-serialized JSON', () => {
    const header = signInboundBody(key, T, raw);
    expect(check({ serviceSignature: header }, raw, otherKey)).toBe('mismatch');
    expect(check({ serviceSignature: signInboundBody(sha256Hex(secret).toUpperCase(), T, raw) })).toBe('mismatch');
    const reserialized = Buffer.from(JSON.stringify(JSON.parse(rawText)));
    expect(reserialized.equals(raw)).toBe(false);
    expect(check({ serviceSignature: header }, reserialized)).toBe('mismatch');
    expect(check({ serviceSignature: signInboundBody(key, T, reserialized) })).toBe('mismatch');
    expect(check({ serviceSignature: header }, Buffer.concat([raw, Buffer.from('\n')]))).toBe('mismatch');
    // The key is the hex string, not the secret and not the digest's bytes.
    expect(check({ serviceSignature: signInboundBody(secret, T, raw) })).toBe('mismatch');
  });

  it('signs raw bytes without decoding them', () => {
    const binary = Buffer.from([0xff, 0xfe, 0x00, 0x41, 0xc3]);
    const header = signInboundBody(key, T, binary);
    expect(check({ serviceSignature: header }, binary)).toBe('ok');
    expect(check({ serviceSignature: header }, Buffer.from(binary.toString('utf8')))).toBe('mismatch');
  });

  it('says missing when no signature header is present (or it is blank)', () => {
    expect(check({})).toBe('missing');
    expect(check({ serviceSignature: '   ' })).toBe('missing');
    expect(check({ serviceSignature: undefined, webhookId: 'msg_1', webhookTimestamp: String(T) })).toBe('missing');
  });

  it('says malformed for headers of the wrong shape', () => {
    const hex = hmacHex(key, T, rawText);
    const cases = [
      `v1=${hex}`, // no t
      `t=${T},t=${T},v1=${hex}`, // two t
      `t=abc,v1=${hex}`, // non-numeric t
      `t=${T}.5,v1=${hex}`,
      `t=-${T},v1=${hex}`,
      `t=,v1=${hex}`,
      `t=${T},v1=${hex.slice(0, 62)}`, // short hex
      `t=${T},v1=${hex}00`,
      `t=${T},v1=${'g'.repeat(64)}`,
      `t=${T}`, // no v1
      `t=${T},v0=${hex}`, // only an unknown scheme
      `t=${T},${Array.from({ length: 9 }, () => `v1=${hex}`).join(',')}`, // 9 v1 entries
      'garbage',
      `t=${T},v1=${hex},=x`,
      `t=${T},v1=${hex},noequals`,
      `t=${T},v1=${hex},${'v0=a,'.repeat(1000)}`, // over 4096 characters
    ];
    for (const serviceSignature of cases) expect([serviceSignature, check({ serviceSignature })]).toEqual([serviceSignature, 'malformed']);
  });

  it('checks the shape before the clock: a malformed stale header is malformed', () => {
    expect(check({ serviceSignature: `t=${T - 10_000}` })).toBe('malformed');
  });

  it('verifies nothing with a key that is not a hex SHA-256 (a misconfiguration)', () => {
    const header = signInboundBody('', T, raw);
    const parsed = parseInboundSignature({ serviceSignature: header }, NOW);
    expect(parsed.ok).toBe(true);
    if (parsed.ok) expect(verifyInboundSignature(parsed.signature, raw, '')).toBe(false);
  });
});

describe('Stripe signer (independent implementation)', () => {
  it('produces headers our verifier accepts when given the hex signing key as its secret', () => {
    const header = Stripe.webhooks.generateTestHeaderString({ payload: rawText, secret: key, timestamp: T });
    expect(header).toMatch(/^t=1750000000,v1=[0-9a-f]{64}$/);
    expect(check({ serviceSignature: header })).toBe('ok');
    expect(check({ serviceSignature: header }, raw, otherKey)).toBe('mismatch');
    const wrong = Stripe.webhooks.generateTestHeaderString({ payload: rawText, secret: otherKey, timestamp: T });
    expect(check({ serviceSignature: wrong })).toBe('mismatch');
  });

  it('accepts our signature in its own verifier', () => {
    const header = signInboundBody(key, T, raw);
    expect(Stripe.webhooks.signature!.verifyHeader(rawText, header, key, 300, undefined, NOW)).toBe(true);
    expect(() => Stripe.webhooks.signature!.verifyHeader(rawText, header, otherKey, 300, undefined, NOW)).toThrow();
  });
});

describe('Standard Webhooks', () => {
  const id = 'msg_2KWPBgLlAfxdpx2AI54pPJ85f4W';
  const standard = (h: Partial<InboundSignatureHeaders> = {}): InboundSignatureHeaders => ({
    webhookId: id,
    webhookTimestamp: String(T),
    webhookSignature: signInboundBodyStandard(key, id, T, raw),
    ...h,
  });

  it('accepts a valid signature, and ours matches the reference library byte for byte', () => {
    expect(check(standard())).toBe('ok');
    const parsed = parseInboundSignature(standard(), NOW);
    expect(parsed).toMatchObject({ ok: true, signature: { scheme: 'standard', id, timestamp: T } });
    const reference = new Webhook(standardWebhooksSecret(key)).sign(id, new Date(NOW), rawText);
    expect(signInboundBodyStandard(key, id, T, raw)).toBe(reference);
  });

  it('accepts what the standardwebhooks library signs, and the library accepts ours', () => {
    const now = new Date();
    const nowSeconds = Math.floor(now.getTime() / 1000);
    const wh = new Webhook(standardWebhooksSecret(key));
    const signature = wh.sign(id, now, rawText);
    expect(check({ webhookId: id, webhookTimestamp: String(nowSeconds), webhookSignature: signature }, raw, key, now.getTime())).toBe('ok');
    expect(check({ webhookId: id, webhookTimestamp: String(nowSeconds), webhookSignature: signature }, raw, otherKey, now.getTime())).toBe('mismatch');
    const ours = signInboundBodyStandard(key, id, nowSeconds, raw);
    expect(wh.verify(rawText, { 'webhook-id': id, 'webhook-timestamp': String(nowSeconds), 'webhook-signature': ours })).toEqual(JSON.parse(rawText));
  });

  it('accepts one valid entry among several and ignores other versions', () => {
    const good = signInboundBodyStandard(key, id, T, raw);
    const bad = signInboundBodyStandard(otherKey, id, T, raw);
    expect(check(standard({ webhookSignature: `${bad} v1a,${'A'.repeat(86)} ${good}` }))).toBe('ok');
    expect(check(standard({ webhookSignature: `${bad}  v1a,xyz` }))).toBe('mismatch');
  });

  it('refuses a wrong id, a wrong timestamp, a wrong key', () => {
    expect(check(standard({ webhookId: 'msg_other' }))).toBe('mismatch');
    expect(check(standard({ webhookTimestamp: String(T + 1) }))).toBe('mismatch');
    expect(check(standard(), raw, otherKey)).toBe('mismatch');
  });

  it('refuses a stale timestamp either way, inclusive at 300 s', () => {
    const at = (t: number) => standard({ webhookTimestamp: String(t), webhookSignature: signInboundBodyStandard(key, id, t, raw) });
    expect(check(at(T - 300))).toBe('ok');
    expect(check(at(T + 300))).toBe('ok');
    expect(check(at(T - 301))).toBe('stale');
    expect(check(at(T + 301))).toBe('stale');
  });

  it('says malformed for missing companions and bad entries', () => {
    const good = signInboundBodyStandard(key, id, T, raw);
    expect(check(standard({ webhookId: undefined }))).toBe('malformed');
    expect(check(standard({ webhookTimestamp: undefined }))).toBe('malformed');
    expect(check(standard({ webhookTimestamp: 'soon' }))).toBe('malformed');
    expect(check(standard({ webhookId: 'x'.repeat(257) }))).toBe('malformed');
    expect(check(standard({ webhookId: 'a\u0001b' }))).toBe('malformed');
    expect(check(standard({ webhookSignature: 'v1a,abc' }))).toBe('malformed'); // no v1 at all
    expect(check(standard({ webhookSignature: 'v1,notbase64!' }))).toBe('malformed');
    expect(check(standard({ webhookSignature: `v1,${Buffer.alloc(16).toString('base64')}` }))).toBe('malformed');
    expect(check(standard({ webhookSignature: good.replace(',', '') }))).toBe('malformed');
    expect(check(standard({ webhookSignature: Array.from({ length: 9 }, () => good).join(' ') }))).toBe('malformed');
  });

  it('prefers X-Service-Signature when both families are sent', () => {
    const bothBadService = { ...standard(), serviceSignature: signInboundBody(otherKey, T, raw) };
    expect(check(bothBadService)).toBe('mismatch');
    expect(check({ ...standard({ webhookSignature: 'junk' }), serviceSignature: signInboundBody(key, T, raw) })).toBe('ok');
  });
});
