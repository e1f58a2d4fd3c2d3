import { TEMPLATE_LIMITS } from './limits';
import { findPlaceholders, NAMED_PLACEHOLDER } from './placeholders';
import type { ButtonType, TemplateButton, TemplateComponent } from './schema';
import { checkExampleValue, type Path, type Report } from './validate-text';

/** What the button rules need to know about the rest of the template. */
export interface ButtonContext {
  category: string;
  parameterFormat: string;
  /** The template has a LIMITED_TIME_OFFER component (offer code at most 15 characters). */
  limitedTimeOffer: boolean;
}

/** Marketing-only buttons: coupon, catalog, multi- and single-product pages. */
const MARKETING_ONLY: readonly ButtonType[] = ['COPY_CODE', 'CATALOG', 'MPM', 'SPM'];

const TYPE_LIMITS: [ButtonType, number, string][] = [
  ['URL', TEMPLATE_LIMITS.urlButtonsMax, 'URL'],
  ['PHONE_NUMBER', TEMPLATE_LIMITS.phoneButtonsMax, 'phone-number'],
  ['COPY_CODE', TEMPLATE_LIMITS.copyCodeButtonsMax, 'copy-code'],
];

const firstExample = (b: TemplateButton): string | undefined => (Array.isArray(b.example) ? b.example[0] : b.example);

function checkLabel(b: TemplateButton, path: Path, report: Report): void {
  const text = b.text ?? '';
  if (text.trim() === '') return report([...path, 'text'], 'text_required', 'A button needs text');
  if (text.length > TEMPLATE_LIMITS.buttonTextMax)
    report([...path, 'text'], 'text_too_long', `Button text is ${text.length} characters; the maximum is ${TEMPLATE_LIMITS.buttonTextMax}`);
  if (/[\r\n]/.test(text)) report([...path, 'text'], 'text_newline', 'Button text cannot contain line breaks');
  if (/[{}]/.test(text)) report([...path, 'text'], 'button_invalid', 'Button text cannot contain placeholders');
}

/**
 * One variable, appended to the very end of the URL (components page). `{{1}}` in any
 * template; in a NAMED template also a named variable (`{{promo_code}}`), as issue 9 asks.
 * The example may be the value alone (components page) or the whole URL (LTO page).
 */
function checkUrl(b: TemplateButton, ctx: ButtonContext, path: Path, report: Report): void {
  const url = b.url ?? '';
  const oneVariable = 'A URL button can hold one placeholder, at the very end of the URL';
  if (!/^https?:\/\/[^\s/]+\.[^\s]+$/i.test(url.replace(/\{\{[^{}]*\}\}$/, 'x'))) {
    return report([...path, 'url'], 'button_invalid', 'A URL button needs an http(s) URL');
  }
  if (url.length > TEMPLATE_LIMITS.urlMax) report([...path, 'url'], 'text_too_long', `URL is longer than ${TEMPLATE_LIMITS.urlMax} characters`);
  const vars = findPlaceholders(url);
  if (vars.length === 0) {
    if (/[{}]/.test(url)) report([...path, 'url'], 'button_invalid', oneVariable);
    return;
  }
  const inner = vars[0]!.inner;
  const known = inner === '1' || (ctx.parameterFormat === 'NAMED' && NAMED_PLACEHOLDER.test(inner));
  if (vars.length > 1 || !known || vars[0]!.end !== url.length) return report([...path, 'url'], 'button_invalid', oneVariable);
  const example = firstExample(b);
  if (!example || example.trim() === '') return report([...path, 'example'], 'example_missing', 'Add an example value for the URL placeholder');
  checkExampleValue(example, [...path, 'example', 0], report);
}

/** FLOW: exactly one of flow_id / flow_name / flow_json; navigate needs a screen (flows pages). */
function checkFlow(b: TemplateButton, path: Path, report: Report): void {
  const given = (['flow_id', 'flow_name', 'flow_json'] as const).filter((k) => (b[k] ?? '').trim() !== '');
  if (given.length !== 1) {
    report(
      path,
      'button_invalid',
      `A FLOW button names its flow with exactly one of flow_id, flow_name or flow_json${given.length ? `; found ${given.join(', ')}` : ''}`,
    );
  }
  if (b.flow_json !== undefined && !isJsonObject(b.flow_json)) {
    report([...path, 'flow_json'], 'button_invalid', 'flow_json must be the Flow JSON object encoded as a string');
  }
  if (b.flow_action === 'navigate' && !b.navigate_screen?.trim()) {
    report([...path, 'navigate_screen'], 'button_invalid', 'navigate_screen is required when flow_action is navigate');
  }
}

function isJsonObject(s: string): boolean {
  try {
    const v: unknown = JSON.parse(s);
    return typeof v === 'object' && v !== null && !Array.isArray(v);
  } catch {
    return false;
  }
}

function checkButton(b: TemplateButton, ctx: ButtonContext, path: Path, report: Report): void {
  if (b.type === 'OTP') return report([...path, 'type'], 'button_not_allowed', 'OTP buttons belong to AUTHENTICATION templates');
  if (MARKETING_ONLY.includes(b.type) && ctx.category !== 'MARKETING') {
    report([...path, 'type'], 'button_not_allowed', `${b.type} buttons are only for MARKETING templates`);
  }
  if (b.type === 'COPY_CODE') {
    const max = ctx.limitedTimeOffer ? TEMPLATE_LIMITS.ltoCopyCodeExampleMax : TEMPLATE_LIMITS.copyCodeExampleMax;
    const example = firstExample(b);
    if (!example || example.trim() === '' || example.length > max) {
      return report([...path, 'example'], 'button_invalid', `A copy-code button needs an example code of 1 to ${max} characters`);
    }
    return checkExampleValue(example, [...path, 'example'], report);
  }
  checkLabel(b, path, report);
  if (b.type === 'URL') checkUrl(b, ctx, path, report);
  if (b.type === 'FLOW') checkFlow(b, path, report);
  if (b.type === 'PHONE_NUMBER') {
    const phone = b.phone_number ?? '';
    if (!/^\+?[1-9][0-9]{6,18}$/.test(phone) || phone.length > TEMPLATE_LIMITS.phoneNumberMax) {
      report([...path, 'phone_number'], 'button_invalid', 'A phone-number button needs a number in international format, up to 20 characters');
    }
  }
}

/**
 * Quick replies and the other buttons form two groups, in either order: the run of
 * "is a quick reply" flags may change value at most once (`URL, QUICK_REPLY, URL` changes
 * twice). Components page: "If grouped incorrectly, the API will return an error".
 */
function grouped(buttons: TemplateButton[]): boolean {
  let changes = 0;
  for (let i = 1; i < buttons.length; i++) if ((buttons[i]!.type === 'QUICK_REPLY') !== (buttons[i - 1]!.type === 'QUICK_REPLY')) changes++;
  return changes <= 1;
}

export function checkButtons(c: TemplateComponent, ctx: ButtonContext, path: Path, report: Report): void {
  const buttons = c.buttons ?? [];
  if (buttons.length === 0) return report([...path, 'buttons'], 'buttons_empty', 'A BUTTONS component needs at least one button');
  if (buttons.length > TEMPLATE_LIMITS.buttonsMax) {
    report([...path, 'buttons'], 'buttons_too_many', `At most ${TEMPLATE_LIMITS.buttonsMax} buttons; found ${buttons.length}`);
  }
  for (const [type, max, label] of TYPE_LIMITS) {
    const n = buttons.filter((b) => b.type === type).length;
    if (n > max) report([...path, 'buttons'], 'buttons_type_limit', `At most ${max} ${label} button(s); found ${n}`);
  }
  // MPM page: the template's buttons are "a single MPM button component".
  if (buttons.some((b) => b.type === 'MPM') && buttons.length > 1) {
    report([...path, 'buttons'], 'buttons_type_limit', 'A multi-product (MPM) template has exactly one button, the MPM button');
  }
  if (!grouped(buttons)) {
    report([...path, 'buttons'], 'buttons_not_grouped', 'Quick-reply buttons must be grouped together, all before or all after the other buttons');
  }
  buttons.forEach((b, i) => checkButton(b, ctx, [...path, 'buttons', i], report));
}
