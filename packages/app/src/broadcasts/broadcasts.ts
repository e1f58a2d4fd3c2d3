import type { z } from 'zod';
import type { AppDeps } from '../deps';
import type { Scope } from '../scope';
import type { broadcastResult, createBroadcastResult, CreateBroadcastInput } from './schemas';

export type BroadcastAction = 'pause' | 'resume' | 'cancel';

/** TODO(issue 12): being written. */
export async function createBroadcast(_deps: AppDeps, _scope: Scope, _input: CreateBroadcastInput): Promise<z.infer<typeof createBroadcastResult>> {
  throw new Error('not yet');
}
export async function getBroadcast(_deps: AppDeps, _scope: Scope, _id: string): Promise<z.infer<typeof broadcastResult>> {
  throw new Error('not yet');
}
export async function changeBroadcast(_deps: AppDeps, _scope: Scope, _id: string, _action: BroadcastAction): Promise<z.infer<typeof broadcastResult>> {
  throw new Error('not yet');
}
