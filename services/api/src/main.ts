import { loadEnvOrExit } from '@mos/config';
import { serve } from '@mos/http';
import { createAppDeps } from '@mos/trpc';
import { createApiApp } from './app';

const env = loadEnvOrExit();
const { deps, database } = createAppDeps(env, 'api');
serve(createApiApp(deps), { host: env.HOST, port: env.API_PORT }, deps.log, 'api', () => database.close());
