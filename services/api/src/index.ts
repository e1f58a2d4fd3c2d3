export { createApiApp } from './app';
