import type { AppDeps } from '../deps';
import type { Scope } from '../scope';
import type { SendMessageInput, sendMessageResult } from './schemas';
import type { z } from 'zod';

export interface SendMessageOptions {
  idempotencyKey?: string;
}

/** TODO(issue 12): being written. */
export async function sendMessage(
  _deps: AppDeps,
  _scope: Scope,
  _input: SendMessageInput,
  _opts: SendMessageOptions = {},
): Promise<z.infer<typeof sendMessageResult> & { replayed: boolean }> {
  throw new Error('not yet');
}
