import type { MessageContext, MessageReferral } from './events';
import { bool, get, record, str } from './value-readers';

/**
 * `context` (a reply, a forward, a product enquiry) and `referral` (the click-to-chat ad or
 * post) of an inbound message, every documented field kept.
 * Source: $D/webhooks/reference/messages/text (syntax and parameters), SOURCES.md.
 */
export function readContext(raw: unknown): MessageContext | null {
  if (!record(raw)) return null;
  const product = get(raw, 'referred_product');
  return {
    replyToMessageId: str(get(raw, 'id')),
    replyToFrom: str(get(raw, 'from')),
    // `forwarded` is sent for up to 5 forwards, `frequently_forwarded` beyond that.
    forwarded: bool(get(raw, 'forwarded')) === true,
    frequentlyForwarded: bool(get(raw, 'frequently_forwarded')) === true,
    referredProduct: record(product) ? { catalogId: str(get(product, 'catalog_id')), productRetailerId: str(get(product, 'product_retailer_id')) } : null,
  };
}

export function readReferral(raw: unknown): MessageReferral | null {
  if (!record(raw)) return null;
  return {
    sourceUrl: str(get(raw, 'source_url')),
    sourceType: str(get(raw, 'source_type')),
    sourceId: str(get(raw, 'source_id')),
    headline: str(get(raw, 'headline')),
    body: str(get(raw, 'body')),
    mediaType: str(get(raw, 'media_type')),
    imageUrl: str(get(raw, 'image_url')),
    videoUrl: str(get(raw, 'video_url')),
    thumbnailUrl: str(get(raw, 'thumbnail_url')),
    // Omitted by the provider for ads shown in WhatsApp Status.
    ctwaClid: str(get(raw, 'ctwa_clid')),
    welcomeMessageText: str(get(get(raw, 'welcome_message'), 'text')),
  };
}
