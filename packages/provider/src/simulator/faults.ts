import type { ServerResponse } from 'node:http';
import { DEFAULT_FAULTS, type SimFaults, type SimulatorConfig } from './config';
import { DueQueue } from './fifo';

export type FaultRoll = 'server_error' | 'timeout' | null;

/** The send route's share-based faults. Draws from the PRNG only when a share is set, so turning faults off does not shift other rolls. */
export class FaultInjector {
  faults: SimFaults;
  constructor(
    private readonly config: SimulatorConfig,
    private readonly random: () => number,
  ) {
    this.faults = { ...DEFAULT_FAULTS, ...config.faults };
  }

  set(partial: Partial<SimFaults>): SimFaults {
    for (const [k, v] of Object.entries(partial)) if (v !== undefined) (this.faults as unknown as Record<string, unknown>)[k] = v;
    return { ...this.faults };
  }

  reset(): void {
    this.faults = { ...DEFAULT_FAULTS, ...this.config.faults };
  }

  roll(): FaultRoll {
    const { serverErrorShare, timeoutShare } = this.faults;
    if (serverErrorShare <= 0 && timeoutShare <= 0) return null;
    const r = this.random();
    if (r < serverErrorShare) return 'server_error';
    if (r < serverErrorShare + timeoutShare) return 'timeout';
    return null;
  }

  serverStatus(): 500 | 503 {
    return this.random() < 0.5 ? 500 : 503;
  }
}

/**
 * Responses held open to simulate a timeout. Released by the simulator's tick (no timer per
 * request): the connection is dropped without an answer, as when a response is lost.
 */
export class HangingResponses {
  private readonly queue = new DueQueue<ServerResponse>();

  hold(res: ServerResponse, untilMs: number): void {
    this.queue.push(untilMs, res);
  }

  get size(): number {
    return this.queue.size;
  }

  release(nowMs: number): void {
    for (const res of this.queue.popDue(nowMs)) res.destroy();
  }

  releaseAll(): void {
    for (const res of this.queue.drain()) res.destroy();
  }
}
