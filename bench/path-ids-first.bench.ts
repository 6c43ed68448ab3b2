/**
 * What tenancy before validation (issue 28 part 6) costs a write. The shipped design looks a
 * route's path ids up only when a request is refused with a 400 (PathIdsFirstInterceptor +
 * `resolvePathIds`); the design it was weighed against looks them up before the pipe on every
 * request (a guard), which this bench emulates by calling the same controller's `resolvePathIds`
 * in-process before each request, as a guard would. Sequential requests, the sides in a rotating
 * order round by round:
 *
 * - shipped: a valid `PATCH /v2/objects/companies/records/{id}` (200), the bare baseline;
 * - look up first: the same PATCH after the lookup (the rejected design);
 * - a bad body with the caller's own ids: 400 after the lookup the interceptor makes then;
 * - a bad body with another workspace's object: the lookup's 404.
 *
 *   npm run bench:path-ids-first                     (embedded PostgreSQL in a temp dir; or set DATABASE_URL)
 *   BENCH_ROUNDS=50 BENCH_NO_WRITE=1 npm run bench:path-ids-first     (smoke run; prints only)
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { AuthContext } from '@workbase/shared/http';
import { ObjectRecordsController } from '../libs/records/src/interface/http/object-records.controller';
import { appendResults, createBenchWorkspace, jsonClient, runBench } from './support';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 1000);

const load = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

runBench({ database: 'workbase_bench_path_ids_first', poolSize: 1 }, async (bench) => {
  const { app, baseUrl, token, workspaceId } = bench;
  const call = jsonClient(baseUrl, token);
  const recordId = (await call<{ data: { id: { record_id: string } } }>('POST', '/v2/objects/companies/records', { data: { values: { name: 'Bench Co' } } })).data.id.record_id;
  const other = await createBenchWorkspace(app, 'other');
  const foreignObject = (await jsonClient(baseUrl, other.token)<{ data: { id: { object_id: string } } }>('GET', '/v2/objects/companies')).data.id.object_id;
  const controller = app.get(ObjectRecordsController);
  const auth = { workspaceId } as AuthContext;

  const patch = async (path: string, body: string, expected: number) => {
    const res = await fetch(`${baseUrl}${path}`, { method: 'PATCH', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body });
    await res.arrayBuffer();
    if (res.status !== expected) throw new Error(`PATCH ${path}: ${res.status}, not ${expected}`);
  };
  let n = 0;
  const valid = () => patch(`/v2/objects/companies/records/${recordId}`, JSON.stringify({ data: { values: { description: `v${++n}` } } }), 200);
  const sides: Array<readonly [string, () => Promise<void>]> = [
    ['shipped: valid PATCH (bare baseline)', valid],
    ['look up first (rejected, emulated): lookup + valid PATCH', async () => {
      await controller.resolvePathIds(auth, { object: 'companies', record_id: recordId });
      await valid();
    }],
    ['bad body, own ids: 400 after the lookup', () => patch(`/v2/objects/companies/records/${recordId}`, '{"data":5}', 400)],
    ["bad body, another workspace's object: 404", () => patch(`/v2/objects/${foreignObject}/records/${randomUUID()}`, '{"data":5}', 404)],
  ];

  for (const [, run] of sides) for (let i = 0; i < 20; i++) await run();
  const loadBefore = load();
  const times = sides.map((): number[] => []);
  for (let round = 0; round < ROUNDS; round++) {
    for (let k = 0; k < sides.length; k++) {
      const index = (round + k) % sides.length;
      const start = performance.now();
      await sides[index][1]();
      times[index].push(performance.now() - start);
    }
  }
  const stats = times.map((list) => {
    list.sort((a, b) => a - b);
    return { p50: list[Math.floor(list.length / 2)], p95: list[Math.floor(list.length * 0.95)] };
  });
  const lines = [
    '',
    `### Issue 28 part 6: tenancy before validation, what it costs a write (${new Date().toISOString()})`,
    '',
    `Sequential requests through the app (rate limits off, warn logs), embedded PostgreSQL, ${ROUNDS} rounds of the four sides in a rotating order after 20 warm-up calls each; ` +
      `the "look up first" side emulates a guard that resolves path ids before the pipe (the controller's \`resolvePathIds\` called in-process before the same PATCH). Load average before ${loadBefore}, after ${load()}.`,
    '',
    '| side | p50 ms | p95 ms | p50 / shipped |',
    '|---|---|---|---|',
    ...sides.map(([name], i) => `| ${name} | ${stats[i].p50.toFixed(2)} | ${stats[i].p95.toFixed(2)} | ${(stats[i].p50 / stats[0].p50).toFixed(2)} |`),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  appendResults(lines);
});
