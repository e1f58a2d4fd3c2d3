import { z } from 'zod';

/**
 * Pure parts of the operator assistant: turning a question into a full-text query, building
 * the chat prompt from retrieved context, and reading the chat-completions answer.
 */

const STOPWORDS = new Set(
  (
    'the a an and or of to in on at for from by with about is are was were be been do does did what which who whom whose when where why how ' +
    'me my we our you your it its this that these those there their they them he she his her any all some can could would should will ' +
    'tell show list find give say said has have had not no yes please il lo la i gli le un una di da per con che chi cosa come quando dove'
  ).split(' '),
);

/** Search words of a question: letters/digits only (so the tsquery needs no escaping), deduplicated. */
export function searchTerms(question: string, max = 12): string[] {
  const words =
    question
      .toLowerCase()
      .normalize('NFKC')
      .match(/[\p{L}\p{N}]+/gu) ?? [];
  const out: string[] = [];
  for (const w of words) {
    if (w.length < 2 || STOPWORDS.has(w) || out.includes(w)) continue;
    out.push(w);
    if (out.length >= max) break;
  }
  return out;
}

/** An OR of prefix matches for `to_tsquery('simple', ...)`; null when nothing is searchable. */
export function toPrefixTsQuery(terms: string[]): string | null {
  return terms.length ? terms.map((t) => `${t}:*`).join(' | ') : null;
}

export interface AssistantContext {
  contactId: string;
  conversationId: string | null;
  contactName: string | null;
  /** Null for a user who hides their number (known to us by user id only). */
  phoneNumber: string | null;
  subscriberStatus: string;
  messages: { direction: string; sentAt: string; text: string }[];
}

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

const SYSTEM_PROMPT = [
  'You help operators of a business messaging workspace answer questions about their contacts and conversations.',
  'Answer only from the context blocks provided. Each block is one contact and their conversation, labelled with',
  'contact and conversation ids; mention the ids of the blocks you rely on. If the context does not answer the',
  'question, say so plainly. Never invent contacts, messages or numbers.',
].join(' ');

export function buildAssistantPrompt(question: string, contexts: AssistantContext[]): ChatMessage[] {
  const blocks = contexts.map((c) => {
    const head = `[contact ${c.contactId} | conversation ${c.conversationId ?? 'none'}] ${c.contactName ?? '(no name)'} ${c.phoneNumber ?? '(number hidden)'} (${c.subscriberStatus})`;
    const lines = c.messages.map((m) => `  ${m.sentAt} ${m.direction === 'inbound' ? 'contact' : 'business'}: ${m.text.replace(/\s+/g, ' ').slice(0, 500)}`);
    return [head, ...lines].join('\n');
  });
  const context = blocks.length ? blocks.join('\n\n') : '(no matching contacts or messages)';
  return [
    { role: 'system', content: SYSTEM_PROMPT },
    { role: 'user', content: `Context:\n${context}\n\nQuestion: ${question}` },
  ];
}

export const chatCompletionSchema = z.object({
  choices: z.array(z.object({ message: z.object({ content: z.string().nullable().optional() }) })).min(1),
});

/** The first choice's text, or null when the body is not a chat completion. */
export function readChatCompletion(body: unknown): string | null {
  const parsed = chatCompletionSchema.safeParse(body);
  const content = parsed.success ? parsed.data.choices[0]!.message.content : null;
  return content?.trim() ? content.trim() : null;
}

/** The blocks an answer names by id; all of them when it names none. */
export function citedContexts<T extends { contactId: string; conversationId: string | null }>(answer: string, contexts: T[]): T[] {
  const named = contexts.filter((c) => answer.includes(c.contactId) || (c.conversationId !== null && answer.includes(c.conversationId)));
  return named.length ? named : contexts;
}
