import { randomBytes } from 'node:crypto';
import { freePort, killService, type ServiceProcess, startService } from '../support/processes';
import type { Pg15Cluster } from './support/pg15';
import { type TopologyFixtures, workspaceFixtures } from './support/fixtures';
import { queryOnce, startPrimaryWithStandby, until } from './support/standby';

/**
 * SQL_DATABASE_URL: POST /v2/sql runs on a hot standby, and says how far behind it was in
 * X-Replica-Lag-Ms. With the standby's replay paused, a record written through the API is on the
 * primary (GET answers it) but not in SQL answers, whose lag grows; once replay resumes, SQL sees
 * it and the lag is back to 0.
 */
describe('POST /v2/sql on a read replica (SQL_DATABASE_URL)', () => {
  let primary: Pg15Cluster;
  let standby: Pg15Cluster;
  let api: ServiceProcess;
  let fixtures: TopologyFixtures;
  let base: string;
  let token: string;

  beforeAll(async () => {
    ({ primary, standby } = await startPrimaryWithStandby('replica1'));
    const url = primary.url('workbase');
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    const cursorSecret = randomBytes(24).toString('hex');
    api = await startService('api', {
      DATABASE_URL: url,
      SQL_DATABASE_URL: standby.url('workbase'),
      PORT: String(port),
      BASE_URL: base,
      CURSOR_SECRET: cursorSecret,
      LOG_LEVEL: 'warn',
      RUN_WORKER: 'false',
      SEED_DEMO_WORKSPACE: 'false',
      RATE_LIMIT_ENABLED: 'false',
    });
    fixtures = await workspaceFixtures(url, cursorSecret, 'replica');
    token = await fixtures.token('replica');
  }, 170_000);

  afterAll(async () => {
    await killService(api);
    await fixtures?.app.close().catch(() => undefined);
    await standby?.destroy();
    await primary?.destroy();
  });

  const send = (method: string, route: string, body?: unknown) =>
    fetch(`${base}${route}`, { method, headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });

  async function namesInSql(name: string): Promise<{ rows: unknown[]; lag: string | null }> {
    const res = await send('POST', '/v2/sql', { sql: `SELECT name FROM companies WHERE name = '${name}'` });
    expect(res.status).toBe(200);
    return { rows: ((await res.json()) as { data: { rows: unknown[] } }).data.rows, lag: res.headers.get('x-replica-lag-ms') };
  }

  async function createCompany(name: string): Promise<string> {
    const res = await send('POST', '/v2/objects/companies/records', { data: { values: { name } } });
    expect(res.status).toBe(200);
    return ((await res.json()) as { data: { id: { record_id: string } } }).data.id.record_id;
  }

  it('answers from the standby, with its lag in X-Replica-Lag-Ms (0 when it has replayed everything, also on an idle primary)', async () => {
    await createCompany('Replicated');
    const caughtUp = await until('the standby to replay the write', async () => {
      const answer = await namesInSql('Replicated');
      return answer.rows.length === 1 ? answer : null;
    }, 20_000);
    expect(caughtUp.lag).toMatch(/^\d+$/);
    // An idle primary sends nothing: the age of the last replayed transaction grows, the lag does not.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect((await namesInSql('Replicated')).lag).toBe('0');

    await queryOnce(standby.url(), 'SELECT pg_wal_replay_pause()');
    try {
      const id = await createCompany('Written while replay is paused');
      // The primary has it (the API reads it there)...
      expect((await send('GET', `/v2/objects/companies/records/${id}`)).status).toBe(200);
      // ...the replica's received it but not replayed it: SQL does not see it, and says it is behind.
      await until('the standby to receive the write', async () => (await queryOnce<{ behind: boolean }>(standby.url(), 'SELECT pg_last_wal_receive_lsn() > pg_last_wal_replay_lsn() AS behind'))[0].behind, 10_000);
      await new Promise((resolve) => setTimeout(resolve, 300));
      const stale = await namesInSql('Written while replay is paused');
      expect(stale.rows).toEqual([]);
      expect(Number(stale.lag)).toBeGreaterThanOrEqual(300);
    } finally {
      await queryOnce(standby.url(), 'SELECT pg_wal_replay_resume()');
    }
    const fresh = await until('the standby to replay the paused write', async () => {
      const answer = await namesInSql('Written while replay is paused');
      return answer.rows.length === 1 ? answer : null;
    }, 20_000);
    expect(fresh.rows).toEqual([{ name: 'Written while replay is paused' }]);
    expect(fresh.lag).toBe('0');
  });

  it('runs the statements on the standby, not on the primary', async () => {
    await namesInSql('Replicated');
    const where = async (url: string) => (await queryOnce<{ n: number }>(url, `SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = 'workbase-sql'`))[0].n;
    expect(await where(standby.url())).toBeGreaterThan(0);
    expect(await where(primary.url())).toBe(0);
  });
});
