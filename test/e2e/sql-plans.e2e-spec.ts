import { DataSource } from 'typeorm';
import { startTestApp, type TestApp, type TestWorkspace } from '../support/test-app';
import { SqlExecutor, wrappedStatement } from '../../libs/sql/src/infrastructure/sql-executor';

/**
 * What the generated SQL reads, checked on PostgreSQL's own plans (EXPLAIN ANALYZE of the exact
 * text and parameters the endpoint ran): a small LIMIT reads about that many rows, a pushed-down
 * filter reads only the matching values through the value index, and columns a statement does
 * not name are not read at all. 6,000 activity records (bulk-inserted), 600 in another workspace.
 */
describe('SQL plans: only what is read, small limits stay small', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let other: TestWorkspace;
  const RECORDS = 6000;
  const captured: Array<{ text: string; fixedJoinOrder: boolean }> = [];

  const as = (token: string) => ({ Authorization: `Bearer ${token}` });

  async function seedCalls(workspace: TestWorkspace, count: number): Promise<void> {
    const db = t.app.get(DataSource);
    await t.http().post('/v2/activities').set(as(workspace.token)).send({ data: { api_slug: 'plan_calls', singular_noun: 'Call', plural_noun: 'Calls', extends: 'calls' } }).expect(200);
    const [{ id: activityId }] = await db.query(`SELECT id FROM activities WHERE workspace_id = $1 AND api_slug = 'plan_calls'`, [workspace.workspaceId]);
    const attributes = new Map<string, string>((await db.query('SELECT api_slug, id FROM attributes WHERE workspace_id = $1 AND container_id = $2', [workspace.workspaceId, activityId])).map((r: { api_slug: string; id: string }) => [r.api_slug, r.id]));
    const [{ id: inbound }] = await db.query(`SELECT id FROM select_options WHERE workspace_id = $1 AND attribute_id = $2 AND title = 'Inbound'`, [workspace.workspaceId, attributes.get('direction')]);
    const actor = JSON.stringify({ type: 'system', id: null });
    await db.query(`INSERT INTO records (workspace_id, id, container_id, created_by) SELECT $1, md5($2 || i)::uuid, $2::uuid, $3::jsonb FROM generate_series(1, $4::int) i`, [workspace.workspaceId, activityId, actor, count]);
    await db.query(
      `INSERT INTO record_values (workspace_id, record_id, attribute_id, active_from, created_by, value_timestamp, value_ref, value_number)
       SELECT $1, md5($2 || i)::uuid, a.attribute_id, now(), $3::jsonb,
              CASE WHEN a.k = 0 THEN timestamptz '2026-01-01' + i * interval '1 minute' END,
              CASE WHEN a.k = 1 THEN $8::uuid END,
              CASE WHEN a.k = 2 THEN i % 3600 END
         FROM generate_series(1, $4::int) i CROSS JOIN (VALUES (0, $5::uuid), (1, $6::uuid), (2, $7::uuid)) a (k, attribute_id)`,
      [workspace.workspaceId, activityId, actor, count, attributes.get('timestamp'), attributes.get('direction'), attributes.get('duration'), inbound],
    );
  }

  beforeAll(async () => {
    t = await startTestApp();
    ws = await t.createWorkspace('sql-plans');
    other = await t.createWorkspace('sql-plans-other');
    await seedCalls(ws, RECORDS);
    await seedCalls(other, RECORDS / 10);
    await t.app.get(DataSource).query('ANALYZE records; ANALYZE record_values');
    const executor = t.app.get(SqlExecutor);
    const run = executor.run.bind(executor);
    jest.spyOn(executor, 'run').mockImplementation((workspaceId, prepared, options) => {
      captured.push({ text: wrappedStatement(prepared, executor.maxRows, executor.maxResultBytes), fixedJoinOrder: options?.fixedJoinOrder ?? false });
      return run(workspaceId, prepared, options);
    });
  });
  afterAll(() => t.close());

  interface PlanNode {
    'Node Type': string;
    'Relation Name'?: string;
    'Index Name'?: string;
    'Actual Rows': number;
    'Actual Loops': number;
    Plans?: PlanNode[];
  }

  /** `EXPLAIN (ANALYZE, FORMAT JSON)` of `text`, planned with the join order fixed as the endpoint fixed it, or not. */
  async function explain(text: string, fixedJoinOrder: boolean): Promise<{ Plan: PlanNode }> {
    return t.app.get(DataSource).transaction(async (manager) => {
      if (fixedJoinOrder) await manager.query('SET LOCAL join_collapse_limit = 1');
      const [{ 'QUERY PLAN': [plan] }] = await manager.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${text}`);
      return plan;
    });
  }

  /** Runs `sql` through the endpoint, then EXPLAIN ANALYZEs what it ran, as it ran it: rows read per table, and the answer. */
  async function readsOf(sql: string): Promise<{ rows: Array<Record<string, unknown>>; read: Record<string, number>; indexes: string[] }> {
    captured.length = 0;
    const res = await t.http().post('/v2/sql').set(as(ws.token)).send({ sql }).expect(200);
    const { text, fixedJoinOrder } = captured[0];
    const plan = await explain(text, fixedJoinOrder);
    const read: Record<string, number> = {};
    const indexes: string[] = [];
    const walk = (node: PlanNode) => {
      if (node['Relation Name']) read[node['Relation Name']] = (read[node['Relation Name']] ?? 0) + node['Actual Rows'] * node['Actual Loops'];
      if (node['Index Name']) indexes.push(node['Index Name']);
      node.Plans?.forEach(walk);
    };
    walk(plan.Plan);
    return { rows: res.body.data.rows, read, indexes };
  }

  it('SELECT * … LIMIT 10 without ORDER BY reads about ten records and their values', async () => {
    const { rows, read } = await readsOf('SELECT * FROM activities.plan_calls LIMIT 10');
    expect(rows).toHaveLength(10);
    expect(read.records).toBeLessThanOrEqual(20);
    // Ten records × (timestamp, direction, duration, phone number) plus the two multiselect columns' lookups.
    expect(read.record_values ?? 0).toBeLessThanOrEqual(10 * 6 * 2);
  });

  it('a pushed-down range reads only the matching values, through the value index', async () => {
    const { rows, read, indexes } = await readsOf('SELECT count(*) AS n FROM activities.plan_calls WHERE duration >= 3590');
    const expected = Array.from({ length: RECORDS }, (_, i) => (i + 1) % 3600).filter((d) => d >= 3590).length;
    expect(rows).toEqual([{ n: expected }]);
    expect(indexes).toContain('record_values_number');
    expect(read.record_values).toBeLessThanOrEqual(expected * 2);
  });

  it('columns the statement does not name are not read', async () => {
    const count = await readsOf('SELECT count(*) AS n FROM activities.plan_calls');
    expect(count.rows).toEqual([{ n: RECORDS }]);
    expect(count.read.record_values).toBeUndefined();
    const one = await readsOf("SELECT count(*) AS n FROM activities.plan_calls WHERE direction = 'Inbound'");
    expect(one.rows).toEqual([{ n: RECORDS }]);
    // Only the direction values (and their option titles), not the timestamps or durations.
    expect(one.read.record_values).toBeLessThanOrEqual(RECORDS);
  });

  it('a statement without a JOIN of its own has the generated joins planned in the order written; one with a JOIN keeps the full search', async () => {
    const statements = [
      { sql: 'SELECT * FROM activities.plan_calls ORDER BY record_id LIMIT 5', fixed: true },
      { sql: 'SELECT direction, count(*) AS n FROM activities.plan_calls GROUP BY direction', fixed: true },
      { sql: 'SELECT count(*) AS n FROM (SELECT c.record_id FROM activities.plan_calls c JOIN activities.plan_calls d ON d.record_id = c.record_id) x', fixed: false },
      { sql: 'SELECT count(*) AS n FROM activities.plan_calls c WHERE EXISTS (SELECT 1 FROM activities.plan_calls d LEFT JOIN activities.plan_calls e ON e.record_id = d.record_id WHERE d.record_id = c.record_id)', fixed: false },
    ];
    for (const { sql, fixed } of statements) {
      captured.length = 0;
      const res = await t.http().post('/v2/sql').set(as(ws.token)).send({ sql }).expect(200);
      expect({ sql, fixed: captured[0].fixedJoinOrder }).toEqual({ sql, fixed });
      // The same answer as the planner's full search gives for the same text (timestamps aside: the endpoint formats them).
      const full: Array<Record<string, unknown>> = await t.app.get(DataSource).query(captured[0].text);
      const key = (row: Record<string, unknown>) => ({ record_id: row.record_id, direction: row.direction, duration: row.duration === undefined ? undefined : String(row.duration), n: row.n === undefined ? undefined : Number(row.n) });
      expect(res.body.data.rows.map(key)).toEqual(full.map(key));
    }
  });
});
