import type { AppDeps } from '../deps';
import { sendMessage } from './send';

/**
 * A journey step's template, through the one send path (checks, idempotency, governor wake).
 * The journey's activities get this as `sendTemplate`; the actor on the message is the run.
 */
export async function sendJourneyTemplate(
  deps: AppDeps,
  workspaceId: string,
  request: { contactId: string; template: { name: string; language: string; parameters?: { body: string[] } } },
  idempotencyKey: string,
): Promise<{ messageId: string }> {
  const accepted = await sendMessage(
    deps,
    { workspaceId, actorId: 'journey', role: 'developer' },
    { type: 'template', contactId: request.contactId, template: request.template },
    { idempotencyKey },
  );
  return { messageId: accepted.message.id };
}
