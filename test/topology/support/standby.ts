import * as path from 'node:path';
import { Client } from 'pg';
import { PG_BIN, type Pg15Cluster, serviceFolder, spawnAsServiceUser, startPg15 } from './pg15';

/** One statement on a fresh connection (for set-up and checks: no pool to close). */
export async function queryOnce<Row>(url: string, sql: string, params: unknown[] = []): Promise<Row[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as Row[];
  } finally {
    await client.end();
  }
}

/**
 * A hot standby of `primary`, streaming from it (`pg_basebackup -R`), started under the name
 * `name` (its `cluster_name`, which is also its application_name in pg_stat_replication, for
 * `synchronous_standby_names`). `settings` go to the standby's server (e.g. hot_standby_feedback).
 */
export async function startStandby(primary: Pg15Cluster, name: string, settings: Record<string, string> = {}): Promise<Pg15Cluster> {
  const dataDir = path.join(serviceFolder(`workbase-${name}-`), 'data');
  await spawnAsServiceUser(`${PG_BIN}/pg_basebackup`, ['-d', primary.url(), '-D', dataDir, '-R', '-X', 'stream', '-c', 'fast', '--no-sync']);
  return startPg15({ dataDir, password: primary.password, settings: { cluster_name: name, ...settings } });
}

/** Polls `check` until it answers something truthy (errors count as not yet), or fails after `timeoutMs`. */
export async function until<T>(what: string, check: () => Promise<T | null | undefined | false>, timeoutMs: number): Promise<T> {
  for (const deadline = Date.now() + timeoutMs; ; await new Promise((resolve) => setTimeout(resolve, 50))) {
    const found = await check().catch(() => null);
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
  }
}

/**
 * A primary with a `workbase` database and a hot standby named `name` streaming from it (the
 * set-up of the replica and failover suites and of the replica bench), each server with its
 * `settings`. If the standby fails to start, the primary is destroyed before the error is thrown.
 */
export async function startPrimaryWithStandby(
  name: string,
  settings: { primary?: Record<string, string>; standby?: Record<string, string> } = {},
): Promise<{ primary: Pg15Cluster; standby: Pg15Cluster }> {
  const primary = await startPg15({ settings: settings.primary });
  try {
    await queryOnce(primary.url(), 'CREATE DATABASE workbase');
    return { primary, standby: await startStandby(primary, name, settings.standby) };
  } catch (e) {
    await primary.destroy();
    throw e;
  }
}
