import { describe, expect, it } from 'vitest';
import { judgeMemberChange } from './member-rules';

describe('judgeMemberChange', () => {
  it('the platform admin (CLI) may do anything but change its own role', () => {
    expect(judgeMemberChange('platform', { kind: 'setRole', targetRole: 'owner', newRole: 'viewer', self: false }).ok).toBe(true);
    expect(judgeMemberChange('platform', { kind: 'add', newRole: 'owner' }).ok).toBe(true);
  });
  it('nobody changes their own role', () => {
    for (const actor of ['owner', 'admin', 'developer', 'viewer'] as const) {
      expect(judgeMemberChange(actor, { kind: 'setRole', targetRole: actor, newRole: actor, self: true }).ok).toBe(false);
    }
  });
  it('an admin cannot grant admin or owner, nor touch an admin or owner', () => {
    expect(judgeMemberChange('admin', { kind: 'setRole', targetRole: 'viewer', newRole: 'admin', self: false }).ok).toBe(false);
    expect(judgeMemberChange('admin', { kind: 'setRole', targetRole: 'admin', newRole: 'viewer', self: false }).ok).toBe(false);
    expect(judgeMemberChange('admin', { kind: 'remove', targetRole: 'owner', self: false }).ok).toBe(false);
    expect(judgeMemberChange('admin', { kind: 'add', newRole: 'owner' }).ok).toBe(false);
    expect(judgeMemberChange('admin', { kind: 'setRole', targetRole: 'viewer', newRole: 'developer', self: false }).ok).toBe(true);
  });
  it('developers and viewers manage nobody', () => {
    expect(judgeMemberChange('developer', { kind: 'add', newRole: 'viewer' }).ok).toBe(false);
    expect(judgeMemberChange('viewer', { kind: 'remove', targetRole: 'viewer', self: false }).ok).toBe(false);
  });
});
