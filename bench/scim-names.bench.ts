/**
 * What SCIM's made-up names (issue 28 part 7) cost its reads. `scim_users` shows a never-named
 * member's names made from their email, kept in generated columns of the member row; beside it in
 * the same database, the bare baseline is the same view with the names as stored, and the
 * rejected design the same view making the names up per read (`scim_default_name` per row). A
 * workspace of N never-named members (default 10,000, the worst case: every row has made-up
 * names), read the three ways SCIM reads users, interleaved round by round:
 *
 * - a page deep in the list (`ORDER BY created_at, id OFFSET N/2 LIMIT 100`),
 * - a filter on a made-up name (`name.givenName eq "…"`, compiled by the SCIM filter compiler),
 * - one user by id;
 *
 * then the same page through the API (`GET /scim/v2/Users?startIndex=…&count=100`), with the view
 * switched between the shipped and the bare definition round by round.
 *
 *   npm run bench:scim-names                       (embedded PostgreSQL in a temp dir; or set DATABASE_URL)
 *   BENCH_USERS=1000 BENCH_NO_WRITE=1 npm run bench:scim-names     (smoke run; prints only)
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { parseFilter } from '../libs/scim/src/domain/filter';
import { compileFilter } from '../libs/scim/src/infrastructure/filter-sql';
import { USER_FILTER_TARGET } from '../libs/scim/src/infrastructure/scim-user.repository';
import { MADE_UP_NAMES, scimUsersQuery, SHOWN_NAMES, STORED_NAMES } from '../libs/shared/persistence/src/migrations/1765900000000-scim-default-names';
import { appendResults, runBench } from './support';

type Latency = { p50: number; p95: number };

/** Each of `runs` once as a warm-up, then `rounds` rounds of all of them, each round starting one further along; p50 and p95 per run. */
async function rotatedLatency(rounds: number, runs: ReadonlyArray<() => Promise<unknown>>): Promise<Latency[]> {
  for (const run of runs) await run();
  const times = runs.map((): number[] => []);
  for (let round = 0; round < rounds; round++) {
    for (let k = 0; k < runs.length; k++) {
      const index = (round + k) % runs.length;
      const start = performance.now();
      await runs[index]();
      times[index].push(performance.now() - start);
    }
  }
  return times.map((list) => {
    list.sort((x, y) => x - y);
    return { p50: list[Math.floor(list.length / 2)], p95: list[Math.floor(list.length * 0.95)] };
  });
}

const USERS = Number(process.env.BENCH_USERS ?? 10_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 200);
const API_ROUNDS = Number(process.env.BENCH_API_ROUNDS ?? 10);
const API_CALLS_PER_ROUND = 20;

const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const ms = (n: number) => n.toFixed(2);

runBench({ database: 'workbase_bench_scim_names', poolSize: 2 }, async (bench, pool) => {
  const { baseUrl, token, workspaceId } = bench;
  await pool.query(
    `INSERT INTO workspace_members (workspace_id, id, email, user_name, access_level, never_named, created_at)
     SELECT $1, gen_random_uuid(), 'user' || i || '.person' || i || '@names.example', 'user' || i || '.person' || i || '@names.example', 'member', true,
            now() + i * interval '1 millisecond'
       FROM generate_series(1, $2::int) AS i`,
    [workspaceId, USERS],
  );
  await pool.query(`CREATE VIEW scim_users_stored AS ${scimUsersQuery(STORED_NAMES)}`);
  await pool.query(`CREATE VIEW scim_users_computed AS ${scimUsersQuery(MADE_UP_NAMES)}`);
  await pool.query('ANALYZE workspace_members');
  const { rows: sample } = await pool.query<{ id: string }>(`SELECT id FROM workspace_members WHERE workspace_id = $1 ORDER BY created_at OFFSET $2 LIMIT 1`, [workspaceId, USERS / 2]);
  const middleId = sample[0].id;

  const params: unknown[] = [workspaceId];
  const filter = compileFilter(parseFilter(`name.givenName eq "User${USERS / 2}"`), USER_FILTER_TARGET, params);
  const reads = (view: string) => ({
    page: () => pool.query(`SELECT u.id, u.user_name, u.first_name, u.last_name FROM ${view} u WHERE u.workspace_id = $1 ORDER BY u.created_at, u.id OFFSET ${USERS / 2} LIMIT 100`, [workspaceId]),
    filter: () => pool.query(`SELECT u.id, u.first_name, u.last_name FROM ${view} u WHERE u.workspace_id = $1 AND ${filter}`, params),
    byId: () => pool.query(`SELECT u.id, u.first_name, u.last_name FROM ${view} u WHERE u.workspace_id = $1 AND u.id = $2`, [workspaceId, middleId]),
  });
  const shown = reads('scim_users');
  const stored = reads('scim_users_stored');
  const computed = reads('scim_users_computed');
  for (const side of [shown, computed]) {
    const found = await side.filter();
    if (found.rows.length !== 1 || found.rows[0].first_name !== `User${USERS / 2}`) throw new Error(`the filter on a made-up name found ${JSON.stringify(found.rows)}`);
  }

  const loadBefore = load();
  // Each read's three sides in a rotating order (a side that always ran right after the slow
  // made-up-per-read one measured up to 2x slow in a first run).
  const sql: Latency[] = [];
  for (const read of ['page', 'filter', 'byId'] as const) sql.push(...(await rotatedLatency(ROUNDS, [shown[read], stored[read], computed[read]])));

  // Through the API: the same page, the view switched between its two definitions round by round.
  const page = async () => {
    const res = await fetch(`${baseUrl}/scim/v2/Users?startIndex=${USERS / 2 + 1}&count=100`, { headers: { authorization: `Bearer ${token}` } });
    if (res.status !== 200) throw new Error(`GET /scim/v2/Users: ${res.status}`);
    await res.arrayBuffer();
  };
  const api: Record<'shown' | 'stored', number[]> = { shown: [], stored: [] };
  for (let round = 0; round < API_ROUNDS; round++) {
    for (const side of ['shown', 'stored'] as const) {
      await pool.query(`CREATE OR REPLACE VIEW scim_users AS ${scimUsersQuery(side === 'shown' ? SHOWN_NAMES : STORED_NAMES)}`);
      await page();
      for (let i = 0; i < API_CALLS_PER_ROUND; i++) {
        const start = performance.now();
        await page();
        api[side].push(performance.now() - start);
      }
    }
  }
  await pool.query(`CREATE OR REPLACE VIEW scim_users AS ${scimUsersQuery(SHOWN_NAMES)}`);
  const median = (times: number[]) => [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)];
  const loadAfter = load();

  const row = (what: string, [a, b, c]: Latency[]) =>
    `| ${what} | ${ms(a.p50)} | ${ms(a.p95)} | ${ms(b.p50)} | ${ms(b.p95)} | ${(a.p50 / b.p50).toFixed(2)} | ${ms(c.p50)} | ${(c.p50 / b.p50).toFixed(2)} |`;
  const lines = [
    '',
    `### Issue 28 part 7: SCIM's made-up names, what they cost reads (${new Date().toISOString()})`,
    '',
    `${USERS} never-named members in one workspace (every row has made-up names: the worst case); embedded PostgreSQL; ` +
      `made-up names kept in generated columns (\`scim_users\`, shipped) against the names as stored (the same view without them) and names made up per read (rejected), ${ROUNDS} rounds of SQL through \`pg\` (each read's three sides in a rotating order), ` +
      `then ${API_ROUNDS} rounds of ${API_CALLS_PER_ROUND} API calls per side with the view switched between rounds. Load average before ${loadBefore}, after ${loadAfter}.`,
    '',
    '| read | shipped p50 ms | p95 | stored (bare) p50 ms | p95 | shipped / bare | made up per read p50 ms | per read / bare |',
    '|---|---|---|---|---|---|---|---|',
    row(`page at offset ${USERS / 2}, 100 users (SQL)`, sql.slice(0, 3)),
    row('filter `name.givenName eq` a made-up name (SQL)', sql.slice(3, 6)),
    row('one user by id (SQL)', sql.slice(6, 9)),
    `| \`GET /scim/v2/Users?startIndex=${USERS / 2 + 1}&count=100\` (API) | ${ms(median(api.shown))} | | ${ms(median(api.stored))} | | ${(median(api.shown) / median(api.stored)).toFixed(2)} | | |`,
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  appendResults(lines);
});
