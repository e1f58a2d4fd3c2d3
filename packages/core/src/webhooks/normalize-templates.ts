import { mapProviderTemplateStatus, providerReason } from '../templates/status';
import type { ChangeContext } from './change-context';
import type { TemplateStatusChange } from './events';
import { get, id, isoFromUnix, record, records, str, text, type JsonRecord } from './value-readers';

/**
 * Template fields -> `template.updated`: status, quality, category and components changes.
 * Sources: $D/webhooks/reference/{message_template_status_update, message_template_quality_update,
 * template_category_update, message_template_components_update} (SOURCES.md).
 */

function templateRef(ctx: ChangeContext, v: JsonRecord) {
  const providerTemplateId = id(get(v, 'message_template_id'));
  if (providerTemplateId === null) return null;
  return {
    family: 'template.updated' as const,
    accountId: ctx.accountId,
    providerTemplateId,
    name: str(get(v, 'message_template_name')),
    language: str(get(v, 'message_template_language')),
    occurredAt: ctx.entryTime,
  };
}

/**
 * `message_template_status_update`, and the quality shape whatever its field says: the
 * provider's own quality example is sent with field `message_template_status_update`, so a
 * value carrying `new_quality_score` is a quality change under either field name.
 */
export function normalizeTemplateStatusOrQuality(ctx: ChangeContext, raw: unknown): void {
  const v = record(raw);
  const ref = v && templateRef(ctx, v);
  if (!v || !ref) return ctx.skip('invalid_value');
  if (get(v, 'new_quality_score') !== undefined) {
    const newScore = text(get(v, 'new_quality_score'));
    if (newScore === null) return ctx.skip('invalid_value');
    return ctx.emit({ ...ref, change: 'quality', previousScore: str(get(v, 'previous_quality_score')), newScore });
  }
  if (ctx.field === 'message_template_quality_update') return ctx.skip('invalid_value');
  const event = text(get(v, 'event'));
  if (event === null) return ctx.skip('invalid_value');
  const change: TemplateStatusChange = {
    ...ref,
    change: 'status',
    event,
    // The same mapping and reason rule the template effect, the sync and the library use
    // (core/templates/status.ts), so the family never says one status and the row another.
    status: mapProviderTemplateStatus(event),
    category: str(get(v, 'message_template_category')),
    reason: providerReason(str(get(v, 'reason'))),
    detail: statusDetail(v),
  };
  ctx.emit(change);
}

/** `other_info` (pause/unpause, lock), `rejection_info` (INVALID_FORMAT) and `disable_info`, merged. */
function statusDetail(v: JsonRecord): TemplateStatusChange['detail'] {
  const other = record(get(v, 'other_info'));
  const rejection = record(get(v, 'rejection_info'));
  const disable = record(get(v, 'disable_info'));
  if (!other && !rejection && !disable) return null;
  const disableDate = get(disable, 'disable_date');
  return {
    title: str(get(other, 'title')),
    description: str(get(other, 'description')) ?? str(get(rejection, 'reason')),
    recommendation: str(get(rejection, 'recommendation')),
    // Documented as a unix timestamp (an integer, quoted in the syntax block); anything else is unreadable.
    disableDate: isoFromUnix(disableDate),
  };
}

/** `template_category_update`: impending (`correct_category`, effective at `category_update_timestamp`) or completed. */
export function normalizeTemplateCategory(ctx: ChangeContext, raw: unknown): void {
  const v = record(raw);
  const ref = v && templateRef(ctx, v);
  const newCategory = text(get(v, 'new_category'));
  if (!v || !ref || newCategory === null) return ctx.skip('invalid_value');
  ctx.emit({
    ...ref,
    change: 'category',
    previousCategory: str(get(v, 'previous_category')),
    newCategory,
    correctCategory: str(get(v, 'correct_category')),
    effectiveAt: isoFromUnix(get(v, 'category_update_timestamp')),
  });
}

/**
 * `message_template_components_update`: the edited template's title/element/footer/buttons,
 * rebuilt in the component shape templates use (HEADER text, BODY, FOOTER, BUTTONS).
 */
export function normalizeTemplateComponents(ctx: ChangeContext, raw: unknown): void {
  const v = record(raw);
  const ref = v && templateRef(ctx, v);
  if (!v || !ref) return ctx.skip('invalid_value');
  const components: Record<string, unknown>[] = [];
  const title = str(get(v, 'message_template_title'));
  const body = str(get(v, 'message_template_element'));
  const footer = str(get(v, 'message_template_footer'));
  if (title !== null) components.push({ type: 'HEADER', format: 'TEXT', text: title });
  if (body !== null) components.push({ type: 'BODY', text: body });
  if (footer !== null) components.push({ type: 'FOOTER', text: footer });
  const buttons = records(get(v, 'message_template_buttons')).map((b) => {
    const button: Record<string, unknown> = { type: str(get(b, 'message_template_button_type')), text: str(get(b, 'message_template_button_text')) };
    const url = str(get(b, 'message_template_button_url'));
    const phone = str(get(b, 'message_template_button_phone_number'));
    if (url !== null) button.url = url;
    if (phone !== null) button.phone_number = phone;
    return button;
  });
  if (buttons.length > 0) components.push({ type: 'BUTTONS', buttons });
  ctx.emit({ ...ref, change: 'components', components });
}
