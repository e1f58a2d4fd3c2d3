import { randomBytes } from 'node:crypto';
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { SensitiveKind } from './leak-policy';

/**
 * The test run's leak capture (issue 15): every log line, every response the shared test
 * clients receive and every sensitive value tests create, appended to files under the folder
 * MOS_LEAK_CAPTURE_DIR names (infra/lib/leak-capture-setup.ts sets it for the whole run).
 * Unset, or outside MOS_ENV=test, every function here does nothing.
 */
export const LEAK_CAPTURE_DIR_ENV = 'MOS_LEAK_CAPTURE_DIR';

export type CaptureStream = 'logs' | 'responses' | 'sensitive';

/**
 * One name per process for its files, so parallel forks never interleave; the random part
 * keeps a reused pid from mixing two processes. Held on globalThis: two copies of this module
 * in one process (vitest's module graph and a native one) must share it.
 */
const PROC_KEY = Symbol.for('mos.leakCapture.proc');
function processName(): string {
  const g = globalThis as { [PROC_KEY]?: string };
  return (g[PROC_KEY] ??= `${process.pid}-${randomBytes(4).toString('hex')}`);
}

export function captureDir(): string | undefined {
  const dir = process.env[LEAK_CAPTURE_DIR_ENV];
  return dir && process.env.MOS_ENV === 'test' ? dir : undefined;
}

const madeDirs = new Set<string>();

/** This process's file of `stream` (undefined: capture is off). */
export function captureFile(stream: CaptureStream): string | undefined {
  const dir = captureDir();
  if (!dir) return undefined;
  if (!madeDirs.has(dir)) mkdirSync(dir, { recursive: true });
  madeDirs.add(dir);
  return join(dir, `${stream}-${processName()}.ndjson`);
}

/** A monotonic time in ns: orders a registration against a response within one process. */
export const captureNow = (): string => process.hrtime.bigint().toString();

function append(stream: CaptureStream, record: Record<string, unknown>): void {
  const file = captureFile(stream);
  // Synchronous: a fixture worker killed by SIGKILL must not lose what it already wrote.
  if (file) appendFileSync(file, `${JSON.stringify({ proc: processName(), at: captureNow(), ...record })}\n`);
}

const registered = new Set<string>();

/**
 * Declares `value` sensitive for the end-of-run scan (infra/lib/leak-capture-setup.ts): where it
 * may appear is decided by `kind` (leak-policy.ts). Safe to call often with the same value.
 */
export function registerSensitive(value: string | null | undefined, kind: SensitiveKind): void {
  if (!value || !captureDir()) return;
  const key = `${kind}\u0000${value}`;
  if (registered.has(key)) return;
  registered.add(key);
  append('sensitive', { kind, value });
}

export interface CapturedResponse {
  method: string;
  url: string;
  status: number;
  headers: Record<string, string>;
  body: string;
  /** 'viewer': the request authenticated as a viewer (registerViewerCredential). */
  audience?: 'viewer';
}

export function recordResponse(response: CapturedResponse): void {
  if (captureDir()) append('responses', { ...response });
}

const VIEWERS_KEY = Symbol.for('mos.leakCapture.viewers');
const viewerCredentials = (): Set<string> => ((globalThis as { [VIEWERS_KEY]?: Set<string> })[VIEWERS_KEY] ??= new Set());

/** A credential of a viewer: responses to requests carrying it must show no personal data (docs/security.md, Roles). */
export function registerViewerCredential(token: string): void {
  viewerCredentials().add(token);
}

/** Whether these request headers authenticate as a registered viewer. */
export function isViewerRequest(headers: Record<string, string> | undefined): boolean {
  const viewers = viewerCredentials();
  if (!viewers.size) return false;
  return Object.entries(headers ?? {}).some(([name, value]) => {
    const lower = name.toLowerCase();
    if (lower === 'authorization') return viewers.has(value.replace(/^Bearer\s+/i, ''));
    if (lower === 'x-api-key') return viewers.has(value);
    return lower === 'cookie' && value.split(';').some((part) => viewers.has(part.split('=').slice(1).join('=').trim()));
  });
}

/**
 * Request fields whose values are credentials by what they are called: a test that sends one
 * has declared it a secret, wherever the value came from. Matched on the whole key name.
 */
const CREDENTIAL_FIELD = /^(password|newPassword|currentPassword|secret|appSecret|signingSecret|accessToken|verifyToken|apiKey|serviceToken|token)$/i;

/** The control plane's session cookie (@mos/app's SESSION_COOKIE; config cannot import app). */
const SESSION_COOKIE = 'mos_session';

const cookieValue = (header: string, name: string): string | undefined =>
  header
    .split(';')
    .map((part) => part.trim().split('='))
    .find(([k]) => k === name)
    ?.slice(1)
    .join('=');

/**
 * Registers the credentials a test request carries: auth headers, the session cookie, and
 * credential-named query parameters and JSON body fields. Never throws and never recurses: a
 * hostile test's body may be nested thousands deep.
 */
export function registerRequestCredentials(url: string, headers: Record<string, string> | undefined, body: unknown): void {
  if (!captureDir()) return;
  for (const [name, value] of Object.entries(headers ?? {})) {
    const lower = name.toLowerCase();
    if (lower === 'authorization') registerSensitive(value.replace(/^(Bearer|Basic)\s+/i, ''), 'credential');
    else if (lower === 'x-api-key') registerSensitive(value, 'api-key');
    else if (lower === 'cookie') registerSensitive(cookieValue(value, SESSION_COOKIE), 'session-token');
  }
  try {
    for (const [name, value] of new URL(url).searchParams)
      if (CREDENTIAL_FIELD.test(name) || name === 'hub.verify_token') registerSensitive(value, 'credential');
  } catch {
    /* not a URL fetch would take either */
  }
  if (typeof body !== 'string') return;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return;
  }
  const pending: [unknown, string | undefined][] = [[parsed, undefined]];
  for (let item = pending.pop(); item; item = pending.pop()) {
    const [v, key] = item;
    if (typeof v === 'string' && key && CREDENTIAL_FIELD.test(key)) registerSensitive(v, 'credential');
    else if (Array.isArray(v)) for (const child of v) pending.push([child, key]);
    else if (v && typeof v === 'object') for (const [k, child] of Object.entries(v)) pending.push([child, k]);
  }
}
