import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { withDatabase } from '../../libs/shared/persistence/src';

export interface TestDatabase {
  readonly url: string;
  drop(): Promise<void>;
}

/** A fresh, migrated database for one test file, cloned from the run's template. */
export async function createTestDatabase(): Promise<TestDatabase> {
  const adminUrl = process.env.WB_TEST_ADMIN_URL;
  const template = process.env.WB_TEST_TEMPLATE;
  if (!adminUrl || !template) throw new Error('test/global-setup.ts did not run');
  const name = `wbt_${process.env.WB_TEST_RUN_ID}_${randomBytes(4).toString('hex')}`;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
  } finally {
    await admin.end();
  }
  return {
    url: withDatabase(adminUrl, name),
    drop: async () => {
      const client = new Client({ connectionString: adminUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
