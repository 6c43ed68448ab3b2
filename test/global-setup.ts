import { randomBytes } from 'node:crypto';
import { mkdtempSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Client } from 'pg';
// The files, not the front door: jest's moduleNameMapper (@workbase/*) does not apply to a global setup.
import { runMigrations, withDatabase } from '../libs/shared/persistence/src/database';
import { startEmbeddedPostgres } from '../libs/shared/persistence/src/embedded-postgres';

/**
 * One PostgreSQL for the whole run: the server of DATABASE_URL when set (CI's external run),
 * otherwise an embedded throwaway cluster tuned for speed. Migrations run once into a template
 * database; every test file clones its own database from it (see test/support/test-database.ts).
 */
export default async function globalSetup(): Promise<void> {
  const runId = randomBytes(4).toString('hex');
  let adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'workbase-test-'));
    chmodSync(dataDir, 0o755);
    const cluster = await startEmbeddedPostgres({
      dataDir,
      settings: { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off', max_connections: '300' },
    });
    adminUrl = cluster.url;
    (globalThis as { __WB_CLUSTER__?: unknown }).__WB_CLUSTER__ = { cluster, dataDir };
  }
  const template = `wbt_template_${runId}`;
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  await client.query(`CREATE DATABASE ${template}`);
  await client.end();
  await runMigrations(withDatabase(adminUrl, template));

  process.env.WB_TEST_ADMIN_URL = adminUrl;
  process.env.WB_TEST_TEMPLATE = template;
  process.env.WB_TEST_RUN_ID = runId;
}
