/**
 * The change feed (`GET /v2/events`, issue 30 part 4): a reader following the cursors in pages of
 * 1,000 through one workspace's events, against a bare read of the same rows (the same keyset
 * statement behind the same horizon, through `pg`, no HTTP), alternating in one run; then how
 * soon a committed event is readable, and the plan of a page.
 *
 *   npm run bench:events                 (embedded PostgreSQL in a temp dir; or DATABASE_URL)
 *   BENCH_EVENTS=200000 BENCH_NOISE_EVENTS=200000 BENCH_ROUNDS=5 BENCH_LATENCY_SAMPLES=50 (the defaults)
 *   smoke run: BENCH_EVENTS=5000 BENCH_NOISE_EVENTS=5000 BENCH_ROUNDS=1 BENCH_LATENCY_SAMPLES=5 BENCH_NO_WRITE=1
 *   BENCH_CPU_PROF=/tmp/prof: the service under --cpu-prof; its top self-time entries printed
 *   BENCH_WRITE_TRANSACTIONS=3000: the write cost of the feed's index (outbox inserts of 1 event per
 *   transaction, 4 writers, with the index and without it, alternating)
 *
 * The service runs in a process of its own in its default configuration (rate limits counted in
 * PostgreSQL, info logs; bench/service-process.ts); the reader, the bare side and the latency
 * writer run in this one. The events are `record.updated` events as the record engine writes
 * them, of the service's workspace and, interleaved with them in commit order, of another (the
 * noise a per-workspace index must skip), inserted in bulk with transaction ids spread below the
 * current one (500 events per transaction at the defaults: an import's shape).
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import type { Pool } from 'pg';
import { runPairBench } from './pair-rounds';
import { appendResults, jsonClient } from './support';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 200_000);
const NOISE_EVENTS = Number(process.env.BENCH_NOISE_EVENTS ?? 200_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const LATENCY_SAMPLES = Number(process.env.BENCH_LATENCY_SAMPLES ?? 50);
const WRITE_TRANSACTIONS = Number(process.env.BENCH_WRITE_TRANSACTIONS ?? 3000);
const PAGE = 1000;

/** The service's page statement (libs/events/src/infrastructure/event-feed.repository.ts), every event type. */
const PAGE_SQL = `SELECT e.id::text, e.tx_id::text, e.event_type, e.entity_id, e.actor, e.payload, e.occurred_at
  FROM event_outbox e
 WHERE (e.workspace_id, e.tx_id, e.id) > ($1::uuid, $2::xid8, $3::bigint)
   AND (e.workspace_id, e.tx_id, e.id) < ($1::uuid, pg_snapshot_xmin(pg_current_snapshot()), 0)
 ORDER BY e.workspace_id, e.tx_id, e.id LIMIT $4`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const pct = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))];

/** Inserts the events of both workspaces, the noise spread evenly among the others, with transaction ids below the current one. */
async function seed(pool: Pool, workspaceId: string, noiseWorkspaceId: string): Promise<void> {
  const total = EVENTS + NOISE_EVENTS;
  const [{ xid }] = (await pool.query(`SELECT pg_current_xact_id()::text::bigint AS xid`)).rows as Array<{ xid: string }>;
  const span = Math.max(1, Number(xid) - 10);
  const [objectId, attributeId, tokenId] = [randomUUID(), randomUUID(), randomUUID()];
  for (let from = 0; from < total; from += 50_000) {
    await pool.query(
      `INSERT INTO event_outbox (workspace_id, event_type, entity_id, actor, payload, tx_id, occurred_at)
       SELECT w.id, 'record.updated',
              jsonb_build_object('workspace_id', w.id, 'object_id', $3::text, 'record_id', gen_random_uuid(), 'attribute_id', $4::text),
              jsonb_build_object('type', 'api-token', 'id', $5::text), '{}',
              (3 + (g::bigint * $6) / $7)::text::xid8, now() - interval '1 day' + g * interval '1 ms'
         FROM generate_series($8::int, $9::int) g
         CROSS JOIN LATERAL (SELECT CASE WHEN (g::bigint * $10) / $7 <> ((g::bigint + 1) * $10) / $7 THEN $2::uuid ELSE $1::uuid END AS id) w`,
      [workspaceId, noiseWorkspaceId, objectId, attributeId, tokenId, span, total, from, Math.min(total, from + 50_000) - 1, NOISE_EVENTS],
    );
  }
  await pool.query('VACUUM ANALYZE event_outbox');
}

runPairBench({ database: 'workbase_bench_events' }, async ({ pool, service }) => {
  const seedStart = performance.now();
  await seed(pool, service.workspaceId, randomUUID());
  const expected = ((await pool.query(`SELECT count(*)::int AS n FROM event_outbox WHERE workspace_id = $1`, [service.workspaceId])).rows[0] as { n: number }).n;
  process.stdout.write(`seeded ${EVENTS} + ${NOISE_EVENTS} events in ${((performance.now() - seedStart) / 1000).toFixed(1)} s; the workspace holds ${expected}\n`);

  const call = jsonClient(service.baseUrl, service.token);
  /** Follows the feed through the service from the start: events read. */
  const viaService = async (): Promise<number> => {
    let read = 0;
    let cursor: string | null = null;
    for (;;) {
      const page: { data: unknown[]; pagination: { next_cursor: string } } = await call('GET', `/v2/events?limit=${PAGE}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      if (page.data.length === 0) return read;
      read += page.data.length;
      cursor = page.pagination.next_cursor;
    }
  };
  /** The same pages with the same statement through `pg`: events read. */
  const bare = async (): Promise<number> => {
    let read = 0;
    let after = { tx: '0', id: '0' };
    for (;;) {
      const rows = (await pool.query(PAGE_SQL, [service.workspaceId, after.tx, after.id, PAGE])).rows as Array<{ id: string; tx_id: string }>;
      if (rows.length === 0) return read;
      read += rows.length;
      after = { tx: rows[rows.length - 1].tx_id, id: rows[rows.length - 1].id };
    }
  };

  const rates: { service: number[]; bare: number[] } = { service: [], bare: [] };
  await viaService();
  await bare();
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, read] of [['service', viaService], ['bare', bare]] as const) {
      const start = performance.now();
      const n = await read();
      const seconds = (performance.now() - start) / 1000;
      if (n !== expected) throw new Error(`${name} read ${n} events, expected ${expected}`);
      rates[name].push(n / seconds);
      process.stdout.write(`round ${round + 1} ${name}: ${n} events in ${seconds.toFixed(2)} s = ${Math.round(n / seconds)} events/s\n`);
    }
  }
  const serviceRate = median(rates.service);
  const bareRate = median(rates.bare);

  // How soon a committed event is readable: commit one (an outbox row, as a write records it), poll the feed's tail every 5 ms.
  let tail: string = (await call<{ pagination: { next_cursor: string } }>('GET', '/v2/events?event_type=task.created')).pagination.next_cursor;
  const delays: number[] = [];
  for (let i = 0; i < LATENCY_SAMPLES; i++) {
    const taskId = randomUUID();
    await pool.query(`INSERT INTO event_outbox (workspace_id, event_type, entity_id, actor) VALUES ($1::uuid, 'task.created', jsonb_build_object('workspace_id', $1::text, 'task_id', $2::text), '{"type":"system","id":null}')`, [service.workspaceId, taskId]);
    const committed = performance.now();
    for (;;) {
      const page: { data: Array<{ id: { task_id: string } }>; pagination: { next_cursor: string } } = await call('GET', `/v2/events?event_type=task.created&cursor=${encodeURIComponent(tail)}`);
      tail = page.pagination.next_cursor;
      if (page.data.some((e) => e.id.task_id === taskId)) break;
      await sleep(5);
    }
    delays.push(performance.now() - committed);
  }

  // What the feed's index costs a write: one-event transactions into the outbox, with and without it.
  const writes = async (): Promise<number> => {
    const start = performance.now();
    await Promise.all(
      [0, 1, 2, 3].map(async () => {
        const client = await pool.connect();
        try {
          for (let i = 0; i < WRITE_TRANSACTIONS / 4; i++) {
            await client.query(`INSERT INTO event_outbox (workspace_id, event_type, entity_id, actor) VALUES ($1::uuid, 'task.created', jsonb_build_object('workspace_id', $1::text, 'task_id', gen_random_uuid()), '{"type":"system","id":null}')`, [service.workspaceId]);
          }
        } finally {
          client.release();
        }
      }),
    );
    return WRITE_TRANSACTIONS / ((performance.now() - start) / 1000);
  };
  const writeRates: { indexed: number[]; bare: number[] } = { indexed: [], bare: [] };
  for (let round = 0; round < ROUNDS; round++) {
    writeRates.indexed.push(await writes());
    await pool.query('DROP INDEX event_outbox_workspace_commit_order');
    writeRates.bare.push(await writes());
    await pool.query('CREATE INDEX event_outbox_workspace_commit_order ON event_outbox (workspace_id, tx_id, id)');
  }
  process.stdout.write(`writes/s with the index ${writeRates.indexed.map(Math.round).join(', ')}; without ${writeRates.bare.map(Math.round).join(', ')}\n`);

  // The plan of a page in the middle of the workspace's events.
  const middle = (await pool.query(`SELECT e.tx_id::text AS tx, e.id::text AS id FROM event_outbox e WHERE e.workspace_id = $1 ORDER BY e.tx_id, e.id OFFSET $2 LIMIT 1`, [service.workspaceId, Math.floor(expected / 2)])).rows[0] as { tx: string; id: string };
  const plan = (await pool.query(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${PAGE_SQL}`, [service.workspaceId, middle.tx, middle.id, PAGE])).rows.map((row: Record<string, string>) => row['QUERY PLAN']);

  const lines = [
    '',
    `## Change feed: GET /v2/events in pages of ${PAGE} vs a bare read of the same rows (${new Date().toISOString().slice(0, 10)}, bench/events.bench.ts)`,
    '',
    `${expected} events of one workspace interleaved with ${NOISE_EVENTS} of another; ${ROUNDS} alternating rounds, medians. The service in its own process, default configuration (${service.mode}); reader and bare side in the bench's process.`,
    '',
    '| reader | events/s (median) | rounds |',
    '|---|---|---|',
    `| service, \`GET /v2/events?limit=${PAGE}\` following \`next_cursor\` | ${Math.round(serviceRate)} | ${rates.service.map(Math.round).join(', ')} |`,
    `| bare: the same keyset statement through \`pg\` | ${Math.round(bareRate)} | ${rates.bare.map(Math.round).join(', ')} |`,
    `| **ratio service / bare** | **${(serviceRate / bareRate).toFixed(2)}** | |`,
    '',
    `Write cost of the index: ${WRITE_TRANSACTIONS} one-event outbox transactions by 4 writers, with it ${Math.round(median(writeRates.indexed))}/s (${writeRates.indexed.map(Math.round).join(', ')}), without it ${Math.round(median(writeRates.bare))}/s (${writeRates.bare.map(Math.round).join(', ')}): ${(median(writeRates.indexed) / median(writeRates.bare)).toFixed(2)}×.`,
    '',
    `Commit to readable (a reader polling every 5 ms, ${LATENCY_SAMPLES} events): p50 ${pct(delays, 50).toFixed(1)} ms, p95 ${pct(delays, 95).toFixed(1)} ms, max ${Math.max(...delays).toFixed(1)} ms.`,
    '',
    'Plan of a page in the middle:',
    '',
    '```',
    ...plan,
    '```',
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  appendResults(lines);
});
