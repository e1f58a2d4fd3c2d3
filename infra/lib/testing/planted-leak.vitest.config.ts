import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/** The leak scan's global setup over one suite that leaks on purpose (infra/leak-scan-exit.test.ts). */
export default defineConfig({
  root: fileURLToPath(new URL('../../../', import.meta.url)),
  test: {
    include: ['infra/lib/testing/planted-leak.fixture.ts'],
    pool: 'forks',
    globalSetup: ['./infra/lib/leak-capture-setup.ts'],
    reporters: ['default'],
  },
});
