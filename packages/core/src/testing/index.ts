/** Test-only helpers over the provider's published examples (they read fixture files; never import from src). */
export * from '../templates/testing/provider-examples';
export * from '../webhooks/testing/provider-docs-examples';
