import { z } from 'zod';
import { safeString } from '../text';

/**
 * The provider's template component schema, as stored in `templates.components` and sent
 * on creation. These zod schemas check *shape only* (types, bounded sizes): drafts may be
 * incomplete, so the provider's rules live in `validateTemplate`, not here.
 */
export const TEMPLATE_CATEGORIES = ['MARKETING', 'UTILITY', 'AUTHENTICATION'] as const;
export type TemplateCategory = (typeof TEMPLATE_CATEGORIES)[number];

export const PARAMETER_FORMATS = ['POSITIONAL', 'NAMED'] as const;
export type ParameterFormat = (typeof PARAMETER_FORMATS)[number];

export const COMPONENT_TYPES = ['HEADER', 'BODY', 'FOOTER', 'BUTTONS'] as const;
export const HEADER_FORMATS = ['TEXT', 'IMAGE', 'VIDEO', 'DOCUMENT', 'LOCATION'] as const;
export const BUTTON_TYPES = ['QUICK_REPLY', 'URL', 'PHONE_NUMBER', 'COPY_CODE', 'OTP'] as const;
export const OTP_TYPES = ['COPY_CODE', 'ONE_TAP', 'ZERO_TAP'] as const;

// The provider accepts lower-case enum spellings ("body", "quick_reply"); we store upper case.
const upper = <T extends readonly [string, ...string[]]>(values: T) =>
  z.preprocess((v) => (typeof v === 'string' ? v.toUpperCase() : v), z.enum(values));

// Bounds here are generous sanity limits against abuse, well above the provider's rules, so
// an over-long draft can still be saved and then explained by the validator.
const text = safeString().max(4096);
const namedParam = z.object({ param_name: safeString().max(128), example: safeString().max(1024) });

export const buttonSchema = z.object({
  type: upper(BUTTON_TYPES),
  text: safeString().max(256).optional(),
  url: safeString().max(4096).optional(),
  phone_number: safeString().max(64).optional(),
  example: z.union([z.array(safeString().max(2048)).max(10), safeString().max(2048)]).optional(),
  otp_type: upper(OTP_TYPES).optional(),
});
export type TemplateButton = z.infer<typeof buttonSchema>;

export const componentSchema = z.object({
  type: upper(COMPONENT_TYPES),
  format: upper(HEADER_FORMATS).optional(),
  text: text.optional(),
  example: z
    .object({
      header_text: z.array(safeString().max(1024)).max(10).optional(),
      header_handle: z.array(safeString().max(4096)).max(10).optional(),
      header_text_named_params: z.array(namedParam).max(10).optional(),
      body_text: z.array(z.array(safeString().max(1024)).max(100)).max(10).optional(),
      body_text_named_params: z.array(namedParam).max(100).optional(),
    })
    .optional(),
  buttons: z.array(buttonSchema).max(20).optional(),
  /** AUTHENTICATION only: the provider appends its preset security sentence. */
  add_security_recommendation: z.boolean().optional(),
  /** AUTHENTICATION only: the provider renders "This code expires in N minutes." */
  code_expiration_minutes: z.number().int().optional(),
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
  'component_duplicate',
  'body_missing',
  'text_required',
  'text_too_long',
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
  'buttons_empty',
  'buttons_too_many',
  'buttons_type_limit',
  'buttons_not_grouped',
  'button_invalid',
  'auth_invalid',
] as const;
export type TemplateIssueCode = (typeof TEMPLATE_ISSUE_CODES)[number];
