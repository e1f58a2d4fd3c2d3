import { loadEnvOrExit } from '@mos/config';
import { serve } from '@mos/http';
import { createAppDeps } from '@mos/app';
import { createApiApp } from './app';

const env = loadEnvOrExit();
const app = createAppDeps(env, 'api');
serve(createApiApp(app.deps), { host: env.HOST, port: env.API_PORT }, app.deps.log, 'api', app.close);
