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
 * of 100 events fanned out to BENCH_WEBHOOKS webhooks (all on the one receiver URL, whose per-target
 * rate limit is lifted); (3) the default per-target limit of 25/s on one endpoint. API, worker and receiver share this process.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DomainEvent } from '@workbase/shared/kernel';
import { EventOutbox, TransactionRunner } from '@workbase/shared/persistence';
import { WebhookWorker } from '@workbase/webhooks';
import { jsonClient, startBenchApp, startBenchDatabase } from './support';

const LATENCY_EVENTS = Number(process.env.BENCH_LATENCY_EVENTS ?? 300);
const THROUGHPUT_EVENTS = Number(process.env.BENCH_THROUGHPUT_EVENTS ?? 5000);
const WEBHOOKS = Number(process.env.BENCH_WEBHOOKS ?? 4);
const LIMITED_EVENTS = Number(process.env.BENCH_LIMITED_EVENTS ?? 100);

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

  const run = async (env: Record<string, string>, work: (ctx: Ctx) => Promise<void>) => {
    const bench = await startBenchApp(url, { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', ...env });
    const { app, workspaceId } = bench;
    const call = jsonClient(bench.baseUrl, bench.token);
    const createHook = async () =>
      (await call<{ data: { id: { webhook_id: string } } }>('POST', '/v2/webhooks', { data: { target_url: target, subscriptions: [{ event_type: 'task.created', filter: null }] } })).data.id.webhook_id;
    const commit = async (keys: string[]) => {
      const events: DomainEvent[] = keys.map((key) => ({
        eventType: 'task.created',
        workspaceId,
        id: { workspace_id: workspaceId, task_id: key },
        actor: { type: 'api-token', id: null },
      }));
      await app.get(TransactionRunner).run(() => app.get(EventOutbox).record(...events));
      return performance.now();
    };
    try {
      await app.get(WebhookWorker).start();
      await work({ createHook, commit });
    } finally {
      await bench.close();
    }
  };
  interface Ctx {
    createHook(): Promise<string>;
    commit(keys: string[]): Promise<number>;
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
  await run({ WEBHOOK_RATE_LIMIT_PER_SECOND: '100000', WEBHOOK_RATE_LIMIT_BURST: '100000' }, async ({ createHook, commit }) => {
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
  await run({ WEBHOOK_RATE_LIMIT_PER_SECOND: '100000', WEBHOOK_RATE_LIMIT_BURST: '100000' }, async ({ createHook, commit }) => {
    const hooks: string[] = [];
    for (let i = 0; i < WEBHOOKS; i++) hooks.push(await createHook());
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
  await run({}, async ({ createHook, commit }) => {
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

  say(`requests received in all: ${received} (deliveries: ${arrivals.size})`);
  server.close();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
