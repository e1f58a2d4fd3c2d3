/** Static provider facts reported in the runtime snapshot (spec: Provider constraints). */
export const PROVIDER_CONSTRAINTS = {
  apiVersion: 'v23.0',
  serviceWindowHours: 24,
  pairRateLimitSeconds: 6,
  defaultThroughputMessagesPerSecond: 80,
  eligibleUpgradeThroughputMessagesPerSecond: 1000,
} as const;
