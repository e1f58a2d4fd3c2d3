import type { AddressInfo } from 'node:net';
import { createSimulatorApp, type ReviewEvent, type SimulatorConfig } from './app';
import { SimStore, type SimMessage, type SimTemplate } from './store';

export { createSimulatorApp, ReviewError, type ReviewEvent, type SimulatorConfig } from './app';
export { SimStore, type SimMessage, type SimTemplate } from './store';
export { templateStatusEnvelope, deliverWebhook } from './webhook';

export interface RunningSimulator {
  url: string;
  port: number;
  store: SimStore;
  /** Approve or reject a PENDING template and deliver the signed webhook; resolves after the receiver answered. */
  review(id: string, event: ReviewEvent, reason?: string): Promise<{ status: number; deliveryId: string } | null>;
  templates(): SimTemplate[];
  messages(): SimMessage[];
  /** The next `count` API calls answer `status` (5xx to exercise retries). */
  failNext(status: number, count?: number): void;
  /** Points webhooks somewhere else (e.g. an ingress started after the simulator). */
  setWebhook(target: { url?: string; signingSecret?: string }): void;
  close(): Promise<void>;
}

/** Starts the simulator on `port` (0 = ephemeral) for tests and for `main.ts`. */
export async function startSimulator(options: SimulatorConfig & { port?: number; host?: string }): Promise<RunningSimulator> {
  const store = new SimStore();
  const config: SimulatorConfig = { ...options };
  const { app, review } = createSimulatorApp(config, store);
  const server = app.listen(options.port ?? 0, options.host ?? '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    server.once('listening', () => resolve());
    server.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}`,
    port,
    store,
    review: async (id, event, reason) => (await review(id, event, reason)).webhook,
    templates: () => [...store.templates.values()],
    messages: () => [...store.messages],
    failNext: (status, count) => store.failNext(status, count),
    setWebhook(target) {
      if ('url' in target) config.url = target.url;
      if ('signingSecret' in target) config.signingSecret = target.signingSecret;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}
