/**
 * `GET /v2/self` through the whole service (Nest, passport, guards, throttler on its PostgreSQL
 * store with limits the load never meets, pino) and once more with rate limits off, against
 * a bare express + `pg` handler that does the same work: hash the bearer token, run the same
 * indexed lookup, answer the same JSON. The ratio is the price of the framework layers.
 *
 *   npm run bench:self                  (embedded PostgreSQL in a temp dir; or set DATABASE_URL)
 *   BENCH_DURATION=20 BENCH_CONNECTIONS=50 npm run bench:self
 *   BENCH_DURATION=2 BENCH_WARMUP=1 BENCH_ROUNDS=1 npm run bench:self      (smoke run)
 *
 * autocannon runs as a child process so that the load generator does not share the servers'
 * event loop (it still shares the machine's cores, as noted in RESULTS.md).
 */
import { createHash } from 'node:crypto';
import type { Server } from 'node:http';
import express from 'express';
import { Pool } from 'pg';
import { autocannon, type Load, startBenchApp, startBenchEnvironment } from './support';

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);


/** The same lookup and answer as TokenIntrospectionQuery, with nothing around it. */
function bareServer(pool: Pool, issuer: string): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.disable('etag');
  app.get('/v2/self', async (req, res) => {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!token) return void res.json({ active: false });
    const hash = createHash('sha256').update(token, 'utf8').digest();
    const { rows } = await pool.query(
      `SELECT t.id, t.workspace_id, t.scopes, t.client_id, t.kind, m.access_level,
              COALESCE(t.authorized_by_member_id, (
                SELECT s.id FROM workspace_members s WHERE s.workspace_id = t.workspace_id
                 ORDER BY (s.access_level = 'admin' AND s.state = 'active' AND s.deleted_at IS NULL) DESC, s.created_at, s.id LIMIT 1
              )) AS authorized_by_member_id,
              t.issued_at, t.expires_at, w.name AS workspace_name, w.slug AS workspace_slug, w.logo_url AS workspace_logo_url
         FROM api_tokens t
         LEFT JOIN workspace_members m ON m.workspace_id = t.workspace_id AND m.id = t.authorized_by_member_id
         JOIN workspaces w ON w.id = t.workspace_id
        WHERE t.token_hash = $1 AND t.revoked_at IS NULL AND (t.expires_at IS NULL OR t.expires_at > now())
          AND (t.kind = 'service' OR (m.state = 'active' AND m.deleted_at IS NULL))`,
      [hash],
    );
    const grant = rows[0];
    if (!grant) return void res.json({ active: false });
    const clientId = grant.client_id ?? grant.id;
    res.json({
      active: true,
      scope: grant.scopes.join(' '),
      client_id: clientId,
      token_type: 'Bearer',
      exp: grant.expires_at ? Math.floor(grant.expires_at.getTime() / 1000) : null,
      iat: Math.floor(grant.issued_at.getTime() / 1000),
      sub: grant.workspace_id,
      aud: clientId,
      iss: issuer,
      authorized_by_workspace_member_id: grant.authorized_by_member_id,
      workspace_id: grant.workspace_id,
      workspace_name: grant.workspace_name,
      workspace_slug: grant.workspace_slug,
      workspace_logo_url: grant.workspace_logo_url,
    });
  });
  return app;
}

async function listen(app: express.Express): Promise<{ server: Server; url: string }> {
  return new Promise((resolve) => {
    const server = app.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}/v2/self` }));
  });
}

/** Per-token limits high enough that the load never meets them: the bench measures their cost. */
const UNREACHED_LIMITS = { RATE_LIMIT_ENABLED: 'true', RATE_LIMIT_STORE: 'postgres', RATE_LIMIT_READS_PER_SECOND: '1000000', RATE_LIMIT_WRITES_PER_SECOND: '1000000' };

async function main(): Promise<void> {
  // The service as users get it: rate limits on, counted in PostgreSQL (only the limit raised).
  const bench = await startBenchEnvironment({ database: 'workbase_bench_self', env: { DB_POOL_SIZE: '10', ...UNREACHED_LIMITS } });
  // A second app on the same database with rate limits off: the difference is their cost.
  const unlimited = await startBenchApp(bench.url, { DB_POOL_SIZE: '10', RATE_LIMIT_ENABLED: 'false' });
  const pool = new Pool({ connectionString: bench.url, max: 10 });
  let bare: { server: Server; url: string } | undefined;
  try {
    const serviceUrl = `${bench.baseUrl}/v2/self`;
    bare = await listen(bareServer(pool, bench.config.baseUrl));

    // Both must answer the same body, or the comparison means nothing.
    const [fromService, fromBare] = await Promise.all([serviceUrl, bare.url].map(async (u) => (await fetch(u, { headers: { Authorization: `Bearer ${bench.token}` } })).json()));
    if (JSON.stringify(fromService) !== JSON.stringify(fromBare)) throw new Error(`bodies differ:\n${JSON.stringify(fromService)}\n${JSON.stringify(fromBare)}`);

    const servers = [
      ['Workbase, rate limits on (PostgreSQL store)', serviceUrl, bench.token],
      ['Workbase, rate limits off', `${unlimited.baseUrl}/v2/self`, unlimited.token],
      ['bare express + pg', bare.url, bench.token],
    ] as const;
    // Rounds interleave the servers, and each keeps its median round: load from anything else on
    // the machine then falls on all three alike instead of on whichever ran at that moment.
    const rounds: Record<string, Load[]> = Object.fromEntries(servers.map(([name]) => [name, []]));
    for (const [, target, token] of servers) await autocannon(CONNECTIONS, target, token, WARMUP);
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const [name, target, token] of servers) rounds[name].push(await autocannon(CONNECTIONS, target, token, DURATION));
    }
    const median = (loads: Load[]) => [...loads].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond)[Math.floor(loads.length / 2)];
    const results: Record<string, Load> = Object.fromEntries(servers.map(([name]) => [name, median(rounds[name])]));
    const [service, withoutLimits, baseline] = servers.map(([name]) => results[name]);
    process.stdout.write(`\nGET /v2/self, ${CONNECTIONS} connections, median of ${ROUNDS} interleaved rounds of ${DURATION} s after a ${WARMUP} s warm-up; default configuration except per-token limits raised to 1,000,000/s\n\n`);
    process.stdout.write('| server | req/s | p50 ms | p99 ms | non-2xx | errors |\n|---|---|---|---|---|---|\n');
    for (const [name, load] of Object.entries(results)) {
      process.stdout.write(`| ${name} | ${load.requestsPerSecond.toFixed(0)} | ${load.p50} | ${load.p99} | ${load.non2xx} | ${load.errors} |\n`);
    }
    process.stdout.write(`\nthroughput ratio (Workbase / bare): ${(service.requestsPerSecond / baseline.requestsPerSecond).toFixed(2)}\n`);
    process.stdout.write(`rate-limit cost (1 - on / off): ${((1 - service.requestsPerSecond / withoutLimits.requestsPerSecond) * 100).toFixed(1)} %\n`);
  } finally {
    const server = bare?.server;
    if (server) await new Promise((resolve) => server.close(resolve));
    await pool.end();
    await unlimited.close();
    await bench.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
