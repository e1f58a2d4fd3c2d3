import { describe, expect, it } from 'vitest';
import type { TemplateButton, TemplateComponent, TemplateDefinition, TemplateIssueCode } from './schema';
import { DOC, providerCreationExamples, toDefinition } from './testing/provider-examples';
import { validateTemplate } from './validate';

/**
 * The provider's documented rules as a table. Each row starts from one of the provider's
 * own published examples (docs/provider-reference/templates), changes one thing, and cites
 * the page (or the error subcode) the row comes from. `[]` means accepted.
 */
type Def = TemplateDefinition;
const examples = providerCreationExamples();
const ex = (file: string): Def => toDefinition(examples.find((e) => e.id === file)!.body);
const edit = (file: string, change: (d: Def) => void): Def => {
  const d = structuredClone(ex(file));
  change(d);
  return d;
};
const comp = (d: Def, type: string): TemplateComponent => d.components.find((c) => c.type === type)!;
const buttons = (d: Def): TemplateButton[] => comp(d, 'BUTTONS').buttons!;
const otp = (d: Def): TemplateButton => buttons(d)[0]!;
const app = { package_name: 'com.example.luckyshrub', signature_hash: 'K8a/AINcGX7' };

const SEASONAL = 'marketing_seasonal_promotion_text_header_quick_replies.json';
const WELCOME = 'marketing_custom_welcome_discount_image_named_params.json';
const COUPON = 'marketing_coupon_code_copy_code_quick_reply.json';
const LTO = 'marketing_limited_time_offer_image_copy_code_url_variable.json';
const ZERO_TAP = 'authentication_zero_tap.json';
const ONE_TAP = 'authentication_one_tap_autofill.json';
const FLOW = 'marketing_flow_button_flow_json_INVALID_AS_PUBLISHED.json';
const MPM = 'marketing_mpm_abandoned_cart.json';
const SPM = 'marketing_spm_named_params.json';
const CATALOG = 'marketing_catalog_intro_offer.json';
const ORDER_NAMED = 'utility_order_confirmation_named_body_ends_with_variable_period.json';
const DELIVERY = 'utility_order_delivery_update_location_header.json';
const VOICE = 'voice_call_button_template_PLACEHOLDERS.json';

const qr: TemplateButton = { type: 'QUICK_REPLY', text: 'Unsubscribe' };
const url: TemplateButton = { type: 'URL', text: 'Shop Now', url: 'https://www.luckyshrub.com/shop/' };
const phone: TemplateButton = { type: 'PHONE_NUMBER', text: 'Call', phone_number: '15550051310' };
const setButtons = (file: string, list: TemplateButton[]) => edit(file, (d) => void (comp(d, 'BUTTONS').buttons = list));

type Row = [rule: string, source: string, def: Def, codes: TemplateIssueCode[]];

const buttonRows: Row[] = [
  ['quick replies only', DOC.components, ex(SEASONAL), []],
  ['QR, QR, URL, Phone is a valid grouping', DOC.components, setButtons(SEASONAL, [qr, { ...qr, text: 'Stop' }, url, phone]), []],
  ['URL, Phone, QR, QR is a valid grouping', DOC.components, setButtons(SEASONAL, [url, phone, qr, { ...qr, text: 'Stop' }]), []],
  ['QR, URL, QR is an invalid grouping', DOC.components, setButtons(SEASONAL, [qr, url, { ...qr, text: 'Stop' }]), ['buttons_not_grouped']],
  ['URL, QR, URL is an invalid grouping', DOC.components, setButtons(SEASONAL, [url, qr, { ...url, text: 'More' }]), ['buttons_not_grouped']],
  ['a line break in button text', DOC.components, setButtons(SEASONAL, [{ ...qr, text: 'Stop\npromos' }]), ['text_newline']],
  ['button text: 25 characters', DOC.components, setButtons(SEASONAL, [{ ...qr, text: 'b'.repeat(25) }]), []],
  ['button text: 26 characters', DOC.components, setButtons(SEASONAL, [{ ...qr, text: 'b'.repeat(26) }]), ['text_too_long']],
  ["copy code example of 20 characters (the page's own)", DOC.coupon, ex(COUPON), []],
  ['copy code example of 21 characters', DOC.coupon, edit(COUPON, (d) => void (buttons(d)[1]!.example = 'fLBponPDsqF0KQThzkrfX')), ['button_invalid']],
  ['copy code text cannot be customized', DOC.coupon, edit(COUPON, (d) => void (buttons(d)[1]!.text = 'Copy')), ['field_unknown']],
  ['copy code only in MARKETING', DOC.coupon, edit(COUPON, (d) => void (d.category = 'UTILITY')), ['button_not_allowed']],
  [
    'offer code at most 15 characters in a limited-time offer',
    DOC.lto,
    edit(LTO, (d) => void (buttons(d)[0]!.example = 'CARIBE25CARIBE25')),
    ['button_invalid'],
  ],
  ['URL with {{1}} and a full-URL example', DOC.lto, ex(LTO), []],
  [
    'a named URL variable in a NAMED template',
    DOC.customMarketing,
    edit(WELCOME, (d) => Object.assign(buttons(d)[0]!, { url: 'https://www.luckyshrub.com/deals/{{deal_code}}', example: ['summer2023'] })),
    [],
  ],
  [
    '{{1}} in the URL of a NAMED template',
    DOC.components,
    edit(WELCOME, (d) => Object.assign(buttons(d)[0]!, { url: 'https://www.luckyshrub.com/shop?promo={{1}}', example: ['summer2023'] })),
    [],
  ],
  [
    'a named URL variable in a POSITIONAL template',
    DOC.components,
    setButtons(SEASONAL, [{ ...url, url: 'https://www.luckyshrub.com/shop?promo={{promo}}', example: ['summer2023'] }]),
    ['button_invalid'],
  ],
  [
    'the URL variable is appended to the end',
    DOC.components,
    setButtons(SEASONAL, [{ ...url, url: 'https://www.luckyshrub.com/{{1}}/shop', example: ['summer2023'] }]),
    ['button_invalid'],
  ],
  [
    'a URL variable needs an example',
    DOC.components,
    setButtons(SEASONAL, [{ ...url, url: 'https://www.luckyshrub.com/shop?promo={{1}}' }]),
    ['example_missing'],
  ],
  ['voice call button with a URL button', DOC.callButton, ex(VOICE), []],
  ['catalog button', DOC.catalog, ex(CATALOG), []],
  ['catalog only in MARKETING', DOC.catalog, edit(CATALOG, (d) => void (d.category = 'UTILITY')), ['button_not_allowed']],
  ['MPM template', DOC.mpm, ex(MPM), []],
  ['MPM is the single button', DOC.mpm, setButtons(MPM, [{ type: 'MPM', text: 'View items' }, qr]), ['buttons_type_limit']],
  ['MPM needs a header', DOC.mpm, edit(MPM, (d) => void d.components.splice(0, 1)), ['header_format_invalid']],
  ['MPM only in MARKETING', DOC.mpm, edit(MPM, (d) => void (d.category = 'UTILITY')), ['button_not_allowed']],
  ['SPM template with a PRODUCT header', DOC.spm, ex(SPM), []],
  [
    'SPM needs a PRODUCT header',
    DOC.spm,
    edit(SPM, (d) => void (d.components[0] = { type: 'HEADER', format: 'TEXT', text: 'New arrival' })),
    ['header_format_invalid'],
  ],
  ['a PRODUCT header belongs to an SPM template', DOC.spm, setButtons(SPM, [qr]), ['header_format_invalid']],
  [
    'SPM card body at most 160 characters',
    DOC.spm,
    edit(SPM, (d) => void (comp(d, 'BODY').text = `Use code {{code}} to get {{percent}} off ${'x'.repeat(120)}`)),
    ['text_too_long'],
  ],
];

const flowRows: Row[] = [
  ['FLOW with flow_json, navigate and its screen', DOC.flows, ex(FLOW), []],
  [
    'FLOW by flow_name, flow_action defaulted',
    DOC.sendingFlow,
    setButtons(FLOW, [{ type: 'FLOW', text: 'Open flow!', flow_name: 'appointment_booking_v1' }]),
    [],
  ],
  [
    'FLOW data_exchange by flow_id needs no screen',
    DOC.flows,
    setButtons(FLOW, [{ type: 'FLOW', text: 'Sign up', flow_id: '123456', flow_action: 'data_exchange' }]),
    [],
  ],
  ['FLOW with both flow_id and flow_json', DOC.flows, edit(FLOW, (d) => void (otp(d).flow_id = '123456')), ['button_invalid']],
  ['FLOW with none of flow_id, flow_name, flow_json', DOC.flows, edit(FLOW, (d) => void delete otp(d).flow_json), ['button_invalid']],
  ['navigate needs navigate_screen', DOC.flows, edit(FLOW, (d) => void delete otp(d).navigate_screen), ['button_invalid']],
  ['flow_json is Flow JSON as a string', DOC.flows, edit(FLOW, (d) => void (otp(d).flow_json = '{"version": "3.1",')), ['button_invalid']],
];

const authRows: Row[] = [
  ['zero-tap as published', DOC.zeroTap, ex(ZERO_TAP), []],
  ['one-tap with supported_apps', DOC.oneTap, ex(ONE_TAP), []],
  ['zero-tap needs zero_tap_terms_accepted', DOC.zeroTap, edit(ZERO_TAP, (d) => void delete otp(d).zero_tap_terms_accepted), ['auth_invalid']],
  ['zero-tap with terms not accepted is not created', DOC.zeroTap, edit(ZERO_TAP, (d) => void (otp(d).zero_tap_terms_accepted = false)), ['auth_invalid']],
  ['zero-tap needs supported_apps', DOC.zeroTap, edit(ZERO_TAP, (d) => void delete otp(d).supported_apps), ['auth_invalid']],
  ['one-tap needs supported_apps', DOC.oneTap, edit(ONE_TAP, (d) => void delete otp(d).supported_apps), ['auth_invalid']],
  ['supported_apps: up to 5', DOC.oneTap, edit(ONE_TAP, (d) => void (otp(d).supported_apps = Array.from({ length: 5 }, () => app))), []],
  ['supported_apps: 6 is too many', DOC.oneTap, edit(ONE_TAP, (d) => void (otp(d).supported_apps = Array.from({ length: 6 }, () => app))), ['auth_invalid']],
  [
    'package_name: two segments at least',
    DOC.oneTap,
    edit(ONE_TAP, (d) => void (otp(d).supported_apps = [{ ...app, package_name: 'luckyshrub' }])),
    ['auth_invalid'],
  ],
  [
    'package_name: each segment starts with a letter',
    DOC.oneTap,
    edit(ONE_TAP, (d) => void (otp(d).supported_apps = [{ ...app, package_name: 'com.1example' }])),
    ['auth_invalid'],
  ],
  [
    'package_name: [a-zA-Z0-9_] only',
    DOC.oneTap,
    edit(ONE_TAP, (d) => void (otp(d).supported_apps = [{ ...app, package_name: 'com.example-shrub' }])),
    ['auth_invalid'],
  ],
  ['package_name: 224 characters', DOC.oneTap, edit(ONE_TAP, (d) => void (otp(d).supported_apps = [{ ...app, package_name: `com.${'a'.repeat(220)}` }])), []],
  [
    'package_name: 225 characters',
    DOC.oneTap,
    edit(ONE_TAP, (d) => void (otp(d).supported_apps = [{ ...app, package_name: `com.${'a'.repeat(221)}` }])),
    ['auth_invalid'],
  ],
  [
    'signature_hash: 10 characters',
    DOC.oneTap,
    edit(ONE_TAP, (d) => void (otp(d).supported_apps = [{ ...app, signature_hash: 'K8a/AINcGX' }])),
    ['auth_invalid'],
  ],
  [
    'signature_hash: 12 characters',
    DOC.oneTap,
    edit(ONE_TAP, (d) => void (otp(d).supported_apps = [{ ...app, signature_hash: 'K8a/AINcGX7a' }])),
    ['auth_invalid'],
  ],
  [
    'signature_hash: [a-zA-Z0-9+/=] only',
    DOC.oneTap,
    edit(ONE_TAP, (d) => void (otp(d).supported_apps = [{ ...app, signature_hash: 'K8a-AINcGX7' }])),
    ['auth_invalid'],
  ],
  [
    'button-level package_name/signature_hash (v20.0 and older only)',
    DOC.oneTap,
    edit(ONE_TAP, (d) => void Object.assign(otp(d), app)),
    ['auth_invalid', 'auth_invalid'],
  ],
  ['autofill_text: 25 characters', DOC.oneTap, edit(ONE_TAP, (d) => void (otp(d).autofill_text = 'a'.repeat(25))), []],
  ['autofill_text: 26 characters', DOC.oneTap, edit(ONE_TAP, (d) => void (otp(d).autofill_text = 'a'.repeat(26))), ['text_too_long']],
  ['code_expiration_minutes: 90', DOC.oneTap, edit(ONE_TAP, (d) => void (comp(d, 'FOOTER').code_expiration_minutes = 90)), []],
  ['code_expiration_minutes: 91', DOC.oneTap, edit(ONE_TAP, (d) => void (comp(d, 'FOOTER').code_expiration_minutes = 91)), ['auth_invalid']],
  [
    'no header (a location header) on AUTHENTICATION',
    DOC.components,
    edit(ZERO_TAP, (d) => void d.components.unshift({ type: 'HEADER', format: 'LOCATION' })),
    ['header_not_allowed'],
  ],
];

const ttl = (file: string, seconds: number) => edit(file, (d) => void (d.messageSendTtlSeconds = seconds));
const ttlRows: Row[] = [
  ['AUTHENTICATION TTL 30', DOC.ttl, ttl(ZERO_TAP, 30), []],
  ['AUTHENTICATION TTL 29', DOC.ttl, ttl(ZERO_TAP, 29), ['ttl_invalid']],
  ['AUTHENTICATION TTL 900', DOC.ttl, ttl(ZERO_TAP, 900), []],
  ['AUTHENTICATION TTL 901', DOC.ttl, ttl(ZERO_TAP, 901), ['ttl_invalid']],
  ['AUTHENTICATION TTL -1 (30 days)', DOC.ttl, ttl(ZERO_TAP, -1), []],
  ['UTILITY TTL 43200', DOC.ttl, ttl(ORDER_NAMED, 43_200), []],
  ['UTILITY TTL 43201', DOC.ttl, ttl(ORDER_NAMED, 43_201), ['ttl_invalid']],
  ['MARKETING TTL 43199', DOC.ttl, ttl(SEASONAL, 43_199), ['ttl_invalid']],
  ['MARKETING TTL 2592000', DOC.ttl, ttl(SEASONAL, 2_592_000), []],
  ['MARKETING TTL -1 (not offered)', DOC.ttl, ttl(SEASONAL, -1), ['ttl_invalid']],
];

const setBody = (file: string, text: string, examples?: string[]) =>
  edit(file, (d) => Object.assign(comp(d, 'BODY'), { text, example: examples ? { body_text: [examples] } : undefined }));
const textRows: Row[] = [
  ['a body ending "{{order_number}}." (the overview\'s own example)', DOC.overview, ex(ORDER_NAMED), []],
  [
    'a body ending with a variable (subcode 2388299)',
    DOC.review,
    edit(ORDER_NAMED, (d) => void (comp(d, 'BODY').text = 'Thank you, {{first_name}}! Your order number is {{order_number}}')),
    ['placeholder_dangling'],
  ],
  [
    'a body starting with a variable (subcode 2388299)',
    DOC.review,
    edit(ORDER_NAMED, (d) => void (comp(d, 'BODY').text = '{{first_name}}, thank you! Your order number is {{order_number}}.')),
    ['placeholder_dangling'],
  ],
  [
    'mismatched curly braces',
    DOC.review,
    setBody(SEASONAL, 'Shop now through {{1} and use code {{2}} to get {{3}} off of all merchandise.', ['a', 'b', 'c']),
    ['placeholder_invalid'],
  ],
  ['special characters in a parameter', DOC.review, setBody(SEASONAL, 'Shop now through {{#1}} and enjoy our offers today.', ['a']), ['placeholder_invalid']],
  [
    'non-sequential parameters {{1}}, {{2}}, {{5}}, {{4}}',
    DOC.review,
    setBody(SEASONAL, 'Hi {{1}}, order {{2}} ships {{5}} via {{4}} to your home address today, thanks for shopping with us.', ['a', 'b', 'c', 'd']),
    ['placeholder_sequence'],
  ],
  [
    'too many parameters for the length (subcode 2388293)',
    DOC.review,
    setBody(SEASONAL, 'Dear {{1}}, {{2}} and {{3}} ok.', ['a', 'b', 'c']),
    ['too_many_variables'],
  ],
  [
    'parameters next to each other (rejection_info of the status webhook)',
    DOC.review,
    setBody(SEASONAL, 'Shop now through {{1}}{{2}} and enjoy our offers today.', ['a', 'b']),
    ['placeholder_adjacent'],
  ],
  ['markdown * in a text header', DOC.components, edit(SEASONAL, (d) => void (comp(d, 'HEADER').text = 'Our *{{1}}* is on!')), ['text_markdown']],
  ['markdown _ in a text header', DOC.components, edit(SEASONAL, (d) => void (comp(d, 'HEADER').text = 'Our _{{1}}_ is on!')), ['text_markdown']],
  ['markdown ~ in a text header', DOC.components, edit(SEASONAL, (d) => void (comp(d, 'HEADER').text = 'Our ~old~ {{1}} is on!')), ['text_markdown']],
  ['markdown ` in a text header', DOC.components, edit(SEASONAL, (d) => void (comp(d, 'HEADER').text = 'Our `{{1}}` is on!')), ['text_markdown']],
  ['markdown in the body is fine', DOC.customMarketing, ex(WELCOME), []],
  [
    'a line break in a body example (error 132018)',
    DOC.components,
    setBody(SEASONAL, 'Shop now through {{1}} and use code {{2}} to get {{3}} off of all merchandise.', ['the end\nof August', '25OFF', '25%']),
    ['example_invalid'],
  ],
  [
    'a tab in a body example (error 132018)',
    DOC.components,
    setBody(SEASONAL, 'Shop now through {{1}} and use code {{2}} to get {{3}} off of all merchandise.', ['the end\tof August', '25OFF', '25%']),
    ['example_invalid'],
  ],
  [
    '5 consecutive spaces in a body example (error 132018: "more than 4")',
    DOC.components,
    setBody(SEASONAL, 'Shop now through {{1}} and use code {{2}} to get {{3}} off of all merchandise.', ['the end     of August', '25OFF', '25%']),
    ['example_invalid'],
  ],
  [
    '4 consecutive spaces in a body example',
    DOC.components,
    setBody(SEASONAL, 'Shop now through {{1}} and use code {{2}} to get {{3}} off of all merchandise.', ['the end    of August', '25OFF', '25%']),
    [],
  ],
  [
    'a line break in a header example (error 132018)',
    DOC.components,
    edit(SEASONAL, (d) => void (comp(d, 'HEADER').example = { header_text: ['Summer\nSale'] })),
    ['example_invalid'],
  ],
  [
    'a line break in a named example (error 132018)',
    DOC.overview,
    edit(ORDER_NAMED, (d) => void (comp(d, 'BODY').example!.body_text_named_params![0]!.example = 'Pab\nlo')),
    ['example_invalid'],
  ],
  [
    'a tab in a URL example (error 132018)',
    DOC.lto,
    edit(LTO, (d) => void (buttons(d)[1]!.example = ['https://awesomedestinations.com/offers?ref=\tn3mtql'])),
    ['example_invalid'],
  ],
];

const padTo = (text: string, length: number) => `${text} ${'x'.repeat(length - text.length - 1)}`;
const componentRows: Row[] = [
  ['location header in UTILITY', DOC.components, ex(DELIVERY), []],
  ['location header in MARKETING', DOC.components, edit(DELIVERY, (d) => void (d.category = 'MARKETING')), []],
  ['GIF header in MARKETING', DOC.components, edit(WELCOME, (d) => void (comp(d, 'HEADER').format = 'GIF')), []],
  [
    'GIF header only for marketing messages',
    DOC.components,
    edit(WELCOME, (d) => {
      d.category = 'UTILITY';
      comp(d, 'HEADER').format = 'GIF';
    }),
    ['header_format_invalid'],
  ],
  ['limited-time offer as published', DOC.lto, ex(LTO), []],
  ['limited-time offer only in MARKETING', DOC.lto, edit(LTO, (d) => void (d.category = 'UTILITY')), ['component_not_allowed', 'button_not_allowed']],
  ['limited-time offer without footer', DOC.lto, edit(LTO, (d) => void d.components.push({ type: 'FOOTER', text: 'Terms apply' })), ['component_not_allowed']],
  [
    'limited-time offer text at most 16 characters',
    DOC.lto,
    edit(LTO, (d) => void (comp(d, 'LIMITED_TIME_OFFER').limited_time_offer!.text = 'Expiring offer!!!')),
    ['text_too_long'],
  ],
  ['limited-time offer header is IMAGE or VIDEO', DOC.lto, edit(LTO, (d) => void (comp(d, 'HEADER').format = 'DOCUMENT')), ['header_format_invalid']],
  ['limited-time offer body: 600 characters', DOC.lto, edit(LTO, (d) => void (comp(d, 'BODY').text = padTo(comp(d, 'BODY').text!, 600))), []],
  ['limited-time offer body: 601 characters', DOC.lto, edit(LTO, (d) => void (comp(d, 'BODY').text = padTo(comp(d, 'BODY').text!, 601))), ['text_too_long']],
  ['a url on a quick reply', DOC.components, setButtons(SEASONAL, [{ ...qr, url: 'https://www.luckyshrub.com/' }]), ['field_unknown']],
  [
    'add_security_recommendation outside AUTHENTICATION',
    DOC.authentication,
    edit(SEASONAL, (d) => void (comp(d, 'BODY').add_security_recommendation = true)),
    ['field_unknown'],
  ],
  [
    'code_expiration_minutes outside AUTHENTICATION',
    DOC.authentication,
    edit(SEASONAL, (d) => void (comp(d, 'FOOTER').code_expiration_minutes = 10)),
    ['field_unknown'],
  ],
  ['text on a media header', DOC.components, edit(WELCOME, (d) => void (comp(d, 'HEADER').text = 'Welcome')), ['field_unknown']],
  ['body examples on a header', DOC.components, edit(SEASONAL, (d) => void (comp(d, 'HEADER').example!.body_text = [['x']])), ['field_unknown']],
];

describe.each([
  ['buttons', buttonRows],
  ['flow buttons', flowRows],
  ['authentication', authRows],
  ['time-to-live', ttlRows],
  ['text and parameters', textRows],
  ['components', componentRows],
] as const)('documented rules: %s', (_group, rows) => {
  it.each(rows.map((r) => [r[0], r] as const))('%s', (_rule, [, source, def, want]) => {
    expect(
      validateTemplate(def).map((i) => i.code),
      source,
    ).toEqual(want);
  });
});
