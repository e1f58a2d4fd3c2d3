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
