import { createProviderClient, type ProviderClient } from './client';
import { ProviderError } from './errors';

const NOT_CONFIGURED = 'No provider configured (PROVIDER_BASE_URL)';

/**
 * The one way a process gets its provider client: the real client when PROVIDER_BASE_URL is
 * set, else a client whose every call fails with a non-retryable ProviderError, so callers
 * handle "no provider" like any other refusal instead of checking configuration themselves.
 */
export function providerClientFromEnv(env: { PROVIDER_BASE_URL?: string; PROVIDER_API_VERSION: string }): ProviderClient {
  if (env.PROVIDER_BASE_URL) return createProviderClient({ baseUrl: env.PROVIDER_BASE_URL, apiVersion: env.PROVIDER_API_VERSION });
  const refuse = async (): Promise<never> => {
    throw new ProviderError(NOT_CONFIGURED, { status: null, retryable: false, cause: PROVIDER_NOT_CONFIGURED });
  };
  return { createTemplate: refuse, listTemplates: refuse, listAllTemplates: refuse, sendMessage: refuse, editTemplate: refuse };
}

/** Marks the refusal above (its `cause`), so surfaces can say "not configured" rather than "unavailable". */
const PROVIDER_NOT_CONFIGURED = Symbol('provider-not-configured');

export function isProviderNotConfigured(err: unknown): boolean {
  return err instanceof ProviderError && err.cause === PROVIDER_NOT_CONFIGURED;
}
