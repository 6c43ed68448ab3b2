/**
 * Issue 26: a flood of heavy SQL on a read replica (SQL_DATABASE_URL) leaves the primary's write
 * p99 within 1.2x its idle value; the same flood on the primary (no replica) for comparison.
 *
 * Debian PostgreSQL 15 (test/topology/support/pg15.ts): a primary and an asynchronous hot standby
 * of it, the standby pinned to CPU 1 and everything else (the primary, this process and the
 * service processes) to CPU 0, as two hosts on one two-core machine: the standby's backends
 * cannot take the primary's CPU. The writes go through an app in this process that
 * runs no SQL; the flood through one of two service processes, one with SQL_DATABASE_URL set to
 * the standby, one without. ROUNDS rounds of three phases in turn, each PHASE_SECONDS long: idle,
 * flood on the replica, flood on the primary; each phase's write times pooled over the rounds.
 *
 *   npm run bench:sql-replica        (BENCH_NO_WRITE=1: print only)
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { runMigrations } from '@workbase/shared/persistence';
import type { Pg15Cluster } from '../test/topology/support/pg15';
import { startPrimaryWithStandby } from '../test/topology/support/standby';
import { startServiceProcess, type ServiceProcess } from './service-process';
import { appendResults, startBenchApp } from './support';

const PHASE_SECONDS = Number(process.env.BENCH_PHASE_SECONDS ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const COMPANIES = Number(process.env.BENCH_COMPANIES ?? 1000);
/** Heavy statements in flight at once: the SQL endpoint's pool per process. */
const FLOOD = 4;
const HEAVY = "SELECT count(DISTINCT md5(name || g::text)) AS n FROM companies, generate_series(1, 400) AS g";

/** Pins a cluster's postmaster and every process it has started to `cpu`; its later backends inherit it. */
function pin(cluster: Pg15Cluster, cpu: number): void {
  const postmaster = readFileSync(path.join(cluster.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0].trim();
  const children = execFileSync('pgrep', ['-P', postmaster], { encoding: 'utf8' }).split('\n').filter(Boolean);
  for (const pid of [postmaster, ...children]) execFileSync('taskset', ['-a', '-p', '-c', String(cpu), pid], { stdio: 'ignore' });
}

/**
 * CPU seconds a cluster's processes have used so far: the postmaster's own and those of the children
 * it has reaped, plus every live child's (/proc/<pid>/stat, in clock ticks of 1/100 s). Unlike
 * latency, this does not depend on what else the (shared) machine runs.
 */
function cpuSeconds(cluster: Pg15Cluster): number {
  const postmaster = readFileSync(path.join(cluster.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0].trim();
  const ticks = (pid: string, withChildren: boolean) => {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      // Fields 14-17 of stat (utime, stime, cutime, cstime) are 12-15 after the command.
      return Number(fields[11]) + Number(fields[12]) + (withChildren ? Number(fields[13]) + Number(fields[14]) : 0);
    } catch {
      return 0; // a child that exited meanwhile is counted in the postmaster's cutime once reaped
    }
  };
  const children = execFileSync('pgrep', ['-P', postmaster], { encoding: 'utf8' }).split('\n').filter(Boolean);
  return (ticks(postmaster, true) + children.reduce((sum, pid) => sum + ticks(pid, false), 0)) / 100;
}

function loadAverage(): string {
  return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
}

function percentile(times: number[], p: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
}

async function main(): Promise<void> {
  // This process, the service processes it forks and the primary share CPU 0; the standby has CPU 1 to itself, as a host of its own.
  execFileSync('taskset', ['-a', '-p', '-c', '0', String(process.pid)], { stdio: 'ignore' });
  const { primary, standby } = await startPrimaryWithStandby('replica1', { primary: { shared_buffers: '128MB' }, standby: { shared_buffers: '128MB', hot_standby_feedback: 'on' } });
  const services: ServiceProcess[] = [];
  try {
    pin(primary, 0);
    pin(standby, 1);
    process.stdout.write('primary on CPU 0 with this process and the services, standby on CPU 1\n');
    const url = primary.url('workbase');
    await runMigrations(url);
    const writes = await startBenchApp(url, { SEED_DEMO_WORKSPACE: 'false' });
    const floodEnv = { SQL_POOL_SIZE: String(FLOOD), SQL_WORKSPACE_CONCURRENCY: String(FLOOD), SQL_STATEMENT_TIMEOUT_MS: '120000', SEED_DEMO_WORKSPACE: 'false' };
    const onReplica = await startServiceProcess(url, { ...floodEnv, SQL_DATABASE_URL: standby.url('workbase') });
    services.push(onReplica);
    const onPrimary = await startServiceProcess(url, floodEnv);
    services.push(onPrimary);
    try {
      const call = (base: string, token: string, method: string, route: string, body?: unknown) =>
        fetch(`${base}${route}`, { method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
      // The flood's data: COMPANIES companies in each flood workspace, written through the API.
      for (const service of [onReplica, onPrimary]) {
        for (let i = 0; i < COMPANIES; i += 10) {
          await Promise.all(Array.from({ length: 10 }, (_, k) => call(service.baseUrl, service.token, 'POST', '/v2/objects/companies/records', { data: { values: { name: `Company ${i + k}` } } })));
        }
      }
      // Let the standby replay it all, then time one heavy statement on each.
      for (const service of [onReplica, onPrimary]) {
        for (;;) {
          const res = await call(service.baseUrl, service.token, 'POST', '/v2/sql', { sql: 'SELECT count(*) AS n FROM companies' });
          const rows = ((await res.json()) as { data: { rows: Array<{ n: number }> } }).data.rows;
          if (Number(rows[0].n) >= COMPANIES) break;
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
      }
      const heavyMs: Record<string, number> = {};
      for (const [name, service] of [['replica', onReplica], ['primary', onPrimary]] as const) {
        const started = performance.now();
        const res = await call(service.baseUrl, service.token, 'POST', '/v2/sql', { sql: HEAVY });
        if (res.status !== 200) throw new Error(`heavy statement: ${res.status} ${await res.text()}`);
        heavyMs[name] = performance.now() - started;
      }

      let written = 0;
      const writePhase = async (flood: ServiceProcess | null): Promise<{ times: number[]; statements: number; primaryCpu: number }> => {
        let stop = false;
        let statements = 0;
        const flooders = flood
          ? Array.from({ length: FLOOD }, async () => {
              while (!stop) {
                const res = await call(flood.baseUrl, flood.token, 'POST', '/v2/sql', { sql: HEAVY });
                await res.arrayBuffer();
                if (res.status !== 200) throw new Error(`heavy statement: ${res.status}`);
                statements++;
              }
            })
          : [];
        // Let the flood reach the database before timing.
        if (flood) await new Promise((resolve) => setTimeout(resolve, 1_000));
        const times: number[] = [];
        const cpuBefore = cpuSeconds(primary);
        const until = Date.now() + PHASE_SECONDS * 1000;
        while (Date.now() < until) {
          const started = performance.now();
          const res = await call(writes.baseUrl, writes.token, 'POST', '/v2/objects/companies/records', { data: { values: { name: `Write ${++written}` } } });
          await res.arrayBuffer();
          if (res.status !== 200) throw new Error(`write: ${res.status}`);
          times.push(performance.now() - started);
        }
        const primaryCpu = cpuSeconds(primary) - cpuBefore;
        stop = true;
        await Promise.all(flooders);
        return { times, statements, primaryCpu };
      };

      // Rounds of the three phases in turn, so that the drift of a shared machine falls on all three alike.
      const phases = { idle: null, replica: onReplica, primary: onPrimary } as const;
      const samples = { idle: [] as number[], replica: [] as number[], primary: [] as number[] };
      const statements = { idle: 0, replica: 0, primary: 0 };
      const primaryCpu = { idle: 0, replica: 0, primary: 0 };
      const perRound: string[] = [];
      for (let round = 1; round <= ROUNDS; round++) {
        const p99s: string[] = [];
        for (const kind of ['idle', 'replica', 'primary'] as const) {
          const phase = await writePhase(phases[kind]);
          samples[kind].push(...phase.times);
          statements[kind] += phase.statements;
          primaryCpu[kind] += phase.primaryCpu;
          p99s.push(`${kind} ${percentile(phase.times, 0.99).toFixed(1)}`);
        }
        perRound.push(`round ${round}: p99 ms ${p99s.join(', ')}`);
      }
      const idleP99 = percentile(samples.idle, 0.99);
      const line = (name: string, kind: keyof typeof samples) =>
        `| ${name} | ${samples[kind].length} | ${percentile(samples[kind], 0.5).toFixed(2)} | ${percentile(samples[kind], 0.99).toFixed(2)} | ${(percentile(samples[kind], 0.99) / idleP99).toFixed(2)} | ${statements[kind]} | ` +
        `${((1000 * primaryCpu[kind]) / samples[kind].length).toFixed(2)} | ${(primaryCpu[kind] / samples[kind].length / (primaryCpu.idle / samples.idle.length)).toFixed(2)} |`;
      const lines = [
        '',
        `### Issue 26: SQL on a read replica, primary write p99 under a flood of heavy SQL (${new Date().toISOString()})`,
        '',
        `Debian PostgreSQL 15 primary, the bench and the service processes pinned to CPU 0, asynchronous hot standby pinned to CPU 1, ${FLOOD} heavy statements in flight ` +
          `(\`${HEAVY}\` over ${COMPANIES} companies: ${heavyMs.replica.toFixed(0)} ms alone on the replica, ${heavyMs.primary.toFixed(0)} ms on the primary); ` +
          `writes are sequential POST /v2/objects/companies/records through an app that runs no SQL; ${ROUNDS} rounds of the three phases in turn, ${PHASE_SECONDS} s each. Ratio: p99 against the idle p99. Primary CPU: the primary's processes' CPU time (/proc) over the phase, per write done (load average ${loadAverage()} at the end).`,
        '',
        '| phase | writes | p50 ms | p99 ms | p99 / idle p99 | heavy statements done | primary CPU ms per write | / idle |',
        '|---|---|---|---|---|---|---|---|',
        line('idle', 'idle'),
        line('flood on the replica (SQL_DATABASE_URL)', 'replica'),
        line('flood on the primary (no replica)', 'primary'),
        '',
        ...perRound.map((text) => `- ${text}`),
      ];
      process.stdout.write(`${lines.join('\n')}\n`);
      appendResults(lines);
      await writes.close();
    } finally {
      for (const service of services) await service.close();
    }
  } finally {
    await standby.destroy();
    await primary.destroy();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
