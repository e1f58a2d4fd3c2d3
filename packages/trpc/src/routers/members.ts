import { z } from 'zod';
import { ADMIN_ROLES, ROLES, safeString } from '@mos/core';
import { addMember, addMemberInput, changeMemberRole, listWorkspaceMembers, memberView, removeMember } from '@mos/app';
import { scopeOf } from '@mos/app';
import { operatorProcedure, roleProcedure, router } from '../trpc';

const memberId = z.object({ id: safeString().min(1).max(64) });

export const membersRouter = router({
  list: operatorProcedure.output(z.object({ members: z.array(memberView) })).query(({ ctx }) => listWorkspaceMembers(ctx.deps, scopeOf(ctx.actor))),
  add: roleProcedure(ADMIN_ROLES)
    .input(addMemberInput)
    .output(memberView)
    .mutation(({ ctx, input }) => addMember(ctx.deps, scopeOf(ctx.actor), input)),
  remove: roleProcedure(ADMIN_ROLES)
    .input(memberId)
    .output(z.object({ ok: z.literal(true) }))
    .mutation(({ ctx, input }) => removeMember(ctx.deps, scopeOf(ctx.actor), input.id)),
  setRole: roleProcedure(ADMIN_ROLES)
    .input(memberId.extend({ role: z.enum(ROLES) }))
    .output(memberView)
    .mutation(({ ctx, input }) => changeMemberRole(ctx.deps, scopeOf(ctx.actor), input.id, input.role)),
});
