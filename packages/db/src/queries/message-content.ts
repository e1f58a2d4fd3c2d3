import type { MessageContent } from '@mos/core';

/** The flat columns of `messages` that repeat a content's searchable parts. */
export interface ContentColumns {
  body: string | null;
  caption: string | null;
  mediaId: string | null;
  mediaMimeType: string | null;
  payload: Record<string, unknown> | null;
}

/**
 * Splits a typed content into the flat columns search, the assistant and older readers use:
 * `text` (the normalizer's searchable words: body, caption, reply title, location name...)
 * goes to `caption` for media and to `body` for everything else; the chosen reply's id to
 * `payload`. `content` itself stays the complete record.
 */
export function contentColumns(content: MessageContent | null, text: string | null): ContentColumns {
  const media = content?.kind === 'media' ? content : null;
  const reply =
    content?.kind === 'interactive' ? { kind: content.replyType, id: content.id } : content?.kind === 'button' ? { kind: 'button', id: content.payload } : null;
  return {
    body: media ? null : text,
    caption: media ? (text ?? media.caption) : null,
    mediaId: media?.id ?? null,
    mediaMimeType: media?.mimeType ?? null,
    payload: reply ? { reply } : null,
  };
}
