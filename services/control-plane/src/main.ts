import { loadEnvOrExit } from '@mos/config';
import { serve } from '@mos/http';
import { createAppDeps } from '@mos/app';
import { createControlPlaneApp } from './app';

const env = loadEnvOrExit();
const app = createAppDeps(env, 'control-plane');
serve(createControlPlaneApp(app.deps), { host: env.HOST, port: env.CONTROL_PLANE_PORT }, app.deps.log, 'control-plane', app.close);
