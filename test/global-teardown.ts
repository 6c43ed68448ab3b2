import { rmSync } from 'node:fs';
import { Client } from 'pg';

export default async function globalTeardown(): Promise<void> {
  const adminUrl = process.env.WB_TEST_ADMIN_URL;
  const template = process.env.WB_TEST_TEMPLATE;
  const state = (globalThis as { __WB_CLUSTER__?: { cluster: { stop(): Promise<void> }; dataDir: string } }).__WB_CLUSTER__;
  if (state) {
    await state.cluster.stop();
    rmSync(state.dataDir, { recursive: true, force: true });
    return;
  }
  if (adminUrl && template) {
    const client = new Client({ connectionString: adminUrl });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`);
    await client.end();
  }
}
