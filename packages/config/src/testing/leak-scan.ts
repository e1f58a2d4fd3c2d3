import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isSensitiveKind, kindClass, MIN_SCANNED_LENGTH, type SensitiveKind } from './leak-policy';

/** One place a sensitive value showed up where leak-policy.ts says it must not. */
export interface LeakFinding {
  file: string;
  /** 1-based line of the capture file. */
  line: number;
  kind: SensitiveKind;
  reason: string;
  /** The text around the hit, with every registered value in it masked. */
  excerpt: string;
}

interface Registration {
  kinds: Set<SensitiveKind>;
  /** Per process: when it first registered the value (hrtime ns). */
  registeredAt: Map<string, bigint>;
}

/**
 * The spellings a value can take in captured text: itself, inside a JSON string, in a URL; a
 * phone number also without its plus sign (the provider's wa_id form).
 */
function spellings(value: string, kinds: Set<SensitiveKind>): string[] {
  const out = new Set([value, JSON.stringify(value).slice(1, -1), encodeURIComponent(value)]);
  if (kinds.has('phone-number') || kinds.has('erased-personal-data')) {
    const digits = value.replace(/^\+/, '');
    if (/^\d+$/.test(digits)) out.add(digits);
  }
  return [...out].filter((s) => s.length >= MIN_SCANNED_LENGTH);
}

/**
 * Finds every registered value in a line: spellings indexed by their first MIN_SCANNED_LENGTH
 * characters, so a line costs one map lookup per character however many values there are.
 */
class Matcher {
  private readonly byPrefix = new Map<string, { spelling: string; value: string }[]>();

  constructor(values: Map<string, Registration>) {
    for (const [value, reg] of values)
      for (const spelling of spellings(value, reg.kinds)) {
        const prefix = spelling.slice(0, MIN_SCANNED_LENGTH);
        const list = this.byPrefix.get(prefix) ?? [];
        list.push({ spelling, value });
        this.byPrefix.set(prefix, list);
      }
  }

  /** Each registered value the text contains, with the spelling found. */
  find(text: string): { value: string; spelling: string }[] {
    const hits = new Map<string, { value: string; spelling: string }>();
    for (let i = 0; i + MIN_SCANNED_LENGTH <= text.length; i++) {
      const candidates = this.byPrefix.get(text.slice(i, i + MIN_SCANNED_LENGTH));
      if (!candidates) continue;
      for (const c of candidates) if (!hits.has(c.value) && text.startsWith(c.spelling, i)) hits.set(c.value, c);
    }
    return [...hits.values()];
  }
}

const readLines = (file: string): string[] => readFileSync(file, 'utf8').split('\n').slice(0, -1);
/** A record line, or undefined for one a killed process left half written. */
function parseRecord<T>(line: string): T | undefined {
  try {
    return JSON.parse(line) as T;
  } catch {
    return undefined;
  }
}
const filesOf = (dir: string, stream: string) =>
  readdirSync(dir)
    .filter((f) => f.startsWith(`${stream}-`) && f.endsWith('.ndjson'))
    .sort();
const procOf = (file: string) => file.replace(/^[a-z]+-/, '').replace(/\.ndjson$/, '');

function loadRegistry(dir: string): Map<string, Registration> {
  const values = new Map<string, Registration>();
  for (const file of filesOf(dir, 'sensitive'))
    for (const line of readLines(join(dir, file))) {
      const r = parseRecord<{ proc: string; at: string; kind: string; value: string }>(line);
      if (!r || !isSensitiveKind(r.kind) || r.value.length < MIN_SCANNED_LENGTH) continue;
      const reg = values.get(r.value) ?? { kinds: new Set(), registeredAt: new Map() };
      reg.kinds.add(r.kind);
      const at = BigInt(r.at);
      const prev = reg.registeredAt.get(r.proc);
      if (prev === undefined || at < prev) reg.registeredAt.set(r.proc, at);
      values.set(r.value, reg);
    }
  return values;
}

/** The text around the first hit, every registered value in it (all of them, not only the hit) replaced by its kind and length. */
function mask(text: string, matcher: Matcher, values: Map<string, Registration>, width = 160): string {
  let masked = text;
  const found = matcher.find(text).flatMap(({ value }) => spellings(value, values.get(value)!.kinds).map((spelling) => ({ value, spelling })));
  for (const { value, spelling } of found.sort((a, b) => b.spelling.length - a.spelling.length))
    masked = masked.split(spelling).join(`«${[...values.get(value)!.kinds].join('/')}: ${value.length} chars»`);
  const start = Math.max(0, masked.indexOf('«') - width / 2);
  return (start > 0 ? '…' : '') + masked.slice(start, start + width) + (start + width < masked.length ? '…' : '');
}

/**
 * Scans a capture folder (leak-capture.ts wrote it) against the registered values and the
 * policy of leak-policy.ts. Returns every violation; none means the run leaked nothing it knew of.
 */
export function scanCaptured(dir: string): { findings: LeakFinding[]; scanned: { values: number; logLines: number; responses: number } } {
  const findings: LeakFinding[] = [];
  const scanned = { values: 0, logLines: 0, responses: 0 };
  if (!existsSync(dir)) return { findings, scanned };
  const values = loadRegistry(dir);
  scanned.values = values.size;
  const matcher = new Matcher(values);
  const report = (file: string, line: number, kind: SensitiveKind, reason: string, text: string) =>
    findings.push({ file: join(dir, file), line, kind, reason, excerpt: mask(text, matcher, values) });

  for (const file of filesOf(dir, 'logs'))
    readLines(join(dir, file)).forEach((text, i) => {
      scanned.logLines++;
      for (const hit of matcher.find(text)) {
        const kind = [...values.get(hit.value)!.kinds][0]!;
        report(file, i + 1, kind, 'in a log line', text);
      }
    });

  for (const file of filesOf(dir, 'responses')) {
    const proc = procOf(file);
    const issuedSeen = new Set<string>();
    readLines(join(dir, file)).forEach((text, i) => {
      scanned.responses++;
      const r = parseRecord<{ at: string; method: string; url: string; status: number; headers: Record<string, string>; body: string; audience?: string }>(
        text,
      );
      if (!r) return;
      const at = BigInt(r.at);
      const where = `${r.method} ${new URL(r.url).pathname} -> ${r.status}`;
      const parts = [...Object.entries(r.headers).map(([k, v]) => `${k}: ${v}`), r.body];
      const found = new Map<string, string>();
      for (const part of parts) for (const hit of matcher.find(part)) if (!found.has(hit.value)) found.set(hit.value, part);
      // A value the request's own path carries is the caller's input named back (a 404's path), not a leak.
      const path = new URL(r.url).pathname;
      for (const [value, part] of found) {
        if (path.includes(value) || path.includes(encodeURIComponent(value))) continue;
        const reg = values.get(value)!;
        const registeredHere = reg.registeredAt.get(proc);
        const known = registeredHere !== undefined && registeredHere <= at;
        for (const kind of reg.kinds) {
          const cls = kindClass(kind);
          let reason: string | undefined;
          if (cls === 'configured') reason = `a configured secret in a response (${where})`;
          else if (cls === 'issued' && known) reason = `a secret echoed back after the test held it (${where})`;
          else if (cls === 'issued' && issuedSeen.has(value)) reason = `an issued secret in a second response (${where})`;
          else if (cls === 'personal' && r.status >= 400) reason = `personal data in an error response (${where})`;
          else if (cls === 'personal' && r.audience === 'viewer') reason = `personal data in a viewer's response (${where})`;
          else if (cls === 'erased' && known) reason = `erased personal data in a response after the erasure (${where})`;
          if (reason) report(file, i + 1, kind, reason, part);
        }
        if ([...reg.kinds].some((k) => kindClass(k) === 'issued')) issuedSeen.add(value);
      }
    });
  }
  return { findings, scanned };
}

export function formatFindings(findings: LeakFinding[], limit = 50): string {
  const lines = findings.slice(0, limit).map((f) => `  ${f.file}:${f.line} ${f.kind} ${f.reason}\n    ${f.excerpt}`);
  if (findings.length > limit) lines.push(`  … and ${findings.length - limit} more`);
  return lines.join('\n');
}
