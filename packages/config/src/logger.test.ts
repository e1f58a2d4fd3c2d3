import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { LOG_SERIALIZERS, REDACT_PATHS } from './logger';

function capture(): { log: pino.Logger; lines: () => string } {
  let out = '';
  const sink = new Writable({
    write(chunk, _enc, done) {
      out += String(chunk);
      done();
    },
  });
  return { log: pino({ redact: { paths: REDACT_PATHS, censor: '[redacted]' }, serializers: LOG_SERIALIZERS }, sink), lines: () => out };
}

describe('log redaction', () => {
  it('hides customer identity and content at the top level and one level down', () => {
    const { log, lines } = capture();
    log.info({ phoneNumber: '+16505551234', providerUserId: 'user.937', username: '@sheena', contactId: 'ctr_1' }, 'top');
    log.info(
      {
        contact: { waId: '16505551234', userId: 'user.937', profileName: 'Sheena Nelson' },
        message: { content: { kind: 'text', body: 'hi' }, caption: 'pic' },
      },
      'nested',
    );
    const text = lines();
    for (const secret of ['+16505551234', 'user.937', '@sheena', '16505551234', 'Sheena Nelson', '"hi"', 'pic']) expect(text).not.toContain(secret);
    expect(text).toContain('ctr_1');
  });
});

describe('credential redaction', () => {
  it('hides credentials at the top level and one level down', () => {
    const { log, lines } = capture();
    log.warn({ secret: 'sek-top-1', token: 'tok-top-2', password: 'pw-top-3', apiKey: 'key-top-4', accessToken: 'at-top-5' }, 'top');
    log.warn({ auth: { secret: 'sek-nested-6', sessionToken: 'st-nested-7', passwordHash: 'ph-nested-8' } }, 'nested');
    const text = lines();
    for (const v of ['sek-top-1', 'tok-top-2', 'pw-top-3', 'key-top-4', 'at-top-5', 'sek-nested-6', 'st-nested-7', 'ph-nested-8'])
      expect(text).not.toContain(v);
    expect(text.match(/\[redacted\]/g)?.length).toBe(8);
  });
});

describe('logged errors', () => {
  it('keep the driver error and the stack frames, never a failed query or its parameters or row values', () => {
    const { log, lines } = capture();
    // The shape drizzle's DrizzleQueryError and pg's DatabaseError have.
    const driver = Object.assign(new Error('duplicate key value violates unique constraint "contacts_phone_uq"'), {
      code: '23505',
      detail: 'Key (workspace_id, phone_number)=(ws_1, +16505551234) already exists.',
    });
    const wrapper = Object.assign(new Error('Failed query: insert into "contacts" values ($1, $2)\nparams: ws_1,+16505551234,Sheena'), {
      query: 'insert into "contacts" values ($1, $2)',
      params: ['ws_1', '+16505551234', 'Sheena'],
      cause: driver,
    });
    log.error({ err: wrapper }, 'store failed');
    log.warn({ err: 'plain text\nsecond line +16505551234' }, 'odd');
    const text = lines();
    for (const leak of ['+16505551234', 'Sheena', 'insert into', 'params']) expect(text).not.toContain(leak);
    const first = JSON.parse(text.split('\n')[0]!);
    expect(first.err).toMatchObject({ type: 'Error', code: '23505', message: 'duplicate key value violates unique constraint "contacts_phone_uq"' });
    expect(first.err.stack).toMatch(/^\s*at /);
  });
});
