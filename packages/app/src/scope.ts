import type { ActorRole } from '@mos/core';
import type { Actor } from './deps';

/**
 * Who acts on which workspace. Procedures build it from the session's Actor; the CLI
 * builds it from `--workspace` with actor id `cli` and role `platform`.
 */
export interface Scope {
  workspaceId: string;
  actorId: string;
  /** The operator's role, or `platform` for the admin CLI; role-ladder rules read it. */
  role: ActorRole;
}

export function scopeOf(actor: Actor): Scope {
  return { workspaceId: actor.workspaceId, actorId: actor.memberId, role: actor.role };
}
