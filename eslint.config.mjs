import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';
import mos from './infra/lint/no-relative-climb.mjs';

// Import direction (docs/architecture.md): core <- db/provider/config <- app <- trpc/http <- services;
// workflows <- app (through @mos/workflows/contract only); nothing imports a service.
// Each folder lists the @mos specifiers it may import; anything else under @mos/ is an error.
// Test files (TESTS) may also import the test entries (`@mos/<pkg>/testing`) of what their folder
// may import and, in services/ and packages/client, anything, services included, to drive them
// end to end.
// infra/ (benchmarks, stack scripts) is outside the graph and unrestricted.
const TESTS = ['**/*.test.ts', '**/testing/**', '**/testing.ts'];
const SERVICES = ['api', 'control-plane', 'worker', 'cli'];

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A no-restricted-imports pattern that refuses every `@mos/...` specifier except `allowed` (exact, without `@mos/`). */
const onlyMos = (allowed, message) => ({
  regex: allowed.length ? `^@mos/(?!(?:${allowed.map(escape).join('|')})$)` : '^@mos/',
  caseSensitive: true,
  message,
});
const restrict = (...patterns) => ({ 'no-restricted-imports': ['error', { patterns }] });
const inTests = (dir) => TESTS.map((t) => `${dir}/${t}`);

/**
 * One folder of the graph: what its code may import. Its tests may also import the `testing`
 * entry of their own package and of each allowed package, plus `testAllow`.
 */
const layer = (dir, allow, message, testAllow = []) => {
  const own = dir.split('/').pop();
  const testing = [own, ...allow.filter((a) => !a.includes('/'))].map((a) => `${a}/testing`);
  const inTestsAllow = [...allow, ...testing, ...testAllow];
  return [
    { files: [`${dir}/**`], rules: restrict(onlyMos(allow, message)) },
    ...(inTestsAllow.length > allow.length ? [{ files: inTests(dir), rules: restrict(onlyMos(inTestsAllow, message)) }] : []),
  ];
};

const importDirection = [
  ...layer('packages/core', [], 'core is pure domain logic: it imports no other @mos package.'),
  ...layer('packages/config', [], 'config is a leaf (environment and logger): it imports no other @mos package.'),
  ...layer('packages/db', ['core'], 'db sits on core: it may import only @mos/core.'),
  ...layer('packages/provider', ['core'], 'provider sits on core: it may import only @mos/core.'),
  ...layer('workflows', ['core', 'db', 'provider', 'config'], 'workflows run on core, db, provider and config: never app, trpc, http, client or a service.'),
  ...layer(
    'packages/app',
    ['core', 'db', 'provider', 'config', 'workflows/contract'],
    'app may import core, db, provider, config and @mos/workflows/contract only: never workflow code (@mos/workflows, @mos/workflows/workflows), a transport (trpc, http, client) or a service.',
  ),
  ...layer('packages/trpc', ['app', 'core'], 'trpc adapts procedures to @mos/app: it may import only @mos/app and @mos/core.', ['db/testing']),
  ...layer('packages/http', ['app', 'core', 'config'], 'http is Express plumbing over @mos/app: it may import only @mos/app, @mos/core and @mos/config.'),
  {
    files: ['packages/client/**'],
    rules: restrict(
      { regex: '^@mos/trpc$', caseSensitive: true, allowTypeImports: true, message: 'client ships to frontends: it may import only types from @mos/trpc.' },
      onlyMos(['trpc'], 'client ships to frontends: it may import only types from @mos/trpc.'),
    ),
  },
  // The client's tests start a real control plane to call.
  { files: inTests('packages/client'), rules: { 'no-restricted-imports': 'off' } },
  // Each service: never another service, never a testing entry; only the control plane speaks
  // tRPC; only the worker loads workflow code (the others start workflows through the contract).
  ...SERVICES.map((service) => ({
    files: [`services/${service}/**`],
    rules: restrict(
      {
        regex: `^@mos/(?:${SERVICES.join('|')})(?:/|$)`,
        caseSensitive: true,
        message: 'Nothing imports a service: move shared code into a package (packages/ or workflows/).',
      },
      { regex: '^@mos/[^/]+/testing$', caseSensitive: true, message: 'A testing entry is for test files only.' },
      ...(service === 'control-plane'
        ? []
        : [{ regex: '^@mos/trpc(?:/|$)', caseSensitive: true, message: 'Only the control plane (and packages/client) speaks tRPC: call @mos/app.' }]),
      ...(service === 'worker'
        ? []
        : [
            {
              regex: '^@mos/workflows(?:/workflows)?$',
              caseSensitive: true,
              message: 'Only the worker loads workflow code: start and inspect workflows through @mos/workflows/contract.',
            },
          ]),
    ),
  })),
  {
    // Workflow code runs in Temporal's deterministic sandbox: Temporal's workflow API and its own
    // contract, never I/O packages (activity types may be imported as types).
    files: ['workflows/src/*/workflow.ts', 'workflows/src/workflows.ts'],
    rules: restrict({
      regex: '^@mos/',
      caseSensitive: true,
      message: 'Workflow code runs in the deterministic sandbox: no @mos package (use the feature contract and proxyActivities).',
    }),
  },
  {
    // Dynamic import() is invisible to no-restricted-imports: @mos packages are imported statically.
    files: ['packages/**', 'services/**', 'workflows/**'],
    ignores: TESTS,
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: 'ImportExpression[source.value=/^@mos\\u002F/]', message: 'Import @mos packages statically, so the import-direction rules see them.' },
      ],
    },
  },
  // End-to-end tests drive one service through another (the worker's tests post webhooks to the
  // api; the control plane's template lifecycle runs the api and the worker).
  { files: inTests('services/*'), rules: { 'no-restricted-imports': 'off' } },
  {
    // A relative import stays in its package; infra/ (benchmarks) reaches into source on purpose.
    files: ['packages/**', 'services/**', 'workflows/**'],
    plugins: { mos },
    rules: { 'mos/no-relative-climb': 'error' },
  },
];

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
  ...importDirection,
);
