import { placeholderNames } from '@mos/core';
import { digitsOf } from './config';
import * as E from './graph-errors';
import type { SimStore, SimTemplate } from './store';

export const SEND_TYPES = ['text', 'template', 'image', 'document', 'audio', 'video', 'interactive'] as const;
export type SendType = (typeof SEND_TYPES)[number];
const MEDIA = new Set<string>(['image', 'document', 'audio', 'video']);

export interface ParsedSend {
  to: string;
  waId: string;
  type: SendType;
  body: Record<string, unknown>;
  callbackData?: string;
  template?: { name: string; code: string; components: unknown[] };
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const nonEmpty = (v: unknown): v is string => typeof v === 'string' && v.length > 0;

/** The request checks the provider makes before anything else: product, recipient, type and the type's payload. */
export function parseSend(raw: unknown): ParsedSend | { error: E.GraphError } {
  const body = isObj(raw) ? raw : {};
  if (body.messaging_product === undefined) return { error: E.missingParam('messaging_product') };
  if (body.messaging_product !== 'whatsapp') return { error: E.invalidParam('Param messaging_product must be one of {WHATSAPP}') };
  if (!nonEmpty(body.to)) return { error: E.missingParam('to') };
  const waId = digitsOf(body.to);
  if (!waId) return { error: E.invalidParam(`Param to must be a phone number, got "${body.to.slice(0, 40)}"`) };
  // The provider's default when `type` is left out.
  const type = body.type ?? 'text';
  if (typeof type !== 'string' || !(SEND_TYPES as readonly string[]).includes(type))
    return { error: E.invalidParam(`Param type must be one of {${SEND_TYPES.join(', ').toUpperCase()}} - got "${String(type).slice(0, 40)}"`) };
  const cb = body.biz_opaque_callback_data;
  if (cb !== undefined && (typeof cb !== 'string' || cb.length > 512))
    return { error: E.invalidParam('Param biz_opaque_callback_data must be a string of at most 512 characters') };
  const payload = body[type];
  const base = { to: body.to, waId, type: type as SendType, body, ...(cb === undefined ? {} : { callbackData: cb }) };
  if (type === 'text') {
    if (!isObj(payload) || !nonEmpty(payload.body)) return { error: E.missingParam("text['body']") };
    if (payload.body.length > 4096) return { error: E.invalidParam("Param text['body'] must be at most 4096 characters") };
    return base;
  }
  if (type === 'template') {
    if (!isObj(payload) || !nonEmpty(payload.name)) return { error: E.missingParam("template['name']") };
    const language = payload.language;
    if (!isObj(language) || !nonEmpty(language.code)) return { error: E.missingParam("template['language']['code']") };
    if (payload.components !== undefined && !Array.isArray(payload.components))
      return { error: E.invalidParam("Param template['components'] must be an array") };
    return { ...base, template: { name: payload.name, code: language.code, components: (payload.components as unknown[] | undefined) ?? [] } };
  }
  if (MEDIA.has(type)) {
    if (!isObj(payload)) return { error: E.missingParam(type) };
    if (!nonEmpty(payload.link) && !nonEmpty(payload.id)) return { error: E.invalidParam(`Param ${type} must contain either id or link`) };
    return base;
  }
  if (!isObj(payload)) return { error: E.missingParam('interactive') };
  if (!nonEmpty(payload.type)) return { error: E.missingParam("interactive['type']") };
  if (!isObj(payload.action)) return { error: E.missingParam("interactive['action']") };
  return base;
}

interface TemplateComponentLike {
  type?: string;
  format?: string;
  text?: string;
}

/** Parameters of the send's component of that type (`body`, `header`), case as the provider accepts it. */
function sendParams(components: unknown[], type: string): unknown[] | undefined {
  const c = components.find((x) => isObj(x) && typeof x.type === 'string' && x.type.toLowerCase() === type);
  if (!c) return undefined;
  const params = (c as Obj).parameters;
  return Array.isArray(params) ? params : [];
}

/**
 * The template a send names, checked like the provider: it must exist APPROVED in that
 * language (132001), not be PAUSED (132015) or DISABLED (132016), a media header needs a
 * parameter of its kind (132012), and the header and body parameter counts must match the
 * distinct placeholders of the template's text (132000).
 */
export function checkTemplate(store: SimStore, t: NonNullable<ParsedSend['template']>, wabaId?: string): SimTemplate | { error: E.GraphError } {
  const found = store.forSend(t.name, t.code, wabaId);
  if (!found) return { error: E.templateNotFound(t.name, t.code) };
  if (found.status === 'PAUSED') return { error: E.templatePaused(t.name) };
  if (found.status === 'DISABLED') return { error: E.templateDisabled(t.name) };
  const comps = found.components as TemplateComponentLike[];
  const header = comps.find((c) => c.type === 'HEADER');
  const format = header?.format ?? (header?.text !== undefined ? 'TEXT' : undefined);
  if (format && format !== 'TEXT') {
    const p = sendParams(t.components, 'header')?.[0];
    const kind = isObj(p) && typeof p.type === 'string' ? p.type.toUpperCase() : 'UNKNOWN';
    // GIF headers are sent as `gif` by some partners' examples and as an mp4 `video` by others: both pass.
    const matches = kind === format || (format === 'GIF' && kind === 'VIDEO');
    if (!matches || !isObj((p as Obj)[kind.toLowerCase()])) return { error: E.paramFormatMismatch(format, kind) };
  } else if (header?.text !== undefined) {
    const expected = placeholderNames(header.text).length;
    const got = sendParams(t.components, 'header')?.length ?? 0;
    if (got !== expected) return { error: E.paramCountMismatch('header', got, expected) };
  }
  const bodyText = comps.find((c) => c.type === 'BODY')?.text ?? '';
  const expected = placeholderNames(bodyText).length;
  const got = sendParams(t.components, 'body')?.length ?? 0;
  if (got !== expected) return { error: E.paramCountMismatch('body', got, expected) };
  return found;
}
