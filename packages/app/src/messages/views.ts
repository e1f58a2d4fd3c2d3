import type { z } from 'zod';
import type { AppDeps } from '../deps';
import type { Scope } from '../scope';
import type { getMessageResult } from './schemas';

/** TODO(issue 12): being written. */
export async function getMessage(_deps: AppDeps, _scope: Scope, _id: string): Promise<z.infer<typeof getMessageResult>> {
  throw new Error('not yet');
}
