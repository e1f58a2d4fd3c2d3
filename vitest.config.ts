import { defineConfig } from 'vitest/config';

// One run for the whole workspace. Integration suites each clone a migrated template
// database (packages/db/src/testing) and use their own Temporal task queue, so files can
// run in parallel; two forks match the two-core machines this runs on. Temporal's native
// bridge needs real processes, hence `forks`.
export default defineConfig({
  test: {
    include: ['packages/*/src/**/*.test.ts', 'services/*/src/**/*.test.ts', 'workflows/src/**/*.test.ts', 'infra/**/*.test.ts'],
    pool: 'forks',
    maxWorkers: 2,
    // The second scans every log line and response of the run for registered secrets and personal data (issue 15).
    globalSetup: ['./infra/test-global-setup.ts', './infra/lib/leak-capture-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default'],
  },
});
