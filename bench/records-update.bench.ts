/**
 * Record updates through the service against a bare express + `pg` handler doing the same kind of
 * write, on one database (issue 31: update throughput before and after the audit log).
 *
 * - update throughput: PATCH /v2/objects/companies/records/{id} setting `description` to a new
 *   text each request (autocannon's `[<id>]` replacement). autocannon sends one URL, so every
 *   request updates the same record: BENCH_CONNECTIONS (default 4) in flight measure the update
 *   path with its record lock contended a little, as a busy record's is. The bare handler looks the token up (as the service, every
 *   request), then in one transaction: locks the record, closes the current description value,
 *   inserts the new one, bumps the record's `updated_at`, and records the `record.updated` outbox
 *   event with its notification. It answers `{}`: it is a load normaliser (the same in every tree,
 *   it writes no audit entry), not a twin of the service's answer.
 *
 *   npm run bench:records-update
 *   BENCH_DURATION=5 BENCH_WARMUP=2 BENCH_ROUNDS=3 BENCH_CONNECTIONS=4 npm run bench:records-update
 */
import express from 'express';
import type { PoolClient } from 'pg';
import { Pool } from 'pg';
import { SCOPES } from '@workbase/shared/kernel';
import { bareGrant } from './bare-records';
import { reportPair, runPairBench, runPairRounds } from './pair-rounds';
import { jsonClient } from './support';

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 4);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

const WRITE_SCOPES = [SCOPES.recordPermissionReadWrite, SCOPES.objectConfigurationRead];

const UPDATE_SQL = `WITH closed AS (
    UPDATE record_values SET active_until = now() WHERE workspace_id = $1 AND record_id = $2 AND attribute_id = $3 AND active_until IS NULL RETURNING id),
  opened AS (
    INSERT INTO record_values (workspace_id, record_id, attribute_id, active_from, created_by, value_text) VALUES ($1, $2, $3, now(), $4, $5) RETURNING id),
  bumped AS (UPDATE records SET updated_at = now() WHERE workspace_id = $1 AND id = $2 RETURNING id),
  recorded AS (INSERT INTO event_outbox (workspace_id, event_type, entity_id, actor, payload) VALUES ($1, 'record.updated', $6, $4, '{}'))
SELECT (SELECT count(*) FROM closed) AS closed, (SELECT count(*) FROM opened) AS opened, (SELECT count(*) FROM bumped) AS bumped, pg_notify('workbase_outbox', '') AS notified`;

async function inTransaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
}

function bareServer(pool: Pool, ids: { objectId: string; description: string }): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.use(express.json());
  app.patch('/v2/objects/companies/records/:id', async (req, res) => {
    const grant = await bareGrant(pool, req.headers.authorization, WRITE_SCOPES);
    if (typeof grant === 'number') return void res.status(grant).json({ status_code: grant });
    const text = (req.body as { data: { values: { description: string } } }).data.values.description;
    const actor = JSON.stringify({ type: 'api-token', id: grant.tokenId });
    const found = await inTransaction(pool, async (client) => {
      const record = await client.query(`SELECT id FROM records WHERE workspace_id = $1 AND id = $2 FOR NO KEY UPDATE`, [grant.workspaceId, req.params.id]);
      if (record.rowCount === 0) return false;
      const entity = { workspace_id: grant.workspaceId, object_id: ids.objectId, record_id: req.params.id, attribute_id: ids.description };
      await client.query(UPDATE_SQL, [grant.workspaceId, req.params.id, ids.description, actor, text, JSON.stringify(entity)]);
      return true;
    });
    if (!found) return void res.status(404).json({ status_code: 404 });
    res.json({});
  });
  return app;
}

runPairBench({ database: 'workbase_bench_records_update', settings: { shared_buffers: '256MB' } }, async ({ pool, service, serve }) => {
  const api = jsonClient(service.baseUrl, service.token);
  const created = (await api('POST', '/v2/objects/companies/records', { data: { values: { name: 'Updated often', description: 'first' } } })).data as { id: { object_id: string; record_id: string } };
  const [description] = (
    await pool.query<{ id: string }>(`SELECT id FROM attributes WHERE workspace_id = $1 AND container_id = $2 AND api_slug = 'description'`, [service.workspaceId, created.id.object_id])
  ).rows;
  const bareUrl = await serve(bareServer(pool, { objectId: created.id.object_id, description: description.id }));
  const route = `/v2/objects/companies/records/${created.id.record_id}`;
  const body = JSON.stringify({ data: { values: { description: 'note [<id>]' } } });

  // Both sides must answer 200 and write a new description each time, or the comparison means nothing.
  for (const base of [service.baseUrl, bareUrl]) {
    const res = await fetch(`${base}${route}`, { method: 'PATCH', headers: { Authorization: `Bearer ${service.token}`, 'Content-Type': 'application/json' }, body: body.replace('[<id>]', base) });
    if (res.status !== 200) throw new Error(`${base} answered ${res.status}: ${await res.text()}`);
  }
  const versions = async () =>
    Number((await pool.query(`SELECT count(*) AS n FROM record_values WHERE workspace_id = $1 AND record_id = $2 AND attribute_id = $3`, [service.workspaceId, created.id.record_id, description.id])).rows[0].n);
  const before = await versions();

  const sides = [
    { name: 'Workbase (PATCH record)', url: `${service.baseUrl}${route}` },
    { name: 'bare express + pg', url: `${bareUrl}${route}` },
  ] as const;
  const result = await runPairRounds(service, sides, { connections: CONNECTIONS, duration: DURATION, warmup: WARMUP, rounds: ROUNDS, request: { method: 'PATCH', body, idReplacement: true } });
  const written = (await versions()) - before;
  const audited = await pool.query(`SELECT count(*) AS n FROM information_schema.tables WHERE table_name = 'audit_log'`);
  await reportPair(service, sides, result, `record update throughput: ${CONNECTIONS} connections, ${DURATION} s rounds, ${ROUNDS} rounds (${written} description values written; audit_log table ${Number(audited.rows[0].n) > 0 ? 'present' : 'absent'})`);
});
