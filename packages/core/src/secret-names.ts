/** Names of the per-workspace vault secrets. */
export const SECRET_NAMES = ['webhook-signing-secret', 'provider-verify-token', 'provider-access-token', 'partner-webhook-secret', 'llm-api-key'] as const;
export type SecretName = (typeof SECRET_NAMES)[number];

export function isSecretName(v: unknown): v is SecretName {
  return typeof v === 'string' && (SECRET_NAMES as readonly string[]).includes(v);
}
