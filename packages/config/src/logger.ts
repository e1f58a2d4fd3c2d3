import { pino, type Logger } from 'pino';
import { captureFile } from './testing/leak-capture';

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
  // Credentials at the top level (log.warn({ token })) and one level down.
  ...['password', 'passwordHash', 'token', 'sessionToken', 'secret', 'apiKey', 'accessToken'].flatMap((k) => [k, `*.${k}`]),
  '*.key',
  '*.value',
  '*.body',
  '*.text',
  // Personal data: who a customer is and what they wrote, at the top level or one level down.
  ...['phoneNumber', 'providerUserId', 'userId', 'waId', 'username', 'profileName', 'content', 'caption'].flatMap((k) => [k, `*.${k}`]),
];

const firstLine = (text: string) => text.split('\n')[0]!.slice(0, 200);

/**
 * What a log line may say about a failure: the innermost error's (the driver's) first line and
 * code. A query wrapper's message carries the failed SQL and its parameters (bodies, phone
 * numbers, template values) and a driver error's `detail` quotes row values: neither is kept.
 */
export function describeError(err: unknown): { code?: string; message: string } {
  let e: unknown = err;
  while (e instanceof Error && e.cause instanceof Error) e = e.cause;
  const code = (e as { code?: unknown })?.code;
  return { ...(typeof code === 'string' ? { code } : {}), message: e instanceof Error ? firstLine(e.message) : firstLine(String(err)) };
}

/**
 * pino's `err` serializer, so every `log.x({ err }, ...)` is safe by construction: the error's
 * type, describeError's summary, and the stack frames without the message lines (a query
 * wrapper's stack starts with its message, parameters included).
 */
export function serializeError(err: unknown): Record<string, unknown> {
  if (!(err instanceof Error)) return describeError(err);
  const frames = (err.stack ?? '')
    .split('\n')
    .filter((line) => line.trimStart().startsWith('at '))
    .slice(0, 20);
  return { type: err.name, ...describeError(err), ...(frames.length ? { stack: frames.join('\n') } : {}) };
}

export const LOG_SERIALIZERS = { err: serializeError };

export function createLogger(options: { name: string; level?: string }): Logger {
  const level = options.level ?? process.env.LOG_LEVEL ?? 'info';
  const settings = {
    name: options.name,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    serializers: LOG_SERIALIZERS,
    base: { service: options.name },
    timestamp: pino.stdTimeFunctions.isoTime,
  };
  const capture = captureFile('logs');
  if (!capture) return pino({ ...settings, level });
  // Test runs (issue 15): every line any level would write also goes to the leak capture, even
  // from a silent test logger; stdout still gets exactly what `level` lets through.
  const streams: pino.StreamEntry[] = [{ level: 'trace', stream: captureDestination(capture) }];
  if (level !== 'silent') streams.push({ level: level as pino.Level, stream: pino.destination(1) });
  return pino({ ...settings, level: 'trace' }, pino.multistream(streams));
}

const captureStreams = new Map<string, pino.DestinationStream>();
/** One synchronous appender per capture file, shared by every logger of the process. */
function captureDestination(file: string): pino.DestinationStream {
  let stream = captureStreams.get(file);
  if (!stream) captureStreams.set(file, (stream = pino.destination({ dest: file, append: true, sync: true })));
  return stream;
}
