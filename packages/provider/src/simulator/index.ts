import type { AddressInfo } from 'node:net';
import { createSimulatorApp, type ReviewEvent } from './app';
import type { SimFaults, SimulatorConfig, StatusDelays, StatusOptions } from './config';
import { toMs, type InboundInput, type SeedTemplate, type SimStatsSnapshot } from './engine';
import { SimStore, type InjectedFaultCode, type SimMessage, type SimTemplate } from './store';

export { createSimulatorApp, ReviewError, type ReviewEvent } from './app';
export type { SimFaults, SimulatorConfig, StatusDelays, StatusOptions, TimeoutMode } from './config';
export type { InboundInput, SeedTemplate, SimStatsSnapshot } from './engine';
export type { PhoneNumberStats, SecondStats } from './stats';
export type { StatusCounters } from './status-webhooks';
export { SimStore, type InjectedFaultCode, type SimMessage, type SimStatusName, type SimTemplate, type SimTemplateStatus } from './store';
export { templateStatusEnvelope, deliverWebhook, messagesEnvelope } from './webhook';

export interface RunningSimulator {
  url: string;
  port: number;
  store: SimStore;
  /** Approve or reject a PENDING template and deliver the signed webhook; resolves after the receiver answered. */
  review(id: string, event: ReviewEvent, reason?: string): Promise<{ status: number; deliveryId: string } | null>;
  templates(): SimTemplate[];
  /** Accepted messages still kept (the newest `messageCap`), oldest first. */
  messages(): SimMessage[];
  /** The next `count` API calls answer `status` (5xx to exercise retries). */
  failNext(status: number, count?: number, code?: InjectedFaultCode): void;
  /** Points webhooks somewhere else (e.g. an ingress started after the simulator). */
  setWebhook(target: { url?: string; signingSecret?: string }): void;
  /** Counters (all phone numbers, or one). */
  stats(phoneNumberId?: string): SimStatsSnapshot;
  /** Clears messages, counters, windows, faults and queued statuses; templates too with `{templates: true}`. */
  reset(options?: { templates?: boolean }): void;
  /** Records an inbound message from `from` at `at` (default now), opening its 24 h window. */
  openWindow(from: string, at?: Date | number | string, phoneNumberId?: string): void;
  closeWindow(from: string, phoneNumberId?: string): void;
  setThroughput(phoneNumberId: string, perSecond: number): void;
  setFaults(faults: Partial<SimFaults>): SimFaults;
  setStatusDelays(delays: Partial<StatusDelays>): StatusDelays;
  setStatusOptions(options: Partial<StatusOptions>): StatusOptions;
  /** Delivers the due statuses and resolves once mos answered; `{all: true}` runs every message to its last status. */
  flushStatuses(options?: { all?: boolean }): Promise<void>;
  seedApprovedTemplate(template: SeedTemplate): SimTemplate;
  /** Records an inbound message (opens the window) and, with `deliver`, POSTs its signed webhook. */
  inbound(input: InboundInput): Promise<{ from: string; at: string; messageId: string; webhook: { status: number; deliveryId: string } | null }>;
  close(): Promise<void>;
}

const defined = <T extends object>(o: Partial<T>): Partial<T> => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;

/** Starts the simulator on `port` (0 = ephemeral) for tests and for `main.ts`. */
export async function startSimulator(options: SimulatorConfig & { port?: number; host?: string }): Promise<RunningSimulator> {
  const store = new SimStore();
  const config: SimulatorConfig = { ...options };
  const { app, review, engine } = createSimulatorApp(config, store);
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
    messages: () => store.messages.all(),
    failNext: (status, count, code) => store.failNext(status, count, code),
    setWebhook(target) {
      if ('url' in target) config.url = target.url;
      if ('signingSecret' in target) config.signingSecret = target.signingSecret;
    },
    stats: (phoneNumberId) => engine.snapshot(phoneNumberId),
    reset: (o) => engine.reset(o),
    openWindow: (from, at, phoneNumberId) => engine.windows.open(from, at === undefined ? engine.clock() : toMs(at), phoneNumberId),
    closeWindow: (from, phoneNumberId) => engine.windows.close(from, phoneNumberId),
    setThroughput: (phoneNumberId, perSecond) => engine.throughput.set(phoneNumberId, perSecond),
    setFaults: (faults) => engine.faults.set(faults),
    setStatusDelays: (delays) => Object.assign(engine.statuses.delays, defined(delays)),
    setStatusOptions: (o) => Object.assign(engine.statuses.options, defined(o)),
    flushStatuses: (o) => engine.statuses.flushAll(o?.all ?? false),
    seedApprovedTemplate: (t) => engine.seedTemplate(t),
    inbound: (input) => engine.inbound(input),
    close: () =>
      new Promise<void>((resolve) => {
        engine.stop();
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}
