import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatFindings, LEAK_CAPTURE_DIR_ENV, registerSensitive, scanCaptured, type SensitiveKind } from '@mos/config/testing';

/**
 * vitest global setup of the leak scan (issue 15; docs in leak-policy.ts). Before the run: a
 * capture folder for every process of the run (forks and the processes they spawn inherit the
 * env var), and the personal data of the provider fixtures registered, since most suites feed
 * those. After the run: the scan; a finding fails the run with process.exitCode, because vitest
 * only reports a global teardown's exception and still exits 0. MOS_LEAK_SCAN=off skips it all.
 */
const FIXTURES = fileURLToPath(new URL('../../packages/core/src/webhooks/fixtures/', import.meta.url));

/** Keys of a provider body whose values say who a customer is or what they wrote, by parent key ('' any). */
const PERSONAL_FIELDS: { key: string; parent: string; kind: SensitiveKind; pattern?: RegExp }[] = [
  { key: 'wa_id', parent: '', kind: 'phone-number' },
  { key: 'from', parent: '', kind: 'phone-number', pattern: /^\+?\d+$/ },
  { key: 'recipient_id', parent: '', kind: 'phone-number', pattern: /^\+?\d+$/ },
  { key: 'name', parent: 'profile', kind: 'personal-name' },
  { key: 'body', parent: 'text', kind: 'message-body' },
  { key: 'caption', parent: '', kind: 'message-body' },
];

function fixtureFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return fixtureFiles(path);
    return name.endsWith('.json') ? [path] : [];
  });
}

/** The personal values of the provider fixtures; the business's own numbers are operational, never personal. */
export function fixturePersonalData(dir = FIXTURES): { value: string; kind: SensitiveKind }[] {
  const found = new Map<string, SensitiveKind>();
  const business = new Set<string>();
  const walk = (v: unknown, key: string, parent: string): void => {
    if (Array.isArray(v)) v.forEach((item) => walk(item, key, parent));
    else if (v && typeof v === 'object') for (const [k, item] of Object.entries(v)) walk(item, k, key);
    else if (typeof v === 'string') {
      if (key === 'display_phone_number' || key === 'phone_number_id') business.add(v.replace(/^\+/, ''));
      const field = PERSONAL_FIELDS.find((f) => f.key === key && (!f.parent || f.parent === parent) && (!f.pattern || f.pattern.test(v)));
      if (field) found.set(v, field.kind);
    }
  };
  for (const file of fixtureFiles(dir)) walk(JSON.parse(readFileSync(file, 'utf8')), '', '');
  return [...found].filter(([value]) => !business.has(value.replace(/^\+/, ''))).map(([value, kind]) => ({ value, kind }));
}

export default function setup(): (() => void) | undefined {
  if (process.env.MOS_LEAK_SCAN === 'off' || process.env.MOS_ENV !== 'test') return undefined;
  const given = process.env[LEAK_CAPTURE_DIR_ENV];
  const dir = given ?? mkdtempSync(join(tmpdir(), 'mos-leak-capture-'));
  process.env[LEAK_CAPTURE_DIR_ENV] = dir;
  for (const { value, kind } of fixturePersonalData()) registerSensitive(value, kind);
  return () => {
    const { findings, scanned } = scanCaptured(dir);
    const summary = `leak scan: ${scanned.values} sensitive values, ${scanned.logLines} log lines, ${scanned.responses} responses`;
    if (findings.length) {
      console.error(`\n${summary}: ${findings.length} leak(s) (values masked; capture kept in ${dir}):\n${formatFindings(findings)}\n`);
      process.exitCode = 1;
      return;
    }
    console.log(`${summary}: no leaks`);
    if (!given) rmSync(dir, { recursive: true, force: true });
  };
}
