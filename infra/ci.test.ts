import { readFileSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const root = new URL('../', import.meta.url);

describe('CI entry point', () => {
  it('.ci/run runs the README test command, ./infra/test.sh', () => {
    const run = readFileSync(new URL('.ci/run', root), 'utf8');
    const commands = run.split('\n').filter((l) => l.trim() && !l.trim().startsWith('#'));
    expect(commands.some((l) => /(^|\s)(exec\s+)?\.\/infra\/test\.sh(\s|$)/.test(l))).toBe(true);
    expect(statSync(new URL('.ci/run', root)).mode & 0o111).not.toBe(0);
    expect(readFileSync(new URL('README.md', root), 'utf8')).toContain('./infra/test.sh');
    // CI runs the short fault scenarios too (docs/reliability.md).
    expect(commands.some((l) => l.includes('./infra/test.sh --chaos=short'))).toBe(true);
  });

  it('infra/test.sh --chaos runs the fault scenarios after the tests', () => {
    const sh = readFileSync(new URL('infra/test.sh', root), 'utf8');
    expect(sh).toMatch(/--chaos=short\) chaos=short/);
    expect(sh.indexOf('infra/chaos/run.sh')).toBeGreaterThan(sh.indexOf('pnpm -s test'));
  });

  it('infra/test.sh typechecks, lints, checks formatting, migrates and runs every test, failing on any error', () => {
    const sh = readFileSync(new URL('infra/test.sh', root), 'utf8');
    expect(sh).toContain('set -euo pipefail');
    for (const step of ['pnpm -s typecheck', 'pnpm -s lint', 'pnpm -s format:check', 'pnpm -s db:migrate', 'pnpm -s test']) expect(sh).toContain(step);
  });
});
