import { Client } from 'pg';
import { runMigrations } from '../../libs/shared/persistence/src';
import { type Pg15Cluster, startPg15 } from './support/pg15';

/** The piece every topology suite stands on: a Debian PostgreSQL 15 cluster the suite starts itself. */
describe('a Debian PostgreSQL 15 cluster started by a topology suite', () => {
  let cluster: Pg15Cluster;

  beforeAll(async () => {
    cluster = await startPg15();
  });
  afterAll(async () => {
    await cluster?.destroy();
  });

  it('asks for the password it was made with, and takes Workbase migrations', async () => {
    const wrong = new Client({ connectionString: cluster.url().replace(encodeURIComponent(cluster.password), 'wrong') });
    await expect(wrong.connect()).rejects.toThrow(/password authentication failed/);

    await runMigrations(cluster.url());
    const client = new Client({ connectionString: cluster.url() });
    await client.connect();
    try {
      const { rows } = await client.query<{ version: string; tables: string }>(
        `SELECT current_setting('server_version_num') AS version,
                (SELECT count(*) FROM information_schema.tables WHERE table_schema NOT IN ('pg_catalog', 'information_schema'))::text AS tables`,
      );
      expect(Number(rows[0].version)).toBeGreaterThanOrEqual(150000);
      expect(Number(rows[0].version)).toBeLessThan(160000);
      expect(Number(rows[0].tables)).toBeGreaterThan(10);
    } finally {
      await client.end();
    }
  });
});
