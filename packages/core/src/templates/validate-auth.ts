import { TEMPLATE_LIMITS } from './limits';
import { OTP_TYPES, type TemplateButton, type TemplateComponent } from './schema';
import type { Path, Report } from './validate-text';

/**
 * Android package name (one-tap and zero-tap pages): at least two dot-separated segments,
 * each starting with a letter, characters [a-zA-Z0-9_], at most 224 characters.
 */
const PACKAGE_NAME = /^[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)+$/;
/** App signing key hash: exactly 11 characters of [a-zA-Z0-9+/=]. */
const SIGNATURE_HASH = /^[A-Za-z0-9+/=]{11}$/;

function checkSupportedApps(b: TemplateButton, path: Path, report: Report): void {
  const apps = b.supported_apps ?? [];
  if (apps.length === 0) {
    return report([...path, 'supported_apps'], 'auth_invalid', `${b.otp_type} buttons need supported_apps: your Android app's package_name and signature_hash`);
  }
  if (apps.length > TEMPLATE_LIMITS.supportedAppsMax) {
    report([...path, 'supported_apps'], 'auth_invalid', `supported_apps holds at most ${TEMPLATE_LIMITS.supportedAppsMax} apps; found ${apps.length}`);
  }
  apps.forEach((app, i) => {
    const at = [...path, 'supported_apps', i];
    if (!PACKAGE_NAME.test(app.package_name) || app.package_name.length > TEMPLATE_LIMITS.packageNameMax) {
      report(
        [...at, 'package_name'],
        'auth_invalid',
        'package_name needs two or more dot-separated segments, each starting with a letter, using only letters, digits and _ (at most 224 characters)',
      );
    }
    if (!SIGNATURE_HASH.test(app.signature_hash)) {
      report([...at, 'signature_hash'], 'auth_invalid', 'signature_hash is exactly 11 characters of letters, digits, +, / or =');
    }
  });
}

/**
 * The OTP button. Decision on the legacy form (package_name / signature_hash directly on the
 * button): the provider accepted it only up to Graph API v20.0 and "will stop supporting
 * this method starting with version 21.0"; we call v23.0, so it is refused with the fix
 * (move the pair into supported_apps) rather than sent to be rejected there.
 */
function checkOtp(b: TemplateButton, path: Path, report: Report): void {
  if (b.text !== undefined && b.text.length > TEMPLATE_LIMITS.buttonTextMax) {
    report([...path, 'text'], 'text_too_long', `Button text is ${b.text.length} characters; the maximum is ${TEMPLATE_LIMITS.buttonTextMax}`);
  }
  if (b.autofill_text !== undefined && b.autofill_text.length > TEMPLATE_LIMITS.autofillTextMax) {
    report(
      [...path, 'autofill_text'],
      'text_too_long',
      `autofill_text is ${b.autofill_text.length} characters; the maximum is ${TEMPLATE_LIMITS.autofillTextMax}`,
    );
  }
  for (const legacy of ['package_name', 'signature_hash'] as const) {
    if (b[legacy] !== undefined) {
      report(
        [...path, legacy],
        'auth_invalid',
        `${legacy} on the button itself was only accepted up to Graph API v20.0; put package_name and signature_hash in supported_apps`,
      );
    }
  }
  if (b.otp_type === 'ONE_TAP' || b.otp_type === 'ZERO_TAP') checkSupportedApps(b, path, report);
  if (b.otp_type === 'ZERO_TAP' && b.zero_tap_terms_accepted !== true) {
    report([...path, 'zero_tap_terms_accepted'], 'auth_invalid', 'Zero-tap templates are only created with zero_tap_terms_accepted: true');
  }
}

/**
 * AUTHENTICATION templates use the provider's preset text ("<code> is your verification
 * code."), an optional security sentence and expiry footer, and exactly one OTP button.
 * Custom text, headers, media and URLs are not allowed.
 */
export function checkAuthentication(components: TemplateComponent[], report: Report): void {
  components.forEach((c, i) => {
    const path: Path = ['components', i];
    if (c.type === 'HEADER') report(path, 'header_not_allowed', 'AUTHENTICATION templates cannot have a header');
    if (c.type === 'LIMITED_TIME_OFFER') report(path, 'component_not_allowed', 'Limited-time offers are only for MARKETING templates');
    if (c.type === 'BODY' && c.text !== undefined && c.text.trim() !== '') {
      report([...path, 'text'], 'auth_invalid', 'AUTHENTICATION body text is preset by the provider; leave text empty');
    }
    if (c.type === 'FOOTER') {
      if (c.text !== undefined && c.text.trim() !== '') report([...path, 'text'], 'auth_invalid', 'AUTHENTICATION footers only take code_expiration_minutes');
      const m = c.code_expiration_minutes;
      const { min, max } = TEMPLATE_LIMITS.codeExpirationMinutes;
      if (m !== undefined && (m < min || m > max))
        report([...path, 'code_expiration_minutes'], 'auth_invalid', `code_expiration_minutes must be ${min} to ${max}`);
    }
  });
  const index = components.findIndex((c) => c.type === 'BUTTONS');
  const buttons = index >= 0 ? (components[index]!.buttons ?? []) : [];
  const path: Path = index >= 0 ? ['components', index, 'buttons'] : ['components'];
  const otp = buttons[0];
  if (buttons.length !== 1 || otp?.type !== 'OTP' || !otp.otp_type || !(OTP_TYPES as readonly string[]).includes(otp.otp_type)) {
    report(path, 'auth_invalid', `AUTHENTICATION templates need exactly one OTP button with otp_type ${OTP_TYPES.join(', ')}`);
    return;
  }
  checkOtp(otp, [...path, 0], report);
}
