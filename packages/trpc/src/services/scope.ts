import type { Actor } from '../deps';

/**
 * Who acts on which workspace. Procedures build it from the session's Actor; the CLI
 * builds it from `--workspace` with actor id `cli`.
 */
export interface Scope {
  workspaceId: string;
  actorId: string;
}

export function scopeOf(actor: Actor): Scope {
  return { workspaceId: actor.workspaceId, actorId: actor.memberId };
}
