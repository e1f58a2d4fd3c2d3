import { classifyButtonOptKeyword, classifyOptKeyword, type OptKeyword } from '../contacts/subscriber';
import { MEDIA_KINDS, type MediaKind, type MessageContent } from './events';
import { bool, depthAtMost, get, MAX_VERBATIM_DEPTH, num, record, records, str, text, verbatim, type JsonRecord } from './value-readers';

/**
 * What one message says, by its `type`: the content, its searchable words and any STOP/START
 * keyword. Shared by inbound messages, edits (`edit.message`) and business-app echoes, which
 * use the same per-type objects. A documented type whose object cannot be read, and any type
 * not modelled here, becomes `other` with the type object verbatim: content is never dropped.
 * Sources: $D/webhooks/reference/messages/<type> pages (docs/provider-reference/SOURCES.md).
 */
export interface ReadContent {
  content: MessageContent;
  text: string | null;
  optKeyword: OptKeyword | null;
}

export function readContent(type: string, message: JsonRecord): ReadContent {
  const body = get(message, type);
  const read = readKnown(type, body);
  return read ?? { content: { kind: 'other', type, value: verbatim(body ?? null) }, text: null, optKeyword: null };
}

function readKnown(type: string, body: unknown): ReadContent | null {
  if ((MEDIA_KINDS as readonly string[]).includes(type)) return readMedia(type as MediaKind, body);
  switch (type) {
    case 'text': {
      const value = str(get(body, 'body'));
      return value === null ? null : { content: { kind: 'text', body: value }, text: value, optKeyword: classifyOptKeyword(value) };
    }
    case 'location':
      return readLocation(body);
    case 'contacts':
      // The cards are the message's `contacts` array itself, kept verbatim (each within the depth bound).
      return Array.isArray(body) ? { content: { kind: 'contacts', cards: records(body).map(verbatim) }, text: null, optKeyword: null } : null;
    case 'interactive':
      return readInteractive(body);
    case 'button': {
      if (!record(body)) return null;
      const payload = str(get(body, 'payload'));
      const label = str(get(body, 'text'));
      return { content: { kind: 'button', payload, text: label }, text: label ?? payload, optKeyword: classifyButtonOptKeyword([payload, label]) };
    }
    case 'order':
      return readOrder(body);
    case 'unsupported':
      // The user did send something (a poll, an edit, ...) the provider could not deliver.
      return { content: { kind: 'unsupported', unsupportedType: str(get(body, 'type')) }, text: null, optKeyword: null };
    default:
      return null;
  }
}

function readMedia(mediaKind: MediaKind, body: unknown): ReadContent | null {
  const mediaId = text(get(body, 'id'));
  if (mediaId === null) return null;
  const caption = str(get(body, 'caption'));
  return {
    content: {
      kind: 'media',
      mediaKind,
      id: mediaId,
      mimeType: str(get(body, 'mime_type')),
      sha256: str(get(body, 'sha256')),
      caption,
      filename: str(get(body, 'filename')),
      voice: bool(get(body, 'voice')) === true,
      animated: bool(get(body, 'animated')) === true,
      url: str(get(body, 'url')),
    },
    text: caption,
    optKeyword: null,
  };
}

function readLocation(body: unknown): ReadContent | null {
  const latitude = num(get(body, 'latitude'));
  const longitude = num(get(body, 'longitude'));
  if (latitude === null || longitude === null) return null;
  const name = str(get(body, 'name'));
  const address = str(get(body, 'address'));
  return {
    content: { kind: 'location', latitude, longitude, name, address, url: str(get(body, 'url')) },
    text: name ?? address,
    optKeyword: null,
  };
}

function readInteractive(body: unknown): ReadContent | null {
  const replyType = str(get(body, 'type'));
  if (replyType === 'button_reply' || replyType === 'list_reply') {
    const reply = get(body, replyType);
    if (!record(reply)) return null;
    const replyId = str(get(reply, 'id'));
    const title = str(get(reply, 'title'));
    return {
      content: { kind: 'interactive', replyType, id: replyId, title, description: str(get(reply, 'description')), flow: null },
      text: title,
      optKeyword: classifyButtonOptKeyword([replyId, title]),
    };
  }
  if (replyType === 'nfm_reply') {
    const reply = get(body, 'nfm_reply');
    if (!record(reply)) return null;
    const flowBody = str(get(reply, 'body'));
    const flow = { name: str(get(reply, 'name')), body: flowBody, response: flowResponse(get(reply, 'response_json')) };
    return { content: { kind: 'interactive', replyType, id: null, title: null, description: null, flow }, text: flowBody, optKeyword: null };
  }
  return null;
}

/**
 * `response_json` is a JSON string ($D/flows/guides/receiveflowresponse): parsed when it parses
 * within the verbatim depth bound (value-readers.ts), else kept as the raw string.
 */
function flowResponse(raw: unknown): unknown {
  if (typeof raw !== 'string') return verbatim(raw ?? null);
  try {
    const parsed = JSON.parse(raw) as unknown;
    return depthAtMost(parsed, MAX_VERBATIM_DEPTH) ? parsed : raw;
  } catch {
    return raw;
  }
}

function readOrder(body: unknown): ReadContent | null {
  if (!record(body)) return null;
  const items = records(get(body, 'product_items')).flatMap((item) => {
    const productRetailerId = text(get(item, 'product_retailer_id'));
    if (productRetailerId === null) return [];
    return [{ productRetailerId, quantity: num(get(item, 'quantity')), itemPrice: num(get(item, 'item_price')), currency: str(get(item, 'currency')) }];
  });
  const note = str(get(body, 'text'));
  return { content: { kind: 'order', catalogId: str(get(body, 'catalog_id')), text: note, items }, text: note, optKeyword: null };
}
