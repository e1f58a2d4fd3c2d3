import { scopeOf, type ChangeContext } from './change-context';
import { resolveIdentity } from './identity';
import { readContent } from './normalize-content';
import { get, isoFromUnix, list, record, text } from './value-readers';

/**
 * `smb_message_echoes`: messages the business sent from the provider's business app, which
 * are our outbound messages too. `from` is the business number, `to` the customer, so the
 * contact is the `to` side. Each echo is read on its own.
 * Source: $D/webhooks/reference/smb_message_echoes (SOURCES.md). `to_user_id` is not in that
 * page's syntax; it is read on the pattern of `from_user_id`/`recipient_user_id`
 * ($D/business-scoped-user-ids) in case hidden-number recipients appear here too.
 */
export function normalizeEchoes(ctx: ChangeContext, raw: unknown): void {
  const value = record(raw);
  const echoes = get(value, 'message_echoes');
  if (!value || !Array.isArray(echoes)) return ctx.skip('invalid_value');
  if (echoes.length === 0) return ctx.skip('empty');
  const scope = scopeOf(ctx.accountId, get(value, 'metadata'));
  for (const item of list(echoes)) {
    const m = record(item);
    const messageId = text(get(m, 'id'));
    const sentAt = isoFromUnix(get(m, 'timestamp'));
    const type = text(get(m, 'type'));
    const contact = resolveIdentity(get(value, 'contacts'), get(m, 'to'), get(m, 'to_user_id'));
    if (!m || messageId === null || sentAt === null || type === null || contact === null) {
      ctx.skip('invalid_value', messageId);
      continue;
    }
    const read = readContent(type, m);
    ctx.emit({ ...scope, family: 'message.echo', providerMessageId: messageId, contact, sentAt, type, content: read.content, text: read.text });
  }
}
