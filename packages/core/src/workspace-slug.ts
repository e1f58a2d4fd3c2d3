/** Workspace slugs: lowercase letters, digits and inner dashes, 1-64 characters (they appear in URLs). */
export const WORKSPACE_SLUG_RE = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;

export function isWorkspaceSlug(value: string): boolean {
  return WORKSPACE_SLUG_RE.test(value);
}
