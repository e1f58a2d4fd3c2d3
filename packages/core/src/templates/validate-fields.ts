import type { ButtonType, TemplateComponent } from './schema';
import type { Path, Report } from './validate-text';

/**
 * Which fields belong where. The zod schemas already refuse names we do not know at all;
 * this refuses known names in the wrong place (a `url` on a quick reply, `buttons` on a
 * body), which the provider would not read as the caller meant. Sources: the creation
 * syntax of each component and button on the provider's pages (docs/templates.md).
 */
const COMPONENT_FIELDS: Record<string, readonly string[]> = {
  HEADER: ['type', 'format', 'text', 'example'],
  BODY: ['type', 'text', 'example', 'add_security_recommendation'],
  FOOTER: ['type', 'text', 'code_expiration_minutes'],
  BUTTONS: ['type', 'buttons'],
  LIMITED_TIME_OFFER: ['type', 'limited_time_offer'],
};

const EXAMPLE_FIELDS: Record<string, readonly string[]> = {
  HEADER: ['header_text', 'header_handle', 'header_text_named_params'],
  BODY: ['body_text', 'body_text_named_params'],
};

/** COPY_CODE has no `text`: "Copy code button text cannot be customized" (coupon page). */
const BUTTON_FIELDS: Record<ButtonType, readonly string[]> = {
  QUICK_REPLY: ['type', 'text'],
  URL: ['type', 'text', 'url', 'example'],
  PHONE_NUMBER: ['type', 'text', 'phone_number'],
  COPY_CODE: ['type', 'example'],
  OTP: ['type', 'otp_type', 'text', 'autofill_text', 'supported_apps', 'zero_tap_terms_accepted', 'package_name', 'signature_hash'],
  FLOW: ['type', 'text', 'flow_id', 'flow_name', 'flow_json', 'flow_action', 'navigate_screen'],
  VOICE_CALL: ['type', 'text'],
  CATALOG: ['type', 'text'],
  MPM: ['type', 'text'],
  SPM: ['type', 'text'],
};

/** Authentication-only settings (authentication templates page). */
const AUTH_ONLY = new Set(['add_security_recommendation', 'code_expiration_minutes']);

// Keys actually present: an explicit `undefined` (typed callers) is the same as absent.
const keysOf = (v: unknown): string[] =>
  v && typeof v === 'object' && !Array.isArray(v)
    ? Object.entries(v)
        .filter(([, x]) => x !== undefined)
        .map(([k]) => k)
    : [];

function misplaced(report: Report, path: Path, field: string, where: string): void {
  report([...path, field], 'field_unknown', `${field} is not a field of ${where}`);
}

export function checkFields(components: TemplateComponent[], category: string, report: Report): void {
  components.forEach((c, i) => {
    const path: Path = ['components', i];
    const allowed = COMPONENT_FIELDS[c.type];
    if (!allowed) return;
    for (const key of keysOf(c)) {
      if (!allowed.includes(key)) misplaced(report, path, key, `a ${c.type} component`);
      else if (AUTH_ONLY.has(key) && category !== 'AUTHENTICATION') {
        report([...path, key], 'field_unknown', `${key} is only for AUTHENTICATION templates`);
      }
    }
    const exampleFields = EXAMPLE_FIELDS[c.type] ?? [];
    for (const key of keysOf(c.example)) if (!exampleFields.includes(key)) misplaced(report, [...path, 'example'], key, `a ${c.type} example`);
    (c.buttons ?? []).forEach((b, j) => {
      const fields = BUTTON_FIELDS[b.type];
      if (!fields) return;
      for (const key of keysOf(b)) if (!fields.includes(key)) misplaced(report, [...path, 'buttons', j], key, `a ${b.type} button`);
    });
  });
}
