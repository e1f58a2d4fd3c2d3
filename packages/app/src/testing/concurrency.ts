/**
 * Runs the tasks it is given at most `n` at a time (a suite that fans out many HTTP calls
 * keeps the servers busy without queueing hundreds of requests on one connection pool).
 */
export function limiter(n: number): <T>(task: () => Promise<T>) => Promise<T> {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async (task) => {
    while (running >= n) await new Promise<void>((resolve) => waiting.push(resolve));
    running++;
    try {
      return await task();
    } finally {
      running--;
      waiting.shift()?.();
    }
  };
}

/** Starts a task now and keeps its outcome for a test to await later, without an unhandled rejection meanwhile. */
export function settleLater<T>(promise: Promise<T>): () => Promise<T> {
  const settled = promise.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
  return async () => {
    const outcome = await settled;
    if (!outcome.ok) throw outcome.error;
    return outcome.value;
  };
}
