import { pino, type Logger } from 'pino';

export type { Logger };

/**
 * Structured JSON logs. Secrets, tokens, phone numbers and message bodies are redacted by
 * path so a stray log call cannot leak them.
 */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'req.headers["x-hub-signature-256"]',
  'req.headers["x-service-signature"]',
  'res.headers["set-cookie"]',
  '*.password',
  '*.passwordHash',
  '*.token',
  '*.sessionToken',
  '*.secret',
  '*.key',
  '*.value',
  '*.body',
  '*.text',
  // Personal data: who a customer is and what they wrote, at the top level or one level down.
  ...['phoneNumber', 'providerUserId', 'userId', 'waId', 'username', 'profileName', 'content', 'caption'].flatMap((k) => [k, `*.${k}`]),
];

export function createLogger(options: { name: string; level?: string }): Logger {
  return pino({
    name: options.name,
    level: options.level ?? process.env.LOG_LEVEL ?? 'info',
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    base: { service: options.name },
    timestamp: pino.stdTimeFunctions.isoTime,
  });
}
