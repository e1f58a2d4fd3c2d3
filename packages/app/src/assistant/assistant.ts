import { z } from 'zod';
import { AppError, buildAssistantPrompt, citedContexts, readChatCompletion, searchTerms, toPrefixTsQuery, type AssistantContext, safeString } from '@mos/core';
import { getWorkspace, loadAssistantContext, searchContactIdsFullText, searchMessagesFullText } from '@mos/db';
import type { AppDeps } from '../deps';
import type { Scope } from '../scope';

export const askInput = z.object({ question: safeString().trim().min(1).max(2000) });

export const askView = z.object({
  answer: z.string(),
  citations: z.array(z.object({ contactId: z.string(), conversationId: z.string().nullable() })),
});
export type AskResult = z.infer<typeof askView>;

/** How much context one question may pull in: enough to answer, small enough for any model. */
export const ASSISTANT_LIMITS = { contacts: 5, matchingMessages: 50, messagesPerContact: 12, timeoutMs: 30_000 } as const;

/**
 * Retrieval, strictly inside the actor's workspace: contacts matching by name/phone/email,
 * then contacts owning the best-matching messages, up to ASSISTANT_LIMITS.contacts.
 */
async function retrieve(deps: AppDeps, workspaceId: string, question: string): Promise<AssistantContext[]> {
  const tsquery = toPrefixTsQuery(searchTerms(question));
  if (!tsquery) return [];
  const [byContact, byMessage] = await Promise.all([
    searchContactIdsFullText(deps.db, workspaceId, tsquery, ASSISTANT_LIMITS.contacts),
    searchMessagesFullText(deps.db, workspaceId, tsquery, ASSISTANT_LIMITS.matchingMessages),
  ]);
  const ids = [...new Set([...byContact, ...byMessage.map((m) => m.contactId)])].slice(0, ASSISTANT_LIMITS.contacts);
  const rows = await loadAssistantContext(deps.db, workspaceId, ids, ASSISTANT_LIMITS.messagesPerContact);
  return rows.map(({ contact, conversation, messages }) => ({
    contactId: contact.id,
    conversationId: conversation?.id ?? null,
    contactName: contact.name ?? contact.profileName,
    phoneNumber: contact.phoneNumber,
    subscriberStatus: contact.subscriberStatus,
    messages: messages.map((m) => ({ direction: m.direction, sentAt: m.sentAt.toISOString(), text: m.text })),
  }));
}

async function complete(url: string, apiKey: string, body: unknown): Promise<string> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(ASSISTANT_LIMITS.timeoutMs),
    });
  } catch (err) {
    throw new AppError('llm_failed', { message: 'The language model endpoint could not be reached', cause: err });
  }
  const text = await res.text();
  if (!res.ok) throw new AppError('llm_failed', { message: `The language model endpoint answered ${res.status}` });
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const answer = readChatCompletion(json);
  if (answer === null) throw new AppError('llm_failed', { message: 'The language model endpoint did not return a chat completion' });
  return answer;
}

/**
 * POST /api/ai-assistant and assistant.ask: answers an operator's question from the
 * workspace's own contacts and messages through the workspace's OpenAI-compatible endpoint.
 * Neither the question nor the context is logged (message content is personal data).
 */
export async function askAssistant(deps: AppDeps, scope: Scope, input: z.output<typeof askInput>): Promise<AskResult> {
  const apiKey = await deps.vault.get(deps.db, scope.workspaceId, 'llm-api-key');
  if (!apiKey) throw new AppError('no_llm_key', { message: 'Set the llm-api-key secret for this workspace first' });
  const ws = await getWorkspace(deps.db, scope.workspaceId);
  if (!ws?.llmBaseUrl || !ws.llmModel) {
    throw new AppError('llm_not_configured', { message: 'Set llmBaseUrl and llmModel in the workspace settings first' });
  }
  const contexts = await retrieve(deps, scope.workspaceId, input.question);
  const url = `${ws.llmBaseUrl.replace(/\/+$/, '')}/chat/completions`;
  const started = Date.now();
  const answer = await complete(url, apiKey, { model: ws.llmModel, messages: buildAssistantPrompt(input.question, contexts) });
  const citations = citedContexts(answer, contexts).map((c) => ({ contactId: c.contactId, conversationId: c.conversationId }));
  deps.log.info(
    { workspaceId: scope.workspaceId, actorId: scope.actorId, contexts: contexts.length, citations: citations.length, ms: Date.now() - started },
    'assistant answered',
  );
  return { answer, citations };
}
