/**
 * Issue 26: a flood of heavy SQL on a read replica (SQL_DATABASE_URL) leaves the primary's write
 * p99 within 1.2x its idle value; the same flood on the primary (no replica) for comparison.
 *
 * Debian PostgreSQL 15 (test/topology/support/pg15.ts): a primary and an asynchronous hot standby
 * of it, each pinned to a core of its own (taskset; two hosts on one machine, the standby's
 * backends cannot take the primary's CPU). The writes go through an app in this process that
 * runs no SQL; the flood through one of two service processes, one with SQL_DATABASE_URL set to
 * the standby, one without. Phases, each `PHASE_SECONDS` long, in the same run: idle, flood on
 * the replica, flood on the primary, idle again. The idle p99 is the mean of the two idle phases.
 *
 *   npm run bench:sql-replica        (BENCH_NO_WRITE=1: print only)
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { runMigrations } from '@workbase/shared/persistence';
import { Client } from 'pg';
import { type Pg15Cluster, startPg15 } from '../test/topology/support/pg15';
import { startStandby } from '../test/topology/support/standby';
import { startServiceProcess, type ServiceProcess } from './service-process';
import { appendResults, startBenchApp } from './support';

const PHASE_SECONDS = Number(process.env.BENCH_PHASE_SECONDS ?? 20);
const COMPANIES = Number(process.env.BENCH_COMPANIES ?? 1500);
/** Heavy statements in flight at once: the SQL endpoint's pool per process. */
const FLOOD = 4;
const HEAVY = 'SELECT count(*) AS n FROM companies a JOIN companies b ON a.name < b.name';

/** Pins a cluster's postmaster and every process it has started to `cpu`; its later backends inherit it. */
function pin(cluster: Pg15Cluster, cpu: number): void {
  const postmaster = readFileSync(path.join(cluster.dataDir, 'postmaster.pid'), 'utf8').split('\n')[0].trim();
  const children = execFileSync('pgrep', ['-P', postmaster], { encoding: 'utf8' }).split('\n').filter(Boolean);
  for (const pid of [postmaster, ...children]) execFileSync('taskset', ['-a', '-p', '-c', String(cpu), pid], { stdio: 'ignore' });
}

function percentile(times: number[], p: number): number {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
}

async function main(): Promise<void> {
  const primary = await startPg15({ settings: { shared_buffers: '128MB' } });
  let standby: Pg15Cluster | undefined;
  const services: ServiceProcess[] = [];
  try {
    const admin = new Client({ connectionString: primary.url() });
    await admin.connect();
    await admin.query('CREATE DATABASE workbase');
    await admin.end();
    standby = await startStandby(primary, 'replica1', { shared_buffers: '128MB', hot_standby_feedback: 'on' });
    pin(primary, 0);
    pin(standby, 1);
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
      const writePhase = async (flood: ServiceProcess | null): Promise<{ p50: number; p99: number; writes: number; statements: number }> => {
        let stop = false;
        let statements = 0;
        const flooders = flood
          ? Array.from({ length: FLOOD }, async () => {
              while (!stop) {
                const res = await call(flood.baseUrl, flood.token, 'POST', '/v2/sql', { sql: HEAVY });
                await res.arrayBuffer();
                if (res.status === 200) statements++;
              }
            })
          : [];
        // Let the flood reach the database before timing.
        if (flood) await new Promise((resolve) => setTimeout(resolve, 1_000));
        const times: number[] = [];
        const until = Date.now() + PHASE_SECONDS * 1000;
        while (Date.now() < until) {
          const started = performance.now();
          const res = await call(writes.baseUrl, writes.token, 'POST', '/v2/objects/companies/records', { data: { values: { name: `Write ${++written}` } } });
          await res.arrayBuffer();
          if (res.status !== 200) throw new Error(`write: ${res.status}`);
          times.push(performance.now() - started);
        }
        stop = true;
        await Promise.all(flooders);
        return { p50: percentile(times, 0.5), p99: percentile(times, 0.99), writes: times.length, statements };
      };

      const idle1 = await writePhase(null);
      const replica = await writePhase(onReplica);
      const onPrimaryFlood = await writePhase(onPrimary);
      const idle2 = await writePhase(null);
      const idleP99 = (idle1.p99 + idle2.p99) / 2;
      const line = (name: string, phase: { p50: number; p99: number; writes: number; statements: number }) =>
        `| ${name} | ${phase.writes} | ${phase.p50.toFixed(2)} | ${phase.p99.toFixed(2)} | ${(phase.p99 / idleP99).toFixed(2)} | ${phase.statements} |`;
      const lines = [
        '',
        `### Issue 26: SQL on a read replica, primary write p99 under a flood of heavy SQL (${new Date().toISOString()})`,
        '',
        `Debian PostgreSQL 15 primary pinned to CPU 0, asynchronous hot standby pinned to CPU 1, ${FLOOD} heavy statements in flight ` +
          `(\`${HEAVY}\` over ${COMPANIES} companies: ${heavyMs.replica.toFixed(0)} ms alone on the replica, ${heavyMs.primary.toFixed(0)} ms on the primary); ` +
          `writes are sequential POST /v2/objects/companies/records through an app that runs no SQL, ${PHASE_SECONDS} s per phase. Ratio: p99 against the idle p99 (mean of the two idle phases).`,
        '',
        '| phase | writes | p50 ms | p99 ms | p99 / idle p99 | heavy statements done |',
        '|---|---|---|---|---|---|',
        line('idle (before)', idle1),
        line('flood on the replica (SQL_DATABASE_URL)', replica),
        line('flood on the primary (no replica)', onPrimaryFlood),
        line('idle (after)', idle2),
      ];
      process.stdout.write(`${lines.join('\n')}\n`);
      appendResults(lines);
      await writes.close();
    } finally {
      for (const service of services) await service.close();
    }
  } finally {
    await standby?.destroy();
    await primary.destroy();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
