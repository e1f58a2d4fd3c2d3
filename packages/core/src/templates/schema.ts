import { z } from 'zod';
import { safeString } from '../text';

/**
 * The provider's template creation shape, as stored in `templates.components` and sent on
 * creation. These zod schemas check *shape only* (types, bounded sizes, known field names):
 * drafts may be incomplete, so the provider's rules live in `validateTemplate`, not here.
 *
 * Every object is strict. A field we do not model is an error that names it, never a field
 * silently dropped: the create path sends exactly what was stored, and what was stored is
 * exactly what the caller sent (docs/templates.md, "Fields").
 */
export const TEMPLATE_CATEGORIES = ['MARKETING', 'UTILITY', 'AUTHENTICATION'] as const;
export type TemplateCategory = (typeof TEMPLATE_CATEGORIES)[number];

export const PARAMETER_FORMATS = ['POSITIONAL', 'NAMED'] as const;
export type ParameterFormat = (typeof PARAMETER_FORMATS)[number];

export const COMPONENT_TYPES = ['HEADER', 'BODY', 'FOOTER', 'BUTTONS', 'LIMITED_TIME_OFFER'] as const;
export const HEADER_FORMATS = ['TEXT', 'IMAGE', 'VIDEO', 'GIF', 'DOCUMENT', 'LOCATION', 'PRODUCT'] as const;
export const MEDIA_HEADER_FORMATS = ['IMAGE', 'VIDEO', 'GIF', 'DOCUMENT'] as const;
export const BUTTON_TYPES = ['QUICK_REPLY', 'URL', 'PHONE_NUMBER', 'COPY_CODE', 'OTP', 'FLOW', 'VOICE_CALL', 'CATALOG', 'MPM', 'SPM'] as const;
export type ButtonType = (typeof BUTTON_TYPES)[number];
export const OTP_TYPES = ['COPY_CODE', 'ONE_TAP', 'ZERO_TAP'] as const;
/** The provider documents these two in lower case (flows-templates page); stored lower case. */
export const FLOW_ACTIONS = ['navigate', 'data_exchange'] as const;

/** A string upper-cased, anything else untouched (zod reports the wrong type). */
export const upperCased = (v: unknown): unknown => (typeof v === 'string' ? v.toUpperCase() : v);

// The provider accepts lower-case enum spellings ("body", "quick_reply", "one_tap", "marketing");
// we store upper case, so the rules compare one spelling.
export const upperEnum = <T extends readonly [string, ...string[]]>(values: T) => z.preprocess(upperCased, z.enum(values));
const upper = upperEnum;
const lower = <T extends readonly [string, ...string[]]>(values: T) => z.preprocess((v) => (typeof v === 'string' ? v.toLowerCase() : v), z.enum(values));

// Bounds here are generous sanity limits against abuse, well above the provider's rules, so
// an over-long draft can still be saved and then explained by the validator.
const text = safeString().max(4096);
const short = safeString().max(512);
const namedParam = z.strictObject({ param_name: safeString().max(128), example: safeString().max(1024) });

/** One Android app allowed to receive a one-tap / zero-tap code. */
export const supportedAppSchema = z.strictObject({ package_name: short, signature_hash: short });

export const buttonSchema = z.strictObject({
  type: upper(BUTTON_TYPES),
  text: safeString().max(256).optional(),
  url: safeString().max(4096).optional(),
  phone_number: safeString().max(64).optional(),
  /** URL buttons: `[value]`; COPY_CODE buttons: the example code as a string. */
  example: z.union([z.array(safeString().max(2048)).max(10), safeString().max(2048)]).optional(),
  // OTP (AUTHENTICATION) buttons.
  otp_type: upper(OTP_TYPES).optional(),
  autofill_text: safeString().max(256).optional(),
  supported_apps: z.array(supportedAppSchema).max(20).optional(),
  zero_tap_terms_accepted: z.boolean().optional(),
  /** Graph API v20.0 and older only; kept so the validator can explain the fix (never dropped). */
  package_name: short.optional(),
  signature_hash: short.optional(),
  // FLOW buttons.
  flow_id: safeString().max(128).optional(),
  flow_name: safeString().max(512).optional(),
  /** The Flow JSON, encoded as a string, exactly as the provider takes it. */
  flow_json: safeString().max(200_000).optional(),
  flow_action: lower(FLOW_ACTIONS).optional(),
  navigate_screen: safeString().max(256).optional(),
});
export type TemplateButton = z.infer<typeof buttonSchema>;

export const componentSchema = z.strictObject({
  type: upper(COMPONENT_TYPES),
  format: upper(HEADER_FORMATS).optional(),
  text: text.optional(),
  example: z
    .strictObject({
      header_text: z.array(safeString().max(1024)).max(10).optional(),
      header_handle: z.array(safeString().max(4096)).max(10).optional(),
      header_text_named_params: z.array(namedParam).max(10).optional(),
      body_text: z
        .array(z.array(safeString().max(1024)).max(100))
        .max(10)
        .optional(),
      body_text_named_params: z.array(namedParam).max(100).optional(),
    })
    .optional(),
  buttons: z.array(buttonSchema).max(20).optional(),
  /** AUTHENTICATION only: the provider appends its preset security sentence. */
  add_security_recommendation: z.boolean().optional(),
  /** AUTHENTICATION only: the provider renders "This code expires in N minutes." */
  code_expiration_minutes: z.number().int().optional(),
  /** LIMITED_TIME_OFFER components only (MARKETING). */
  limited_time_offer: z.strictObject({ text: safeString().max(256).optional(), has_expiration: z.boolean().optional() }).optional(),
});
export type TemplateComponent = z.infer<typeof componentSchema>;

export const componentsSchema = z.array(componentSchema).max(10);

/** Everything the validator looks at. Fields are loose strings: it reports bad values. */
export interface TemplateDefinition {
  name: string;
  language: string;
  category: string;
  parameterFormat: string;
  components: TemplateComponent[];
  /** The provider's `message_send_ttl_seconds` (top level of the creation request). */
  messageSendTtlSeconds?: number | null;
}

/** One problem found by the validator; `path` points into the definition like zod's. */
export interface TemplateIssue {
  path: (string | number)[];
  code: TemplateIssueCode;
  message: string;
}

export const TEMPLATE_ISSUE_CODES = [
  'name_required',
  'name_invalid',
  'name_too_long',
  'language_unsupported',
  'category_invalid',
  'parameter_format_invalid',
  'ttl_invalid',
  'field_unknown',
  'component_duplicate',
  'component_not_allowed',
  'body_missing',
  'text_required',
  'text_too_long',
  'text_markdown',
  'header_format_invalid',
  'header_variables',
  'header_example_missing',
  'header_not_allowed',
  'footer_variables',
  'text_newline',
  'placeholder_invalid',
  'placeholder_sequence',
  'placeholder_adjacent',
  'placeholder_dangling',
  'too_many_variables',
  'example_missing',
  'example_mismatch',
  'example_invalid',
  'buttons_empty',
  'buttons_too_many',
  'buttons_type_limit',
  'buttons_not_grouped',
  'button_invalid',
  'button_not_allowed',
  'auth_invalid',
] as const;
export type TemplateIssueCode = (typeof TEMPLATE_ISSUE_CODES)[number];
