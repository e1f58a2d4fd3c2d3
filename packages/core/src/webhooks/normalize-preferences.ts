import { scopeOf, type ChangeContext } from './change-context';
import { resolveIdentity } from './identity';
import { get, isoFromUnix, list, record, str, text } from './value-readers';

/**
 * `user_preferences`: the customer stopped or resumed marketing messages in the app
 * (`value` stop | resume, `category` marketing_messages). Each preference is read on its own;
 * its `timestamp` (an integer) is when it happened, else the entry's time.
 * Sources: $D/webhooks/reference/user_preferences, $D/business-scoped-user-ids (`user_id`).
 */
export function normalizePreferences(ctx: ChangeContext, raw: unknown): void {
  const value = record(raw);
  const preferences = get(value, 'user_preferences');
  if (!value || !Array.isArray(preferences)) return ctx.skip('invalid_value');
  if (preferences.length === 0) return ctx.skip('empty');
  const scope = scopeOf(ctx.accountId, get(value, 'metadata'));
  for (const item of list(preferences)) {
    const p = record(item);
    const contact = resolveIdentity(get(value, 'contacts'), get(p, 'wa_id'), get(p, 'user_id'));
    const category = text(get(p, 'category'));
    const choice = text(get(p, 'value'));
    const occurredAt = isoFromUnix(get(p, 'timestamp')) ?? ctx.entryTime;
    if (!p || contact === null || category === null || choice === null || occurredAt === null) {
      ctx.skip('invalid_value');
      continue;
    }
    ctx.emit({ ...scope, family: 'contact.preferences', contact, category, value: choice, detail: str(get(p, 'detail')), occurredAt });
  }
}
