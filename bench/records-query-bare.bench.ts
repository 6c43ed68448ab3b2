/**
 * A selective records query (one match: a unique email) `POST /v2/objects/people/records/query`,
 * sequential requests, through the service in its default configuration (rate limits on, counted
 * in the PostgreSQL store, info logs; per-token limits raised so that no request meets them)
 * against a bare express + `pg` handler doing the same work over HTTP: parse the JSON body, look
 * the token up, run the engine's compiled statement for that query (white-box: compiled once by
 * the app, as records-query.bench.ts does), then read the page's values with the object's live
 * attributes in one statement, and answer the same JSON (checked deep-equal before timing). Issue
 * 17, target 4 (p50 ≤ 1.2× bare).
 *
 *   npm run bench:records-bare                            (10k people; embedded PostgreSQL, or set DATABASE_URL)
 *   BENCH_SIZES=10000,1000000 npm run bench:records-bare  (and at 1M: generating 1M people takes minutes)
 *   BENCH_SIZES=2000 BENCH_ROUNDS=20 npm run bench:records-bare   (smoke run)
 *   BENCH_CPU_PROF=/tmp/prof npm run bench:records-bare   (then the service side alone again under the CPU profiler; top self-time entries printed)
 *
 * The two sides alternate request by request (the order flips each round), so load from anything
 * else on the machine falls on both alike.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { Session } from 'node:inspector';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { isDeepStrictEqual } from 'node:util';
import express from 'express';
import type { Pool } from 'pg';
// White-box: the bare handler runs the engine's compiled statement.
import { RecordQueryService } from '../libs/records/src/application/query/record-query.service';
import { pageStatement } from '../libs/records/src/infrastructure/record.repository';
import { attributesJsonSql, bareGrant, type BareAttribute, type BareRecord, bareRecordJson, type BareValue, isoSql, valuesJsonSql } from './bare-records';
import { generatePeople, prepareDataset } from './records-dataset';
import { profileTop } from './service-process';
import { type BenchEnvironment, DEFAULT_CONFIGURATION_UNTHROTTLED as DEFAULT_CONFIGURATION, jsonClient, runBench } from './support';

const SIZES = (process.env.BENCH_SIZES ?? '10000').split(',').map(Number);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 200);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 20);
const LIMIT = 500;
const CPU_PROF = process.env.BENCH_CPU_PROF;

const VALUES_SQL = `SELECT ${attributesJsonSql('$1::uuid', '$2::uuid')} AS attributes, ${valuesJsonSql('$1::uuid', '= ANY ($3::uuid[])')} AS values`;

interface Compiled {
  readonly objectId: string;
  readonly sql: string;
  readonly params: unknown[];
}

/** Three statements: the token, the compiled page, the page's values with the attributes. */
function bareServer(pool: Pool, publicUrl: string, compiled: () => Compiled): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.use(express.json());
  app.post('/v2/objects/:object/records/query', async (req, res) => {
    const grant = await bareGrant(pool, req.headers.authorization);
    if (typeof grant === 'number') return void res.status(grant).json({ status_code: grant });
    const { objectId, sql, params } = compiled();
    const records = (await pool.query<BareRecord>(sql, params)).rows;
    if (records.length === 0) return void res.json({ data: [] });
    const row = (await pool.query<{ attributes: BareAttribute[] | null; values: BareValue[] | null }>(VALUES_SQL, [grant.workspaceId, objectId, records.map((r) => r.id)])).rows[0];
    const where = { publicUrl, workspaceId: grant.workspaceId, workspaceSlug: grant.workspaceSlug, objectId, objectSlug: req.params.object };
    const values = row.values ?? [];
    res.json({ data: records.map((record) => bareRecordJson(where, record, row.attributes ?? [], values.filter((v) => v.record_id === record.id))) });
  });
  return app;
}

async function listen(app: express.Express): Promise<{ server: Server; baseUrl: string }> {
  return new Promise((resolve) => {
    const server = app.listen(0, '127.0.0.1', () => resolve({ server, baseUrl: `http://127.0.0.1:${(server.address() as { port: number }).port}` }));
  });
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];

async function run(bench: BenchEnvironment, pool: Pool) {
  const { app, workspaceId } = bench;
  const call = jsonClient(bench.baseUrl, bench.token);
  const { people, peopleId, companiesId, ids } = await prepareDataset(app, pool, workspaceId, call);

  let compiled: Compiled | undefined;
  const bare = await listen(bareServer(pool, bench.config.baseUrl, () => compiled!));
  const post = (base: string, body: unknown) =>
    fetch(`${base}/v2/objects/people/records/query`, { method: 'POST', headers: { authorization: `Bearer ${bench.token}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const lines: string[] = [];
  const profiles: string[] = [];
  try {
    let have = 0;
    for (const size of SIZES) {
      const started = performance.now();
      const pg = await pool.connect();
      try {
        await generatePeople(pg, workspaceId, peopleId, companiesId, ids, have, size);
        await pg.query('ANALYZE');
      } finally {
        pg.release();
      }
      have = size;
      process.stdout.write(`loaded ${size} people in ${((performance.now() - started) / 1000).toFixed(1)} s (cumulative)\n`);

      const body = { filter: { email_addresses: `person-${Math.floor(size / 2)}@example.com` } };
      const { branches } = await app.get(RecordQueryService).compile(people, body);
      if (branches.length !== 1) throw new Error(`expected one branch, got ${branches.length}`);
      const statement = pageStatement(workspaceId, peopleId, branches[0], { limit: LIMIT, offset: 0 }, `r.id, ${isoSql('r.created_at')} AS created_at, r.created_by`);
      compiled = { objectId: peopleId, sql: statement.sql, params: statement.params };

      const [fromService, fromBare] = await Promise.all([bench.baseUrl, bare.baseUrl].map(async (base) => (await post(base, body)).json()));
      if (!isDeepStrictEqual(fromService, fromBare)) throw new Error(`bodies differ:\n${JSON.stringify(fromService)}\n${JSON.stringify(fromBare)}`);
      const matches = (fromService as { data: unknown[] }).data.length;
      if (matches !== 1) throw new Error(`expected one match, got ${matches}`);
      process.stdout.write(`bodies equal (${JSON.stringify(fromService).length} bytes, ${matches} record)\n`);

      const sides = [
        ['Workbase', bench.baseUrl],
        ['bare', bare.baseUrl],
      ] as const;
      const times: Record<string, number[]> = { Workbase: [], bare: [] };
      for (let i = 0; i < WARMUP + ROUNDS; i += 1) {
        for (const [name, base] of i % 2 === 0 ? sides : [...sides].reverse()) {
          const start = performance.now();
          const res = await post(base, body);
          await res.arrayBuffer();
          if (res.status !== 200) throw new Error(`${name}: ${res.status}`);
          if (i >= WARMUP) times[name].push(performance.now() - start);
        }
      }
      const [service, baseline] = sides.map(([name]) => {
        const sorted = [...times[name]].sort((a, b) => a - b);
        return { p50: percentile(sorted, 0.5), p95: percentile(sorted, 0.95) };
      });
      if (CPU_PROF) {
        // The service side alone, profiled in this process (the bench's fetch client shows up as undici).
        const file = path.join(CPU_PROF, `records-query-${size}.cpuprofile`);
        await writeProfile(file, async () => {
          for (let i = 0; i < ROUNDS; i += 1) await (await post(bench.baseUrl, body)).arrayBuffer();
        });
        profiles.push(`\nservice side at ${size.toLocaleString('en')} people, ${ROUNDS} sequential requests (${file}), top entries by self time, % of non-idle samples:\n\n| self | ms | function | where |\n|---|---|---|---|\n${profileTop(file, 25).join('\n')}`);
      }
      const line = `| ${size.toLocaleString('en')} | ${service.p50.toFixed(2)} / ${service.p95.toFixed(2)} | ${baseline.p50.toFixed(2)} / ${baseline.p95.toFixed(2)} | ${(service.p50 / baseline.p50).toFixed(2)}x |`;
      lines.push(line);
    }
  } finally {
    await new Promise((resolve) => bare.server.close(resolve));
  }
  process.stdout.write(
    `\nselective records query (email equals, 1 match), ${ROUNDS} sequential requests per side after ${WARMUP} warm-up ones, alternating; ` +
      `Workbase in its default configuration (rate limits on, PostgreSQL store, info logs) except per-token limits raised to 1,000,000/s\n\n`,
  );
  process.stdout.write(`| people | Workbase p50 / p95 ms | bare express + pg p50 / p95 ms | p50 ratio (Workbase / bare) |\n|---|---|---|---|\n${lines.join('\n')}\n`);
  if (profiles.length > 0) process.stdout.write(`${profiles.join('\n')}\n`);
}

/** Runs `during` under the V8 CPU profiler of this process and writes the profile to `file`. */
async function writeProfile(file: string, during: () => Promise<void>): Promise<void> {
  mkdirSync(path.dirname(file), { recursive: true });
  const session = new Session();
  session.connect();
  const post = (method: string) =>
    new Promise<unknown>((resolve, reject) => session.post(method, (error, result) => (error ? reject(error) : resolve(result))));
  try {
    await post('Profiler.enable');
    await post('Profiler.start');
    await during();
    const { profile } = (await post('Profiler.stop')) as { profile: unknown };
    writeFileSync(file, JSON.stringify(profile));
  } finally {
    session.disconnect();
  }
}

runBench({ database: 'workbase_bench_records_bare', settings: { shared_buffers: '512MB', work_mem: '32MB' }, env: DEFAULT_CONFIGURATION, poolSize: 10 }, run);
