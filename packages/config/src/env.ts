import { z } from 'zod';
import { resolveTemporalConnection, type TemporalConnectionSettings } from './temporal';

/** Booleans from the environment: only these spellings, so "false" is never true. */
const envBool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .optional()
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/** A token that may be left empty in an env file: '' means unset, anything else must be long enough. */
const optionalToken = (name: string) =>
  z.preprocess((v) => (v === '' ? undefined : v), z.string().min(32, `${name} must be at least 32 characters`).optional());

/** Where a dev or test process links when TEMPORAL_UI_URL is unset: the UI `temporal server start-dev` serves (infra/up.sh). */
export const DEV_TEMPORAL_UI_URL = 'http://127.0.0.1:8233';

const emptyIsUnset = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' ? undefined : v), schema);

const port = (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback);

export const envSchema = z.object({
  MOS_ENV: z.enum(['development', 'test', 'production']).default('development'),
  DATABASE_URL: z.string().url({ message: 'DATABASE_URL must be a postgres:// URL' }),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
  /**
   * Temporal's standard client variables (temporal.ts; infra/production/README.md): address and namespace
   * (unset: a TOML profile named by TEMPORAL_CONFIG_FILE / TEMPORAL_PROFILE, else TEMPORAL_DEFAULTS),
   * an API key (Temporal Cloud; turns TLS on) and TLS / mTLS. Empty means unset. `loadEnv` resolves
   * them into `temporal`, the one source of every Temporal connection.
   */
  TEMPORAL_ADDRESS: emptyIsUnset(z.string().min(1).optional()),
  TEMPORAL_NAMESPACE: emptyIsUnset(z.string().min(1).optional()),
  TEMPORAL_API_KEY: emptyIsUnset(z.string().min(1).optional()),
  /** envconfig reads only 'true' / '1' as on: anything else it would silently take as off. */
  TEMPORAL_TLS: emptyIsUnset(z.enum(['true', 'false', '1', '0'], { message: 'TEMPORAL_TLS must be true, false, 1 or 0' }).optional()),
  TEMPORAL_TLS_CLIENT_CERT_PATH: emptyIsUnset(z.string().optional()),
  TEMPORAL_TLS_CLIENT_KEY_PATH: emptyIsUnset(z.string().optional()),
  TEMPORAL_TLS_SERVER_CA_CERT_PATH: emptyIsUnset(z.string().optional()),
  TEMPORAL_TLS_SERVER_NAME: emptyIsUnset(z.string().optional()),
  TEMPORAL_PROFILE: emptyIsUnset(z.string().optional()),
  TEMPORAL_CONFIG_FILE: emptyIsUnset(z.string().optional()),
  TEMPORAL_TASK_QUEUE: z.string().min(1).default('mos-webhooks'),
  /**
   * The Temporal Web UI operators open (http or https, trailing slash dropped): webhook details
   * link to their run there. Unset or '': DEV_TEMPORAL_UI_URL outside production, null (no link) in production.
   */
  TEMPORAL_UI_URL: z.preprocess(
    (v) => (v === '' ? undefined : v),
    z
      .string()
      .url({ protocol: /^https?$/, message: 'TEMPORAL_UI_URL must be an http(s) URL' })
      .transform((v) => v.replace(/\/+$/, ''))
      .optional()
      .transform((v) => v ?? null),
  ),
  /** The prebuilt workflow bundle a production worker loads (`pnpm build:workflows` writes it). */
  MOS_WORKFLOW_BUNDLE: z.string().min(1).optional(),
  /** Address the HTTP apps listen on: loopback unless deployed where others must reach it (HOST=0.0.0.0). */
  HOST: z.string().min(1).default('127.0.0.1'),
  API_PORT: port(3000),
  CONTROL_PLANE_PORT: port(3001),
  /** The worker's own small HTTP server (GET /metrics, GET /health) on HOST; 0 picks a free port. */
  WORKER_METRICS_PORT: port(3003),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** 32 bytes, base64 or hex: the vault's AES-256-GCM key. Generated under .data/ in dev. */
  MOS_MASTER_KEY: z.string().optional(),
  MOS_DATA_DIR: z.string().default('.data'),
  MOS_COOKIE_SECURE: envBool,
  MOS_BUILD_COMMIT: z.string().optional(),
  PROVIDER_BASE_URL: z.string().url().optional(),
  PROVIDER_API_VERSION: z.string().default('v23.0'),
  // Fallbacks honoured only outside production (see vault.ts).
  WEBHOOK_SIGNING_SECRET: z.string().optional(),
  PROVIDER_WEBHOOK_VERIFY_TOKEN: z.string().optional(),
  PARTNER_WEBHOOK_SECRET: z.string().optional(),
  /** Machine-to-machine bearer token for POST /internal/templates[/sync]; unset disables those routes. */
  MOS_SERVICE_TOKEN: optionalToken('MOS_SERVICE_TOKEN'),
  /** Bearer token for GET /metrics (process-wide, platform-level figures); unset: open outside production, off in production. */
  MOS_METRICS_TOKEN: optionalToken('MOS_METRICS_TOKEN'),
  /**
   * Where the API's per-second limits below count: `memory` (per process: with N replicas the
   * effective rate is N times the setting) or `postgres` (the rate_limits table, shared by every
   * replica; a database error or a 250 ms stall falls back to the process's own count).
   */
  RATE_LIMIT_STORE: z.enum(['memory', 'postgres']).default('memory'),
  /** Provider webhook guard: requests per second per source (fixed 1 s window); see docs/webhooks.md. */
  WEBHOOK_RATE_LIMIT_PER_SECOND: z.coerce.number().int().min(1).default(10_000),
  /** Largest provider webhook body accepted; larger ones get 413 and are counted. */
  WEBHOOK_BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(64 * 1024 * 1024)
    .default(1024 * 1024),
  /** Inbound webhooks from external systems (docs/inbound-webhooks.md): largest body, and requests per second per URL slug. */
  INBOUND_WEBHOOK_BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(16 * 1024 * 1024)
    .default(256 * 1024),
  INBOUND_WEBHOOK_RATE_LIMIT_PER_SECOND: z.coerce.number().int().min(1).default(100),
  /** Legacy-compatible paths (docs/compat.md): requests per second per caller (API key, or the partner secret). */
  COMPAT_RATE_LIMIT_PER_SECOND: z.coerce.number().int().min(1).default(100),
  /**
   * The worker's webhook batches (docs/pipeline.md): the most webhooks one batch run carries
   * (50 is the ceiling: the run's WebhookEventIds search attribute must fit the server's 2 KB
   * value limit), and the ordering lanes, which are also the most batch runs in flight at once.
   */
  WEBHOOK_BATCH_MAX: z.coerce.number().int().min(1).max(50).default(50),
  WEBHOOK_BATCH_LANES: z.coerce.number().int().min(1).max(64).default(4),
  /** How long the ingress caches the ingress workspace and its signing secret (0 = no cache). */
  WEBHOOK_INGRESS_CACHE_MS: z.coerce.number().int().min(0).max(300_000).default(5_000),
  /** Login throttling, per process: failed sign-ins allowed per account (email) and per client address in each window. */
  LOGIN_MAX_FAILURES_PER_ACCOUNT: z.coerce.number().int().min(1).default(10),
  LOGIN_MAX_FAILURES_PER_ADDRESS: z.coerce.number().int().min(1).default(50),
  LOGIN_FAILURE_WINDOW_SECONDS: z.coerce.number().int().min(1).max(86_400).default(900),
});

export type Env = Omit<z.infer<typeof envSchema>, 'TEMPORAL_ADDRESS' | 'TEMPORAL_NAMESPACE'> & {
  /** As resolved (variable, else profile, else TEMPORAL_DEFAULTS): what `temporal` connects to. */
  TEMPORAL_ADDRESS: string;
  TEMPORAL_NAMESPACE: string;
  /** Every Temporal connection's options (temporal.ts): the app's client, the worker's, the CLI's. */
  temporal: TemporalConnectionSettings;
};

/** Parses once at start-up; a bad config stops the process with every problem listed. */
export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.') || '(env)'}: ${i.message}`);
    throw new Error(`invalid configuration:\n${lines.join('\n')}`);
  }
  if (parsed.data.MOS_ENV === 'production' && !parsed.data.MOS_MASTER_KEY) {
    throw new Error('invalid configuration:\n  MOS_MASTER_KEY: required in production');
  }
  let temporal: TemporalConnectionSettings;
  try {
    temporal = resolveTemporalConnection(source);
  } catch (err) {
    const lines = (err as Error).message.split('\n').map((l) => `  ${l}`);
    throw new Error(`invalid configuration:\n${lines.join('\n')}`);
  }
  const env: Env = { ...parsed.data, TEMPORAL_ADDRESS: temporal.address, TEMPORAL_NAMESPACE: temporal.namespace, temporal };
  if (env.TEMPORAL_UI_URL === null && env.MOS_ENV !== 'production') return { ...env, TEMPORAL_UI_URL: DEV_TEMPORAL_UI_URL };
  return env;
}

/** For process entry points: a bad config prints every problem and exits 2, no stack trace. */
export function loadEnvOrExit(source: NodeJS.ProcessEnv = process.env): Env {
  try {
    return loadEnv(source);
  } catch (err) {
    console.error((err as Error).message);
    process.exit(2);
  }
}
