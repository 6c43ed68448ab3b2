/**
 * SQL endpoint vs hand-written SQL on the record engine's tables, in one run on one database; then
 * admission: another workspace's latency while one workspace floods the endpoint with slow statements.
 *
 * Data: one activity (extends calls) with BENCH_RECORDS records (default 100,000), each with a
 * timestamp, a direction (select, Inbound/Outbound), a duration (number) and a `rep` (a
 * single-valued reference to one of 1,000 people, who have names), inserted in bulk. A second
 * workspace holds BENCH_RECORDS / 10 records and 100 people of its own, so the workspace binding
 * has something to skip.
 *
 * Shapes, each run BENCH_ROUNDS times (default 20) after one warm-up, sequentially:
 * - group: SELECT direction, count(*), sum(duration), avg(duration) … GROUP BY direction
 * - filter: SELECT count(*) … WHERE duration > 1800
 * - limit: SELECT * … LIMIT 10 (no ORDER BY)
 * - join: activity records JOIN people ON p.record_id = c.rep, GROUP BY p.name
 * - window: the top three durations per rep (row_number() OVER (PARTITION BY rep …))
 * The SQL side is POST /v2/sql over HTTP (parse, rewrite, read-only transaction, JSON); the
 * hand-written side runs the equivalent joins over records/record_values/select_options through
 * a bare `pg` pool, like the endpoint without parallel workers. Both answers are compared before timing (for the un-ordered LIMIT, each row
 * the endpoint returns is compared with the hand-written row of the same record).
 *
 * Admission (BENCH_ADMISSION=0 skips it): GET /v2/self of workspace B, sequentially, alone and
 * then while workspace A keeps ten slow statements in flight (a cross join over generate_series,
 * re-sent 100 ms after each 429); p50 / p99 of both, with the app's default SQL limits and the
 * bench's statement timeout (BENCH_SQL_TIMEOUT_MS, default 5 s).
 *
 *   npm run bench:sql                                 (embedded PostgreSQL; or DATABASE_URL)
 *   BENCH_RECORDS=1000000 BENCH_ROUNDS=5 BENCH_SQL_TIMEOUT_MS=120000 BENCH_ADMISSION=0 npm run bench:sql
 *
 * Results are appended to bench/RESULTS.md (BENCH_RESULTS=<file> elsewhere).
 * Smoke run (seconds; prints the table without appending it to bench/RESULTS.md):
 *   BENCH_RECORDS=2000 BENCH_ROUNDS=3 BENCH_NO_WRITE=1 npm run bench:sql
 * One shape, e.g. under a CPU profile: BENCH_SHAPES=LIMIT BENCH_ADMISSION=0 (names contain the word).
 * The LIMIT shape is also timed against the service in a process of its own (bench/service-process.ts;
 * BENCH_SERVICE_COMPILED=1 runs it as `npm start` does), with the same statement timeout, on the same
 * database and token, BENCH_LIMIT_ROUNDS times (default 200): the in-process figure carries the
 * bench's own heap (the seeded rows' garbage) and the client's work on the service's event loop.
 * BENCH_EXPLAIN=1 also prints EXPLAIN (ANALYZE, BUFFERS) of both sides of each shape (the endpoint's
 * text as it ran, with its join-order setting), before timing.
 */
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import { Pool } from 'pg';
import { SqlExecutor, wrappedStatement } from '../libs/sql/src/infrastructure/sql-executor';
import { startServiceProcess } from './service-process';
import { appendResults, type BenchEnvironment, type BenchWorkspace, createBenchWorkspace, interleavedLatency, jsonClient, runBench } from './support';

const RECORDS = Number(process.env.BENCH_RECORDS ?? 100_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 20);
const ADMISSION = process.env.BENCH_ADMISSION !== '0';
/** Only the shapes whose name contains one of these comma-separated words (all shapes when unset). */
const SHAPES = process.env.BENCH_SHAPES?.split(',').filter(Boolean) ?? null;
const EXPLAIN = process.env.BENCH_EXPLAIN === '1';
const LIMIT_ROUNDS = Number(process.env.BENCH_LIMIT_ROUNDS ?? 200);
const PEOPLE = 1_000;
const DAY0 = Date.UTC(2026, 0, 1);
/** The endpoint's statement timeout in the bench: short, for the admission flood; raise it for 1M records. */
const STATEMENT_TIMEOUT_MS = Number(process.env.BENCH_SQL_TIMEOUT_MS ?? 5_000);

interface Activity {
  workspaceId: string;
  activityId: string;
  peopleId: string;
  nameId: string;
  attributes: Map<string, string>;
  options: Map<string, string>;
}

type Row = Record<string, unknown>;

async function run(bench: BenchEnvironment, pool: Pool) {
  const call = (token: string, method: string, route: string, body?: unknown) => jsonClient(bench.baseUrl, token)(method, route, body);
  const setup = async (ws: BenchWorkspace, count: number, people: number): Promise<Activity> => {
    const created = (await call(ws.token, 'POST', '/v2/activities', { data: { api_slug: 'bench_calls', singular_noun: 'Call', plural_noun: 'Calls', extends: 'calls' } })).data as { id: { activity_id: string } };
    const activityId = created.id.activity_id;
    await call(ws.token, 'POST', '/v2/activities/bench_calls/attributes', {
      data: { title: 'Rep', api_slug: 'rep', type: 'record-reference', is_required: false, is_unique: false, is_multiselect: false, config: { record_reference: { allowed_objects: ['people'] } } },
    });
    const attributes = new Map<string, string>(
      (await pool.query('SELECT api_slug, id FROM attributes WHERE workspace_id = $1 AND container_id = $2', [ws.workspaceId, activityId])).rows.map((r: { api_slug: string; id: string }) => [r.api_slug, r.id]),
    );
    const options = new Map<string, string>(
      (await pool.query('SELECT title, id FROM select_options WHERE workspace_id = $1 AND attribute_id = $2', [ws.workspaceId, attributes.get('direction')])).rows.map((r: { title: string; id: string }) => [r.title, r.id]),
    );
    const [peopleRow] = (await pool.query(`SELECT o.id, a.id AS name_id FROM objects o JOIN attributes a ON a.workspace_id = o.workspace_id AND a.container_id = o.id AND a.api_slug = 'name' WHERE o.workspace_id = $1 AND o.api_slug = 'people'`, [ws.workspaceId])).rows as Array<{ id: string; name_id: string }>;
    const activity = { workspaceId: ws.workspaceId, activityId, peopleId: peopleRow.id, nameId: peopleRow.name_id, attributes, options };
    await seedPeople(pool, activity, people);
    for (let from = 0; from < count; from += 20_000) await seed(pool, activity, from, Math.min(count, from + 20_000), people);
    return activity;
  };

  const started = performance.now();
  const main: BenchWorkspace = bench;
  const noise = await createBenchWorkspace(bench.app, 'bench-sql-noise');
  const ids = await setup(main, RECORDS, PEOPLE);
  await setup(noise, Math.floor(RECORDS / 10), PEOPLE / 10);
  await pool.query('VACUUM ANALYZE');
  console.log(`seeded ${RECORDS} (+${Math.floor(RECORDS / 10)}) records in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  const attr = (slug: string) => ids.attributes.get(slug)!;
  // The current value of one attribute of `r`, as the records API reads it.
  const value = (alias: string, slug: string, record = 'r') => `LEFT JOIN record_values ${alias} ON ${alias}.workspace_id = $1 AND ${alias}.record_id = ${record}.id AND ${alias}.attribute_id = '${attr(slug)}' AND ${alias}.active_until IS NULL`;
  const shapes: Array<{ name: string; sql: string; hand: { text: string; values: unknown[] }; unordered?: boolean }> = [
    {
      name: 'group by direction: count, sum, avg',
      sql: 'SELECT direction, count(*) AS n, sum(duration) AS total, round(avg(duration), 4) AS mean FROM activities.bench_calls GROUP BY direction ORDER BY direction',
      hand: {
        text: `SELECT o.title AS direction, count(*) AS n, sum(d.value_number) AS total, round(avg(d.value_number), 4) AS mean
                 FROM records r ${value('dv', 'direction')}
                 LEFT JOIN select_options o ON o.workspace_id = $1 AND o.id = dv.value_ref
                 ${value('d', 'duration')}
                WHERE r.workspace_id = $1 AND r.container_id = $2
                GROUP BY o.title ORDER BY o.title`,
        values: [ids.workspaceId, ids.activityId],
      },
    },
    {
      name: 'count where duration > 1800',
      sql: 'SELECT count(*) AS n FROM activities.bench_calls WHERE duration > 1800',
      hand: {
        text: `SELECT count(*) AS n FROM record_values v JOIN records r ON r.workspace_id = v.workspace_id AND r.id = v.record_id AND r.container_id = $2
                WHERE v.workspace_id = $1 AND v.attribute_id = $3 AND v.active_until IS NULL AND v.value_number > 1800`,
        values: [ids.workspaceId, ids.activityId, attr('duration')],
      },
    },
    {
      name: 'SELECT * … LIMIT 10 (no ORDER BY)',
      sql: 'SELECT * FROM activities.bench_calls LIMIT 10',
      unordered: true,
      hand: {
        text: `SELECT r.id AS record_id, r.created_at, r.created_by, ts.value_timestamp AS timestamp,
                      COALESCE((SELECT array_agg(v.value_ref ORDER BY v.id) FROM record_values v WHERE v.workspace_id = $1 AND v.record_id = r.id AND v.attribute_id = '${attr('linked_records')}' AND v.active_until IS NULL), '{}') AS linked_records,
                      COALESCE((SELECT array_agg(v.value_ref ORDER BY v.id) FROM record_values v WHERE v.workspace_id = $1 AND v.record_id = r.id AND v.attribute_id = '${attr('participants')}' AND v.active_until IS NULL), '{}') AS participants,
                      o.title AS direction, d.value_number AS duration, ph.value_text AS phone_number, rep.value_ref AS rep
                 FROM records r ${value('ts', 'timestamp')} ${value('dv', 'direction')}
                 LEFT JOIN select_options o ON o.workspace_id = $1 AND o.id = dv.value_ref
                 ${value('d', 'duration')} ${value('ph', 'phone_number')} ${value('rep', 'rep')}
                WHERE r.workspace_id = $1 AND r.container_id = $2 LIMIT 10`,
        values: [ids.workspaceId, ids.activityId],
      },
    },
    {
      name: 'join to people by reference, group by name',
      sql: 'SELECT p.name, count(*) AS n, sum(c.duration) AS total FROM activities.bench_calls c JOIN people p ON p.record_id = c.rep GROUP BY p.name ORDER BY p.name',
      hand: {
        text: `SELECT nm.value_text AS name, count(*) AS n, sum(d.value_number) AS total
                 FROM records r ${value('rep', 'rep')} ${value('d', 'duration')}
                 JOIN records p ON p.workspace_id = $1 AND p.container_id = $3 AND p.id = rep.value_ref
                 LEFT JOIN record_values nm ON nm.workspace_id = $1 AND nm.record_id = p.id AND nm.attribute_id = $4 AND nm.active_until IS NULL
                WHERE r.workspace_id = $1 AND r.container_id = $2
                GROUP BY nm.value_text ORDER BY nm.value_text`,
        values: [ids.workspaceId, ids.activityId, ids.peopleId, ids.nameId],
      },
    },
    {
      name: 'window: top 3 durations per rep',
      sql: 'SELECT rep, count(*) AS n, sum(duration) AS total FROM (SELECT rep, duration, row_number() OVER (PARTITION BY rep ORDER BY duration DESC, record_id) AS k FROM activities.bench_calls) x WHERE k <= 3 GROUP BY rep ORDER BY rep',
      hand: {
        text: `SELECT rep, count(*) AS n, sum(duration) AS total FROM (
                 SELECT rep.value_ref AS rep, d.value_number AS duration, row_number() OVER (PARTITION BY rep.value_ref ORDER BY d.value_number DESC, r.id) AS k
                   FROM records r ${value('rep', 'rep')} ${value('d', 'duration')}
                  WHERE r.workspace_id = $1 AND r.container_id = $2) x
                WHERE k <= 3 GROUP BY rep ORDER BY rep`,
        values: [ids.workspaceId, ids.activityId],
      },
    },
  ];

  const viaEndpoint = async (sql: string) => ((await call(main.token, 'POST', '/v2/sql', { sql })).data as { rows: Row[] }).rows.map(normalise);
  // Under the endpoint's own per-statement rule (no parallel workers, so that SQL_POOL_SIZE bounds
  // the cores it uses): the comparison is of the SQL's shape, not of PostgreSQL's parallelism.
  const byHand = async (query: { text: string; values: unknown[] }) => {
    const client = await pool.connect();
    try {
      await client.query('SET max_parallel_workers_per_gather = 0');
      return (await client.query(query.text, query.values)).rows.map(normalise);
    } finally {
      client.release();
    }
  };
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
  for (const shape of shapes.filter((s) => !SHAPES || SHAPES.some((word) => s.name.includes(word)))) {
    const [endpoint, hand] = [await viaEndpoint(shape.sql), await byHand(shape.hand)];
    if (shape.unordered) await checkSameRecords(endpoint, hand, shape, byHand);
    else if (JSON.stringify(endpoint) !== JSON.stringify(hand)) throw new Error(`answers differ for "${shape.name}": ${JSON.stringify(endpoint).slice(0, 500)} vs ${JSON.stringify(hand).slice(0, 500)}`);
    if (endpoint.length === 0) throw new Error(`no rows for "${shape.name}"`);
    if (EXPLAIN) await explainBoth(bench, pool, shape);
    const a = await time(() => viaEndpoint(shape.sql));
    const b = await time(() => byHand(shape.hand));
    const line = `| ${shape.name} | ${a.median.toFixed(1)} / ${a.p95.toFixed(1)} | ${b.median.toFixed(1)} / ${b.p95.toFixed(1)} | ${(a.median / b.median).toFixed(2)}× |`;
    console.log(line);
    lines.push(line);
    if (shape.unordered) {
      const apart = await limitInOwnProcess(bench, shape.sql, normalise, (rows) => checkSameRecords(rows, hand, shape, byHand));
      console.log(apart);
      lines.push(apart);
    }
  }
  if (ADMISSION) lines.push(...(await admission(bench, main)));
  console.log(lines.join('\n'));
  appendResults(lines);
}

/** Sequential latency of `sql` through a service in a process of its own, on the bench's database, as the bench's token; `verify` checks its first answer. */
async function limitInOwnProcess(bench: BenchEnvironment, sql: string, normalise: (row: Row) => Row, verify: (rows: Row[]) => Promise<void>): Promise<string> {
  const service = await startServiceProcess(bench.url, { SQL_STATEMENT_TIMEOUT_MS: String(STATEMENT_TIMEOUT_MS) });
  try {
    const api = jsonClient(service.baseUrl, bench.token);
    const call = async () => ((await api('POST', '/v2/sql', { sql })).data as { rows: Row[] }).rows.map(normalise);
    await verify(await call());
    // GET /v2/self, one cached token lookup, in turn with the statement: the floor of a request through this client and service.
    const [statement, floor] = await interleavedLatency(LIMIT_ROUNDS, [call, () => api('GET', '/v2/self')]);
    return (
      `| ↳ the same, service in its own process (${service.mode}, ${LIMIT_ROUNDS} rounds; GET /v2/self in turn with it: ` +
      `${floor.p50.toFixed(1)} / ${floor.p95.toFixed(1)} ms) | ${statement.p50.toFixed(1)} / ${statement.p95.toFixed(1)} | | |`
    );
  } finally {
    await service.close();
  }
}

/** Prints the plans of both sides of `shape`: the endpoint's statement as its executor sends it, and the hand-written one. */
async function explainBoth(bench: BenchEnvironment, pool: Pool, shape: { name: string; sql: string; hand: { text: string; values: unknown[] } }) {
  const executor = bench.app.get(SqlExecutor);
  const run = executor.run.bind(executor);
  let sent: { text: string; fixedJoinOrder: boolean } | null = null;
  executor.run = (workspaceId, prepared, options) => {
    sent = { text: wrappedStatement(prepared, executor.maxRows, executor.maxResultBytes), fixedJoinOrder: options?.fixedJoinOrder ?? false };
    return run(workspaceId, prepared, options);
  };
  try {
    const main = bench as BenchWorkspace;
    await jsonClient(bench.baseUrl, main.token)('POST', '/v2/sql', { sql: shape.sql });
  } finally {
    executor.run = run;
  }
  const plan = async (text: string, values: unknown[], settings: string) => {
    const client = await pool.connect();
    try {
      await client.query(`BEGIN; SET LOCAL max_parallel_workers_per_gather = 0; ${settings}`);
      return (await client.query(`EXPLAIN (ANALYZE, BUFFERS) ${text}`, values)).rows.map((row: { 'QUERY PLAN': string }) => row['QUERY PLAN']).join('\n');
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  };
  const endpoint = sent as { text: string; fixedJoinOrder: boolean } | null;
  if (!endpoint) throw new Error(`"${shape.name}": the endpoint ran nothing`);
  console.log(`--- ${shape.name}: endpoint${endpoint.fixedJoinOrder ? ' (join_collapse_limit = 1)' : ''}\n${await plan(endpoint.text, [], endpoint.fixedJoinOrder ? 'SET LOCAL join_collapse_limit = 1' : '')}`);
  console.log(`--- ${shape.name}: hand-written\n${await plan(shape.hand.text, shape.hand.values, '')}`);
}

/** Un-ordered LIMIT: as many rows, each equal to the hand-written row of the same record. */
async function checkSameRecords(endpoint: Row[], hand: Row[], shape: { name: string; hand: { text: string; values: unknown[] } }, byHand: (query: { text: string; values: unknown[] }) => Promise<Row[]>) {
  if (endpoint.length !== hand.length) throw new Error(`"${shape.name}": ${endpoint.length} rows vs ${hand.length}`);
  const one = { text: shape.hand.text.replace(/WHERE r\.workspace_id = \$1 AND r\.container_id = \$2 LIMIT 10$/, 'WHERE r.workspace_id = $1 AND r.container_id = $2 AND r.id = ANY($3::uuid[])'), values: [...shape.hand.values, endpoint.map((row) => row.record_id)] };
  const expected = new Map((await byHand(one)).map((row) => [row.record_id, JSON.stringify(row)]));
  for (const row of endpoint) {
    if (expected.get(row.record_id) !== JSON.stringify(row)) throw new Error(`"${shape.name}": row ${JSON.stringify(row)} vs ${expected.get(row.record_id)}`);
  }
}

/** One JSON form for both sides: counts as numbers, numerics without trailing zeros, timestamps as ISO with milliseconds. */
function normalise(row: Row): Row {
  return Object.fromEntries(
    Object.entries(row).map(([key, v]) => {
      if (key === 'n') return [key, Number(v)];
      if (v instanceof Date) return [key, v.toISOString()];
      if (typeof v === 'string' && /^\d{4}-\d\d-\d\dT[\d:.]+Z$/.test(v)) return [key, new Date(v).toISOString()];
      if (typeof v === 'string' && /^-?\d+\.\d+$/.test(v)) return [key, v.replace(/0+$/, '').replace(/\.$/, '')];
      return [key, v];
    }),
  );
}

/** GET /v2/self of one workspace, alone and while another keeps ten slow statements in flight. */
async function admission(bench: BenchEnvironment, attacker: BenchWorkspace): Promise<string[]> {
  const bystander = await createBenchWorkspace(bench.app, 'bench-sql-bystander');
  const slow = 'SELECT count(*) AS n FROM generate_series(1, 100000) a CROSS JOIN generate_series(1, 100000) b';
  const selfLatency = async (count: number) => {
    const samples: number[] = [];
    for (let i = 0; i < count; i++) {
      const t0 = performance.now();
      const res = await fetch(`${bench.baseUrl}/v2/self`, { headers: { authorization: `Bearer ${bystander.token}` } });
      if (res.status !== 200) throw new Error(`GET /v2/self: ${res.status}`);
      await res.arrayBuffer();
      samples.push(performance.now() - t0);
    }
    samples.sort((a, b) => a - b);
    return { p50: samples[Math.floor(count / 2)], p99: samples[Math.ceil(count * 0.99) - 1], max: samples[count - 1] };
  };
  const REQUESTS = 300;
  await selfLatency(20);
  const alone = await selfLatency(REQUESTS);

  let flooding = true;
  const outcomes = { ran: 0, refused: 0 };
  const attackerLoop = async () => {
    while (flooding) {
      const res = await fetch(`${bench.baseUrl}/v2/sql`, { method: 'POST', headers: { authorization: `Bearer ${attacker.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ sql: slow }) });
      await res.arrayBuffer();
      if (res.status === 429) {
        outcomes.refused++;
        await new Promise((resolve) => setTimeout(resolve, 100));
      } else outcomes.ran++;
    }
  };
  const attackers = Array.from({ length: 10 }, () => attackerLoop());
  await new Promise((resolve) => setTimeout(resolve, 500));
  const attacked = await selfLatency(REQUESTS);
  flooding = false;
  await Promise.all(attackers);
  const { poolSize, workspaceConcurrency } = bench.config.sql;
  return [
    '',
    `### Admission: GET /v2/self of workspace B while workspace A keeps 10 slow statements in flight (${REQUESTS} sequential requests each; SQL_POOL_SIZE ${poolSize}, SQL_WORKSPACE_CONCURRENCY ${workspaceConcurrency}, statement timeout ${STATEMENT_TIMEOUT_MS} ms)`,
    '',
    '| GET /v2/self of B | p50 (ms) | p99 (ms) | max (ms) |',
    '|---|---|---|---|',
    `| alone | ${alone.p50.toFixed(1)} | ${alone.p99.toFixed(1)} | ${alone.max.toFixed(1)} |`,
    `| during A's flood (${outcomes.ran} statements ran to the timeout, ${outcomes.refused} refused with 429) | ${attacked.p50.toFixed(1)} | ${attacked.p99.toFixed(1)} | ${attacked.max.toFixed(1)} |`,
  ];
}

/** `count` people of the workspace's people object, named "Rep 0001", ..., with ids md5(people || i). */
async function seedPeople(pool: Pool, ids: Activity, count: number): Promise<void> {
  const actor = JSON.stringify({ type: 'system', id: null });
  await pool.query(
    `WITH p AS (SELECT i, md5($2 || i)::uuid AS id, 'Rep ' || lpad(i::text, 4, '0') AS name FROM generate_series(0, $4::int - 1) i),
          r AS (INSERT INTO records (workspace_id, id, container_id, created_by) SELECT $1, id, $2::uuid, $3::jsonb FROM p)
     INSERT INTO record_values (workspace_id, record_id, attribute_id, active_from, created_by, value_text, value_json)
     SELECT $1, id, $5::uuid, now(), $3::jsonb, name, jsonb_build_object('first_name', name, 'last_name', '', 'full_name', name) FROM p`,
    [ids.workspaceId, ids.peopleId, actor, count, ids.nameId],
  );
}

/** Records [from, to) of the activity with timestamp, direction, duration and rep, in one transaction. */
async function seed(pool: Pool, ids: Activity, from: number, to: number, people: number): Promise<void> {
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
      `INSERT INTO record_values (workspace_id, record_id, attribute_id, active_from, created_by, value_timestamp, value_json, value_ref, value_ref_type, value_number)
       SELECT $1, md5($2 || i)::uuid, a.attribute_id, now(), $3::jsonb,
              CASE WHEN a.k = 0 THEN to_timestamp($9::bigint / 1000 + i * 60) END,
              CASE WHEN a.k = 0 THEN jsonb_build_object('value', to_char(to_timestamp($9::bigint / 1000 + i * 60) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US000"Z"')) END,
              CASE WHEN a.k = 1 THEN (CASE WHEN i % 3 = 0 THEN $10::uuid ELSE $11::uuid END) WHEN a.k = 3 THEN md5($13 || (i % $14::int))::uuid END,
              CASE WHEN a.k = 3 THEN 'people' END,
              CASE WHEN a.k = 2 THEN i % 3600 END
         FROM generate_series($4::int, $5::int - 1) i
         CROSS JOIN (VALUES (0, $6::uuid), (1, $7::uuid), (2, $8::uuid), (3, $12::uuid)) a (k, attribute_id)
        WHERE a.k <> 3 OR i % 50 <> 0`, // every 50th call has no rep
      [
        ids.workspaceId, ids.activityId, actor, from, to, ids.attributes.get('timestamp'), ids.attributes.get('direction'), ids.attributes.get('duration'), DAY0,
        ids.options.get('Inbound'), ids.options.get('Outbound'), ids.attributes.get('rep'), ids.peopleId, people,
      ],
    );
    await client.query('COMMIT');
  } finally {
    client.release();
  }
}

runBench({ database: 'workbase_bench_sql', settings: { shared_buffers: '256MB' }, poolSize: 4, env: { SQL_STATEMENT_TIMEOUT_MS: String(STATEMENT_TIMEOUT_MS) } }, run);
