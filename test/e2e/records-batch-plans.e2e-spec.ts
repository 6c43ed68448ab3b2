import { Client } from 'pg';
import { TransactionRunner } from '@workbase/shared/persistence';
import { generatePeople, prepareDataset } from '../../bench/records-dataset';
import { bearer } from '../support/requests';
import { startTestApp, type TestApp, type TestWorkspace } from '../support/test-app';

/**
 * A bulk import into a new workspace outruns autovacuum's ANALYZE: the statistics still say the
 * workspace holds a few hundred rows when it holds tens of thousands. A batch's look-ups of many
 * keys (`workspace_id = $1 AND id = ANY (…)`) were then planned as a scan of all the workspace's
 * rows, which grew with every batch (bench/RESULTS.md, issue 30). White-box: the statements a
 * batch runs are captured and explained against such statistics; each read of `records` or
 * `unique_values` must probe its key, whatever the size estimate.
 */
describe('batch writes into a workspace that outgrew its statistics', () => {
  let t: TestApp;
  let pg: Client;
  let newcomer: TestWorkspace;
  const companies: string[] = [];

  beforeAll(async () => {
    t = await startTestApp();
    pg = new Client({ connectionString: t.database.url });
    await pg.connect();
    // Statistics change only when this test says so.
    for (const table of ['records', 'record_values', 'unique_values']) await pg.query(`ALTER TABLE ${table} SET (autovacuum_enabled = false)`);

    // An established workspace, large, and the newcomer, small, when the statistics are taken.
    const established = await t.createWorkspace('plans-established');
    const call = (token: string) => async (method: string, route: string, body?: unknown) =>
      (await t.http()[method.toLowerCase() as 'post'](route).set(bearer(token)).send(body as object).expect(200)).body as unknown;
    const big = await prepareDataset(t.app, pg, established.workspaceId, call(established.token));
    await generatePeople(pg, established.workspaceId, big.peopleId, big.companiesId, big.ids, 0, 20_000);
    newcomer = await t.createWorkspace('plans-newcomer');
    const createCompanies = async (count: number) => {
      const created = await t.http().post('/v2/objects/companies/records/batch').set(bearer(newcomer.token))
        .send({ operations: Array.from({ length: count }, (_, i) => ({ op: 'create', data: { values: { name: `Company ${companies.length + i}` } } })) }).expect(200);
      companies.push(...(created.body.data as Array<{ data: { id: { record_id: string } } }>).map((item) => item.data.id.record_id));
    };
    await createCompanies(200);
    await pg.query('ANALYZE records, record_values, unique_values');

    // Then the newcomer grows to the size of the established one, unseen by the planner.
    await createCompanies(800);
    const small = await prepareDataset(t.app, pg, newcomer.workspaceId, call(newcomer.token));
    await generatePeople(pg, newcomer.workspaceId, small.peopleId, small.companiesId, small.ids, 0, 20_000);
  }, 180_000);
  afterAll(async () => {
    await pg.end();
    await t.close();
  });

  /** The statements `work` runs through the service's transactions. */
  const statementsOf = async (work: () => Promise<void>): Promise<Array<{ sql: string; params: unknown[] }>> => {
    const statements: Array<{ sql: string; params: unknown[] }> = [];
    const transactions = t.app.get(TransactionRunner);
    const query = transactions.query.bind(transactions);
    const spy = jest.spyOn(transactions, 'query').mockImplementation((sql: string, params?: readonly unknown[]) => {
      statements.push({ sql, params: [...(params ?? [])] });
      return query(sql, params);
    });
    try {
      await work();
    } finally {
      spy.mockRestore();
    }
    return statements.filter(({ sql }) => /\b(records|unique_values)\b/.test(sql) && /^\s*(SELECT|WITH|UPDATE|INSERT|DELETE)/i.test(sql));
  };

  /**
   * The reads of `records` and `unique_values` in these statements' plans that are not a probe of
   * the primary key by its key column (or of a tuple id): an index scan bounded by `workspace_id`
   * alone reads all the workspace's rows as surely as a heap scan.
   */
  const scansIn = async (statements: ReadonlyArray<{ sql: string; params: unknown[] }>): Promise<string[]> => {
    const probes: Record<string, { index: string; key: RegExp }> = { records: { index: 'records_pkey', key: /\bid = / }, unique_values: { index: 'unique_values_pkey', key: /\bvalue_key = / } };
    const scans: string[] = [];
    const walk = (node: PlanNode, sql: string) => {
      const key = probes[node['Relation Name'] ?? ''];
      const probe = node['Node Type'] === 'Tid Scan' || (/^Index (Only )?Scan$/.test(node['Node Type']) && node['Index Name'] === key?.index && key.key.test(node['Index Cond'] ?? ''));
      if (key && node['Node Type'] !== 'ModifyTable' && !probe) {
        scans.push(`${node['Node Type']} on ${node['Relation Name']} (${node['Index Name'] ?? 'no index'}: ${node['Index Cond'] ?? 'no condition'}; estimated ${node['Plan Rows']} rows) in: ${sql.replace(/\s+/g, ' ').slice(0, 120)}`);
      }
      for (const child of node.Plans ?? []) walk(child, sql);
    };
    for (const { sql, params } of statements) {
      const [{ Plan }] = (await pg.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(`EXPLAIN (FORMAT JSON) ${sql}`, params)).rows[0]['QUERY PLAN'];
      walk(Plan, sql);
    }
    return scans;
  };

  it('holds the condition under test: the planner believes the newcomer a small fraction of its size', async () => {
    const [estimate] = (await pg.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(`EXPLAIN (FORMAT JSON) SELECT 1 FROM records WHERE workspace_id = $1`, [newcomer.workspaceId])).rows[0]['QUERY PLAN'];
    expect(estimate.Plan['Plan Rows']).toBeLessThan(1_000);
    expect(Number((await pg.query(`SELECT count(*) AS n FROM records WHERE workspace_id = $1`, [newcomer.workspaceId])).rows[0].n)).toBeGreaterThan(20_000);
  });

  it('looks up unique values and linked records, locks and bumps them by key probes', async () => {
    const statements = await statementsOf(async () => {
      const operations = Array.from({ length: 1000 }, (_, i) => ({
        op: 'assert',
        matching_attribute: 'email_addresses',
        data: { values: { email_addresses: [`import-${i}@plans.example`], name: `Imported ${i}`, company: [{ target_object: 'companies', target_record_id: companies[i % companies.length] }] } },
      }));
      const res = await t.http().post('/v2/objects/people/records/batch').set(bearer(newcomer.token)).send({ operations }).expect(200);
      expect((res.body.data as Array<{ status: number }>).map((item) => item.status)).toEqual(operations.map(() => 200));
    });
    // The look-ups, the lock, the insert and the link statement at least.
    expect(statements.length).toBeGreaterThanOrEqual(4);
    expect(await scansIn(statements)).toEqual([]);
  });
});

interface PlanNode {
  readonly 'Node Type': string;
  readonly 'Relation Name'?: string;
  readonly 'Index Name'?: string;
  readonly 'Index Cond'?: string;
  readonly 'Plan Rows': number;
  readonly Plans?: PlanNode[];
}
