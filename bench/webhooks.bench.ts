/**
 * Webhook delivery, end to end: event committed (outbox transaction returns) → request received
 * by a loopback receiver, through fan-out, pg-boss and the signed HTTP POST.
 *
 *   node -r @swc-node/register bench/webhooks.bench.ts     (embedded PostgreSQL in a temp dir; or DATABASE_URL)
 *   npm run bench:webhooks
 *   BENCH_LATENCY_EVENTS=300 BENCH_THROUGHPUT_EVENTS=5000 BENCH_WEBHOOKS=4 BENCH_LIMITED_EVENTS=100 (the defaults)
 *   smoke run: BENCH_LATENCY_EVENTS=10 BENCH_THROUGHPUT_EVENTS=40 BENCH_WEBHOOKS=2 BENCH_LIMITED_EVENTS=40
 *   (prints only; writes no results file)
 *
 * Phases: (1) latency, one event every 20 ms; (2) throughput, a backlog committed in transactions
 * of 100 events fanned out to BENCH_WEBHOOKS webhooks (one receiver, a path, i.e. a target, per webhook;
 * rate limit lifted, at most 4 attempts in flight per target); (3) the default per-target limit of 25/s on one endpoint; (4) isolation: a
 * healthy target at BENCH_ISOLATION_RATE events/s (default 20) for BENCH_ISOLATION_SECONDS (default
 * 30) alone, then again while, in the same run, one target hangs, one answers after 5 s and one
 * answers 500, each receiving the same rate (default settings: 15 s timeout, cap 4, circuit after 5
 * failures); (5) fairness: BENCH_BACKLOG_EVENTS (default 10,000) events of workspace A committed,
 * then workspace B's first event, committed once A's backlog is fanned out and, in another run,
 * right after A's last commit (A's events still in the outbox), with the default rate limit and
 * with it lifted.
 * (6) faults (issue 27): BENCH_FAULT_EVENTS (default 1,000) to a healthy target, then to one failing
 * half its attempts (flaky), and to one refusing connections for BENCH_DOWN_SECONDS (default 120)
 * then answering (downup).
 * BENCH_ONLY=isolation,fairness (names: latency, throughput, ratelimit, isolation, fairness, flaky,
 * downup; fairness-commit runs only the "right after commit" cases of fairness) runs some.
 * API, worker and receivers share this process; receivers listen on 127.0.0.1 only.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DomainEvent } from '@workbase/shared/kernel';
import { EventOutbox, TransactionRunner } from '@workbase/shared/persistence';
import { WebhookWorker } from '@workbase/webhooks';
import { DataSource } from 'typeorm';
import { createBenchWorkspace, jsonClient, startBenchApp, startBenchDatabase } from './support';

const LATENCY_EVENTS = Number(process.env.BENCH_LATENCY_EVENTS ?? 300);
const THROUGHPUT_EVENTS = Number(process.env.BENCH_THROUGHPUT_EVENTS ?? 5000);
const WEBHOOKS = Number(process.env.BENCH_WEBHOOKS ?? 4);
const LIMITED_EVENTS = Number(process.env.BENCH_LIMITED_EVENTS ?? 100);
const ISOLATION_RATE = Number(process.env.BENCH_ISOLATION_RATE ?? 20);
const ISOLATION_SECONDS = Number(process.env.BENCH_ISOLATION_SECONDS ?? 30);
const BACKLOG_EVENTS = Number(process.env.BENCH_BACKLOG_EVENTS ?? 10_000);
const FAULT_EVENTS = Number(process.env.BENCH_FAULT_EVENTS ?? 1000);
const DOWN_SECONDS = Number(process.env.BENCH_DOWN_SECONDS ?? 120);
const ONLY = process.env.BENCH_ONLY ? new Set(process.env.BENCH_ONLY.split(',').map((name) => name.trim())) : null;
const phase = (name: string) => !ONLY || ONLY.has(name);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

async function main() {
  const database = await startBenchDatabase('workbase_webhooks_bench');
  try {
    await phases(database.url);
  } finally {
    await database.close();
  }
}

/** The three phases, each with its own app instance on the database at `url`. */
async function phases(url: string): Promise<void> {
  // Receiver: remembers when each (webhook, event key) arrived.
  const arrivals = new Map<string, number>();
  let received = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const now = performance.now();
      const body = JSON.parse(Buffer.concat(chunks).toString()) as { webhook_id: string; events: { id: { task_id: string } }[] };
      const key = `${body.webhook_id}/${body.events[0].id.task_id}`;
      if (!arrivals.has(key)) arrivals.set(key, now);
      received++;
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const target = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;

  let runs = 0;
  const run = async (env: Record<string, string>, work: (ctx: Ctx) => Promise<void>) => {
    // A path (a target) of its own per run: a target's pacing clock and rate bucket outlive a run.
    const runTarget = `${target}/run-${++runs}`;
    const bench = await startBenchApp(url, { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', ...env });
    const { app } = bench;
    const workspaceFor = async (name: string) => {
      const workspace = name === 'main' ? bench : await createBenchWorkspace(app, name);
      const call = jsonClient(bench.baseUrl, workspace.token);
      return {
        workspaceId: workspace.workspaceId,
        createHook: async (targetUrl = runTarget) =>
          (await call<{ data: { id: { webhook_id: string } } }>('POST', '/v2/webhooks', { data: { target_url: targetUrl, subscriptions: [{ event_type: 'task.created', filter: null }] } })).data.id
            .webhook_id,
        circuitOf: async (hook: string) =>
          (await call<{ target: { circuit_state: string } }>('GET', `/v2/webhooks/${hook}/deliveries?limit=1`)).target.circuit_state,
        commit: async (keys: string[]) => {
          const events: DomainEvent[] = keys.map((key) => ({
            eventType: 'task.created',
            workspaceId: workspace.workspaceId,
            id: { workspace_id: workspace.workspaceId, task_id: key },
            actor: { type: 'api-token', id: null },
          }));
          await app.get(TransactionRunner).run(() => app.get(EventOutbox).record(...events));
          return performance.now();
        },
      };
    };
    try {
      await app.get(WebhookWorker).start();
      const main = await workspaceFor('main');
      await work({ ...main, workspace: workspaceFor, db: app.get(DataSource), target: runTarget });
    } finally {
      await bench.close();
    }
  };
  interface Tenant {
    workspaceId: string;
    createHook(targetUrl?: string): Promise<string>;
    /** The circuit state of the webhook's target, from its delivery log. */
    circuitOf(hook: string): Promise<string>;
    commit(keys: string[]): Promise<number>;
  }
  interface Ctx extends Tenant {
    workspace(name: string): Promise<Tenant>;
    db: DataSource;
    /** This run's receiver URL (a path of the one receiver). */
    target: string;
  }
  const waitAll = async (keys: string[], timeoutMs: number) => {
    const deadline = Date.now() + timeoutMs;
    while (keys.some((k) => !arrivals.has(k))) {
      if (Date.now() > deadline) throw new Error(`timeout: ${keys.filter((k) => !arrivals.has(k)).length} missing`);
      await sleep(5);
    }
  };
  const lines: string[] = [];
  const say = (line: string) => {
    lines.push(line);
    process.stdout.write(`${line}\n`);
  };

  // (1) Latency under light load.
  if (phase('latency')) await run({ WEBHOOK_RATE_LIMIT_PER_SECOND: '100000', WEBHOOK_RATE_LIMIT_BURST: '100000' }, async ({ createHook, commit }) => {
    const hook = await createHook();
    const latencies: number[] = [];
    const pending: Array<{ key: string; at: number }> = [];
    for (let i = 0; i < LATENCY_EVENTS; i++) {
      const key = `lat-${i}`;
      pending.push({ key: `${hook}/${key}`, at: await commit([key]) });
      await sleep(20);
    }
    await waitAll(pending.map((p) => p.key), 60_000);
    for (const p of pending) latencies.push(arrivals.get(p.key)! - p.at);
    latencies.sort((a, b) => a - b);
    say(`latency (${LATENCY_EVENTS} events, 1 every 20 ms, 1 endpoint): p50 ${pct(latencies, 50).toFixed(0)} ms, p95 ${pct(latencies, 95).toFixed(0)} ms, p99 ${pct(latencies, 99).toFixed(0)} ms, max ${latencies[latencies.length - 1].toFixed(0)} ms`);
  });

  // (2) Throughput of a backlog fanned out to several endpoints, no rate limit in the way.
  if (phase('throughput')) await run({ WEBHOOK_RATE_LIMIT_PER_SECOND: '100000', WEBHOOK_RATE_LIMIT_BURST: '100000' }, async ({ createHook, commit, target: runTarget }) => {
    const hooks: string[] = [];
    // One receiver, one path (one target) per webhook: a target has at most WEBHOOK_MAX_IN_FLIGHT_PER_TARGET (4) attempts in flight.
    for (let i = 0; i < WEBHOOKS; i++) hooks.push(await createHook(`${runTarget}/${i}`));
    const perHook = Math.ceil(THROUGHPUT_EVENTS / WEBHOOKS);
    const keys = Array.from({ length: perHook }, (_, i) => `tp-${i}`);
    const started = performance.now();
    const committedAt = new Map<string, number>();
    for (let i = 0; i < keys.length; i += 100) {
      const slice = keys.slice(i, i + 100);
      const at = await commit(slice);
      for (const k of slice) committedAt.set(k, at);
    }
    const committed = performance.now();
    const all = hooks.flatMap((h) => keys.map((k) => `${h}/${k}`));
    await waitAll(all, 600_000);
    const finished = Math.max(...all.map((k) => arrivals.get(k)!));
    const seconds = (finished - started) / 1000;
    const latencies = hooks.flatMap((h) => keys.map((k) => arrivals.get(`${h}/${k}`)! - committedAt.get(k)!)).sort((a, b) => a - b);
    say(
      `throughput (${all.length} deliveries = ${keys.length} events x ${WEBHOOKS} endpoints, committed in ${((committed - started) / 1000).toFixed(1)} s): ` +
        `${(all.length / seconds).toFixed(0)} deliveries/s over ${seconds.toFixed(1)} s; commit→receive p50 ${(pct(latencies, 50) / 1000).toFixed(1)} s, p99 ${(pct(latencies, 99) / 1000).toFixed(1)} s`,
    );
  });

  // (3) The default per-endpoint limit.
  if (phase('ratelimit')) await run({}, async ({ createHook, commit }) => {
    const hook = await createHook();
    const keys = Array.from({ length: LIMITED_EVENTS }, (_, i) => `rl-${i}`);
    const started = performance.now();
    await commit(keys);
    await waitAll(keys.map((k) => `${hook}/${k}`), 120_000);
    const times = keys.map((k) => arrivals.get(`${hook}/${k}`)!).sort((a, b) => a - b);
    // The first 25 go out as a burst; the steady rate is measured over the rest.
    const steady = times.slice(25);
    const rate = steady.length > 1 ? ((steady.length - 1) / ((steady[steady.length - 1] - steady[0]) / 1000)).toFixed(1) : 'n/a (needs > 26 events)';
    say(`default rate limit (${LIMITED_EVENTS} events, 1 endpoint, 25/s, burst 25): steady ${rate} deliveries/s after the burst; all received ${((times[times.length - 1] - started) / 1000).toFixed(1)} s after commit`);
  });

  // (6) Faults of a receiver that is not dead (issue 27; run before (4), whose dead targets' backlog
  // outlives its run and would be worked on meanwhile): in one run, a no-fault phase (BENCH_FAULT_EVENTS
  // to a healthy target), then the same number to a target that fails half its attempts at random
  // (500, connection reset, no answer until the timeout; each delivery at most 3 times, as in the
  // fault run), then (downup) as many to a target that refuses connections for BENCH_DOWN_SECONDS
  // before it answers. Default settings except a 3 s attempt timeout and, for the flaky target, the
  // short retry schedule 1,2,3,5,8 s (the down-then-up target keeps the default schedule: its
  // retries fall 5 min apart while it is down). BENCH_FAULT_ENV='{"WEBHOOK_RATE_LIMIT_PER_SECOND":"100000"}' adds settings.
  const faultEnv = { WEBHOOK_DELIVERY_TIMEOUT_MS: '3000', ...(JSON.parse(process.env.BENCH_FAULT_ENV ?? '{}') as Record<string, string>) };
  const faultServer = async (mode: () => 'ok' | 'flaky', port = 0) => {
    const failed = new Map<string, number>();
    const hanging: ServerResponse[] = [];
    const s = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const id = String(req.headers['webhook-id']);
        if (mode() === 'flaky' && (failed.get(id) ?? 0) < 3 && Math.random() < 0.5) {
          failed.set(id, (failed.get(id) ?? 0) + 1);
          const fault = Math.floor(Math.random() * 3);
          if (fault === 0) res.writeHead(500).end();
          else if (fault === 1) req.socket.destroy();
          else hanging.push(res);
          return;
        }
        const body = JSON.parse(Buffer.concat(chunks).toString()) as { webhook_id: string; events: { id: { task_id: string } }[] };
        const key = `${body.webhook_id}/${body.events[0].id.task_id}`;
        if (!arrivals.has(key)) arrivals.set(key, performance.now());
        received++;
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((resolve) => s.listen(port, '127.0.0.1', resolve));
    return {
      url: `http://127.0.0.1:${(s.address() as AddressInfo).port}/hook`,
      port: (s.address() as AddressInfo).port,
      close: async () => {
        for (const res of hanging) res.destroy();
        await close(s);
      },
    };
  };
  const backlog = async (tenant: Tenant, hook: string, prefix: string) => {
    const keys = Array.from({ length: FAULT_EVENTS }, (_, i) => `${prefix}-${i}`);
    const started = performance.now();
    for (let i = 0; i < keys.length; i += 100) await tenant.commit(keys.slice(i, i + 100));
    return { keys: keys.map((k) => `${hook}/${k}`), started };
  };
  const lastArrival = (keys: string[]) => Math.max(...keys.map((k) => arrivals.get(k)!));
  if (phase('flaky')) await run({ ...faultEnv, WEBHOOK_RETRY_SCHEDULE: '1,2,3,5,8' }, async ({ workspace, db }) => {
    const healthy = await faultServer(() => 'ok');
    const flaky = await faultServer(() => 'flaky');
    try {
      const tenant = await workspace('faults');
      const okRun = await backlog(tenant, await tenant.createHook(healthy.url), 'ok');
      await waitAll(okRun.keys, 600_000);
      const okSeconds = (lastArrival(okRun.keys) - okRun.started) / 1000;
      say(`faults, no-fault phase (${FAULT_EVENTS} events to a healthy target, 3 s timeout): all received ${okSeconds.toFixed(1)} s after the first commit: ${(FAULT_EVENTS / okSeconds).toFixed(1)} deliveries/s`);
      const flakyStarted = performance.now();
      const flakyHook = await tenant.createHook(flaky.url);
      const flakyRun = await backlog(tenant, flakyHook, 'flaky');
      const schedule = 1 + 2 + 3 + 5 + 8;
      // Polled often enough to see the shortest open time (1 s, the first retry's delay).
      let opened = 0;
      const watching = (async () => {
        while (flakyRun.keys.some((k) => !arrivals.has(k)) && performance.now() - flakyStarted < (schedule * 1.2 + 60) * 1000 + 120_000) {
          if ((await tenant.circuitOf(flakyHook)) !== 'closed') opened++;
          await sleep(200);
        }
      })();
      // BENCH_SAMPLE_WAITS=1: what the database's active sessions wait on meanwhile, sampled every 100 ms.
      const waits = new Map<string, number>();
      const sampling = (async () => {
        if (!process.env.BENCH_SAMPLE_WAITS) return;
        while (flakyRun.keys.some((k) => !arrivals.has(k)) && performance.now() - flakyStarted < 300_000) {
          const rows = (await db.query(
            `SELECT COALESCE(wait_event_type || ':' || wait_event, 'cpu') || ' ' || regexp_replace(left(query, 50), '[[:space:]]+', ' ', 'g') AS what
             FROM pg_stat_activity WHERE datname = current_database() AND state = 'active' AND pid <> pg_backend_pid()`,
          )) as Array<{ what: string }>;
          for (const row of rows) waits.set(row.what, (waits.get(row.what) ?? 0) + 1);
          await sleep(100);
        }
      })();
      await waitAll(flakyRun.keys, (schedule * 1.2 + 60) * 1000 + 120_000).catch((error: Error) => say(`faults, flaky: ${error.message}`));
      await watching;
      await sampling;
      if (waits.size > 0) say(`faults, flaky: active sessions by wait (samples): ${[...waits].sort((a, b) => b[1] - a[1]).slice(0, 8).map(([what, n]) => `${n} × ${what}`).join('; ')}`);
      const delivered = flakyRun.keys.filter((k) => arrivals.has(k));
      const flakySeconds = (lastArrival(delivered) - flakyRun.started) / 1000;
      say(
        `faults, flaky (same run; 50 % of attempts fail: 500, reset, no answer until the 3 s timeout; each delivery at most 3 times; schedule 1,2,3,5,8 s): ` +
          `${delivered.length} of ${FAULT_EVENTS} received, the last ${flakySeconds.toFixed(1)} s after the first commit (bound: schedule ${schedule} s + 20 % jitter + 60 s = ${(schedule * 1.2 + 60).toFixed(0)} s); ` +
          `${(delivered.length / flakySeconds).toFixed(1)} deliveries/s = ${((delivered.length / flakySeconds) / (FAULT_EVENTS / okSeconds) * 100).toFixed(0)} % of no-fault; ` +
          `circuit seen open in ${opened} of its log's reads (every 200 ms)`,
      );
    } finally {
      await healthy.close();
      await flaky.close();
    }
  });
  if (phase('downup')) await run(faultEnv, async ({ workspace, db }) => {
    // A port nothing listens on (connections refused) until the receiver comes up on it.
    const placeholder = await faultServer(() => 'ok');
    const port = placeholder.port;
    await placeholder.close();
    const tenant = await workspace('down');
    const hook = await tenant.createHook(`http://127.0.0.1:${port}/hook`);
    const downRun = await backlog(tenant, hook, 'down');
    const downUntil = downRun.started + DOWN_SECONDS * 1000;
    let opened = 0;
    while (performance.now() < downUntil) {
      if ((await tenant.circuitOf(hook)) !== 'closed') opened++;
      await sleep(500);
    }
    const [attempts] = (await db.query(`SELECT count(*)::int AS n FROM webhook_delivery_attempts a JOIN webhook_deliveries d ON d.workspace_id = a.workspace_id AND d.id = a.delivery_id WHERE d.webhook_id = $1`, [hook])) as Array<{ n: number }>;
    const receiver = await faultServer(() => 'ok', port);
    const back = performance.now();
    try {
      await waitAll(downRun.keys, 300_000).catch((error: Error) => say(`faults, down-then-up: ${error.message}`));
      const delivered = downRun.keys.filter((k) => arrivals.has(k));
      say(
        `faults, down then up (${FAULT_EVENTS} events committed as the target went down; connections refused for ${DOWN_SECONDS} s; default schedule): ` +
          `circuit seen open or half-open in ${opened} of its log's reads (every 500 ms while down); ${attempts.n} attempts while down; ${delivered.length} of ${FAULT_EVENTS} received, ` +
          `the last ${((lastArrival(delivered) - back) / 1000).toFixed(1)} s after its return`,
      );
    } finally {
      await receiver.close();
    }
  });

  // (4) Isolation: a healthy target beside a hanging, a slow (5 s) and a failing (500) one.
  if (phase('isolation')) await run({}, async ({ createHook, commit, workspace }) => {
    const hanging: ServerResponse[] = [];
    // Requests the hanging target holds open at once (the worker gives up on each at its timeout).
    let hangingOpen = 0;
    let hangingMost = 0;
    const faulty = await Promise.all([
      listen((_, res) => {
        hanging.push(res);
        hangingMost = Math.max(hangingMost, ++hangingOpen);
        res.on('close', () => hangingOpen--);
      }),
      listen((_, res) => setTimeout(() => res.writeHead(200).end(), 5_000).unref()),
      listen((_, res) => res.writeHead(500).end()),
    ]);
    try {
      const healthyHook = await createHook();
      const steady = async (seconds: number, tenants: Array<{ commit(keys: string[]): Promise<number> }>, prefix: string) => {
        const sent: Array<{ key: string; at: number }> = [];
        const interval = 1000 / ISOLATION_RATE;
        const started = performance.now();
        for (let i = 0; i < seconds * ISOLATION_RATE; i++) {
          const due = started + i * interval;
          if (due > performance.now()) await sleep(due - performance.now());
          const [at] = await Promise.all(tenants.map((tenant, n) => tenant.commit([`${prefix}-${n}-${i}`])));
          sent.push({ key: `${healthyHook}/${prefix}-0-${i}`, at });
        }
        await waitAll(sent.map((s) => s.key), 60_000);
        return sent.map((s) => arrivals.get(s.key)! - s.at).sort((a, b) => a - b);
      };
      const describe = (latencies: number[]) =>
        `p50 ${pct(latencies, 50).toFixed(0)} ms, p95 ${pct(latencies, 95).toFixed(0)} ms, p99 ${pct(latencies, 99).toFixed(0)} ms, max ${latencies[latencies.length - 1].toFixed(0)} ms`;
      const alone = await steady(ISOLATION_SECONDS, [{ commit }], 'alone');
      say(`isolation, no fault (healthy target alone, ${ISOLATION_RATE} events/s for ${ISOLATION_SECONDS} s): ${describe(alone)}`);
      const tenants = [{ commit }];
      for (const [i, server] of faulty.entries()) {
        const tenant = await workspace(`faulty${i}`);
        await tenant.createHook(`http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`);
        tenants.push(tenant);
      }
      const withFaults = await steady(ISOLATION_SECONDS, tenants, 'faults');
      say(
        `isolation, faults (same run; + a hanging, a 5 s and a 500 target at ${ISOLATION_RATE} events/s each): healthy ${describe(withFaults)}; ` +
          `p99 ratio faults/no-fault ${(pct(withFaults, 99) / pct(alone, 99)).toFixed(2)}; the hanging target held at most ${hangingMost} requests open at once`,
      );
    } finally {
      for (const res of hanging) res.destroy();
      await Promise.all(faulty.map(close));
    }
  });

  // (5) Fairness: workspace A's backlog, then workspace B's first event, committed either once A's
  // backlog is fanned out (queued as jobs) or right after A's last commit (still in the outbox).
  for (const [label, env] of [
    ['default rate limit 25/s per target', {}],
    ['rate limit lifted', { WEBHOOK_RATE_LIMIT_PER_SECOND: '100000', WEBHOOK_RATE_LIMIT_BURST: '100000' }],
  ] as const) {
    for (const when of ['after fan-out', 'right after commit'] as const) {
      if (!phase('fairness') && !(when === 'right after commit' && phase('fairness-commit'))) continue;
      await run(env, async ({ workspace, db, target: runTarget }) => {
        const busy = await workspace('busy');
        const quiet = await workspace('quiet');
        // Two receivers (paths): one shared URL would rightly share one rate limit and one pacing clock.
        const busyHook = await busy.createHook(`${runTarget}/busy`);
        const quietHook = await quiet.createHook(`${runTarget}/quiet`);
        const keys = Array.from({ length: BACKLOG_EVENTS }, (_, i) => `backlog-${i}`);
        const fannedOutOfA = async () =>
          Number(((await db.query(`SELECT count(*) AS n FROM webhook_deliveries WHERE workspace_id = $1`, [busy.workspaceId])) as Array<{ n: string }>)[0].n);
        const cursorCaughtUp = async () =>
          ((await db.query(
            `SELECT NOT EXISTS (SELECT 1 FROM event_outbox e, webhook_dispatch_cursor c WHERE c.consumer = 'webhooks' AND (e.tx_id, e.id) > (c.last_tx_id, c.last_event_id)) AS done`,
          )) as Array<{ done: boolean }>)[0].done;
        const committing = performance.now();
        for (let i = 0; i < keys.length; i += 500) await busy.commit(keys.slice(i, i + 500));
        const committed = performance.now();
        if (when === 'after fan-out') {
          while (!(await cursorCaughtUp())) await sleep(20);
        }
        const quietAt = performance.now();
        const deliveredBefore = keys.filter((k) => arrivals.has(`${busyHook}/${k}`)).length;
        const at = await quiet.commit(['first']);
        await waitAll([`${quietHook}/first`], 60_000);
        const latency = arrivals.get(`${quietHook}/first`)! - at;
        const fannedOutThen = await fannedOutOfA();
        const deliveredAfter = keys.filter((k) => arrivals.has(`${busyHook}/${k}`)).length;
        while (!(await cursorCaughtUp())) await sleep(20);
        const caughtUp = performance.now();
        // Every one of A's events is fanned out once, whichever way it went.
        const fannedOutInAll = await fannedOutOfA();
        await sleep(3_000);
        const deliveredLater = keys.filter((k) => arrivals.has(`${busyHook}/${k}`)).length;
        say(
          `fairness (${label}, B ${when}): ${BACKLOG_EVENTS} events of workspace A committed in ${((committed - committing) / 1000).toFixed(1)} s; ` +
            `B's first event committed ${((quietAt - committed) / 1000).toFixed(1)} s after A's last (${deliveredBefore} of A delivered by then): commit → received ${latency.toFixed(0)} ms; ` +
            `when it arrived ${fannedOutThen} of A's fanned out, ${deliveredAfter} delivered; A fanned out ${((caughtUp - committed) / 1000).toFixed(1)} s after its last commit ` +
            `(${fannedOutInAll} deliveries for ${BACKLOG_EVENTS} events), ${deliveredLater} delivered 3 s later`,
        );
      });
    }
  }

  say(`requests received in all: ${received} (deliveries: ${arrivals.size})`);
  server.close();

  async function listen(handle: (req: unknown, res: ServerResponse) => void): Promise<Server> {
    const faultyServer = createServer((req, res) => {
      req.resume();
      req.on('end', () => handle(req, res));
    });
    await new Promise<void>((resolve) => faultyServer.listen(0, '127.0.0.1', resolve));
    return faultyServer;
  }
  async function close(s: Server): Promise<void> {
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
