/**
 * SQL endpoint vs hand-written SQL on the record engine's tables, in one run on one database.
 *
 * Data: one activity (extends calls) with BENCH_RECORDS records (default 100,000), each with a
 * timestamp, a direction (select, Inbound/Outbound) and a duration (number), inserted in bulk.
 * A second workspace holds BENCH_RECORDS / 10 records of its own, so the workspace binding has
 * something to skip.
 *
 * Shapes, each run BENCH_ROUNDS times (default 20) after one warm-up, sequentially:
 * - group: SELECT direction, count(*), sum(duration), avg(duration) … GROUP BY direction
 * - filter: SELECT count(*) … WHERE duration > 1800
 * The SQL side is POST /v2/sql over HTTP (parse, rewrite, read-only transaction, JSON); the
 * hand-written side runs the equivalent join over records/record_values/select_options through
 * a bare `pg` pool. Both answers are compared before timing.
 *
 *   npm run bench:sql                                 (embedded PostgreSQL; or DATABASE_URL)
 *   BENCH_RECORDS=100000 BENCH_ROUNDS=20 npm run bench:sql     (the defaults)
 *
 * Results are appended to bench/RESULTS.md (BENCH_RESULTS=<file> elsewhere).
 * Smoke run (seconds; prints the table without appending it to bench/RESULTS.md):
 *   BENCH_RECORDS=2000 BENCH_ROUNDS=3 BENCH_NO_WRITE=1 npm run bench:sql
 */
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import { Pool } from 'pg';
import { appendResults, type BenchEnvironment, type BenchWorkspace, createBenchWorkspace, jsonClient, runBench } from './support';

const RECORDS = Number(process.env.BENCH_RECORDS ?? 100_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);
const DAY0 = Date.UTC(2026, 0, 1);

interface Activity {
  workspaceId: string;
  activityId: string;
  attributes: Map<string, string>;
  options: Map<string, string>;
}

async function run(bench: BenchEnvironment, pool: Pool) {
  const call = (token: string, method: string, route: string, body: unknown) => jsonClient(bench.baseUrl, token)(method, route, body);
  const setup = async (ws: BenchWorkspace, count: number): Promise<Activity> => {
    const created = (await call(ws.token, 'POST', '/v2/activities', { data: { api_slug: 'bench_calls', singular_noun: 'Call', plural_noun: 'Calls', extends: 'calls' } })).data as { id: { activity_id: string } };
    const activityId = created.id.activity_id;
    const attributes = new Map<string, string>(
      (await pool.query('SELECT api_slug, id FROM attributes WHERE workspace_id = $1 AND container_id = $2', [ws.workspaceId, activityId])).rows.map((r: { api_slug: string; id: string }) => [r.api_slug, r.id]),
    );
    const options = new Map<string, string>(
      (await pool.query('SELECT title, id FROM select_options WHERE workspace_id = $1 AND attribute_id = $2', [ws.workspaceId, attributes.get('direction')])).rows.map((r: { title: string; id: string }) => [r.title, r.id]),
    );
    const activity = { workspaceId: ws.workspaceId, activityId, attributes, options };
    for (let from = 0; from < count; from += 20_000) await seed(pool, activity, from, Math.min(count, from + 20_000));
    return activity;
  };

  const started = performance.now();
  const main: BenchWorkspace = bench;
  const noise = await createBenchWorkspace(bench.app, 'bench-sql-noise');
  const ids = await setup(main, RECORDS);
  await setup(noise, Math.floor(RECORDS / 10));
  await pool.query('ANALYZE');
  console.log(`seeded ${RECORDS} (+${Math.floor(RECORDS / 10)}) records in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  const direction = ids.attributes.get('direction')!;
  const duration = ids.attributes.get('duration')!;
  const shapes = [
    {
      name: 'group by direction: count, sum, avg',
      sql: 'SELECT direction, count(*) AS n, sum(duration) AS total, round(avg(duration), 4) AS mean FROM activities.bench_calls GROUP BY direction ORDER BY direction',
      hand: {
        text: `SELECT o.title AS direction, count(*) AS n, sum(d.value_number) AS total, round(avg(d.value_number), 4) AS mean
                 FROM records r
                 LEFT JOIN record_values dv ON dv.workspace_id = $1 AND dv.record_id = r.id AND dv.attribute_id = $3 AND dv.active_until IS NULL
                 LEFT JOIN select_options o ON o.workspace_id = $1 AND o.id = dv.value_ref
                 LEFT JOIN record_values d ON d.workspace_id = $1 AND d.record_id = r.id AND d.attribute_id = $4 AND d.active_until IS NULL
                WHERE r.workspace_id = $1 AND r.container_id = $2
                GROUP BY o.title ORDER BY o.title`,
        values: [ids.workspaceId, ids.activityId, direction, duration],
      },
    },
    {
      name: 'count where duration > 1800',
      sql: 'SELECT count(*) AS n FROM activities.bench_calls WHERE duration > 1800',
      hand: {
        text: `SELECT count(*) AS n FROM record_values v JOIN records r ON r.workspace_id = v.workspace_id AND r.id = v.record_id AND r.container_id = $2
                WHERE v.workspace_id = $1 AND v.attribute_id = $3 AND v.active_until IS NULL AND v.value_number > 1800`,
        values: [ids.workspaceId, ids.activityId, duration],
      },
    },
  ];

  const viaEndpoint = async (sql: string) => ((await call(main.token, 'POST', '/v2/sql', { sql })).data as { rows: Array<Record<string, unknown>> }).rows;
  const byHand = async (query: { text: string; values: unknown[] }) =>
    (await pool.query(query.text, query.values)).rows.map((row: Record<string, unknown>) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, k === 'n' ? Number(v) : typeof v === 'string' ? v.replace(/(\.\d*?)0+$/, '$1').replace(/\.$/, '') : v])));
  const time = async (work: () => Promise<unknown>) => {
    await work();
    const samples: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      const t0 = performance.now();
      await work();
      samples.push(performance.now() - t0);
    }
    samples.sort((a, b) => a - b);
    return { median: samples[Math.floor(samples.length / 2)], p95: samples[Math.min(samples.length - 1, Math.ceil(samples.length * 0.95) - 1)] };
  };

  const lines = [
    '',
    `## SQL endpoint vs hand-written SQL (${new Date().toISOString().slice(0, 10)}, ${RECORDS} activity records, ${ROUNDS} rounds, ${cpus().length} CPUs)`,
    '',
    '| shape | POST /v2/sql median / p95 (ms) | hand-written on tables median / p95 (ms) | ratio (median) |',
    '|---|---|---|---|',
  ];
  for (const shape of shapes) {
    const [endpoint, hand] = [await viaEndpoint(shape.sql), await byHand(shape.hand)];
    if (JSON.stringify(endpoint) !== JSON.stringify(hand)) throw new Error(`answers differ for "${shape.name}": ${JSON.stringify(endpoint)} vs ${JSON.stringify(hand)}`);
    const a = await time(() => viaEndpoint(shape.sql));
    const b = await time(() => byHand(shape.hand));
    lines.push(`| ${shape.name} | ${a.median.toFixed(1)} / ${a.p95.toFixed(1)} | ${b.median.toFixed(1)} / ${b.p95.toFixed(1)} | ${(a.median / b.median).toFixed(2)}× |`);
  }
  console.log(lines.join('\n'));
  appendResults(lines);
}

/** Records [from, to) of the activity with timestamp, direction and duration, in one transaction. */
async function seed(pool: Pool, ids: Activity, from: number, to: number): Promise<void> {
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
      `INSERT INTO record_values (workspace_id, record_id, attribute_id, active_from, created_by, value_timestamp, value_json, value_ref, value_number)
       SELECT $1, md5($2 || i)::uuid, a.attribute_id, now(), $3::jsonb,
              CASE WHEN a.k = 0 THEN to_timestamp($9::bigint / 1000 + i * 60) END,
              CASE WHEN a.k = 0 THEN jsonb_build_object('value', to_char(to_timestamp($9::bigint / 1000 + i * 60) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US000"Z"')) END,
              CASE WHEN a.k = 1 THEN (CASE WHEN i % 3 = 0 THEN $10::uuid ELSE $11::uuid END) END,
              CASE WHEN a.k = 2 THEN i % 3600 END
         FROM generate_series($4::int, $5::int - 1) i
         CROSS JOIN (VALUES (0, $6::uuid), (1, $7::uuid), (2, $8::uuid)) a (k, attribute_id)`,
      [ids.workspaceId, ids.activityId, actor, from, to, ids.attributes.get('timestamp'), ids.attributes.get('direction'), ids.attributes.get('duration'), DAY0, ids.options.get('Inbound'), ids.options.get('Outbound')],
    );
    await client.query('COMMIT');
  } finally {
    client.release();
  }
}

runBench({ database: 'workbase_bench_sql', settings: { shared_buffers: '256MB' }, poolSize: 4 }, run);
