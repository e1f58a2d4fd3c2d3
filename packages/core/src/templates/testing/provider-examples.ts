import { readdirSync, readFileSync } from 'node:fs';
import { componentsSchema, type TemplateDefinition } from '../schema';

/**
 * Test support (never imported by runtime code): the provider's own published template
 * creation bodies from docs/provider-reference/templates, each with the page it comes
 * from (docs/provider-reference/SOURCES.md), after the minimal repair its file name or
 * page calls for. Repairs are listed per example so a test failure points at them.
 */
export const PROVIDER_DOCS = 'https://developers.facebook.com/documentation/business-messaging/whatsapp';
export const DOC = {
  components: `${PROVIDER_DOCS}/templates/components`,
  overview: `${PROVIDER_DOCS}/templates/overview`,
  review: `${PROVIDER_DOCS}/templates/template-review`,
  ttl: `${PROVIDER_DOCS}/templates/time-to-live`,
  authentication: `${PROVIDER_DOCS}/templates/authentication-templates/authentication-templates`,
  oneTap: `${PROVIDER_DOCS}/templates/authentication-templates/autofill-button-authentication-templates`,
  zeroTap: `${PROVIDER_DOCS}/templates/authentication-templates/zero-tap-authentication-templates`,
  customMarketing: `${PROVIDER_DOCS}/templates/marketing-templates/custom-marketing-templates`,
  coupon: `${PROVIDER_DOCS}/templates/marketing-templates/coupon-templates`,
  lto: `${PROVIDER_DOCS}/templates/marketing-templates/limited-time-offer-templates`,
  catalog: `${PROVIDER_DOCS}/templates/marketing-templates/catalog-templates`,
  mpm: `${PROVIDER_DOCS}/templates/marketing-templates/mpm-templates`,
  spm: `${PROVIDER_DOCS}/templates/marketing-templates/spm-templates`,
  utility: `${PROVIDER_DOCS}/templates/utility-templates/utility-templates`,
  flows: `${PROVIDER_DOCS}/flows/guides/flows-templates`,
  sendingFlow: `${PROVIDER_DOCS}/flows/guides/sendingaflow`,
  callButton: `${PROVIDER_DOCS}/calling/call-button-messages-deep-links`,
} as const;

export type CreationBody = Record<string, unknown> & { name: string; language: string; category: string; components: unknown[] };

export interface ProviderExample {
  /** File under docs/provider-reference/templates (plus the language for bulk upserts). */
  id: string;
  source: string;
  /** The minimal repair applied, when the published JSON needed one. */
  repair?: string;
  body: CreationBody;
}

const DIR = new URL('../../../../../docs/provider-reference/templates/', import.meta.url);

const SOURCE_BY_FILE: Record<string, string> = {
  'authentication_one_tap_autofill.json': DOC.oneTap,
  'authentication_zero_tap.json': DOC.zeroTap,
  'authentication_upsert_copy_code_multi_language.json': DOC.authentication,
  'authentication_upsert_one_tap_multi_language.json': DOC.authentication,
  'marketing_catalog_intro_offer.json': DOC.catalog,
  'marketing_coupon_code_copy_code_quick_reply.json': DOC.coupon,
  'marketing_custom_welcome_discount_image_named_params.json': DOC.customMarketing,
  'marketing_flow_button_flow_json_INVALID_AS_PUBLISHED.json': DOC.flows,
  'marketing_limited_time_offer_image_copy_code_url_variable.json': DOC.lto,
  'marketing_mpm_abandoned_cart.json': DOC.mpm,
  'marketing_seasonal_promotion_text_header_quick_replies.json': DOC.components,
  'marketing_spm_named_params.json': DOC.spm,
  'utility_order_confirmation_document_header_phone_url.json': DOC.components,
  'utility_order_confirmation_named_body_ends_with_variable_period.json': DOC.overview,
  'utility_order_confirmation_positional.json': DOC.overview,
  'utility_order_delivery_update_location_header.json': DOC.components,
  'utility_reservation_confirmation_named_params.json': DOC.utility,
  'voice_call_button_template_PLACEHOLDERS.json': DOC.callButton,
};

const read = (name: string): string => readFileSync(new URL(name, DIR), 'utf8');

/** The published JSON is broken: a missing comma after navigate_screen and `\'`, which JSON has no escape for. */
function repairFlowExample(raw: string): CreationBody {
  return JSON.parse(raw.replace('"navigate_screen": "WELCOME_SCREEN"\n', '"navigate_screen": "WELCOME_SCREEN",\n').replaceAll("\\'", "'")) as CreationBody;
}

function repaired(file: string): Omit<ProviderExample, 'id' | 'source'>[] {
  const raw = read(file);
  if (file.endsWith('_INVALID_AS_PUBLISHED.json')) {
    return [{ repair: "added the missing comma after navigate_screen; \\' -> ' (not a JSON escape)", body: repairFlowExample(raw) }];
  }
  const body = JSON.parse(raw) as CreationBody;
  if (file.endsWith('_PLACEHOLDERS.json')) {
    return [
      {
        repair: 'filled the <NAME>, <CATEGORY>, <LANGUAGE> placeholders',
        body: { ...body, name: 'voice_call_button', category: 'UTILITY', language: 'en_US' },
      },
    ];
  }
  if (Array.isArray(body.languages)) {
    // upsert_message_templates takes `languages[]`; message_templates takes one `language`.
    const { languages, ...rest } = body as CreationBody & { languages: string[] };
    return languages.map((language) => ({ repair: `bulk upsert body: languages[] -> language ${language}`, body: { ...rest, language } as CreationBody }));
  }
  if (file === 'authentication_one_tap_autofill.json') {
    return [
      {
        repair: 'legacy button-level package_name/signature_hash (Graph <= v20.0) moved into supported_apps, as the same page documents',
        body: moveLegacyAppIntoSupportedApps(body),
      },
    ];
  }
  return [{ body }];
}

export function moveLegacyAppIntoSupportedApps(body: CreationBody): CreationBody {
  const components = (body.components as Record<string, unknown>[]).map((c) => {
    if (!Array.isArray(c.buttons)) return c;
    const buttons = (c.buttons as Record<string, unknown>[]).map(({ package_name, signature_hash, ...b }) =>
      package_name === undefined ? b : { ...b, supported_apps: [{ package_name, signature_hash }] },
    );
    return { ...c, buttons };
  });
  return { ...body, components };
}

/** Every whole creation body the provider publishes, repaired where needed. */
export function providerCreationExamples(): ProviderExample[] {
  return readdirSync(DIR)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .flatMap((file) => {
      const source = SOURCE_BY_FILE[file];
      if (!source) throw new Error(`no source recorded for ${file}: add it to SOURCE_BY_FILE`);
      const versions = repaired(file);
      return versions.map((v) => ({ id: versions.length > 1 ? `${file} (${v.body.language})` : file, source, ...v }));
    });
}

/** The published example exactly as it is (broken files excluded): for "refused as published" checks. */
export function providerExampleAsPublished(file: string): CreationBody {
  return JSON.parse(read(file)) as CreationBody;
}

/**
 * The components page's fragments (components/*.json), each set in the smallest template
 * around it: a body of plain text ("[ours]") and the category / parameter format the
 * fragment needs.
 */
export function providerComponentExamples(): ProviderExample[] {
  const frag = (f: string) => JSON.parse(read(`components/${f}`)) as Record<string, unknown>;
  const body = { type: 'BODY', text: 'Our new collection is here.' };
  const wrap = (file: string, components: unknown[], patch: Partial<CreationBody> = {}): ProviderExample => ({
    id: `components/${file}`,
    source: DOC.components,
    repair: 'fragment set in a minimal MARKETING template with a plain body',
    body: { name: 'component_example', language: 'en_US', category: 'MARKETING', components, ...patch },
  });
  return [
    wrap('header_text_named_param.json', [frag('header_text_named_param.json'), body], { parameter_format: 'NAMED' }),
    wrap('header_media_image.json', [frag('header_media_image.json'), body]),
    wrap('body_named_params.json', [frag('body_named_params.json')], { parameter_format: 'NAMED' }),
    wrap('button_copy_code.json', [body, { type: 'BUTTONS', buttons: [frag('button_copy_code.json')] }]),
    wrap('button_url_with_variable.json', [body, { type: 'BUTTONS', buttons: [frag('button_url_with_variable.json')] }]),
    wrap('buttons_phone_and_url.json', [body, frag('buttons_phone_and_url.json')]),
    wrap('buttons_voice_call_and_url.json', [body, frag('buttons_voice_call_and_url.json')]),
  ];
}

/**
 * A creation body as the validator sees it: components through the strict schema (which
 * throws, naming the field, on anything we do not model), enums upper-cased.
 */
export function toDefinition(body: CreationBody): TemplateDefinition {
  return {
    name: body.name,
    language: body.language,
    category: body.category.toUpperCase(),
    parameterFormat: typeof body.parameter_format === 'string' ? body.parameter_format.toUpperCase() : 'POSITIONAL',
    components: componentsSchema.parse(body.components),
    ...(typeof body.message_send_ttl_seconds === 'number' ? { messageSendTtlSeconds: body.message_send_ttl_seconds } : {}),
  };
}

/** Keys whose string values are enums the provider takes in either case. */
const ENUM_KEYS = new Set(['type', 'format', 'category', 'parameter_format', 'otp_type', 'flow_action']);

/** The same JSON with enum spellings upper-cased: "whole" means equal after this. */
export function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, ENUM_KEYS.has(k) && typeof v === 'string' ? v.toUpperCase() : canonical(v)]));
  }
  return value;
}
