/**
 * Activity records through the API against a bare express + `pg` handler doing the same work, in
 * one run on one database:
 *
 * - create throughput: POST …/records with timestamp, direction (select), duration (number) and
 *   note (text), CONCURRENCY requests in flight. The bare handler inserts the same rows (record,
 *   four values, one outbox event) in one transaction and answers the ids.
 * - query latency: POST …/records/query, timestamp range filter + timestamp sort desc, limit 50,
 *   sequential. The bare handler runs the same filter/sort SQL and reads the page's values.
 *
 * Each side writes into its own activity (same schema), so the query sees equal data sizes.
 *
 *   node -r @swc-node/register bench/activities.bench.ts      (embedded PostgreSQL; or DATABASE_URL)
 *   BENCH_CREATES=2000 BENCH_CREATE_ROUNDS=5 BENCH_EXTRA=50000 BENCH_CONCURRENCY=16 BENCH_ROUNDS=50 …   (the defaults)
 *
 * Results are appended to bench/RESULTS.md (BENCH_RESULTS=<file> elsewhere).
 * Smoke run (seconds; prints the table without appending it to bench/RESULTS.md):
 *   BENCH_CREATES=40 BENCH_EXTRA=300 BENCH_CONCURRENCY=4 BENCH_ROUNDS=5 BENCH_NO_WRITE=1 node -r @swc-node/register bench/activities.bench.ts
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import express from 'express';
import { Pool } from 'pg';
import { newId } from '@workbase/shared/kernel';
import { appendResults, type BenchEnvironment, jsonClient, sequentialLatency, runBench } from './support';

const CREATES = Number(process.env.BENCH_CREATES ?? 2000);
const EXTRA = Number(process.env.BENCH_EXTRA ?? 50000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 50);
const CREATE_ROUNDS = Number(process.env.BENCH_CREATE_ROUNDS ?? 5);
const DAY0 = Date.UTC(2026, 0, 1);

type ApiCall = ReturnType<typeof jsonClient>;

interface Ids {
  workspaceId: string;
  activityId: string;
  timestamp: string;
  direction: string;
  duration: string;
  note: string;
  outbound: string;
}

async function run(bench: BenchEnvironment, pool: Pool) {
  const { config, token, workspaceId } = bench;
  const api = jsonClient(bench.baseUrl, token);
  const setup = async (slug: string): Promise<Ids> => {
    const created = (await api('POST', '/v2/activities', { data: { api_slug: slug, singular_noun: 'Call', plural_noun: 'Calls', extends: 'calls' } })).data as { id: { activity_id: string } };
    await api('POST', `/v2/activities/${slug}/attributes`, { data: { title: 'Note', api_slug: 'note', type: 'text', is_required: false, is_unique: false, is_multiselect: false, config: {} } });
    const activityId = created.id.activity_id;
    const attrs = new Map<string, string>(
      (await pool.query(`SELECT api_slug, id FROM attributes WHERE workspace_id = $1 AND container_id = $2`, [workspaceId, activityId])).rows.map((r: { api_slug: string; id: string }) => [r.api_slug, r.id]),
    );
    const outbound = (await pool.query(`SELECT id FROM select_options WHERE workspace_id = $1 AND attribute_id = $2 AND title = 'Outbound'`, [workspaceId, attrs.get('direction')])).rows[0].id;
    return { workspaceId, activityId, timestamp: attrs.get('timestamp')!, direction: attrs.get('direction')!, duration: attrs.get('duration')!, note: attrs.get('note')!, outbound };
  };
  const apiIds = await setup('bench_api_calls');
  const bareIds = await setup('bench_bare_calls');
  const bare = bareServer(pool, bareIds, token);
  await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
  try {
    await compare(pool, config.dbPoolSize, apiIds, bareIds, api, jsonClient(`http://127.0.0.1:${(bare.address() as AddressInfo).port}`, token));
  } finally {
    await new Promise<void>((resolve) => bare.close(() => resolve()));
  }
}

/** Creates through both sides, fills both activities to the same size, then queries both. */
async function compare(pool: Pool, poolSize: number, apiIds: Ids, bareIds: Ids, api: ApiCall, bareApi: ApiCall) {
  const values = (i: number) => ({ timestamp: new Date(DAY0 + i * 60_000).toISOString(), direction: 'Outbound', duration: i % 3600, note: `call ${i}` });
  // Interleaved rounds (API, bare, API, bare, …) and the median of each side: the machine's load
  // drifts over a run, and one side measured entirely before the other would carry the drift.
  const apiRounds: number[] = [];
  const bareRounds: number[] = [];
  const perRound = Math.ceil(CREATES / CREATE_ROUNDS);
  for (let round = 0; round < CREATE_ROUNDS; round++) {
    const first = round * perRound;
    apiRounds.push(await throughput(first, perRound, (i) => api('POST', '/v2/activities/bench_api_calls/records', { data: { values: values(i) } })));
    bareRounds.push(await throughput(first, perRound, (i) => bareApi('POST', '/records', { data: { values: values(i) } })));
    console.log(`create round ${round + 1}: API ${apiRounds[round].toFixed(0)} req/s, bare ${bareRounds[round].toFixed(0)} req/s`);
  }
  const createApi = median(apiRounds);
  const createBare = median(bareRounds);
  const ratios = apiRounds.map((api, i) => api / bareRounds[i]);
  console.log(`create: API ${createApi.toFixed(0)} req/s, bare ${createBare.toFixed(0)} req/s (medians of ${CREATE_ROUNDS} interleaved rounds)`);

  await generate(pool, apiIds, CREATES, CREATES + EXTRA);
  await generate(pool, bareIds, CREATES, CREATES + EXTRA);
  await pool.query('ANALYZE');
  // One day (1,440 one-minute records) from the middle of the data; fewer when the data is small.
  const middle = Math.floor((CREATES + EXTRA) / 2);
  const matches = Math.min(1440, CREATES + EXTRA - middle);
  const from = new Date(DAY0 + middle * 60_000).toISOString();
  const to = new Date(DAY0 + (middle + 1440) * 60_000).toISOString();
  const query = { filter: { timestamp: { $gte: from, $lt: to } }, sorts: [{ direction: 'desc', attribute: 'timestamp' }], limit: 50 };
  const queryApi = await sequentialLatency(ROUNDS, async () => ((await api('POST', '/v2/activities/bench_api_calls/records/query', query)).data as unknown[]).length);
  const queryBare = await sequentialLatency(ROUNDS, async () => ((await bareApi('POST', '/query', query)).data as unknown[]).length);
  console.log(`query: API p50 ${queryApi.p50.toFixed(1)} ms (${queryApi.rows} rows), bare p50 ${queryBare.p50.toFixed(1)} ms (${queryBare.rows} rows)`);

  const lines = [
    '',
    `## Activity records (${new Date().toISOString().slice(0, 10)}, ${process.platform}, ${cpus().length} cores, embedded PostgreSQL, bench/activities.bench.ts)`,
    '',
    `API = the app (${poolSize} connections); bare = express + \`pg\` Pool (same size) doing the same inserts (record, 4 values, outbox event, one transaction) and the same filter/sort select plus the page's values, no auth/validation/lookups. Create: ${CREATES} POSTs per side in ${CREATE_ROUNDS} interleaved rounds (API, bare, API, …; medians), ${CONCURRENCY} in flight. Query: timestamp range (${matches.toLocaleString('en')} matches) sorted desc, limit 50, over ${(CREATES + EXTRA).toLocaleString('en')} records per activity, ${ROUNDS} sequential requests after one warm-up; ms as p50 / p95.`,
    '',
    '| measure | API | bare express + pg | API / bare |',
    '|---|---|---|---|',
    `| create throughput (req/s), median of ${CREATE_ROUNDS} rounds | ${createApi.toFixed(0)} | ${createBare.toFixed(0)} | ${(createApi / createBare).toFixed(2)}x (per round: ${ratios.map((r) => r.toFixed(2)).join(', ')}) |`,
    `| records/query latency (ms) | ${queryApi.p50.toFixed(1)} / ${queryApi.p95.toFixed(1)} | ${queryBare.p50.toFixed(1)} / ${queryBare.p95.toFixed(1)} | ${(queryApi.p50 / queryBare.p50).toFixed(2)}x |`,
  ];
  console.log(lines.join('\n'));
  appendResults(lines);
}

/** Requests per second of `count` creates numbered from `first`, CONCURRENCY in flight, after one warm-up. */
async function throughput(first: number, count: number, run: (i: number) => Promise<unknown>): Promise<number> {
  await run(-1 - first);
  let next = first;
  const end = first + count;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < end) await run(next++);
    }),
  );
  return count / ((performance.now() - started) / 1000);
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** The hand-written baseline: the same rows in, the same rows out, nothing else. */
function bareServer(pool: Pool, ids: Ids, token: string) {
  const app = express();
  app.use(express.json());
  const actor = JSON.stringify({ type: 'api-token', id: token.slice(0, 8) });
  app.post('/records', async (req, res) => {
    const v = req.body.data.values as { timestamp: string; duration: number; note: string };
    const id = newId();
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(`INSERT INTO records (workspace_id, id, container_id, created_by) VALUES ($1, $2, $3, $4)`, [ids.workspaceId, id, ids.activityId, actor]);
      await client.query(
        `INSERT INTO record_values (workspace_id, record_id, attribute_id, active_from, created_by, value_timestamp, value_ref, value_number, value_text) VALUES
           ($1, $2, $3, now(), $4, $5, NULL, NULL, NULL), ($1, $2, $6, now(), $4, NULL, $7, NULL, NULL),
           ($1, $2, $8, now(), $4, NULL, NULL, $9, NULL), ($1, $2, $10, now(), $4, NULL, NULL, NULL, $11)`,
        [ids.workspaceId, id, ids.timestamp, actor, v.timestamp, ids.direction, ids.outbound, ids.duration, v.duration, ids.note, v.note],
      );
      await client.query(`INSERT INTO event_outbox (workspace_id, event_type, entity_id, actor) VALUES ($1, 'activity-record.created', $2, $3)`, [
        ids.workspaceId,
        JSON.stringify({ workspace_id: ids.workspaceId, activity_id: ids.activityId, record_id: id }),
        actor,
      ]);
      await client.query('COMMIT');
      res.json({ data: { id: { workspace_id: ids.workspaceId, activity_id: ids.activityId, record_id: id }, values: v } });
    } catch (error) {
      await client.query('ROLLBACK');
      res.status(500).json({ message: String(error) });
    } finally {
      client.release();
    }
  });
  app.post('/query', async (req, res) => {
    const range = req.body.filter.timestamp as { $gte: string; $lt: string };
    const page = await pool.query(
      `SELECT r.id, r.created_at, r.created_by FROM records r
        WHERE r.workspace_id = $1 AND r.container_id = $2
          AND EXISTS (SELECT 1 FROM record_values v WHERE v.workspace_id = $1 AND v.attribute_id = $3 AND v.record_id = r.id AND v.active_until IS NULL AND v.value_timestamp >= $4 AND v.value_timestamp < $5)
        ORDER BY (SELECT s.value_timestamp FROM record_values s WHERE s.workspace_id = $1 AND s.record_id = r.id AND s.attribute_id = $3 AND s.active_until IS NULL LIMIT 1) DESC NULLS LAST, r.created_at, r.id
        LIMIT $6 OFFSET 0`,
      [ids.workspaceId, ids.activityId, ids.timestamp, range.$gte, range.$lt, req.body.limit ?? 500],
    );
    const values = await pool.query(
      `SELECT record_id, attribute_id, value_text, value_number, value_timestamp, value_ref FROM record_values WHERE workspace_id = $1 AND record_id = ANY ($2::uuid[]) AND active_until IS NULL`,
      [ids.workspaceId, page.rows.map((r: { id: string }) => r.id)],
    );
    const byRecord = new Map<string, unknown[]>();
    for (const row of values.rows as Array<{ record_id: string }>) byRecord.set(row.record_id, [...(byRecord.get(row.record_id) ?? []), row]);
    res.json({ data: page.rows.map((r: { id: string; created_at: Date; created_by: unknown }) => ({ id: r.id, created_at: r.created_at, created_by: r.created_by, values: byRecord.get(r.id) ?? [] })) });
  });
  return createServer(app);
}

/** Records [from, to) of one activity with set-based SQL: the same rows a create writes. */
async function generate(pool: Pool, ids: Ids, from: number, to: number) {
  const actor = JSON.stringify({ type: 'system', id: null });
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query(
      `INSERT INTO records (workspace_id, id, container_id, created_by)
       SELECT $1, md5($2 || i)::uuid, $2::uuid, $3::jsonb FROM generate_series($4::int, $5::int - 1) i`,
      [ids.workspaceId, ids.activityId, actor, from, to],
    );
    await client.query(
      `INSERT INTO record_values (workspace_id, record_id, attribute_id, active_from, created_by, value_timestamp, value_ref, value_number, value_text)
       SELECT $1, md5($2 || i)::uuid, a.attribute_id, now(), $3::jsonb,
              CASE WHEN a.k = 0 THEN to_timestamp($10::bigint / 1000 + i * 60) END,
              CASE WHEN a.k = 1 THEN $9::uuid END,
              CASE WHEN a.k = 2 THEN i % 3600 END,
              CASE WHEN a.k = 3 THEN 'call ' || i END
         FROM generate_series($4::int, $5::int - 1) i
         CROSS JOIN (VALUES (0, $6::uuid), (1, $7::uuid), (2, $8::uuid), (3, $11::uuid)) a (k, attribute_id)`,
      [ids.workspaceId, ids.activityId, actor, from, to, ids.timestamp, ids.direction, ids.duration, ids.outbound, DAY0, ids.note],
    );
    await client.query('COMMIT');
  } finally {
    client.release();
  }
}

runBench({ database: 'workbase_bench_activities', settings: { shared_buffers: '256MB' } }, run);
