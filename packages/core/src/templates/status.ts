/** Library states (control plane). `approved` also appears on synced templates. */
export const TEMPLATE_STATUSES = ['draft', 'pending_approval', 'rejected', 'approved'] as const;
export type LibraryTemplateStatus = (typeof TEMPLATE_STATUSES)[number];

/**
 * The provider's template statuses (and status-webhook events) in our lower-case
 * vocabulary, shared by the library and the synced list so both read alike. PENDING and
 * IN_APPEAL are both "waiting for review"; anything unknown is kept, lower-cased, rather
 * than guessed.
 */
export function mapProviderTemplateStatus(status: string): string {
  const s = status.toUpperCase();
  switch (s) {
    case 'APPROVED':
    case 'REINSTATED':
      return 'approved';
    case 'PENDING':
    case 'IN_APPEAL':
      return 'pending_approval';
    case 'REJECTED':
      return 'rejected';
    default:
      return s.toLowerCase();
  }
}

/** A provider rejection reason worth storing: `NONE` and blanks mean "no reason". */
export function providerReason(reason: string | null | undefined): string | null {
  if (!reason || reason.trim() === '' || reason.toUpperCase() === 'NONE') return null;
  return reason;
}
