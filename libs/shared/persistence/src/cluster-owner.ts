import * as path from 'node:path';
import type { Client } from 'pg';
import { isPgError } from './pg-errors';
import { standaloneClient } from './standalone-client';

/**
 * Who runs the embedded cluster. The process that started it holds a session-level advisory lock
 * on a connection of its own for as long as it lives; PostgreSQL releases it the moment that
 * process dies, however it dies, so a cluster whose lock is free has lost its owner.
 */
const OWNER_LOCK_KEY = 7_406_021_312;
const PROBE_TIMEOUT_MS = 3_000;

export type Probe = { state: 'ours'; ownerAlive: boolean; ageSeconds: number } | { state: 'other' } | { state: 'silent' };

/** Connects to the cluster a pid file points at, and asks it whose data directory it serves and whether its owner is alive. */
export async function probeCluster(url: string, pgdata: string): Promise<Probe> {
  const client = standaloneClient({ connectionString: url, connectionTimeoutMillis: PROBE_TIMEOUT_MS, application_name: 'workbase-embedded-probe' });
  try {
    await client.connect();
  } catch (error) {
    // 57P03: the server answers but is starting up, shutting down or recovering.
    return isPgError(error, 'invalidPassword') ? { state: 'other' } : { state: 'silent' };
  }
  try {
    const [row] = (
      // The lock is looked up, never tried: a probe that took it for a moment would make a probe of
      // another process (a joined one watching, a new one starting) take a dead owner for a live one.
      await client.query<{ data_directory: string; age: number; free: boolean }>(
        `SELECT current_setting('data_directory') AS data_directory,
                extract(epoch FROM now() - pg_postmaster_start_time())::float8 AS age,
                NOT EXISTS (SELECT 1 FROM pg_locks
                             WHERE locktype = 'advisory' AND granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
                               AND classid = ($1::bigint >> 32)::oid AND objid = ($1::bigint & 4294967295)::oid AND objsubid = 1) AS free`,
        [OWNER_LOCK_KEY],
      )
    ).rows;
    if (path.resolve(row.data_directory) !== path.resolve(pgdata)) return { state: 'other' };
    return { state: 'ours', ownerAlive: !row.free, ageSeconds: row.age };
  } catch {
    return { state: 'silent' };
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The owner's claim: a session-level advisory lock that PostgreSQL releases the moment the owner dies, however it dies. */
export async function takeOwnerLock(url: string): Promise<Client> {
  // The cluster going down ends this connection; stop() handles the rest.
  const client = standaloneClient({ connectionString: url, application_name: 'workbase-embedded-owner' });
  await client.connect();
  await client.query('SELECT pg_advisory_lock($1)', [OWNER_LOCK_KEY]);
  // Never keep the event loop alive for this connection alone.
  (client as unknown as { connection?: { stream?: { unref?: () => void } } }).connection?.stream?.unref?.();
  return client;
}
