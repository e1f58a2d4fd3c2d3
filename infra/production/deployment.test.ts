import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { envSchema, loadEnv, TEMPORAL_ENV_VARS } from '@mos/config';

/**
 * The reference deployment (docker-compose.yml, nginx.conf, mos.env.example) checked without
 * Docker, which this machine does not have: the files parse, every entry point they run exists,
 * every variable they set is one mos reads, and the env they give a process loads.
 */
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const here = (name: string) => readFileSync(new URL(name, import.meta.url), 'utf8');

interface Service {
  image?: string;
  command?: string[];
  environment?: Record<string, string | number>;
  deploy?: { replicas?: number };
  depends_on?: Record<string, { condition: string }> | string[];
}
const compose = parse(here('docker-compose.yml'), { merge: true }) as { services: Record<string, Service> };
const services = compose.services;
const MOS_SERVICES = ['temporal-setup', 'migrate', 'api', 'worker', 'control-plane'];

function exampleEnv(): Record<string, string> {
  const lines = here('mos.env.example').split('\n');
  return Object.fromEntries(lines.filter((l) => /^[A-Z_]+=/.test(l)).map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
}

describe('infra/production', () => {
  it('runs several API and worker replicas, one control plane, behind a load balancer, on a Temporal with PostgreSQL', () => {
    expect(services.api!.deploy!.replicas).toBeGreaterThanOrEqual(2);
    expect(services.worker!.deploy!.replicas).toBeGreaterThanOrEqual(2);
    expect(services['control-plane']).toBeDefined();
    expect(services.temporal!.image).toMatch(/^temporalio\/auto-setup:/);
    expect(services.temporal!.environment).toMatchObject({ DB: 'postgres12', POSTGRES_SEEDS: 'postgres', DEFAULT_NAMESPACE: 'mos' });
    // Chosen up front: it can never change on a running cluster.
    expect(Number(services.temporal!.environment!.NUM_HISTORY_SHARDS)).toBeGreaterThanOrEqual(512);
    expect(here('nginx.conf')).toMatch(/upstream api \{[^}]*server api:3000 resolve;/);
  });

  it('every mos process runs an entry point that exists, after the migration; workers also after the search attributes', () => {
    for (const name of MOS_SERVICES) {
      const command = services[name]!.command!.join(' ');
      const entry = command.match(/(?:services|packages)\/[\w/-]+\.ts/)?.[0];
      expect(entry, `${name}: ${command}`).toBeDefined();
      expect(existsSync(`${ROOT}${entry}`), entry).toBe(true);
    }
    for (const name of ['api', 'worker', 'control-plane']) {
      expect(services[name]!.depends_on).toMatchObject({ migrate: { condition: 'service_completed_successfully' } });
    }
    expect(services.worker!.depends_on).toMatchObject({ 'temporal-setup': { condition: 'service_completed_successfully' } });
  });

  it("sets only variables mos reads, shares the rate limiter store, and each process's env loads", () => {
    const known = new Set<string>([...Object.keys(envSchema.shape), ...TEMPORAL_ENV_VARS]);
    const example = exampleEnv();
    for (const name of Object.keys(example)) expect(known.has(name), `mos.env.example: ${name}`).toBe(true);
    for (const name of MOS_SERVICES) {
      const environment = services[name]!.environment!;
      for (const key of Object.keys(environment)) expect(known.has(key), `${name}: ${key}`).toBe(true);
      expect(environment.RATE_LIMIT_STORE).toBe('postgres');
      const env = loadEnv({
        ...example,
        ...Object.fromEntries(Object.entries(environment).map(([k, v]) => [k, String(v)])),
        MOS_MASTER_KEY: Buffer.alloc(32, 7).toString('base64'),
      });
      expect(env.temporal).toEqual({ address: 'temporal:7233', namespace: 'mos' });
      expect(env.MOS_ENV).toBe('production');
    }
    expect(services.worker!.environment!.MOS_WORKFLOW_BUNDLE).toBe('services/worker/dist/workflow-bundle.js');
  });
});
