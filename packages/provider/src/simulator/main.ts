import { z } from 'zod';
import { startSimulator } from './index';

/**
 * Standalone simulator (./infra/up.sh runs it this way). Env names are fixed:
 * SIM_PORT, SIM_WEBHOOK_URL, SIM_SIGNING_SECRET, SIM_ACCESS_TOKEN, SIM_WABA_ID, SIM_PHONE_NUMBER_ID.
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
});
// Never print the token or the signing secret.
process.stdout.write(
  `${JSON.stringify({ msg: 'provider simulator listening', url: sim.url, webhookUrl: e.SIM_WEBHOOK_URL ?? null, signed: Boolean(e.SIM_SIGNING_SECRET) })}\n`,
);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void sim.close().then(() => process.exit(0)));
}
