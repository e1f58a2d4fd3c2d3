import { existsSync } from 'node:fs';
import { loadClientConfigProfile, toClientOptions } from '@temporalio/envconfig';

/** Where a process connects when nothing says otherwise: the dev server infra/up.sh starts. */
export const TEMPORAL_DEFAULTS = { address: '127.0.0.1:7233', namespace: 'default' } as const;

/**
 * Temporal's standard client variables (docs.temporal.io, "Environment configuration"), read by
 * @temporalio/envconfig exactly as the `temporal` CLI and every SDK read them.
 */
export const TEMPORAL_ENV_VARS = [
  'TEMPORAL_ADDRESS',
  'TEMPORAL_NAMESPACE',
  'TEMPORAL_API_KEY',
  'TEMPORAL_TLS',
  'TEMPORAL_TLS_CLIENT_CERT_PATH',
  'TEMPORAL_TLS_CLIENT_CERT_DATA',
  'TEMPORAL_TLS_CLIENT_KEY_PATH',
  'TEMPORAL_TLS_CLIENT_KEY_DATA',
  'TEMPORAL_TLS_SERVER_CA_CERT_PATH',
  'TEMPORAL_TLS_SERVER_CA_CERT_DATA',
  'TEMPORAL_TLS_SERVER_NAME',
  'TEMPORAL_PROFILE',
  'TEMPORAL_CONFIG_FILE',
] as const;

/** Structurally Temporal's TLSConfig, so config needs no Temporal SDK package of its own. */
export interface TemporalTls {
  serverNameOverride?: string;
  serverRootCACertificate?: Uint8Array;
  clientCertPair?: { crt: Uint8Array; key: Uint8Array };
}

/**
 * What every Temporal connection of a process is opened with (the app's client, the worker's
 * NativeConnection, the CLI): the fields both `Connection.connect` and `NativeConnection.connect` take.
 */
export interface TemporalConnectionSettings {
  address: string;
  namespace: string;
  /** Temporal Cloud API key; envconfig turns TLS on with it. Never log it: `describeTemporal`. */
  apiKey?: string;
  tls?: TemporalTls | boolean;
  metadata?: Record<string, string>;
}

const PATH_VARS = ['TEMPORAL_TLS_CLIENT_CERT_PATH', 'TEMPORAL_TLS_CLIENT_KEY_PATH', 'TEMPORAL_TLS_SERVER_CA_CERT_PATH'] as const;

/**
 * The connection settings from the environment, through @temporalio/envconfig: its variables
 * win over a TOML profile, which wins over TEMPORAL_DEFAULTS. Unlike the SDK's default, the TOML
 * file is read only when TEMPORAL_CONFIG_FILE or TEMPORAL_PROFILE names it, so a developer's own
 * `temporal` CLI profile never silently redirects a service. Empty values count as unset (an env
 * file's `TEMPORAL_API_KEY=` must not turn TLS on). Certificates are read here, at start-up: a
 * missing or unreadable file is an error naming its variable, never a connection that hangs.
 */
export function resolveTemporalConnection(source: Record<string, string | undefined>): TemporalConnectionSettings {
  const vars: Record<string, string> = {};
  for (const name of [...TEMPORAL_ENV_VARS, 'HOME', 'XDG_CONFIG_HOME']) {
    const value = source[name];
    if (value !== undefined && value !== '') vars[name] = value;
  }
  const problems: string[] = [];
  for (const name of PATH_VARS) {
    if (vars[name] && !existsSync(vars[name])) problems.push(`${name}: no such file: ${vars[name]}`);
  }
  const pair = (cert: string, key: string) => Boolean(vars[`${cert}_PATH`] || vars[`${cert}_DATA`]) !== Boolean(vars[`${key}_PATH`] || vars[`${key}_DATA`]);
  if (pair('TEMPORAL_TLS_CLIENT_CERT', 'TEMPORAL_TLS_CLIENT_KEY')) {
    problems.push('TEMPORAL_TLS_CLIENT_CERT_PATH and TEMPORAL_TLS_CLIENT_KEY_PATH: mTLS needs both the certificate and its key');
  }
  if (vars.TEMPORAL_CONFIG_FILE && !existsSync(vars.TEMPORAL_CONFIG_FILE)) {
    problems.push(`TEMPORAL_CONFIG_FILE: no such file: ${vars.TEMPORAL_CONFIG_FILE}`);
  }
  if (problems.length > 0) throw new Error(problems.join('\n'));

  let connect: ReturnType<typeof toClientOptions>;
  try {
    const profile = loadClientConfigProfile({
      overrideEnvVars: vars,
      disableFile: !vars.TEMPORAL_CONFIG_FILE && !vars.TEMPORAL_PROFILE,
    });
    connect = toClientOptions(profile);
  } catch (err) {
    throw new Error(`Temporal client configuration: ${(err as Error).message}`);
  }
  const { address, apiKey, tls, metadata } = connect.connectionOptions;
  return {
    address: address ?? TEMPORAL_DEFAULTS.address,
    namespace: connect.namespace ?? TEMPORAL_DEFAULTS.namespace,
    ...(apiKey ? { apiKey } : {}),
    ...(tls !== undefined && tls !== null ? { tls: tls as TemporalTls | boolean } : {}),
    ...(metadata && Object.keys(metadata).length > 0 ? { metadata: metadata as Record<string, string> } : {}),
  };
}

/** What a log line may say about the connection: where, and how it authenticates, never the key. */
export function describeTemporal(settings: TemporalConnectionSettings): Record<string, string> {
  const tls = settings.tls;
  return {
    address: settings.address,
    namespace: settings.namespace,
    tls: !tls ? 'off' : typeof tls === 'object' && tls.clientCertPair ? 'mtls' : 'on',
    auth: settings.apiKey ? 'api-key' : typeof tls === 'object' && tls.clientCertPair ? 'client-certificate' : 'none',
  };
}
