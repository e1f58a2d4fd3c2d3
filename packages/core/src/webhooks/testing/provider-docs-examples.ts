import { readdirSync, readFileSync } from 'node:fs';

/**
 * Test support (never imported by runtime code): every provider-documented webhook example, from
 * its one copy. The published examples are read where the research keeps them,
 * docs/provider-reference/webhooks (byte for byte; source page per file in
 * docs/provider-reference/SOURCES.md); fixtures/provider-docs holds only what is ours: the
 * repaired copies of examples published as broken JSON, the wrapped Flow fragment, the
 * `*_REPAIRED` copies of misplaced examples and the `constructed_*` files (README there).
 */
const PUBLISHED = new URL('../../../../../docs/provider-reference/webhooks/', import.meta.url);
const OURS = new URL('../fixtures/provider-docs/', import.meta.url);

/**
 * Published as broken JSON: the docs copy is the broken original, fixtures/provider-docs holds
 * the repaired copy under the same name (the repair per file is in its README).
 */
export const REPAIRED_EXAMPLES: readonly string[] = [
  'message_template_status_update_rejected_invalid_format',
  'messages_reaction_removed',
  'messages_text',
  'smb_message_echoes_text',
];

/** Published as a fragment, not an envelope: fixtures/provider-docs has it wrapped (`*_WRAPPED`). */
const isFragment = (name: string) => name.endsWith('_FRAGMENT');

const jsonNames = (dir: URL) =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.replace(/\.json$/, ''));

export interface ProviderDocsExample {
  /** The file name without `.json`, unique across both directories. */
  name: string;
  url: URL;
}

let examples: ProviderDocsExample[] | undefined;

/** Every example, sorted by name: the published ones (minus the broken and the fragment) and ours. */
export function providerDocsExamples(): ProviderDocsExample[] {
  examples ??= listExamples();
  return examples;
}

function listExamples(): ProviderDocsExample[] {
  const ours = jsonNames(OURS);
  const missing = REPAIRED_EXAMPLES.filter((name) => !ours.includes(name));
  if (missing.length > 0) throw new Error(`repaired copies missing from fixtures/provider-docs: ${missing.join(', ')}`);
  const published = jsonNames(PUBLISHED).filter((name) => !REPAIRED_EXAMPLES.includes(name) && !isFragment(name));
  // One copy only: a published example copied into the fixtures again would be read twice.
  const twice = published.filter((name) => ours.includes(name));
  if (twice.length > 0) throw new Error(`in both docs/provider-reference/webhooks and fixtures/provider-docs: ${twice.join(', ')}`);
  return [
    ...published.map((name) => ({ name, url: new URL(`${name}.json`, PUBLISHED) })),
    ...ours.map((name) => ({ name, url: new URL(`${name}.json`, OURS) })),
  ].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

/** One example's exact bytes, by name (without `.json`). */
export function providerDocsExample(name: string): Buffer {
  const example = providerDocsExamples().find((e) => e.name === name);
  if (!example) throw new Error(`no provider-documented webhook example named ${name}`);
  return readFileSync(example.url);
}
