/**
 * What every bench sets up and tears down, in one place:
 *
 * - a throwaway database: an embedded PostgreSQL cluster in a temp dir (durability off; the dir is
 *   removed at the end), or, when DATABASE_URL is set, a database of its own on that server
 *   (created with a unique name, migrated, and dropped at the end);
 * - the app on loopback with request rate limits off and no worker, plus a workspace and an
 *   all-scope token;
 * - the results file: RESULTS.md next to this file (BENCH_RESULTS names another file), not
 *   written at all when BENCH_NO_WRITE is set (smoke runs).
 */
import { execFile } from 'node:child_process';
import { appendFileSync, chmodSync, mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Client, Pool } from 'pg';
import { CreateWorkspaceUseCase, IssueTokenUseCase } from '@workbase/access';
import { AuditSealer } from '@workbase/audit';
import { type AppConfig, loadConfig } from '@workbase/shared/config';
import { createLogger } from '@workbase/shared/http';
import { ALL_SCOPES } from '@workbase/shared/kernel';
import { ensureDatabase, runMigrations, startEmbeddedPostgres, withDatabase } from '@workbase/shared/persistence';
import { createApp } from '../apps/api/src/app.factory';

/** A throwaway cluster needs no durability. */
const THROWAWAY_SETTINGS = { fsync: 'off', synchronous_commit: 'off', full_page_writes: 'off' };

export interface BenchDatabase {
  /** URL of the migrated bench database. */
  readonly url: string;
  /** Drops the database (DATABASE_URL) or stops the embedded cluster and removes its dir. */
  close(): Promise<void>;
}

/**
 * A migrated database named `name` (suffixed to be unique on a DATABASE_URL server). `settings`
 * are extra `postgres -c` settings of the embedded cluster (e.g. shared_buffers); a DATABASE_URL
 * server keeps its own.
 */
export async function startBenchDatabase(name: string, settings: Readonly<Record<string, string>> = {}): Promise<BenchDatabase> {
  const cleanups: Array<() => Promise<void>> = [];
  const close = async () => {
    while (cleanups.length > 0) await cleanups.pop()!();
  };
  try {
    let adminUrl = process.env.DATABASE_URL;
    let database = name;
    if (adminUrl) {
      database = `${name}_${Date.now()}`;
    } else {
      const dir = mkdtempSync(path.join(tmpdir(), 'workbase-bench-'));
      chmodSync(dir, 0o755);
      cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
      const cluster = await startEmbeddedPostgres({ dataDir: dir, settings: { ...THROWAWAY_SETTINGS, ...settings } });
      cleanups.push(() => cluster.stop());
      adminUrl = cluster.url;
    }
    await ensureDatabase(adminUrl, database);
    if (process.env.DATABASE_URL) cleanups.push(() => dropDatabase(adminUrl, database));
    const url = withDatabase(adminUrl, database);
    await runMigrations(url);
    return { url, close };
  } catch (error) {
    await close();
    throw error;
  }
}

async function dropDatabase(adminUrl: string, database: string): Promise<void> {
  const client = new Client({ connectionString: adminUrl });
  await client.connect();
  try {
    await client.query(`DROP DATABASE IF EXISTS ${client.escapeIdentifier(database)} WITH (FORCE)`);
  } finally {
    await client.end();
  }
}

export interface BenchWorkspace {
  readonly workspaceId: string;
  /** An API token with every scope. */
  readonly token: string;
}

let workspaces = 0;

/** A new workspace (slug `<prefix>-<time>-<n>`) and an all-scope token for it. */
export async function createBenchWorkspace(app: NestExpressApplication, prefix = 'bench'): Promise<BenchWorkspace> {
  const { workspaceId } = await app.get(CreateWorkspaceUseCase).execute({ name: prefix, slug: `${prefix}-${Date.now()}-${++workspaces}`, adminEmail: `${prefix}@example.com` });
  const { accessToken } = await app.get(IssueTokenUseCase).execute({ workspaceId, scopes: ALL_SCOPES });
  return { workspaceId, token: accessToken };
}

export interface BenchApp extends BenchWorkspace {
  readonly app: NestExpressApplication;
  readonly config: AppConfig;
  /** `http://127.0.0.1:<port>` of the listening app. */
  readonly baseUrl: string;
  close(): Promise<void>;
}

/**
 * The app on `url`, listening on loopback, with rate limits off, warn logs, no worker but the audit sealer, and one
 * workspace. `env` overrides the environment (LOG_LEVEL included: `info` logs as `npm start` does).
 */
export async function startBenchApp(url: string, env: Readonly<Record<string, string>> = {}): Promise<BenchApp> {
  const config = loadConfig({ ...process.env, DATABASE_URL: url, RATE_LIMIT_ENABLED: 'false', LOG_LEVEL: 'warn', RUN_WORKER: 'false', ...env });
  const app = await createApp(config, url, createLogger(config.logLevel));
  try {
    await app.listen(0, '127.0.0.1');
    const baseUrl = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
    const workspace = await createBenchWorkspace(app);
    // The audit log's sealer runs beside the API as the API's own worker runs it (RUN_WORKER): its
    // cost is part of what a write costs now, so the benches count it.
    // BENCH_AUDIT_SEALER=0 leaves it off, to see what sealing costs apart from the entry's insert.
    const sealer = app.get(AuditSealer);
    if (process.env.BENCH_AUDIT_SEALER !== '0') sealer.start();
    return { ...workspace, app, config, baseUrl, close: async () => {
      await sealer.stop();
      await app.close();
    } };
  } catch (error) {
    await app.close();
    throw error;
  }
}

export interface BenchEnvironment extends BenchApp {
  /** URL of the bench database. */
  readonly url: string;
}

/** startBenchDatabase + startBenchApp; `close` shuts the app, then the database. */
export async function startBenchEnvironment(options: { database: string; settings?: Readonly<Record<string, string>>; env?: Readonly<Record<string, string>> }): Promise<BenchEnvironment> {
  const database = await startBenchDatabase(options.database, options.settings);
  try {
    const bench = await startBenchApp(database.url, options.env);
    return {
      ...bench,
      url: database.url,
      close: async () => {
        try {
          await bench.close();
        } finally {
          await database.close();
        }
      },
    };
  } catch (error) {
    await database.close();
    throw error;
  }
}

/**
 * A bench's whole life: the environment, a plain `pg` pool of `poolSize` beside the app (for the
 * bare baseline and direct SQL), `run`, then everything closed; a failure exits non-zero.
 */
export function runBench(
  options: { database: string; settings?: Readonly<Record<string, string>>; env?: Readonly<Record<string, string>>; poolSize?: number },
  run: (bench: BenchEnvironment, pool: Pool) => Promise<void>,
): void {
  const main = async () => {
    const bench = await startBenchEnvironment(options);
    const pool = new Pool({ connectionString: bench.url, max: options.poolSize ?? bench.config.dbPoolSize });
    try {
      await run(bench, pool);
    } finally {
      await pool.end();
      await bench.close();
    }
  };
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });
}

/** `call(method, route, body)` against `baseUrl` as `token`: the JSON answer, or an error naming the status. */
export function jsonClient(baseUrl: string, token: string) {
  return async <T = { data: unknown }>(method: string, route: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${baseUrl}${route}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${await res.text()}`);
    return (await res.json()) as T;
  };
}

/** `run` once as a warm-up (its result is `rows`), then `rounds` times in sequence; ms at p50 and p95. */
export async function sequentialLatency(rounds: number, run: () => Promise<number>): Promise<{ p50: number; p95: number; rows: number }> {
  const rows = await run();
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  return { ...medianAndP95(times), rows };
}

/** p50 and p95 of `times` (sorted in place). */
function medianAndP95(times: number[]): { p50: number; p95: number } {
  times.sort((a, b) => a - b);
  return { p50: times[Math.floor(times.length / 2)], p95: times[Math.floor(times.length * 0.95)] };
}

/**
 * Each of `runs` once as a warm-up, then `rounds` rounds that call each in turn, so that drift of
 * the machine falls on all of them alike; ms at p50 and p95 per run, in the order given.
 */
export async function interleavedLatency(rounds: number, runs: ReadonlyArray<() => Promise<unknown>>): Promise<Array<{ p50: number; p95: number }>> {
  for (const run of runs) await run();
  const times = runs.map((): number[] => []);
  for (let i = 0; i < rounds; i++) {
    for (const [index, run] of runs.entries()) {
      const start = performance.now();
      await run();
      times[index].push(performance.now() - start);
    }
  }
  return times.map(medianAndP95);
}

/** Appends `lines` to the results file (BENCH_RESULTS, else bench/RESULTS.md), unless BENCH_NO_WRITE is set. */
export function appendResults(lines: readonly string[]): void {
  if (process.env.BENCH_NO_WRITE) return;
  appendFileSync(process.env.BENCH_RESULTS ?? path.join(__dirname, 'RESULTS.md'), `${lines.join('\n')}\n`);
}

/** The default configuration, except per-token limits high enough that the load never meets them (benches say so in their output). */
export const DEFAULT_CONFIGURATION_UNTHROTTLED: Readonly<Record<string, string>> = {
  RATE_LIMIT_ENABLED: 'true',
  RATE_LIMIT_STORE: 'postgres',
  RATE_LIMIT_READS_PER_SECOND: '1000000',
  RATE_LIMIT_WRITES_PER_SECOND: '1000000',
  LOG_LEVEL: 'info',
};

export interface Load {
  readonly requestsPerSecond: number;
  readonly p50: number;
  readonly p99: number;
  readonly non2xx: number;
  readonly errors: number;
}

/** What each request of a load sends besides the token: GET without a body unless said otherwise. */
export interface LoadRequest {
  readonly method?: string;
  /** A JSON body, sent as it is by every request (with `Content-Type: application/json`). */
  readonly body?: string;
  /** Each request replaces `[<id>]` in the body with a new random id (autocannon's -I): a write that changes something every time. */
  readonly idReplacement?: boolean;
}

/** autocannon in a child process (so that the load generator does not share the servers' event loop): `connections` requests (`request`, GETs by default) of `url` as `token` for `seconds`. */
export function autocannon(connections: number, url: string, token: string, seconds: number, request: LoadRequest = {}): Promise<Load> {
  const bin = path.resolve(__dirname, '../node_modules/autocannon/autocannon.js');
  const body = request.body === undefined ? [] : ['-H', 'Content-Type=application/json', '-b', request.body];
  const args = [bin, '-c', String(connections), '-d', String(seconds), '-j', '-m', request.method ?? 'GET', ...body, ...(request.idReplacement ? ['-I'] : []), '-H', `Authorization=Bearer ${token}`, url];
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { maxBuffer: 16 * 1024 * 1024 }, (error, stdout) => {
      if (error) return reject(error);
      const result = JSON.parse(stdout) as { requests: { average: number }; latency: { p50: number; p99: number }; non2xx: number; errors: number };
      resolve({ requestsPerSecond: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, non2xx: result.non2xx, errors: result.errors });
    });
  });
}
