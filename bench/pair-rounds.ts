/**
 * A pair bench's timed part, in one place: the service (in its own process, bench/service-process.ts)
 * and a bare server under the same autocannon load (out of process), in interleaved rounds
 * (service, bare, service, …) after a warm-up of each, medians per side, the ratio of the medians
 * and of each round, and the service's RSS sampled during its rounds.
 */
import { mkdirSync } from 'node:fs';
import type { Server } from 'node:http';
import type express from 'express';
import { Pool } from 'pg';
import { profileTop, startServiceProcess, type ServiceProcess } from './service-process';
import { autocannon, DEFAULT_CONFIGURATION_UNTHROTTLED, type Load, type LoadRequest, startBenchDatabase } from './support';

export interface PairSide {
  readonly name: string;
  readonly url: string;
}

export interface PairOptions {
  readonly connections: number;
  /** Seconds per round. */
  readonly duration: number;
  /** Seconds of warm-up per side before the first round. */
  readonly warmup: number;
  readonly rounds: number;
  readonly request?: LoadRequest;
}

export interface PairResult {
  /** Each side's loads, round by round: the service's first. */
  readonly loads: readonly [Load[], Load[]];
  /** The service's RSS (MB), sampled every second of its rounds. */
  readonly rss: number[];
}

/** Listens on loopback on a free port. */
async function listen(app: express.Express): Promise<{ server: Server; baseUrl: string }> {
  return new Promise((resolve) => {
    const server = app.listen(0, '127.0.0.1', () => resolve({ server, baseUrl: `http://127.0.0.1:${(server.address() as { port: number }).port}` }));
  });
}

/** Samples the service's RSS every `everyMs` while `during` runs. */
export async function sampleRss<T>(service: ServiceProcess, everyMs: number, during: () => Promise<T>): Promise<{ result: T; samples: Array<{ at: number; mb: number }> }> {
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

export const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);

/** Warm-up of each side, then `rounds` interleaved rounds (service, bare, …) as `token`; the service is `sides[0]`. */
export async function runPairRounds(service: ServiceProcess, sides: readonly [PairSide, PairSide], options: PairOptions): Promise<PairResult> {
  const loads: [Load[], Load[]] = [[], []];
  const rss: number[] = [];
  const load = (side: PairSide, seconds: number) => autocannon(options.connections, side.url, service.token, seconds, options.request);
  for (const side of sides) await load(side, options.warmup);
  for (let round = 0; round < options.rounds; round += 1) {
    const { result, samples } = await sampleRss(service, 1000, () => load(sides[0], options.duration));
    rss.push(...samples.map((s) => s.mb));
    loads[0].push(result);
    loads[1].push(await load(sides[1], options.duration));
  }
  return { loads, rss };
}

/** Prints the pair's table, `throughput ratio (Workbase / bare): X`, each round's ratio and the service's memory; `heading` says what was measured. */
export async function reportPair(service: ServiceProcess, sides: readonly [PairSide, PairSide], result: PairResult, heading: string): Promise<void> {
  const median = (loads: Load[]) => [...loads].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond)[Math.floor(loads.length / 2)];
  const [ours, theirs] = result.loads;
  process.stdout.write(`\n${heading}\n\n`);
  process.stdout.write('| server | req/s | p50 ms | p99 ms | non-2xx | errors | rounds (req/s) |\n|---|---|---|---|---|---|---|\n');
  sides.forEach((side, i) => {
    const load = median(result.loads[i]);
    process.stdout.write(`| ${side.name} | ${load.requestsPerSecond.toFixed(0)} | ${load.p50} | ${load.p99} | ${load.non2xx} | ${load.errors} | ${result.loads[i].map((l) => l.requestsPerSecond.toFixed(0)).join(', ')} |\n`);
  });
  process.stdout.write(`\nthroughput ratio (Workbase / bare): ${(median(ours).requestsPerSecond / median(theirs).requestsPerSecond).toFixed(2)}\n`);
  process.stdout.write(`ratio of each round (Workbase round / the bare round after it): ${ours.map((load, i) => (load.requestsPerSecond / theirs[i].requestsPerSecond).toFixed(2)).join(', ')}\n`);
  process.stdout.write(
    `service process RSS under load (its own process, ${service.mode === 'compiled' ? 'compiled JavaScript as npm start runs it' : 'sources compiled on the fly by @swc-node/register'}; ` +
      `sampled every 1 s in its rounds): max ${Math.max(...result.rss).toFixed(0)} MB, mean ${mean(result.rss).toFixed(0)} MB; ` +
      `bench process (bare server) RSS now ${(process.memoryUsage().rss / 1024 / 1024).toFixed(0)} MB\n`,
  );
  process.stdout.write(`service process.memoryUsage() after the rounds (MB): ${JSON.stringify(await service.memory())}\n`);
}

/** The top self-time entries of the service's `--cpu-prof` profiles in `dir`, printed as a table. */
export function reportProfile(dir: string): void {
  process.stdout.write(`\nservice CPU profile (${dir}), top entries by self time, % of its non-idle samples over its whole life (start-up included):\n\n| self | ms | function | where |\n|---|---|---|---|\n${profileTop(dir, 25).join('\n')}\n`);
}

export interface PairBench {
  /** A plain `pg` pool of 10 on the bench database (the service's default pool size), for the bare side and direct SQL. */
  readonly pool: Pool;
  /** The service in its default configuration, per-token limits raised (DEFAULT_CONFIGURATION_UNTHROTTLED). */
  readonly service: ServiceProcess;
  /** Serves the bare side on loopback (closed at the end); answers its base URL. */
  serve(app: express.Express): Promise<string>;
}

/**
 * A pair bench's whole life: a throwaway database (startBenchDatabase's `database` and `settings`),
 * the service in a child process (under `--cpu-prof` when BENCH_CPU_PROF names a directory), a pool
 * for the bare side, `run`, then everything closed and the profile's top entries printed; a failure
 * exits non-zero.
 */
export function runPairBench(options: { database: string; settings?: Readonly<Record<string, string>> }, run: (bench: PairBench) => Promise<void>): void {
  const cpuProf = process.env.BENCH_CPU_PROF;
  const main = async () => {
    const database = await startBenchDatabase(options.database, options.settings);
    const servers: Server[] = [];
    let service: ServiceProcess | undefined;
    const pool = new Pool({ connectionString: database.url, max: 10 });
    try {
      if (cpuProf) mkdirSync(cpuProf, { recursive: true });
      service = await startServiceProcess(database.url, DEFAULT_CONFIGURATION_UNTHROTTLED, { cpuProfDir: cpuProf });
      const serve = async (app: express.Express) => {
        const { server, baseUrl } = await listen(app);
        servers.push(server);
        return baseUrl;
      };
      await run({ pool, service, serve });
    } finally {
      // Requests autocannon sent just before it exited are still running: let them end before the pool does.
      for (const server of servers) await new Promise((resolve) => setTimeout(() => server.close(resolve), 1_000));
      await pool.end();
      await service?.close();
      await database.close();
    }
    if (cpuProf) reportProfile(cpuProf);
  };
  main().catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exit(1);
  });
}
