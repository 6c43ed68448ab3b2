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
import { mkdirSync } from 'node:fs';
import type { Server } from 'node:http';
import { isDeepStrictEqual } from 'node:util';
import express from 'express';
import { Pool } from 'pg';
import { attributesJsonSql, bareGrant, type BareAttribute, type BareRecord, bareRecordJson, type BareValue, isoSql, valuesJsonSql } from './bare-records';
import { profileTop, startServiceProcess, type ServiceProcess } from './service-process';
import { autocannon, DEFAULT_CONFIGURATION_UNTHROTTLED as DEFAULT_CONFIGURATION, type Load, jsonClient, startBenchDatabase } from './support';

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SOAK_SECONDS = Number(process.env.BENCH_SOAK_SECONDS ?? 0);
const CPU_PROF = process.env.BENCH_CPU_PROF;


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

async function listen(app: express.Express): Promise<{ server: Server; baseUrl: string }> {
  return new Promise((resolve) => {
    const server = app.listen(0, '127.0.0.1', () => resolve({ server, baseUrl: `http://127.0.0.1:${(server.address() as { port: number }).port}` }));
  });
}

/** Samples the service's RSS every `everyMs` while `during` runs. */
async function sampleRss<T>(service: ServiceProcess, everyMs: number, during: () => Promise<T>): Promise<{ result: T; samples: Array<{ at: number; mb: number }> }> {
  const started = Date.now();
  const samples: Array<{ at: number; mb: number }> = [];
  const timer = setInterval(() => samples.push({ at: (Date.now() - started) / 1000, mb: service.rssMb() }), everyMs);
  try {
    const result = await during();
    return { result, samples };
  } finally {
    clearInterval(timer);
  }
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);

async function main(): Promise<void> {
  const database = await startBenchDatabase('workbase_bench_record_get');
  let service: ServiceProcess | undefined;
  let bare: { server: Server; baseUrl: string } | undefined;
  const pool = new Pool({ connectionString: database.url, max: 10 });
  try {
    if (CPU_PROF) mkdirSync(CPU_PROF, { recursive: true });
    service = await startServiceProcess(database.url, DEFAULT_CONFIGURATION, { cpuProfDir: CPU_PROF });
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
    bare = await listen(bareServer(pool, service.publicUrl));

    // Both must answer the same body, or the comparison means nothing.
    const [fromService, fromBare] = await Promise.all([service.baseUrl, bare.baseUrl].map(async (base) => (await fetch(`${base}${route}`, { headers: { Authorization: `Bearer ${service!.token}` } })).json()));
    if (!isDeepStrictEqual(fromService, fromBare)) throw new Error(`bodies differ:\n${JSON.stringify(fromService)}\n${JSON.stringify(fromBare)}`);
    const withValues = Object.entries((fromService as { data: { values: Record<string, unknown[]> } }).data.values).filter(([, v]) => v.length > 0).map(([k]) => k);
    process.stdout.write(`bodies equal (${JSON.stringify(fromService).length} bytes; values in ${withValues.join(', ')})\n`);

    const servers = [
      ['Workbase (default configuration)', `${service.baseUrl}${route}`],
      ['bare express + pg', `${bare.baseUrl}${route}`],
    ] as const;
    const rss: number[] = [];
    const rounds: Record<string, Load[]> = Object.fromEntries(servers.map(([name]) => [name, []]));
    for (const [, url] of servers) await autocannon(CONNECTIONS, url, service.token, WARMUP);
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const [name, url] of servers) {
        if (url.startsWith(service.baseUrl)) {
          const { result, samples } = await sampleRss(service, 1000, () => autocannon(CONNECTIONS, url, service!.token, DURATION));
          rss.push(...samples.map((s) => s.mb));
          rounds[name].push(result);
        } else {
          rounds[name].push(await autocannon(CONNECTIONS, url, service.token, DURATION));
        }
      }
    }
    const median = (loads: Load[]) => [...loads].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond)[Math.floor(loads.length / 2)];
    const results = servers.map(([name]) => [name, median(rounds[name])] as const);
    process.stdout.write(
      `\nGET /v2/objects/people/records/{id}, ${CONNECTIONS} connections, median of ${ROUNDS} interleaved rounds of ${DURATION} s after a ${WARMUP} s warm-up; ` +
        `Workbase in its default configuration (rate limits on, PostgreSQL store, info logs) except per-token limits raised to 1,000,000/s so that no request meets them\n\n`,
    );
    process.stdout.write('| server | req/s | p50 ms | p99 ms | non-2xx | errors | rounds (req/s) |\n|---|---|---|---|---|---|---|\n');
    for (const [name, load] of results) {
      process.stdout.write(`| ${name} | ${load.requestsPerSecond.toFixed(0)} | ${load.p50} | ${load.p99} | ${load.non2xx} | ${load.errors} | ${rounds[name].map((l) => l.requestsPerSecond.toFixed(0)).join(', ')} |\n`);
    }
    process.stdout.write(`\nthroughput ratio (Workbase / bare): ${(results[0][1].requestsPerSecond / results[1][1].requestsPerSecond).toFixed(2)}\n`);
    const [ours, theirs] = servers.map(([name]) => rounds[name]);
    process.stdout.write(`ratio of each round (Workbase round / the bare round after it): ${ours.map((load, i) => (load.requestsPerSecond / theirs[i].requestsPerSecond).toFixed(2)).join(', ')}\n`);
    process.stdout.write(
      `service process RSS under load (its own process, ${service.mode === 'compiled' ? 'compiled JavaScript as npm start runs it' : 'sources compiled on the fly by @swc-node/register'}; ` +
        `sampled every 1 s in its rounds): max ${Math.max(...rss).toFixed(0)} MB, mean ${mean(rss).toFixed(0)} MB; ` +
        `bench process (bare server) RSS now ${(process.memoryUsage().rss / 1024 / 1024).toFixed(0)} MB\n`,
    );
    process.stdout.write(`service process.memoryUsage() after the rounds (MB): ${JSON.stringify(await service.memory())}\n`);

    if (SOAK_SECONDS > 0) {
      const { result, samples } = await sampleRss(service, 10_000, () => autocannon(CONNECTIONS, servers[0][1], service!.token, SOAK_SECONDS));
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
  } finally {
    const server = bare?.server;
    // Requests autocannon sent just before it exited are still running: let them end before the pool does.
    if (server) await new Promise((resolve) => setTimeout(() => server.close(resolve), 1_000));
    await pool.end();
    await service?.close();
    await database.close();
  }
  if (CPU_PROF) {
    process.stdout.write(`\nservice CPU profile (${CPU_PROF}), top entries by self time, % of its non-idle samples over its whole life (start-up included):\n\n| self | ms | function | where |\n|---|---|---|---|\n${profileTop(CPU_PROF, 25).join('\n')}\n`);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
