/** Static provider facts reported in the runtime snapshot (spec: Provider constraints). */
export const PROVIDER_CONSTRAINTS = {
  apiVersion: 'v23.0',
  serviceWindowHours: 24,
  pairRateLimitSeconds: 6,
  defaultThroughputMessagesPerSecond: 80,
  eligibleUpgradeThroughputMessagesPerSecond: 1000,
} as const;

/** The provider's customer-service window, in milliseconds: derived, so there is one 24 h. */
export const SERVICE_WINDOW_MS = PROVIDER_CONSTRAINTS.serviceWindowHours * 60 * 60 * 1000;
