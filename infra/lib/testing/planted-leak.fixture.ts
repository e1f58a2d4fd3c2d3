import { createLogger } from '@mos/config';
import { registerSensitive } from '@mos/config/testing';
import { it } from 'vitest';

/**
 * A suite that leaks on purpose, run only by infra/leak-scan-exit.test.ts through
 * planted-leak.vitest.config.ts: a registered secret in a (silent) log line.
 */
it('logs a registered secret', () => {
  const secret = process.env.PLANTED_SECRET!;
  registerSensitive(secret, 'provider-access-token');
  createLogger({ name: 'planted', level: 'silent' }).warn(`calling the provider with ${secret}`);
});
