/**
 * `GET /v2/objects/people/records/{id}` through the service in its default configuration (rate
 * limits on, counted in the PostgreSQL store, info logs; only the per-token limits raised so that
 * the load never meets them) against a bare express + `pg` handler doing the least SQL that
 * answers it: hash the bearer token and look it up, then read the object's live attributes, the
 * record and its current values in one statement, and answer the same JSON (the bodies are
 * checked deep-equal before anything is timed). Issue 17, targets 2 (ratio ≥ 0.85) and 6 (RSS).
 *
 *   npm run bench:record-get                         (embedded PostgreSQL in a temp dir; or set DATABASE_URL)
 *   BENCH_DURATION=2 BENCH_WARMUP=1 BENCH_ROUNDS=1 npm run bench:record-get     (smoke run)
 *   BENCH_SOAK_SECONDS=300 npm run bench:record-get  (then a soak of the service alone: RSS every 10 s)
 *   BENCH_CPU_PROF=/tmp/prof npm run bench:record-get (the service under --cpu-prof; top self-time entries printed)
 *
 * The service runs in a child process of its own (bench/service-process.ts), so the RSS printed is
 * the service's alone; the bare server runs in this process, autocannon in a third.
 */
import { isDeepStrictEqual } from 'node:util';
import express from 'express';
import { Pool } from 'pg';
import { attributesJsonSql, bareGrant, type BareAttribute, type BareRecord, bareRecordJson, type BareValue, isoSql, valuesJsonSql } from './bare-records';
import { mean, reportPair, runPairBench, runPairRounds, sampleRss } from './pair-rounds';
import { autocannon, jsonClient } from './support';

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SOAK_SECONDS = Number(process.env.BENCH_SOAK_SECONDS ?? 0);

/** The object, the record, the object's live attributes and the record's current values, in one statement. */
const RECORD_SQL = `SELECT o.id AS object_id, r.id, ${isoSql('r.created_at')} AS created_at, r.created_by,
    ${attributesJsonSql('o.workspace_id', 'o.id')} AS attributes, ${valuesJsonSql('r.workspace_id', '= r.id')} AS values
  FROM objects o
  JOIN records r ON r.workspace_id = o.workspace_id AND r.container_id = o.id AND r.id = $3
 WHERE o.workspace_id = $1 AND o.api_slug = $2`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Two statements: the token, then the record with everything its answer needs. */
function bareServer(pool: Pool, publicUrl: string): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.get('/v2/objects/:object/records/:record_id', async (req, res) => {
    const grant = await bareGrant(pool, req.headers.authorization);
    if (typeof grant === 'number') return void res.status(grant).json({ status_code: grant });
    if (!UUID.test(req.params.record_id)) return void res.status(404).json({ status_code: 404 });
    const row = (await pool.query(RECORD_SQL, [grant.workspaceId, req.params.object, req.params.record_id])).rows[0] as
      | (BareRecord & { object_id: string; attributes: BareAttribute[] | null; values: BareValue[] | null })
      | undefined;
    if (!row) return void res.status(404).json({ status_code: 404 });
    const where = { publicUrl, workspaceId: grant.workspaceId, workspaceSlug: grant.workspaceSlug, objectId: row.object_id, objectSlug: req.params.object };
    res.json({ data: bareRecordJson(where, row, row.attributes ?? [], row.values ?? []) });
  });
  return app;
}

runPairBench({ database: 'workbase_bench_record_get' }, async ({ pool, service, serve }) => {
  const call = jsonClient(service.baseUrl, service.token);
  await call('POST', '/v2/objects/people/attributes', { data: { title: 'Score', api_slug: 'score', type: 'number', is_required: false, is_unique: false, is_multiselect: false, config: {} } });
  const created = await call<{ data: { id: { record_id: string } } }>('POST', '/v2/objects/people/records', {
    data: {
      values: {
        name: [{ first_name: 'Ada', last_name: 'Lovelace', full_name: 'Ada Lovelace' }],
        email_addresses: ['ada@example.com', 'ada.lovelace@analytical.example'],
        job_title: 'Engineer',
        score: 4217.5,
      },
    },
  });
  const route = `/v2/objects/people/records/${created.data.id.record_id}`;
  const bareUrl = await serve(bareServer(pool, service.publicUrl));

  // Both must answer the same body, or the comparison means nothing.
  const [fromService, fromBare] = await Promise.all([service.baseUrl, bareUrl].map(async (base) => (await fetch(`${base}${route}`, { headers: { Authorization: `Bearer ${service.token}` } })).json()));
  if (!isDeepStrictEqual(fromService, fromBare)) throw new Error(`bodies differ:\n${JSON.stringify(fromService)}\n${JSON.stringify(fromBare)}`);
  const withValues = Object.entries((fromService as { data: { values: Record<string, unknown[]> } }).data.values).filter(([, v]) => v.length > 0).map(([k]) => k);
  process.stdout.write(`bodies equal (${JSON.stringify(fromService).length} bytes; values in ${withValues.join(', ')})\n`);

  const sides = [
    { name: 'Workbase (default configuration)', url: `${service.baseUrl}${route}` },
    { name: 'bare express + pg', url: `${bareUrl}${route}` },
  ] as const;
  const result = await runPairRounds(service, sides, { connections: CONNECTIONS, duration: DURATION, warmup: WARMUP, rounds: ROUNDS });
  await reportPair(
    service,
    sides,
    result,
    `GET /v2/objects/people/records/{id}, ${CONNECTIONS} connections, median of ${ROUNDS} interleaved rounds of ${DURATION} s after a ${WARMUP} s warm-up; ` +
      `Workbase in its default configuration (rate limits on, PostgreSQL store, info logs) except per-token limits raised to 1,000,000/s so that no request meets them`,
  );

  if (SOAK_SECONDS > 0) {
    const { result, samples } = await sampleRss(service, 10_000, () => autocannon(CONNECTIONS, sides[0].url, service.token, SOAK_SECONDS));
    const window = Math.min(60, SOAK_SECONDS / 3);
    const first = samples.filter((s) => s.at <= window).map((s) => s.mb);
    const last = samples.filter((s) => s.at >= SOAK_SECONDS - window).map((s) => s.mb);
    process.stdout.write(`\nsoak: Workbase alone, ${SOAK_SECONDS} s at ${CONNECTIONS} connections: ${result.requestsPerSecond.toFixed(0)} req/s, p99 ${result.p99} ms, non-2xx ${result.non2xx}, errors ${result.errors}\n`);
    process.stdout.write(`service process.memoryUsage() after the soak (MB): ${JSON.stringify(await service.memory())}\n`);
    process.stdout.write(`soak RSS samples (s: MB): ${samples.map((s) => `${s.at.toFixed(0)}: ${s.mb.toFixed(0)}`).join(', ')}\n`);
    process.stdout.write(
      `soak RSS: first ${window.toFixed(0)} s mean ${mean(first).toFixed(1)} MB, last ${window.toFixed(0)} s mean ${mean(last).toFixed(1)} MB, growth ${((mean(last) / mean(first) - 1) * 100).toFixed(1)} %, max ${Math.max(...samples.map((s) => s.mb)).toFixed(0)} MB\n`,
    );
  }
});
