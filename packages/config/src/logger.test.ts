import { Writable } from 'node:stream';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { REDACT_PATHS } from './logger';

function capture(): { log: pino.Logger; lines: () => string } {
  let out = '';
  const sink = new Writable({
    write(chunk, _enc, done) {
      out += String(chunk);
      done();
    },
  });
  return { log: pino({ redact: { paths: REDACT_PATHS, censor: '[redacted]' } }, sink), lines: () => out };
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
