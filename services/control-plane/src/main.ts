import { loadEnvOrExit } from '@mos/config';
import { serve } from '@mos/http';
import { createAppDeps } from '@mos/trpc';
import { createControlPlaneApp } from './app';

const env = loadEnvOrExit();
const { deps, database } = createAppDeps(env, 'control-plane');
serve(createControlPlaneApp(deps), { host: env.HOST, port: env.CONTROL_PLANE_PORT }, deps.log, 'control-plane', () => database.close());
