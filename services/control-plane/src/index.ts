export { createControlPlaneApp } from './app';
