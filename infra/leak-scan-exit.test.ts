import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

/**
 * The leak scan fails the run for real: vitest reports a global teardown's exception but exits
 * 0, so this runs vitest itself (what `pnpm -s test` in infra/test.sh runs) over a suite that
 * leaks, and wants a non-zero exit and the finding printed with the value masked.
 */
it('a leaked secret makes `vitest run` exit non-zero, and the report never shows the secret', async () => {
  const capture = mkdtempSync(join(tmpdir(), 'leak-exit-'));
  const secret = `planted-${Math.random().toString(36).slice(2)}-token`;
  try {
    const run = await new Promise<{ code: number; output: string }>((resolve) => {
      execFile(
        join(ROOT, 'node_modules/.bin/vitest'),
        ['run', '--config', 'infra/lib/testing/planted-leak.vitest.config.ts'],
        // Its own capture folder: the planted leak must not land in this run's.
        { cwd: ROOT, env: { ...process.env, MOS_ENV: 'test', MOS_LEAK_CAPTURE_DIR: capture, PLANTED_SECRET: secret } },
        (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, output: stdout + stderr }),
      );
    });
    expect(run.output).toContain('1 passed');
    expect(run.output).toMatch(/leak scan: .*: 1 leak\(s\)/);
    expect(run.output).toContain(`«provider-access-token: ${secret.length} chars»`);
    expect(run.output).not.toContain(secret);
    expect(run.code).toBe(1);
    expect(readdirSync(capture).some((f) => f.startsWith('logs-'))).toBe(true);
  } finally {
    rmSync(capture, { recursive: true, force: true });
  }
}, 60_000);
