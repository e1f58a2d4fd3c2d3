import { appendFileSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLogger } from '../logger';
import { recordResponse, registerRequestCredentials, registerSensitive, LEAK_CAPTURE_DIR_ENV } from './leak-capture';
import type { SensitiveKind } from './leak-policy';
import { formatFindings, scanCaptured } from './leak-scan';

/** A capture folder written by hand, record by record, with the clock each record claims. */
function plantedCapture() {
  const dir = mkdtempSync(join(tmpdir(), 'leak-scan-test-'));
  let clock = 1000n;
  const tick = () => String((clock += 10n));
  const write = (stream: string, proc: string, record: object) => appendFileSync(join(dir, `${stream}-${proc}.ndjson`), `${JSON.stringify(record)}\n`);
  return {
    dir,
    register: (value: string, kind: SensitiveKind, proc = 'p1') => write('sensitive', proc, { proc, at: tick(), kind, value }),
    log: (line: object, proc = 'p1') => write('logs', proc, line),
    respond: (r: { status?: number; body?: string; headers?: Record<string, string>; audience?: 'viewer' }, proc = 'p1') =>
      write('responses', proc, {
        proc,
        at: tick(),
        method: 'GET',
        url: 'http://127.0.0.1:1/x',
        status: r.status ?? 200,
        headers: r.headers ?? {},
        body: r.body ?? '',
        ...(r.audience ? { audience: r.audience } : {}),
      }),
  };
}

const API_KEY = 'mos_live_k3y-4bcdefghijklmnop';
const SIGNING = 'whsec-signing-secret-xyz';
const PHONE = '+16505551234';

describe('scanCaptured', () => {
  let c: ReturnType<typeof plantedCapture>;
  beforeEach(() => (c = plantedCapture()));
  afterEach(() => rmSync(c.dir, { recursive: true, force: true }));

  it('finds a planted secret in a log line and never prints it', () => {
    c.register(SIGNING, 'webhook-signing-secret');
    c.log({ level: 30, msg: 'ok' });
    c.log({ level: 40, msg: `bad signature for ${SIGNING}` });
    const { findings, scanned } = scanCaptured(c.dir);
    expect(scanned).toEqual({ values: 1, logLines: 2, responses: 0 });
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ line: 2, kind: 'webhook-signing-secret', reason: 'in a log line' });
    expect(findings[0]!.file).toMatch(/logs-p1\.ndjson$/);
    const printed = formatFindings(findings);
    expect(printed).toContain('«webhook-signing-secret: 24 chars»');
    expect(printed).not.toContain(SIGNING);
  });

  it('finds the JSON-escaped, URL-encoded and plus-less spellings of a value', () => {
    const quoted = 'pass"word\\with-quotes';
    c.register(quoted, 'password');
    c.register('a secret/with spaces&more', 'partner-secret');
    c.register(PHONE, 'phone-number');
    c.log({ msg: `login ${quoted}` });
    c.log({ url: `/legacy?secret=${encodeURIComponent('a secret/with spaces&more')}` });
    c.log({ from: PHONE.slice(1) });
    expect(scanCaptured(c.dir).findings.map((f) => [f.line, f.kind])).toEqual([
      [1, 'password'],
      [2, 'partner-secret'],
      [3, 'phone-number'],
    ]);
  });

  it('skips values shorter than 8 characters', () => {
    c.register('hi', 'message-body');
    c.register('1234567', 'password');
    c.log({ msg: 'hi 1234567' });
    expect(scanCaptured(c.dir)).toMatchObject({ findings: [], scanned: { values: 0 } });
  });

  it('refuses a configured secret in any response, even the first', () => {
    c.respond({ body: `{"secret":"${SIGNING}"}` });
    c.register(SIGNING, 'vault-secret');
    expect(scanCaptured(c.dir).findings.map((f) => f.reason)).toEqual(['a configured secret in a response (GET /x -> 200)']);
  });

  it('allows an issued secret in the one response that issued it, nowhere after', () => {
    c.respond({ status: 201, body: `{"key":"${API_KEY}"}` });
    c.register(API_KEY, 'api-key');
    c.respond({ body: '{"keys":[{"prefix":"mos_live_k3y"}]}' });
    expect(scanCaptured(c.dir).findings).toEqual([]);
    c.respond({ status: 401, body: `{"error":"unknown key ${API_KEY}"}` });
    expect(scanCaptured(c.dir).findings.map((f) => [f.line, f.reason])).toEqual([[3, 'a secret echoed back after the test held it (GET /x -> 401)']]);
  });

  it('refuses an issued secret in a second response, even before the test registered it', () => {
    c.respond({ headers: { 'set-cookie': `mos_session=${API_KEY}; HttpOnly` } });
    c.respond({ body: `{"token":"${API_KEY}"}` });
    c.register(API_KEY, 'session-token');
    expect(scanCaptured(c.dir).findings.map((f) => [f.line, f.reason])).toEqual([[2, 'an issued secret in a second response (GET /x -> 200)']]);
  });

  it('judges an issued secret per process: another process registering it does not make it an echo', () => {
    c.register(API_KEY, 'api-key', 'p2');
    c.respond({ status: 201, body: API_KEY }, 'p1');
    expect(scanCaptured(c.dir).findings).toEqual([]);
  });

  it('lets personal data through to an authorized caller, not into an error or a viewer response', () => {
    c.register(PHONE, 'phone-number');
    c.register('Does it come in another color?', 'message-body');
    c.respond({ body: `{"phoneNumber":"${PHONE}","text":"Does it come in another color?"}` });
    c.respond({ status: 422, body: `{"error":"invalid","message":"${PHONE} opted out"}` });
    c.respond({ audience: 'viewer', body: '{"text":"Does it come in another color?"}' });
    c.respond({ audience: 'viewer', body: '{"phoneNumber":"+16*******234","text":"[redacted]"}' });
    expect(scanCaptured(c.dir).findings.map((f) => [f.line, f.kind, f.reason])).toEqual([
      [2, 'phone-number', 'personal data in an error response (GET /x -> 422)'],
      [3, 'message-body', "personal data in a viewer's response (GET /x -> 200)"],
    ]);
  });

  it('refuses erased personal data in a response received after the erasure', () => {
    c.respond({ body: `{"phoneNumber":"${PHONE}"}` });
    c.register(PHONE, 'erased-personal-data');
    c.respond({ body: `{"phoneNumber":"${PHONE}"}` });
    expect(scanCaptured(c.dir).findings.map((f) => f.line)).toEqual([2]);
  });

  it('reports nothing for a missing folder or a half-written record', () => {
    expect(scanCaptured(join(c.dir, 'none')).findings).toEqual([]);
    appendFileSync(join(c.dir, 'responses-p1.ndjson'), '{"proc":"p1","at":"12');
    expect(scanCaptured(c.dir).findings).toEqual([]);
  });
});

describe('capture', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'leak-capture-test-'));
    vi.stubEnv(LEAK_CAPTURE_DIR_ENV, dir);
    vi.stubEnv('MOS_ENV', 'test');
  });
  afterEach(() => {
    vi.unstubAllEnvs();
    rmSync(dir, { recursive: true, force: true });
  });
  const read = (stream: string) =>
    readdirSync(dir)
      .filter((f) => f.startsWith(`${stream}-`))
      .map((f) => readFileSync(join(dir, f), 'utf8'))
      .join('');

  it('records every line a silent logger would write, redacted as in production, and nothing on stdout', () => {
    const stdout = vi.spyOn(process.stdout, 'write');
    const log = createLogger({ name: 'capture-test', level: 'silent' });
    log.debug({ workspaceId: 'ws_1', phoneNumber: PHONE }, 'debug line');
    log.child({ jobId: 'job_1' }).error({ provider: { secret: SIGNING } }, 'child line');
    const lines = read('logs')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toMatchObject([
      { msg: 'debug line', workspaceId: 'ws_1', phoneNumber: '[redacted]' },
      { msg: 'child line', jobId: 'job_1', provider: { secret: '[redacted]' } },
    ]);
    expect(stdout).not.toHaveBeenCalled();
    stdout.mockRestore();
  });

  it('registers a value once, and the credentials a request carries', () => {
    registerSensitive(SIGNING, 'vault-secret');
    registerSensitive(SIGNING, 'vault-secret');
    registerSensitive('', 'password');
    const deep = JSON.stringify({ a: Array.from({ length: 1 }).reduce<unknown>((v) => v, { apiKey: API_KEY }) });
    registerRequestCredentials(
      `http://127.0.0.1:1/p?secret=partner-secret-1&x=1`,
      { authorization: 'Bearer sess-token-abc', cookie: 'a=b; mos_session=cookie-token-1' },
      deep,
    );
    registerRequestCredentials('http://127.0.0.1:1/p', {}, '['.repeat(50_000) + ']'.repeat(50_000));
    const values = read('sensitive')
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { kind: string; value: string }).value);
    expect(values.sort()).toEqual([API_KEY, SIGNING, 'cookie-token-1', 'partner-secret-1', 'sess-token-abc'].sort());
  });

  it('records a response with its headers and body text', () => {
    recordResponse({ method: 'POST', url: 'http://127.0.0.1:1/v1/keys', status: 201, headers: { 'content-type': 'application/json' }, body: '{"id":"k"}' });
    expect(JSON.parse(read('responses'))).toMatchObject({ method: 'POST', status: 201, headers: { 'content-type': 'application/json' }, body: '{"id":"k"}' });
  });
});
