import { randomBytes } from 'node:crypto';
import type { ProviderErrorObject } from '../errors';

/** Error objects in the provider's shape, so the client and our routes see what production sends. */
const trace = () => randomBytes(9).toString('base64url');

export interface GraphError {
  status: number;
  body: { error: ProviderErrorObject };
}

export function graphError(status: number, e: Partial<ProviderErrorObject> & { message: string }): GraphError {
  return { status, body: { error: { type: 'OAuthException', ...e, fbtrace_id: trace() } } };
}

export const missingToken = () => graphError(400, { message: 'An access token is required to request this resource.', code: 104 });

export const invalidToken = () => graphError(401, { message: 'Invalid OAuth access token - Cannot parse access token', code: 190 });

export const unknownObject = (id: string) =>
  graphError(400, {
    message: `Unsupported post request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
    type: 'GraphMethodException',
    code: 100,
    error_subcode: 33,
  });

export const missingParam = (name: string) => graphError(400, { message: `(#100) The parameter ${name} is required`, code: 100 });

export const invalidParam = (details: string) =>
  graphError(400, { message: 'Invalid parameter', code: 100, error_data: { messaging_product: 'whatsapp', details } });

export const duplicateTemplate = (name: string, language: string) =>
  graphError(400, {
    message: 'Invalid parameter',
    code: 100,
    error_subcode: 2388024,
    is_transient: false,
    error_user_title: 'Content in This Language Already Exists',
    error_user_msg: `There is already ${language} content for this template (${name}). You can create a new template and try again.`,
    error_data: { messaging_product: 'whatsapp', details: `Template ${name} already has content in ${language}` },
  });

/**
 * Validator issue codes to the provider's template subcodes. The numbers follow the
 * provider's template error reference where we know them; the rest share the generic
 * "invalid parameter" subcode. Unknown codes fall back to it.
 */
const SUBCODE_BY_ISSUE: [RegExp, number, string][] = [
  [/^placeholder_dangling$|^placeholder_at_(start|end)$/, 2388299, "Variables Can't Be at the Start or End of the Template"],
  [/^too_many_variables$/, 2388293, 'Too Many Variables For Message Length'],
  [/^text_too_long$|_too_long$/, 2388040, 'Message Template Character Limit Exceeded'],
  [/^footer_/, 2388073, 'Footer Format Incorrect'],
  [/^header_/, 2388047, 'Message Header Format Incorrect'],
  [/^placeholder_|^example_/, 2388072, 'Template Variables Format Incorrect'],
];

export function templateRejected(issues: { code: string; message: string; path?: unknown }[]): GraphError {
  const first = issues[0]!;
  const match = SUBCODE_BY_ISSUE.find(([re]) => re.test(first.code));
  return graphError(400, {
    message: 'Invalid parameter',
    code: 100,
    ...(match ? { error_subcode: match[1], error_user_title: match[2] } : {}),
    is_transient: false,
    error_user_msg: first.message,
    error_data: { messaging_product: 'whatsapp', details: issues.map((i) => i.message).join('; ') },
  });
}

export const templateNotFound = (name: string, language: string) =>
  graphError(404, {
    message: '(#132001) Template name does not exist in the translation',
    code: 132001,
    error_data: { messaging_product: 'whatsapp', details: `template name (${name}) does not exist in ${language}` },
  });

export const serverError = (status: number) =>
  graphError(status, { message: 'An unexpected error has occurred. Please retry your request later.', type: 'OAuthException', code: 2, is_transient: true });

export const notEditable = (status: string) =>
  graphError(400, {
    message: 'Invalid parameter',
    code: 100,
    is_transient: false,
    error_user_title: "Message Template Can't Be Edited",
    error_user_msg: `Message templates can only be edited when they are Approved, Rejected or Paused; this one is ${status}.`,
    error_data: { messaging_product: 'whatsapp', details: `template status ${status} does not allow edits` },
  });

// ---- message sends (texts from the provider's error-codes reference) ----

const sendError = (status: number, code: number, title: string, details: string) =>
  graphError(status, { message: `(#${code}) ${title}`, code, error_data: { messaging_product: 'whatsapp', details } });

export const rateLimitHit = () => sendError(400, 130429, 'Rate limit hit', 'Cloud API message throughput has been reached.');

export const pairRateLimitHit = () =>
  sendError(
    400,
    131056,
    '(Business Account, Consumer Account) pair rate limit hit',
    'Message failed to send because there were too many messages sent from this phone number to the same phone number in a short period of time.',
  );

export const reEngagement = () =>
  sendError(
    400,
    131047,
    'Re-engagement message',
    'Message failed to send because more than 24 hours have passed since the customer last replied to this number.',
  );

export const paramCountMismatch = (component: string, got: number, expected: number) =>
  sendError(
    400,
    132000,
    'Number of parameters does not match the expected number of params',
    `${component}: number of localizable_params (${got}) does not match the expected number of params (${expected})`,
  );

export const paramFormatMismatch = (expected: string, received: string) =>
  sendError(
    400,
    132012,
    'Parameter format does not match format in the created template',
    `header: Format mismatch, expected ${expected}, received ${received}`,
  );

export const templatePaused = (name: string) =>
  sendError(400, 132015, 'Template is Paused', `Template ${name} is paused due to low quality so it cannot be sent in a template message.`);

export const templateDisabled = (name: string) =>
  sendError(400, 132016, 'Template is Disabled', `Template ${name} has been paused too many times due to low quality and is now permanently disabled.`);

/** The generic transient failure: 500 carries code 1 ("API Unknown"), 503 code 2 ("API Service"). */
export const unexpectedError = (status: 500 | 503) =>
  graphError(status, {
    message: 'An unexpected error has occurred. Please retry your request later.',
    code: status === 503 ? 2 : 1,
    is_transient: true,
  });

/**
 * Asynchronous failures reported in a `failed` status (`errors[]` of the webhook), in the shape
 * of status-failed-131047.json. Unknown codes get a generic entry rather than a refusal, so a
 * benchmark can inject any code mos should handle.
 */
const ASYNC_ERRORS: Record<number, [title: string, details: string]> = {
  131026: [
    'Message undeliverable',
    'Unable to deliver message. Reasons can include: the recipient phone number is not a WhatsApp phone number, the recipient has not accepted the new Terms of Service, or the recipient uses an old WhatsApp version.',
  ],
  131047: ['Re-engagement message', 'Message failed to send because more than 24 hours have passed since the customer last replied to this number.'],
  131049: [
    'This message was not delivered to maintain healthy ecosystem engagement.',
    'In order to maintain a healthy ecosystem engagement, the message failed to be delivered.',
  ],
  131050: [
    'Unable to deliver the message. This recipient has chosen to stop receiving marketing messages on WhatsApp from your business.',
    'The recipient has chosen to stop receiving marketing messages from your business.',
  ],
  131053: ['Media upload error', 'Unable to upload the media used in the message.'],
  131000: ['Something went wrong', 'Message failed to send due to an unknown error.'],
};

export const ERROR_CODES_HREF = 'https://developers.facebook.com/docs/whatsapp/cloud-api/support/error-codes/';

export function asyncError(code: number) {
  const [title, details] = ASYNC_ERRORS[code] ?? ['Something went wrong', `Message failed to send (error ${code}).`];
  return { code, title, message: title, error_data: { details }, href: ERROR_CODES_HREF };
}
