/**
 * Whether free-form messages may go to a contact at `now`: its conversation's window (24 h
 * after the latest inbound message, cut short by a 131047 the provider reported) is open.
 * Never messaged us: closed.
 */
export function serviceWindowOpen(conversation: { windowExpiresAt: Date | null } | null | undefined, now: Date): boolean {
  return !!conversation?.windowExpiresAt && conversation.windowExpiresAt.getTime() > now.getTime();
}
