import { describe, expect, it } from 'vitest';
import { signProviderBody, verifyProviderSignature } from './signature';

const secret = 'whsec-test';
const body = Buffer.from('{"object":"messaging_business_account","entry":[]}');

describe('verifyProviderSignature', () => {
  it('accepts the HMAC of the exact bytes, in either hex case', () => {
    const header = signProviderBody(secret, body);
    expect(header).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(verifyProviderSignature({ rawBody: body, header, secret })).toEqual({ ok: true });
    expect(verifyProviderSignature({ rawBody: body, header: `sha256=${header.slice(7).toUpperCase()}`, secret })).toEqual({ ok: true });
  });

  it('rejects a signature over re-serialized JSON (same data, different bytes)', () => {
    const pretty = Buffer.from(JSON.stringify(JSON.parse(body.toString()), null, 2));
    const header = signProviderBody(secret, pretty);
    expect(verifyProviderSignature({ rawBody: body, header, secret })).toEqual({ ok: false, error: 'mismatch' });
  });

  it('names why it failed: no secret, missing, malformed, mismatch', () => {
    const good = signProviderBody(secret, body);
    expect(verifyProviderSignature({ rawBody: body, header: good, secret: undefined })).toEqual({ ok: false, error: 'no_secret' });
    expect(verifyProviderSignature({ rawBody: body, header: good, secret: '' })).toEqual({ ok: false, error: 'no_secret' });
    expect(verifyProviderSignature({ rawBody: body, header: undefined, secret })).toEqual({ ok: false, error: 'missing' });
    expect(verifyProviderSignature({ rawBody: body, header: '  ', secret })).toEqual({ ok: false, error: 'missing' });
    for (const header of ['sha1=abc', good.slice(7), `sha256=${good.slice(8)}`, `${good}00`, `sha256=${'z'.repeat(64)}`]) {
      expect(verifyProviderSignature({ rawBody: body, header, secret })).toEqual({ ok: false, error: 'malformed' });
    }
    expect(verifyProviderSignature({ rawBody: body, header: signProviderBody('other', body), secret })).toEqual({ ok: false, error: 'mismatch' });
    expect(verifyProviderSignature({ rawBody: Buffer.concat([body, Buffer.from(' ')]), header: good, secret })).toEqual({ ok: false, error: 'mismatch' });
  });
});
