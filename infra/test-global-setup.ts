import { prepareTemplateDatabase } from '@mos/db/testing';

/** Migrates the template database that every integration suite clones. */
export default async function setup(): Promise<void> {
  if (!process.env.DATABASE_URL) throw new Error('DATABASE_URL is not set: run the tests through ./infra/test.sh');
  await prepareTemplateDatabase();
}
