import type { ChannelScope, NormalizedEvent } from './events';
import { get, str } from './value-readers';

/**
 * Why a change, or one item inside it, produced no family:
 * - `unsupported_field`: a change field mos does not handle (it stays stored, topic `unknown`);
 * - `invalid_value`: the value or item lacks what the family needs (an id, a readable
 *   timestamp, an identity, ...);
 * - `unknown_status`: a status string outside the documented ones;
 * - `unsupported_system_type`: a `system` message of a kind not documented as an identity change;
 * - `empty`: a `messages` value with nothing in it.
 */
export type SkipReason = 'unsupported_field' | 'invalid_value' | 'unknown_status' | 'unsupported_system_type' | 'empty';

export interface SkippedChange {
  entryId: string;
  field: string;
  reason: SkipReason;
  /** The provider id of the skipped item (message or status id), when it has one. Never personal data. */
  ref?: string;
}

/** What a per-field normalizer gets for one change: where it is, and where its output goes. */
export interface ChangeContext {
  accountId: string;
  field: string;
  /** `entry[].time` as ISO 8601, when the entry has a readable one. */
  entryTime: string | null;
  emit(event: NormalizedEvent): void;
  skip(reason: SkipReason, ref?: string | null): void;
}

/** The business account and, for `messages`-style values, the business number from `metadata`. */
export function scopeOf(accountId: string, metadata: unknown): ChannelScope {
  return {
    accountId,
    phoneNumberId: str(get(metadata, 'phone_number_id')),
    displayPhoneNumber: str(get(metadata, 'display_phone_number')),
  };
}
