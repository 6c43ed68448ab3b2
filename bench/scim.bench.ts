/**
 * SCIM at the scale of an identity provider's first sync, as Microsoft Entra ID runs it: for each
 * of N users (default 10,000) `GET /Users?filter=userName eq "…"` (no match) then `POST /Users`,
 * one request at a time; then one `PATCH` per user (Entra's one-op-per-attribute form). Every user
 * has a non-email userName, a work address at a verified domain (so each POST makes a member and
 * records its event) and enterprise attributes. Beside it, in the same run, a bare baseline does
 * the same database work with `pg` and nothing around it: the index lookup, the insert of the
 * member and its email row, and the update by primary key. Then the plan of the userName,
 * externalId and email filter lookups at N users is printed; the bench fails if any is not an
 * index scan.
 *
 *   npm run bench:scim                          (embedded PostgreSQL in a temp dir; or set DATABASE_URL)
 *   BENCH_USERS=500 BENCH_NO_WRITE=1 npm run bench:scim      (smoke run; prints only)
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { MemberProvisioning } from '@workbase/access';
import type { Pool } from 'pg';
import { parseFilter } from '../libs/scim/src/domain/filter';
import { compileFilter } from '../libs/scim/src/infrastructure/filter-sql';
import { USER_FILTER_TARGET } from '../libs/scim/src/infrastructure/scim-user.repository';
import { appendResults, createBenchWorkspace, runBench } from './support';

const USERS = Number(process.env.BENCH_USERS ?? 10_000);
const USER_URN = 'urn:ietf:params:scim:schemas:core:2.0:User';
const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
const PATCH_URN = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

interface Timing {
  readonly seconds: number;
  readonly perSecond: number;
  readonly p50: number;
  readonly p95: number;
}

function summarise(times: number[], totalMs: number, operations: number): Timing {
  const sorted = [...times].sort((a, b) => a - b);
  return { seconds: totalMs / 1000, perSecond: operations / (totalMs / 1000), p50: sorted[Math.floor(sorted.length / 2)], p95: sorted[Math.floor(sorted.length * 0.95)] };
}

const userName = (i: number) => `Test_User_${i}_sync`;
const address = (i: number) => `user${i}@contoso.example`;

runBench({ database: 'workbase_bench_scim', env: { DB_POOL_SIZE: '10' }, poolSize: 4 }, async (bench, pool) => {
  const { app, baseUrl, token, workspaceId } = bench;
  await app.get(MemberProvisioning).addVerifiedEmailDomain(workspaceId, 'contoso.example');
  const call = async (method: string, route: string, body?: unknown): Promise<{ status: number; json: Record<string, unknown> | null }> => {
    const res = await fetch(`${baseUrl}${route}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/scim+json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, json: text ? (JSON.parse(text) as Record<string, unknown>) : null };
  };

  // 1. Initial sync through the API: filter (no match) then create, one at a time.
  const lookups: number[] = [];
  const creates: number[] = [];
  const ids: string[] = [];
  const syncStart = performance.now();
  for (let i = 0; i < USERS; i++) {
    let start = performance.now();
    const found = await call('GET', `/scim/v2/Users?filter=${encodeURIComponent(`userName eq "${userName(i)}"`)}`);
    lookups.push(performance.now() - start);
    if (found.status !== 200 || found.json?.totalResults !== 0) throw new Error(`lookup ${i}: ${found.status} ${JSON.stringify(found.json)}`);
    start = performance.now();
    const created = await call('POST', '/scim/v2/Users', {
      schemas: [USER_URN, ENTERPRISE],
      externalId: randomUUID(),
      userName: userName(i),
      active: 'True',
      displayName: `User ${i}`,
      emails: [{ primary: true, type: 'work', value: address(i) }],
      name: { givenName: 'User', familyName: String(i), formatted: `User ${i}` },
      [ENTERPRISE]: { employeeNumber: String(i), department: `Dept ${i % 20}` },
    });
    creates.push(performance.now() - start);
    if (created.status !== 201) throw new Error(`create ${i}: ${created.status} ${JSON.stringify(created.json)}`);
    ids.push(created.json!.id as string);
  }
  const sync = summarise([...lookups.map((l, i) => l + creates[i])], performance.now() - syncStart, USERS);

  // 2. One PATCH per user.
  const patches: number[] = [];
  const patchStart = performance.now();
  for (let i = 0; i < USERS; i++) {
    const start = performance.now();
    const res = await call('PATCH', `/scim/v2/Users/${ids[i]}`, {
      schemas: [PATCH_URN],
      Operations: [
        { op: 'Replace', path: 'name.familyName', value: `Renamed ${i}` },
        { op: 'Replace', path: `${ENTERPRISE}:department`, value: `Dept ${(i + 1) % 20}` },
      ],
    });
    patches.push(performance.now() - start);
    if (res.status !== 200) throw new Error(`patch ${i}: ${res.status} ${JSON.stringify(res.json)}`);
  }
  const patch = summarise(patches, performance.now() - patchStart, USERS);

  // 3. The bare baseline: the same rows written and read with pg alone, in another workspace.
  const bare = await createBenchWorkspace(app, 'bare');
  const bareSyncTimes: number[] = [];
  const bareIds: string[] = [];
  const bareSyncStart = performance.now();
  for (let i = 0; i < USERS; i++) {
    const start = performance.now();
    const { rows } = await pool.query(`SELECT id FROM workspace_members WHERE workspace_id = $1 AND lower(user_name) = lower($2) AND deleted_at IS NULL`, [bare.workspaceId, userName(i)]);
    if (rows.length !== 0) throw new Error('bare lookup found a row');
    const id = randomUUID();
    await pool.query(
      `WITH m AS (INSERT INTO workspace_members (workspace_id, id, email, user_name, first_name, last_name, access_level, external_id, scim_profile)
                  VALUES ($1, $2, $3, $4, 'User', $5, 'member', $6, $7) RETURNING id)
       INSERT INTO scim_user_emails (workspace_id, user_id, position, value, type, is_primary) SELECT $1, id, 1, $3, 'work', true FROM m`,
      [bare.workspaceId, id, address(i), userName(i), String(i), randomUUID(), { displayName: `User ${i}` }],
    );
    bareSyncTimes.push(performance.now() - start);
    bareIds.push(id);
  }
  const bareSync = summarise(bareSyncTimes, performance.now() - bareSyncStart, USERS);
  const barePatchTimes: number[] = [];
  const barePatchStart = performance.now();
  for (let i = 0; i < USERS; i++) {
    const start = performance.now();
    await pool.query(`UPDATE workspace_members SET last_name = $3, scim_profile = $4, updated_at = clock_timestamp() WHERE workspace_id = $1 AND id = $2`, [
      bare.workspaceId,
      bareIds[i],
      `Renamed ${i}`,
      { displayName: `User ${i}` },
    ]);
    barePatchTimes.push(performance.now() - start);
  }
  const barePatch = summarise(barePatchTimes, performance.now() - barePatchStart, USERS);

  // 4. The lookup plans at N users.
  await pool.query('ANALYZE workspace_members; ANALYZE workspace_invites; ANALYZE scim_user_emails');
  const plans: string[] = [];
  for (const [filter, index] of [
    [`userName eq "${userName(USERS - 1)}"`, 'workspace_members_user_name_unique'],
    [`externalId eq "${randomUUID()}"`, 'workspace_members_external_id'],
    [`emails[type eq "work"].value eq "${address(USERS - 1)}"`, 'scim_user_emails_value'],
  ] as const) {
    const plan = await explain(pool, workspaceId, filter);
    if (!plan.includes(index) || plan.includes('Seq Scan on workspace_members')) throw new Error(`${filter} is not an index lookup:\n${plan}`);
    plans.push(`${filter} → ${plan.split('\n').filter((line) => /Index Scan|Index Only Scan|Bitmap/.test(line)).map((line) => line.trim().replace(/^->\s*/, '').replace(/\s+\(cost.*$/, '')).join('; ')}`);
  }

  const row = (name: string, api: Timing, baseline: Timing) =>
    `| ${name} | ${api.perSecond.toFixed(0)} | ${api.p50.toFixed(1)} / ${api.p95.toFixed(1)} | ${baseline.perSecond.toFixed(0)} | ${baseline.p50.toFixed(2)} / ${baseline.p95.toFixed(2)} | ${(baseline.perSecond / api.perSecond).toFixed(1)}x |`;
  const lookup = summarise(lookups, lookups.reduce((a, b) => a + b, 0), USERS);
  const create = summarise(creates, creates.reduce((a, b) => a + b, 0), USERS);
  const lines = [
    '',
    `## SCIM initial sync and updates, Entra-style (${new Date().toISOString().slice(0, 10)}, bench/scim.bench.ts)`,
    '',
    `${USERS.toLocaleString('en')} users, one request at a time over loopback with the workspace's service token. Sync = \`GET /Users?filter=userName eq\` (no match) + \`POST /Users\` (non-email userName, a work address at a verified domain so each is a member with its event, the enterprise extension); then one \`PATCH\` per user (two ops). Bare = the same rows read and written with \`pg\` alone (index lookup + insert of member and email row; update by primary key), sequentially, in the same run. Machine shared with five other agents at the time: absolute numbers are noisy, the ratio less so.`,
    '',
    '| phase | API users/s | API p50 / p95 ms | bare users/s | bare p50 / p95 ms | bare / API |',
    '|---|---|---|---|---|---|',
    row('sync (lookup + create)', sync, bareSync),
    row('PATCH', patch, barePatch),
    '',
    `Within the sync: lookup p50 / p95 ${lookup.p50.toFixed(1)} / ${lookup.p95.toFixed(1)} ms, create p50 / p95 ${create.p50.toFixed(1)} / ${create.p95.toFixed(1)} ms. Whole sync ${sync.seconds.toFixed(0)} s, PATCH phase ${patch.seconds.toFixed(0)} s.`,
    '',
    `Lookup plans at ${USERS.toLocaleString('en')} users (the bench fails on a sequential scan of members):`,
    '',
    ...plans.map((plan) => `- ${plan}`),
  ];
  process.stdout.write(`${lines.join('\n')}\n`);
  appendResults(lines);
});

async function explain(pool: Pool, workspaceId: string, filter: string): Promise<string> {
  const params: unknown[] = [workspaceId];
  const where = compileFilter(parseFilter(filter), USER_FILTER_TARGET, params);
  const { rows } = await pool.query<{ 'QUERY PLAN': string }>(`EXPLAIN SELECT u.id FROM scim_users u WHERE u.workspace_id = $1 AND ${where}`, params);
  return rows.map((row) => row['QUERY PLAN']).join('\n');
}
