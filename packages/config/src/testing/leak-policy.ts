/**
 * Where each kind of sensitive value may appear in what the test suite captured (docs/security.md,
 * issue 15). Log lines: never, for every kind. Responses:
 * - configured secrets (the caller sets them, the server never hands them out): never;
 * - issued secrets (the server creates them and hands them out once): only in the one response
 *   that issued them, i.e. the first response of a process that carries the value, received
 *   before that process registered the value. A test registers a value it sends or seeds, so
 *   any later response carrying it echoes a credential back;
 * - personal data (phone numbers, names, message bodies): data the API returns to authorized
 *   callers, but never in an error response (status >= 400) nor in a response to a viewer
 *   (docs/security.md: viewers see phone numbers masked, names and bodies redacted);
 * - erased personal data: never in a response received after the erasure was registered.
 */
export const CONFIGURED_SECRET_KINDS = [
  'password',
  'vault-secret',
  'provider-app-secret',
  'provider-access-token',
  'webhook-signing-secret',
  'verify-token',
  'partner-secret',
  'service-token',
  'metrics-token',
  'master-key',
  'temporal-api-key',
] as const;
export const ISSUED_SECRET_KINDS = ['session-token', 'api-key', 'inbound-webhook-secret', 'credential'] as const;
export const PERSONAL_KINDS = ['phone-number', 'personal-name', 'message-body'] as const;
export const ERASED_KIND = 'erased-personal-data';

export type SensitiveKind =
  (typeof CONFIGURED_SECRET_KINDS)[number] | (typeof ISSUED_SECRET_KINDS)[number] | (typeof PERSONAL_KINDS)[number] | typeof ERASED_KIND;

const ALL_KINDS: ReadonlySet<string> = new Set([...CONFIGURED_SECRET_KINDS, ...ISSUED_SECRET_KINDS, ...PERSONAL_KINDS, ERASED_KIND]);
export const isSensitiveKind = (kind: string): kind is SensitiveKind => ALL_KINDS.has(kind);

export type KindClass = 'configured' | 'issued' | 'personal' | 'erased';
export function kindClass(kind: SensitiveKind): KindClass {
  if ((CONFIGURED_SECRET_KINDS as readonly string[]).includes(kind)) return 'configured';
  if ((ISSUED_SECRET_KINDS as readonly string[]).includes(kind)) return 'issued';
  if ((PERSONAL_KINDS as readonly string[]).includes(kind)) return 'personal';
  return 'erased';
}

/**
 * Shorter values are not scanned: `hi`, `1234` or `secret` occur in unrelated text and would
 * fail the run for nothing. Tests that want a value checked make it at least this long.
 */
export const MIN_SCANNED_LENGTH = 8;
