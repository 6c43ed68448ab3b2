/**
 * Record query latency at 10k, 100k and 1M people: a selective filter, a range filter with a
 * sort, and a path filter through a record reference. Each is measured through the HTTP API and
 * as the same compiled SQL run directly with `pg`, so the ratio is the cost of the API layer.
 *
 *   npm run bench:records            (embedded PostgreSQL in a temp dir; or set DATABASE_URL)
 *   BENCH_SIZES=10000,100000 npm run bench:records
 *   BENCH_SIZES=2000 BENCH_ROUNDS=3 BENCH_NO_WRITE=1 npm run bench:records   (smoke test; BENCH_RESULTS=/tmp/r.md writes elsewhere)
 */
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { Pool, PoolClient } from 'pg';
// White-box: the bench runs the engine's compiled statements directly.
import { RecordQueryService } from '../libs/records/src/application/query/record-query.service';
import { pageStatement } from '../libs/records/src/infrastructure/record.repository';
import { generatePeople, prepareDataset } from './records-dataset';
import { appendResults, type BenchEnvironment, jsonClient, sequentialLatency, runBench } from './support';

const SIZES = (process.env.BENCH_SIZES ?? '10000,100000,1000000').split(',').map(Number);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 30);

interface Shape {
  name: string;
  body: Record<string, unknown>;
}

/** One connection for the whole run: the generator's transaction and the direct SQL share it. */
async function run(bench: BenchEnvironment, pool: Pool) {
  const pg = await pool.connect();
  try {
    await measure(bench, pg);
  } finally {
    pg.release();
  }
}

async function measure(bench: BenchEnvironment, pg: PoolClient) {
  const { app, workspaceId } = bench;
  const call = jsonClient(bench.baseUrl, bench.token);
  const { people, peopleId, companiesId, ids } = await prepareDataset(app, pg, workspaceId, call);

  const lines: string[] = [];
  let have = 0;
  for (const size of SIZES) {
    const started = performance.now();
    await generatePeople(pg, workspaceId, peopleId, companiesId, ids, have, size);
    have = size;
    await pg.query('ANALYZE');
    const loadSeconds = ((performance.now() - started) / 1000).toFixed(1);
    const companiesCount = Math.max(10, Math.floor(size / 100));
    const shapes: Shape[] = [
      { name: 'selective: email equals', body: { filter: { email_addresses: `person-${Math.floor(size / 2)}@example.com` } } },
      { name: 'range + sort: score in [5000,5100), desc, limit 50', body: { filter: { score: { $gte: 5000, $lt: 5100 } }, sorts: [{ direction: 'desc', attribute: 'score' }], limit: 50 } },
      { name: 'path: company domain equals', body: { filter: { path: [['people', 'company'], ['companies', 'domains']], constraints: { domain: `company-${Math.floor(companiesCount / 2)}.com` } }, limit: 500 } },
    ];
    for (const shape of shapes) {
      const http = await sequentialLatency(ROUNDS, async () => (await call<{ data: unknown[] }>('POST', '/v2/objects/people/records/query', shape.body)).data.length);
      const compiled = await app.get(RecordQueryService).compile(people, shape.body);
      const limit = (shape.body.limit as number | undefined) ?? 500;
      // The same statements the API runs (a query with an indexed leading sort has two branches:
      // the second only runs when the first does not fill the page).
      const direct = await sequentialLatency(ROUNDS, async () => {
        let rows = 0;
        for (const branch of compiled.branches) {
          const statement = pageStatement(workspaceId, peopleId, branch, { limit: limit - rows, offset: 0 });
          rows += (await pg.query(statement.sql, statement.params)).rowCount ?? 0;
          if (rows >= limit) break;
        }
        return rows;
      });
      const first = pageStatement(workspaceId, peopleId, compiled.branches[0], { limit, offset: 0 });
      const plan = (await pg.query(`EXPLAIN ${first.sql}`, first.params)).rows.map((r: { 'QUERY PLAN': string }) => r['QUERY PLAN']);
      const line = `| ${size.toLocaleString('en')} | ${shape.name} | ${http.rows} | ${http.p50.toFixed(1)} / ${http.p95.toFixed(1)} | ${direct.p50.toFixed(1)} / ${direct.p95.toFixed(1)} | ${(http.p50 / direct.p50).toFixed(1)}x |`;
      lines.push(line);
      console.log(line);
      if (process.env.BENCH_EXPLAIN) console.log(plan.join('\n'));
    }
    console.log(`loaded ${size} people in ${loadSeconds}s (cumulative)`);
  }
  const header = [
    '',
    `## Record queries (${new Date().toISOString().slice(0, 10)}, ${process.platform}, ${cpus().length} cores, embedded PostgreSQL, bench/records-query.bench.ts)`,
    '',
    `People with email, job title, a number \`score\` and a \`company\` reference (one company per 100 people); ${ROUNDS} sequential requests per shape after one warm-up. Latency in ms as p50 / p95. "direct" is the same compiled SQL (ids only) run with \`pg\`; "API" adds HTTP, auth, validation and reading the values of the page.`,
    '',
    '| people | query | rows | API p50 / p95 | direct SQL p50 / p95 | API / direct |',
    '|---|---|---|---|---|---|',
  ];
  appendResults([...header, ...lines]);
}

runBench({ database: 'workbase_bench', settings: { shared_buffers: '512MB', work_mem: '32MB' }, poolSize: 1 }, run);
