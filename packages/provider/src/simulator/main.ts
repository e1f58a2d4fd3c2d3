import { z } from 'zod';
import { startSimulator } from './index';

// An empty variable counts as unset, as in the apps' config.
const opt = <T extends z.ZodType>(schema: T) => z.preprocess((v) => (v === '' ? undefined : v), schema.optional());
const share = opt(z.coerce.number().min(0).max(1));
const numberList = (min: number) =>
  z
    .string()
    .regex(/^\s*\d+(\s*,\s*\d+)*\s*$/, 'a comma-separated list of integers')
    .transform((s) => s.split(',').map((n) => Number(n.trim())))
    .refine((l) => l.length >= min, `at least ${min} values`);
const flag = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

/**
 * Standalone simulator (./infra/up.sh runs it this way). Env names are fixed:
 * SIM_PORT, SIM_WEBHOOK_URL, SIM_SIGNING_SECRET, SIM_ACCESS_TOKEN, SIM_WABA_ID, SIM_PHONE_NUMBER_ID,
 * and the behaviour knobs below (docs/provider-simulator.md describes each).
 */
const env = z
  .object({
    SIM_PORT: z.coerce.number().int().min(0).max(65535).default(3002),
    // Like the apps: loopback unless HOST (or its own SIM_HOST) says otherwise.
    SIM_HOST: z.string().default(process.env.HOST || '127.0.0.1'),
    SIM_WEBHOOK_URL: z.string().url().optional(),
    SIM_SIGNING_SECRET: z.string().min(1).optional(),
    SIM_ACCESS_TOKEN: z.string().min(1, 'SIM_ACCESS_TOKEN is required'),
    SIM_WABA_ID: z.string().min(1).optional(),
    SIM_PHONE_NUMBER_ID: z.string().min(1).optional(),
    SIM_THROUGHPUT_PER_SECOND: opt(z.coerce.number().int().min(1)),
    SIM_PAIR_SPACING_MS: opt(z.coerce.number().int().min(0)),
    SIM_READ_SHARE: share,
    SIM_FAIL_SHARE: share,
    SIM_FAIL_CODES: opt(numberList(1)),
    // "sent,delivered,read" gaps in milliseconds, e.g. 100,300,1000.
    SIM_STATUS_DELAYS_MS: opt(numberList(3).refine((l) => l.length === 3, 'three values: sent,delivered,read')),
    SIM_STATUS_WEBHOOKS: opt(flag),
    SIM_SEED: opt(z.coerce.number().int().min(0)),
  })
  .safeParse(process.env);

if (!env.success) {
  console.error(`invalid simulator configuration:\n${env.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n')}`);
  process.exit(2);
}
const e = env.data;
const sim = await startSimulator({
  port: e.SIM_PORT,
  host: e.SIM_HOST,
  accessToken: e.SIM_ACCESS_TOKEN,
  url: e.SIM_WEBHOOK_URL,
  signingSecret: e.SIM_SIGNING_SECRET,
  wabaId: e.SIM_WABA_ID,
  phoneNumberId: e.SIM_PHONE_NUMBER_ID,
  throughputPerSecond: e.SIM_THROUGHPUT_PER_SECOND,
  pairSpacingMs: e.SIM_PAIR_SPACING_MS,
  readShare: e.SIM_READ_SHARE,
  failShare: e.SIM_FAIL_SHARE,
  failCodes: e.SIM_FAIL_CODES,
  statusDelaysMs: e.SIM_STATUS_DELAYS_MS && { sentMs: e.SIM_STATUS_DELAYS_MS[0], deliveredMs: e.SIM_STATUS_DELAYS_MS[1], readMs: e.SIM_STATUS_DELAYS_MS[2] },
  statusWebhooks: e.SIM_STATUS_WEBHOOKS,
  seed: e.SIM_SEED,
});
// Never print the token or the signing secret.
process.stdout.write(
  `${JSON.stringify({ msg: 'provider simulator listening', url: sim.url, webhookUrl: e.SIM_WEBHOOK_URL ?? null, signed: Boolean(e.SIM_SIGNING_SECRET), seed: sim.stats().seed })}\n`,
);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void sim.close().then(() => process.exit(0)));
}
