import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/migrations/**', '.data/**', '**/dist/**', 'workflows/src/**/__histories__/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-console': ['error', { allow: ['error'] }],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  {
    // Tests read loosely-typed JSON responses.
    files: ['**/*.test.ts', '**/testing.ts', '**/testing/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // The CLI and stack scripts print to stdout by design.
    files: ['services/cli/**', 'infra/**', 'packages/db/src/migrate-cli.ts'],
    rules: { 'no-console': 'off' },
  },
);
