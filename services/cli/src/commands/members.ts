import type { Command } from 'commander';
import { z } from 'zod';
import { AppError, ROLES } from '@mos/core';
import { findMemberByEmail } from '@mos/db';
import { addMember, addMemberInput, listWorkspaceMembers, removeMember } from '@mos/app';
import { scopeForSlug, valueOrStdin } from '../context';
import { run } from '../output';

export function registerMembers(program: Command): void {
  const members = program.command('members').description('manage workspace members');

  members
    .command('add')
    .description('add a member with a role')
    .requiredOption('--workspace <slug>', 'workspace slug')
    .requiredOption('--email <email>', 'member email')
    .requiredOption('--password <password>', 'password (- reads stdin)')
    .requiredOption('--role <role>', `one of ${ROLES.join(', ')}`)
    .option('--json', 'print JSON')
    .action((o) =>
      run(
        o,
        async ({ deps }) => {
          const input = addMemberInput.parse({ email: o.email, password: await valueOrStdin(o.password), role: o.role });
          return { member: await addMember(deps, await scopeForSlug(deps, o.workspace), input) };
        },
        (r) => `added ${r.member.email} as ${r.member.role} (${r.member.id})`,
      ),
    );

  members
    .command('remove')
    .description('remove a member and revoke their sessions')
    .requiredOption('--workspace <slug>', 'workspace slug')
    .requiredOption('--email <email>', 'member email')
    .option('--json', 'print JSON')
    .action((o) =>
      run(
        o,
        async ({ deps }) => {
          const scope = await scopeForSlug(deps, o.workspace);
          const email = z.string().trim().toLowerCase().email().parse(o.email);
          const member = await findMemberByEmail(deps.db, scope.workspaceId, email);
          if (!member) throw new AppError('not_found', { message: `${email} is not a member of ${o.workspace}` });
          await removeMember(deps, scope, member.id);
          return { ok: true, removed: { id: member.id, email } };
        },
        (r) => `removed ${r.removed.email}`,
      ),
    );

  members
    .command('list')
    .description('list members')
    .requiredOption('--workspace <slug>', 'workspace slug')
    .option('--json', 'print JSON')
    .action((o) =>
      run(
        o,
        async ({ deps }) => listWorkspaceMembers(deps, await scopeForSlug(deps, o.workspace)),
        (r) => r.members.map((m) => `${m.id}  ${m.role.padEnd(9)}  ${m.email}`).join('\n') || '(no members)',
      ),
    );
}
