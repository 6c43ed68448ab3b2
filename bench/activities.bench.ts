/**
 * Activity records through the service against a bare express + `pg` handler doing the same work,
 * on one database. Issue 17, targets 3 (create ≥ 0.60× bare) and 6 (RSS).
 *
 * - create throughput: POST /v2/activities/bench_calls/records with timestamp, direction (select),
 *   duration (number) and note (text), BENCH_CONNECTIONS in flight, autocannon out of process,
 *   interleaved rounds (service, bare, …), medians per side and the ratio of each round. The
 *   service runs in its default configuration (rate limits on, counted in the PostgreSQL store,
 *   info logs), only the per-token limits raised so that the load never meets them. The bare
 *   handler looks the bearer token up (SHA-256 + the same indexed lookup and validity conditions
 *   as the service, every request: it has no cache), then runs the service's transaction: BEGIN,
 *   the activity key-share locked with its live attributes, one INSERT of the record, its four
 *   values and its `activity-record.created` outbox event (with the outbox notification), COMMIT;
 *   and answers the same JSON (both sides' bodies are checked equal, ids and times aside, before
 *   anything is timed).
 * - query latency: POST …/records/query, timestamp range filter + timestamp sort desc, limit 50,
 *   sequential, over the records the rounds created plus BENCH_EXTRA generated ones. The bare
 *   handler runs the same filter/sort SQL and reads the page's values (its answer is plain rows,
 *   not the service's JSON: latency only).
 *
 * The service runs in a child process of its own (bench/service-process.ts; BENCH_SERVICE_COMPILED=1
 * runs tsc's output as `npm start` does), so the RSS printed is the service's alone; the bare server
 * runs in this process, autocannon in a third.
 *
 *   npm run bench:activities                          (embedded PostgreSQL in a temp dir; or set DATABASE_URL)
 *   BENCH_DURATION=10 BENCH_WARMUP=3 BENCH_ROUNDS=5 BENCH_CONNECTIONS=16 BENCH_EXTRA=50000 BENCH_QUERIES=50   (the defaults)
 *   BENCH_DURATION=2 BENCH_WARMUP=1 BENCH_ROUNDS=1 BENCH_EXTRA=300 BENCH_QUERIES=5 npm run bench:activities   (smoke run)
 *   BENCH_CPU_PROF=/tmp/prof npm run bench:activities (the service under --cpu-prof; top self-time entries printed)
 *   BENCH_BARE_CACHED_GRANT=1 npm run bench:activities (the bare side keeps each token's grant after its first lookup)
 *
 * Nothing is appended to bench/RESULTS.md: the tables there are copied from this output.
 */
import { isDeepStrictEqual } from 'node:util';
import express from 'express';
import { Pool, type PoolClient } from 'pg';
import { newId, SCOPES } from '@workbase/shared/kernel';
import { attributesJsonSql, type BareAttribute, bareGrant, type BareRecord, type BareValue, bareValuesJson, isoSql } from './bare-records';
import { reportPair, runPairBench, runPairRounds } from './pair-rounds';
import { jsonClient, sequentialLatency } from './support';

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 16);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const EXTRA = Number(process.env.BENCH_EXTRA ?? 50000);
const QUERIES = Number(process.env.BENCH_QUERIES ?? 50);
/** BENCH_BARE_CACHED_GRANT=1: the bare side looks each token up once and keeps the answer, as the service's grant cache does (one statement less per create). */
const CACHED_GRANT = Boolean(process.env.BENCH_BARE_CACHED_GRANT);
const SLUG = 'bench_calls';
const DAY0 = Date.UTC(2026, 0, 1);

/** What the service requires of a token for an activity-record write. */
const WRITE_SCOPES = [SCOPES.activityRecordReadWrite, SCOPES.activityConfigurationRead, SCOPES.objectConfigurationRead, SCOPES.recordPermissionRead];

/** Every create of the load sends these values. */
const VALUES = { timestamp: '2026-01-01T09:30:00.000Z', direction: 'Outbound', duration: 754, note: 'call about the renewal' };

/** The activity (key-share locked, as the service's write locks it) and its live attributes in the service's order. */
const ACTIVITY_SQL = `SELECT act.id, ${attributesJsonSql('act.workspace_id', 'act.id')} AS attributes
  FROM activities act WHERE act.workspace_id = $1 AND act.api_slug = $2 FOR KEY SHARE`;

/**
 * The record, its values (timestamp, the select option named by title, number, text) and its
 * created event in one statement; answers the record and its values with the option's title.
 */
const INSERT_SQL = `WITH rec AS (
    INSERT INTO records (workspace_id, id, container_id, created_by, created_at) VALUES ($1, $2, $3, $4, now())
    RETURNING id, ${isoSql('created_at')} AS created_at, created_by),
  vals AS (
    INSERT INTO record_values (workspace_id, record_id, attribute_id, active_from, created_by, value_timestamp, value_json, value_ref, value_number, value_text) VALUES
      ($1, $2, $5, now(), $4, $6::timestamptz, jsonb_build_object('value', ${isoSql('$6::timestamptz')}), NULL, NULL, NULL),
      ($1, $2, $7, now(), $4, NULL, NULL, (SELECT o.id FROM select_options o WHERE o.workspace_id = $1 AND o.attribute_id = $7 AND o.title = $8 AND NOT o.is_archived), NULL, NULL),
      ($1, $2, $9, now(), $4, NULL, NULL, NULL, $10, NULL),
      ($1, $2, $11, now(), $4, NULL, NULL, NULL, NULL, $12)
    RETURNING *),
  recorded AS (INSERT INTO event_outbox (workspace_id, event_type, entity_id, actor, payload) VALUES ($1, 'activity-record.created', $13, $4, $14))
SELECT (SELECT row_to_json(rec) FROM rec) AS record,
       (SELECT json_agg(json_build_object('record_id', v.record_id, 'attribute_id', v.attribute_id, 'active_from', ${isoSql('v.active_from')}, 'active_until', NULL,
                 'created_by', v.created_by, 'text', v.value_text, 'number', v.value_number, 'json', v.value_json, 'ref', v.value_ref, 'ref_slug', NULL, 'ref_type', v.value_ref_type,
                 'option_title', o.title, 'option_archived', o.is_archived) ORDER BY v.attribute_id, v.id)
          FROM vals v LEFT JOIN select_options o ON o.workspace_id = v.workspace_id AND o.id = v.value_ref AND o.attribute_id = v.attribute_id) AS values,
       pg_notify('workbase_outbox', '') AS notified`;

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

/** The hand-written baseline: the token, then the service's transaction, and the same JSON. */
function bareServer(pool: Pool, query: QueryIds): express.Express {
  const grants = new Map<string, Awaited<ReturnType<typeof bareGrant>>>();
  const grantOf = async (authorization: string | undefined) => {
    if (!CACHED_GRANT) return bareGrant(pool, authorization, WRITE_SCOPES);
    const known = grants.get(authorization ?? '') ?? (await bareGrant(pool, authorization, WRITE_SCOPES));
    grants.set(authorization ?? '', known);
    return known;
  };
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.use(express.json());
  app.post('/v2/activities/:activity/records', async (req, res) => {
    const grant = await grantOf(req.headers.authorization);
    if (typeof grant === 'number') return void res.status(grant).json({ status_code: grant });
    const v = (req.body as { data: { values: typeof VALUES } }).data.values;
    const actor = { type: 'api-token', id: grant.tokenId };
    const recordId = newId();
    const answer = await inTransaction(pool, async (client) => {
      const activity = (await client.query<{ id: string; attributes: BareAttribute[] }>(ACTIVITY_SQL, [grant.workspaceId, req.params.activity])).rows[0];
      if (!activity) return null;
      const id = (slug: string) => activity.attributes.find((a) => a.slug === slug)!.id;
      const eventId = { workspace_id: grant.workspaceId, activity_id: activity.id, record_id: recordId };
      const row = (
        await client.query<{ record: BareRecord; values: BareValue[] }>(INSERT_SQL, [
          grant.workspaceId,
          recordId,
          activity.id,
          JSON.stringify(actor),
          id('timestamp'),
          v.timestamp,
          id('direction'),
          v.direction,
          id('duration'),
          v.duration,
          id('note'),
          v.note,
          JSON.stringify(eventId),
          JSON.stringify({ api_slug: req.params.activity }),
        ])
      ).rows[0];
      return {
        id: { workspace_id: grant.workspaceId, activity_id: activity.id, record_id: recordId },
        created_at: row.record.created_at,
        created_by: row.record.created_by,
        values: bareValuesJson(grant.workspaceId, activity.id, row.record, activity.attributes, row.values),
      };
    });
    if (!answer) return void res.status(404).json({ status_code: 404 });
    res.json({ data: answer });
  });
  app.post('/v2/activities/:activity/records/query', async (req, res) => {
    const range = req.body.filter.timestamp as { $gte: string; $lt: string };
    const page = await pool.query(
      `SELECT r.id, r.created_at, r.created_by FROM records r
        WHERE r.workspace_id = $1 AND r.container_id = $2
          AND EXISTS (SELECT 1 FROM record_values v WHERE v.workspace_id = $1 AND v.attribute_id = $3 AND v.record_id = r.id AND v.active_until IS NULL AND v.value_timestamp >= $4 AND v.value_timestamp < $5)
        ORDER BY (SELECT s.value_timestamp FROM record_values s WHERE s.workspace_id = $1 AND s.record_id = r.id AND s.attribute_id = $3 AND s.active_until IS NULL LIMIT 1) DESC NULLS LAST, r.created_at, r.id
        LIMIT $6 OFFSET 0`,
      [query.workspaceId, query.activityId, query.timestamp, range.$gte, range.$lt, req.body.limit ?? 500],
    );
    const values = await pool.query(
      `SELECT record_id, attribute_id, value_text, value_number, value_timestamp, value_ref FROM record_values WHERE workspace_id = $1 AND record_id = ANY ($2::uuid[]) AND active_until IS NULL`,
      [query.workspaceId, page.rows.map((r: { id: string }) => r.id)],
    );
    const byRecord = new Map<string, unknown[]>();
    for (const row of values.rows as Array<{ record_id: string }>) byRecord.set(row.record_id, [...(byRecord.get(row.record_id) ?? []), row]);
    res.json({ data: page.rows.map((r: { id: string; created_at: Date; created_by: unknown }) => ({ id: r.id, created_at: r.created_at, created_by: r.created_by, values: byRecord.get(r.id) ?? [] })) });
  });
  return app;
}

interface QueryIds {
  workspaceId: string;
  activityId: string;
  timestamp: string;
  direction: string;
  duration: string;
  note: string;
  outbound: string;
}

/** A created record's answer with its own id and creation time replaced by placeholders: what both sides must agree on. */
function comparable(body: unknown): unknown {
  const data = (body as { data: { id: { record_id: string }; created_at: string } }).data;
  const answer = JSON.parse(JSON.stringify(body).replaceAll(data.id.record_id, '<record_id>').replaceAll(data.created_at, '<created_at>')) as { data: { values: Record<string, unknown> } };
  // The bare side does not build the `updated_at` value (issue 32 added it after this bench was written): the rest must agree.
  delete answer.data.values.updated_at;
  return answer;
}

runPairBench({ database: 'workbase_bench_activities', settings: { shared_buffers: '256MB' } }, async ({ pool, service, serve }) => {
  const api = jsonClient(service.baseUrl, service.token);
  const created = (await api('POST', '/v2/activities', { data: { api_slug: SLUG, singular_noun: 'Call', plural_noun: 'Calls', extends: 'calls' } })).data as { id: { activity_id: string } };
  await api('POST', `/v2/activities/${SLUG}/attributes`, { data: { title: 'Note', api_slug: 'note', type: 'text', is_required: false, is_unique: false, is_multiselect: false, config: {} } });
  const ids = await queryIds(pool, service.workspaceId, created.id.activity_id);
  const bareUrl = await serve(bareServer(pool, ids));
  const route = `/v2/activities/${SLUG}/records`;
  const body = JSON.stringify({ data: { values: VALUES } });

  // Both must answer the same body (but for the new record's id and time), or the comparison means nothing.
  const [fromService, fromBare] = await Promise.all(
    [service.baseUrl, bareUrl].map(async (base) => {
      const res = await fetch(`${base}${route}`, { method: 'POST', headers: { Authorization: `Bearer ${service.token}`, 'Content-Type': 'application/json' }, body });
      if (!res.ok) throw new Error(`${base}${route}: ${res.status} ${await res.text()}`);
      return res.json();
    }),
  );
  if (!isDeepStrictEqual(comparable(fromService), comparable(fromBare))) throw new Error(`bodies differ:\n${JSON.stringify(fromService)}\n${JSON.stringify(fromBare)}`);
  const withValues = Object.entries((fromService as { data: { values: Record<string, unknown[]> } }).data.values).filter(([, v]) => v.length > 0).map(([k]) => k);
  process.stdout.write(`bodies equal but for the record's id and time (${JSON.stringify(fromService).length} bytes; values in ${withValues.join(', ')})\n`);

  const sides = [
    { name: 'Workbase (default configuration)', url: `${service.baseUrl}${route}` },
    { name: `bare express + pg (${CACHED_GRANT ? 'grant cached' : 'token looked up every request'})`, url: `${bareUrl}${route}` },
  ] as const;
  const result = await runPairRounds(service, sides, { connections: CONNECTIONS, duration: DURATION, warmup: WARMUP, rounds: ROUNDS, request: { method: 'POST', body } });
  await reportPair(
    service,
    sides,
    result,
    `POST /v2/activities/${SLUG}/records (create: timestamp, select, number, text), ${CONNECTIONS} connections, median of ${ROUNDS} interleaved rounds of ${DURATION} s after a ${WARMUP} s warm-up; ` +
      `Workbase in its default configuration (rate limits on, PostgreSQL store, info logs) except per-token limits raised to 1,000,000/s so that no request meets them`,
  );
  if (result.loads.flat().some((load) => load.non2xx > 0 || load.errors > 0)) throw new Error('some creates failed (non-2xx or errors above): the throughput compares nothing');

  const { count } = (await pool.query<{ count: string }>(`SELECT count(*) FROM records WHERE workspace_id = $1 AND container_id = $2`, [ids.workspaceId, ids.activityId])).rows[0];
  await generate(pool, ids, EXTRA);
  await pool.query('ANALYZE');
  // One day (1,440 one-minute records) from the middle of the generated ones.
  const middle = Math.floor(EXTRA / 2);
  const from = new Date(DAY0 + middle * 60_000).toISOString();
  const to = new Date(DAY0 + (middle + 1440) * 60_000).toISOString();
  const query = { filter: { timestamp: { $gte: from, $lt: to } }, sorts: [{ direction: 'desc', attribute: 'timestamp' }], limit: 50 };
  const bareApi = jsonClient(bareUrl, service.token);
  const queryApi = await sequentialLatency(QUERIES, async () => ((await api('POST', `${route}/query`, query)).data as unknown[]).length);
  const queryBare = await sequentialLatency(QUERIES, async () => ((await bareApi('POST', `${route}/query`, query)).data as unknown[]).length);
  process.stdout.write(
    `\nrecords/query (timestamp range of one day, sorted desc, limit 50) over ${(Number(count) + EXTRA).toLocaleString('en')} records, ${QUERIES} sequential requests after one warm-up: ` +
      `Workbase p50 / p95 ${queryApi.p50.toFixed(1)} / ${queryApi.p95.toFixed(1)} ms (${queryApi.rows} rows), bare ${queryBare.p50.toFixed(1)} / ${queryBare.p95.toFixed(1)} ms (${queryBare.rows} rows), ` +
      `p50 ratio ${(queryApi.p50 / queryBare.p50).toFixed(2)}x\n`,
  );
});

async function queryIds(pool: Pool, workspaceId: string, activityId: string): Promise<QueryIds> {
  const attrs = new Map<string, string>(
    (await pool.query(`SELECT api_slug, id FROM attributes WHERE workspace_id = $1 AND container_id = $2`, [workspaceId, activityId])).rows.map((r: { api_slug: string; id: string }) => [r.api_slug, r.id]),
  );
  const outbound = (await pool.query(`SELECT id FROM select_options WHERE workspace_id = $1 AND attribute_id = $2 AND title = 'Outbound'`, [workspaceId, attrs.get('direction')])).rows[0].id;
  return { workspaceId, activityId, timestamp: attrs.get('timestamp')!, direction: attrs.get('direction')!, duration: attrs.get('duration')!, note: attrs.get('note')!, outbound };
}

/** `count` records of the activity with set-based SQL, one a minute from DAY0: the same rows a create writes. */
async function generate(pool: Pool, ids: QueryIds, count: number) {
  const actor = JSON.stringify({ type: 'system', id: null });
  await inTransaction(pool, async (client) => {
    await client.query(
      `INSERT INTO records (workspace_id, id, container_id, created_by)
       SELECT $1, md5($2 || i)::uuid, $2::uuid, $3::jsonb FROM generate_series(0, $4::int - 1) i`,
      [ids.workspaceId, ids.activityId, actor, count],
    );
    await client.query(
      `INSERT INTO record_values (workspace_id, record_id, attribute_id, active_from, created_by, value_timestamp, value_json, value_ref, value_number, value_text)
       SELECT $1, md5($2 || i)::uuid, a.attribute_id, now(), $3::jsonb,
              CASE WHEN a.k = 0 THEN to_timestamp($9::bigint / 1000 + i * 60) END,
              CASE WHEN a.k = 0 THEN jsonb_build_object('value', ${isoSql('to_timestamp($9::bigint / 1000 + i * 60)')}) END,
              CASE WHEN a.k = 1 THEN $8::uuid END,
              CASE WHEN a.k = 2 THEN i % 3600 END,
              CASE WHEN a.k = 3 THEN 'call ' || i END
         FROM generate_series(0, $4::int - 1) i
         CROSS JOIN (VALUES (0, $5::uuid), (1, $6::uuid), (2, $7::uuid), (3, $10::uuid)) a (k, attribute_id)`,
      [ids.workspaceId, ids.activityId, actor, count, ids.timestamp, ids.direction, ids.duration, ids.outbound, DAY0, ids.note],
    );
  });
}
