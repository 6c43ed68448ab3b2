import { TransactionRunner } from '@workbase/shared/persistence';
import { Client, type Pool } from 'pg';
import { DataSource } from 'typeorm';
import { bearerRequests } from '../support/requests';
import { useTestApp, useWorkspace } from '../support/suite';

/**
 * The database away is a 503 `database_unavailable` with Retry-After, never a 500. The server
 * ends the request's own backend (`pg_terminate_backend`, what a restart or failover does to every
 * connection) while the request waits inside PostgreSQL on an advisory lock this suite holds:
 * a trigger on `records` takes it, either as the INSERT runs (the write has not been committed)
 * or, deferred, inside the COMMIT (the client cannot know whether it was applied).
 */
describe('the database going away under a request', () => {
  const t = useTestApp();
  const ws = useWorkspace(t, 'db-away');
  const api = bearerRequests(
    () => t,
    () => ws.token,
  );
  /** Holds the gates (a lock in a transaction); the observer watches pg_stat_activity, whose view is frozen inside a transaction. */
  let admin: Client;
  let observer: Client;
  let adminPid: number;
  const GATE = 4_242_001;

  beforeAll(async () => {
    admin = new Client({ connectionString: t.database.url });
    // The suite's database is dropped WITH (FORCE) as the app closes, which may end this connection first.
    observer = new Client({ connectionString: t.database.url });
    for (const client of [admin, observer]) {
      client.on('error', () => undefined);
      await client.connect();
    }
    adminPid = (await admin.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0].pid;
    await admin.query(`CREATE FUNCTION test_gate() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN PERFORM pg_advisory_lock(${GATE}); PERFORM pg_advisory_unlock(${GATE}); RETURN NULL; END $$`);
  });
  afterAll(async () => {
    await Promise.all([admin.end(), observer.end()]);
  });
  afterEach(async () => {
    await admin.query(`DROP TRIGGER IF EXISTS gate_on_insert ON records; DROP TRIGGER IF EXISTS gate_on_commit ON records`);
    await admin.query(`ROLLBACK; SELECT pg_advisory_unlock_all()`);
  });

  /** The pid of the one other backend of this database waiting on the gate, once it waits there. */
  async function backendAtTheGate(): Promise<number> {
    for (const deadline = Date.now() + 15_000; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 20))) {
      const { rows } = await observer.query<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND wait_event_type = 'Lock' AND wait_event = 'advisory'`,
      );
      if (rows.length === 1) return rows[0].pid;
    }
    throw new Error('no backend reached the gate');
  }

  const storedValues = async (text: string) => (await admin.query<{ n: number }>(`SELECT count(*)::int AS n FROM record_values WHERE value_text = $1`, [text])).rows[0].n;

  async function terminatedAtTheGate(send: () => PromiseLike<{ status: number; body: Record<string, unknown>; headers: Record<string, string> }>) {
    await admin.query(`SELECT pg_advisory_lock(${GATE})`);
    const answer = Promise.resolve(send()); // a supertest request is sent when it is awaited
    const pid = await backendAtTheGate();
    await admin.query('SELECT pg_terminate_backend($1)', [pid]);
    await admin.query(`SELECT pg_advisory_unlock(${GATE})`);
    return answer;
  }

  it('answers a write whose connection died before its COMMIT with 503 and Retry-After, and writes nothing', async () => {
    await admin.query(`CREATE TRIGGER gate_on_insert AFTER INSERT ON records FOR EACH ROW EXECUTE FUNCTION test_gate()`);
    const res = await terminatedAtTheGate(() => api.post('/v2/objects/companies/records', { data: { values: { name: 'Lost before commit' } } }));
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ status_code: 503, type: 'internal_server_error', code: 'database_unavailable' });
    expect(res.body.message).toContain('nothing was written');
    expect(Date.parse(res.headers['retry-after'])).toBeGreaterThan(Date.now() - 5_000);
    const listed = await api.post('/v2/objects/companies/records/query', { filter: { name: 'Lost before commit' } }).expect(200);
    expect(listed.body.data).toEqual([]);
  });

  it('answers a write whose connection died during its COMMIT with 503 saying it may have been applied', async () => {
    await admin.query(`CREATE CONSTRAINT TRIGGER gate_on_commit AFTER INSERT ON records DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION test_gate()`);
    const res = await terminatedAtTheGate(() => api.post('/v2/objects/companies/records', { data: { values: { name: 'Lost in commit' } } }));
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ code: 'database_unavailable' });
    expect(res.body.message).toContain('may have been applied');
    expect(res.headers['retry-after']).toBeDefined();
    // Not retried by the service: the server ended the transaction before it committed, so it is not there.
    expect(await storedValues('Lost in commit')).toBe(0);
  });

  it('runs a read whose connection died once more on a fresh one, and answers it', async () => {
    const { id, answer, first, second } = await readRunTwice('Read through');
    expect(second).not.toBe(first);
    await admin.query('COMMIT');
    const res = await answer;
    expect(res.status).toBe(200);
    expect(res.body.data.id.record_id).toBe(id);
  });

  it('answers a read that failed twice with 503, not 500', async () => {
    const { id, answer, second } = await readRunTwice('Read refused');
    await observer.query('SELECT pg_terminate_backend($1)', [second]);
    const res = await answer;
    await admin.query('COMMIT');
    expect(res.status).toBe(503);
    expect(res.body).toMatchObject({ code: 'database_unavailable' });
    expect(res.headers['retry-after']).toBeDefined();
    // And the pool is healthy again at once: the dead connections were dropped, not handed out.
    await api.get(`/v2/objects/companies/records/${id}`).expect(200);
  });

  it('leaves no listener behind on a pooled connection after a transaction (each watched its connection for a loss)', async () => {
    const transactions = t.app.get(TransactionRunner);
    const pool = (t.app.get(DataSource).driver as unknown as { master: Pool & { _clients: Client[] } }).master;
    await transactions.run((m) => m.query('SELECT 1'));
    const before = pool._clients.map((client) => client.listenerCount('error'));
    for (let i = 0; i < 30; i++) await transactions.run((m) => m.query('SELECT 1'));
    expect(Math.max(...pool._clients.map((client) => client.listenerCount('error')))).toBeLessThanOrEqual(Math.max(...before));
  });

  it('documents the 503 with its Retry-After on every operation of the OpenAPI document', async () => {
    const document = (await t.http().get('/openapi.json').expect(200)).body as { paths: Record<string, Record<string, { responses: Record<string, { headers?: object; content?: object }> }>>; components: { schemas: object } };
    const operations = Object.entries(document.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, operation]) => ({ at: `${method} ${path}`, operation })));
    expect(operations.length).toBeGreaterThan(100);
    for (const { at, operation } of operations) expect({ at, documented: operation.responses['503'] !== undefined }).toEqual({ at, documented: true });
    expect(document.paths['/v2/sql'].post.responses['503']).toMatchObject({ headers: { 'Retry-After': expect.any(Object) } });
    expect(document.components.schemas).toHaveProperty('ApiErrorResponse');
  });

  /**
   * A GET of a new record held inside PostgreSQL by a table lock (the admin's open transaction),
   * its backend ended there, and its second run (on a fresh connection) held at the same lock.
   */
  async function readRunTwice(name: string) {
    const id = await api.createRecord('companies', { name });
    await admin.query('BEGIN');
    await admin.query('LOCK TABLE records IN ACCESS EXCLUSIVE MODE');
    const answer = api.get(`/v2/objects/companies/records/${id}`).then((res) => res);
    const first = await waitingOnTheTableLock();
    await observer.query('SELECT pg_terminate_backend($1)', [first]);
    return { id, answer, first, second: await waitingOnTheTableLock(first) };
  }

  async function waitingOnTheTableLock(not?: number): Promise<number> {
    for (const deadline = Date.now() + 15_000; Date.now() < deadline; await new Promise((resolve) => setTimeout(resolve, 20))) {
      const { rows } = await observer.query<{ pid: number }>(
        `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND pid <> $1 AND pid <> $2 AND wait_event_type = 'Lock' AND wait_event = 'relation'`,
        [not ?? 0, adminPid],
      );
      if (rows.length === 1) return rows[0].pid;
    }
    throw new Error('no backend waited on the table lock');
  }
});
