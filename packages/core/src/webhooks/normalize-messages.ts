import { scopeOf, type ChangeContext } from './change-context';
import type { ChannelScope, ContactIdentity, InboundMessageEvent } from './events';
import { providerPhone, resolveIdentity } from './identity';
import { accountErrorsEvent } from './normalize-account';
import { readContent } from './normalize-content';
import { readContext, readReferral } from './normalize-context';
import { editedEvent, reactionEvent, revokedEvent, systemEvent } from './normalize-message-updates';
import { normalizeStatus } from './normalize-statuses';
import { opensServiceWindow, serviceWindowOpened } from './service-window';
import { get, isoFromUnix, list, providerErrors, record, text, type JsonRecord } from './value-readers';

/**
 * The `messages` field: inbound messages (and reactions, edits, revokes, system notices, which
 * arrive as messages too), statuses of our outbound messages, and value-level `errors`.
 * Each message and status is read on its own: an unreadable one is skipped with its reason,
 * its siblings are kept.
 * Sources: $D/webhooks/reference/messages and its per-type pages (SOURCES.md).
 */
export function normalizeMessagesValue(ctx: ChangeContext, raw: unknown): void {
  const value = record(raw);
  if (!value) return ctx.skip('invalid_value');
  const scope = scopeOf(ctx.accountId, get(value, 'metadata'));
  const contacts = get(value, 'contacts');
  const messages = itemsOf(value, 'messages');
  const statuses = itemsOf(value, 'statuses');
  if (!messages || !statuses) ctx.skip('invalid_value');
  for (const message of messages ?? []) normalizeMessage(ctx, scope, contacts, message);
  for (const status of statuses ?? []) normalizeStatus(ctx, scope, contacts, status);

  // Value-level errors (e.g. 130429 rate limit) concern the number, not one message: operators
  // must see them. Documented alone in a value; kept even if messages ever come alongside, but
  // the account event keeps only the errors and the business number, never the customers'
  // contacts, messages or statuses beside them (those are personal data, applied above).
  const rawErrors = list(get(value, 'errors'));
  const errors = providerErrors(rawErrors);
  if (errors.length > 0) {
    const kept = { messaging_product: get(value, 'messaging_product'), metadata: get(value, 'metadata'), errors: rawErrors };
    ctx.emit(accountErrorsEvent(scope, ctx.entryTime, errors, kept));
  } else if (rawErrors.length > 0) ctx.skip('invalid_value');
  else if (messages?.length === 0 && statuses?.length === 0) ctx.skip('empty');
}

/** `messages` / `statuses` as a list (absent: empty); null when present but not a list. */
function itemsOf(value: JsonRecord, key: string): unknown[] | null {
  const items = get(value, key);
  return items === undefined || Array.isArray(items) ? list(items) : null;
}

function normalizeMessage(ctx: ChangeContext, scope: ChannelScope, contacts: unknown, raw: unknown): void {
  const m = record(raw);
  const messageId = text(get(m, 'id'));
  const sentAt = isoFromUnix(get(m, 'timestamp'));
  const type = text(get(m, 'type'));
  if (!m || messageId === null || sentAt === null || type === null) return ctx.skip('invalid_value', messageId);
  const system = type === 'system' ? get(m, 'system') : undefined;
  // A system notice may name the customer only as `system.customer` (identity changes).
  const phone = providerPhone(get(m, 'from')) ?? providerPhone(get(system, 'customer'));
  const contact = resolveIdentity(contacts, phone, get(m, 'from_user_id'));
  if (!contact) return ctx.skip('invalid_value', messageId);
  const item = { scope, messageId, at: sentAt, contact, message: m };

  const event =
    type === 'reaction'
      ? reactionEvent(item)
      : type === 'edit'
        ? editedEvent(item)
        : type === 'revoke'
          ? revokedEvent(item)
          : type === 'system'
            ? systemEvent(item)
            : inboundEvent(scope, messageId, sentAt, contact, type, m);
  if (typeof event === 'string') return ctx.skip(event, messageId);
  ctx.emit(event);
  if (opensServiceWindow(event)) ctx.emit(serviceWindowOpened(event));
}

function inboundEvent(scope: ChannelScope, messageId: string, sentAt: string, contact: ContactIdentity, type: string, m: JsonRecord): InboundMessageEvent {
  const read = readContent(type, m);
  return {
    ...scope,
    family: 'message.inbound',
    providerMessageId: messageId,
    contact,
    sentAt,
    type,
    content: read.content,
    text: read.text,
    context: readContext(get(m, 'context')),
    referral: readReferral(get(m, 'referral')),
    errors: providerErrors(get(m, 'errors')),
    optKeyword: read.optKeyword,
  };
}
