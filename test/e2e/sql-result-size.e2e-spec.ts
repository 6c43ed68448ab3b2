import type { Socket } from 'node:net';
import type { Pool, PoolClient } from 'pg';
import { SqlExecutor } from '../../libs/sql/src/infrastructure/sql-executor';
import { useTestApp, useWorkspace } from '../support/suite';

/**
 * Counts the bytes the database sends to the SQL endpoint's own connections from now on: each
 * connection checked out is read as it stands when taken, and again at the end (a socket keeps its
 * count after the connection is closed, as one may be after a failed statement).
 */
function countBytesFromDatabase(executor: SqlExecutor): { stop(): number } {
  const pool = (executor as unknown as { pool: Pool | null }).pool;
  if (!pool) throw new Error('the SQL endpoint has no pool yet: run a statement first');
  const readAtStart = new Map<Socket, number>();
  const taken = (client: PoolClient) => {
    const socket = (client as unknown as { connection: { stream: Socket } }).connection.stream;
    if (!readAtStart.has(socket)) readAtStart.set(socket, socket.bytesRead);
  };
  pool.on('acquire', taken);
  return {
    stop() {
      pool.off('acquire', taken);
      return [...readAtStart].reduce((sum, [socket, atStart]) => sum + socket.bytesRead - atStart, 0);
    },
  };
}

/**
 * POST /v2/sql bounds its answer (SQL_MAX_RESULT_BYTES): a statement whose rows add up to more is
 * a 400 result_too_large, decided inside PostgreSQL before the row that crosses the bound is sent.
 */
describe('SQL answer size bound', () => {
  describe('with the default bound (32 MiB)', () => {
    // A timeout long enough that the bound, not the timeout, refuses the statement on a loaded machine.
    const t = useTestApp({ env: { SQL_STATEMENT_TIMEOUT_MS: '120000' } });
    const ws = useWorkspace(t, 'sql-size-default');

    it('refuses a 600 MB answer in seconds, without the database sending any of it', async () => {
      const send = (statement: string) => t.http().post('/v2/sql').set('Authorization', `Bearer ${ws.token}`).send({ sql: statement });
      // Warm-up: the first refusal opens the endpoint's pool (and loads the error paths any request would).
      expect((await send("SELECT lpad('x', 40000000)")).body.code).toBe('result_too_large');
      // What reaches the service is counted on its database connections, not read off the process's
      // memory: a jest worker's RSS moves by hundreds of MB with what earlier test files left behind.
      // The count sees an answer that fits, in full:
      const fits = countBytesFromDatabase(t.app.get(SqlExecutor));
      expect((await send("SELECT lpad('x', 10000000) AS ten_mb")).status).toBe(200);
      expect(fits.stop()).toBeGreaterThan(10_000_000);
      const received = countBytesFromDatabase(t.app.get(SqlExecutor));
      const started = Date.now();
      let bytes: number;
      try {
        const res = await send("SELECT lpad('x', 200000000) FROM generate_series(1, 3)");
        expect(res.status).toBe(400);
        expect(res.body).toMatchObject({ status_code: 400, type: 'invalid_request_error', code: 'result_too_large', message: expect.stringContaining('SQL_MAX_RESULT_BYTES') });
        expect(res.body.message).toContain(String(t.config.sql.maxResultBytes));
      } finally {
        bytes = received.stop();
      }
      // PostgreSQL builds one 200 MB value (lpad, constant-folded while planning: 2-6 s alone, 20 s on a
      // 2-core machine at load 20) and stops at it; the bound is generous for CI's single core.
      expect(Date.now() - started).toBeLessThan(60_000);
      // The guard fails the first row before it is sent: the statement's messages and the error, no row.
      expect(bytes).toBeGreaterThan(0);
      expect(bytes).toBeLessThan(64 * 1024);
    });
  });

  describe('with a small bound', () => {
    const t = useTestApp({ env: { SQL_MAX_RESULT_BYTES: '4096' } });
    const ws = useWorkspace(t, 'sql-size-small');
    const sql = (statement: string) => t.http().post('/v2/sql').set('Authorization', `Bearer ${ws.token}`).send({ sql: statement });

    it('answers what fits, with only the statement\'s columns', async () => {
      const res = await sql("SELECT g AS n, lpad('x', 100) AS padding FROM generate_series(1, 10) AS g ORDER BY g DESC").expect(200);
      expect(res.body.data.columns.map((c: { name: string }) => c.name)).toEqual(['n', 'padding']);
      expect(res.body.data.rows.map((r: { n: number }) => r.n)).toEqual([10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
      expect(res.body.data.truncated).toBe(false);
    });

    it('refuses many small rows that add up to more than the bound, and a single row larger than it', async () => {
      for (const statement of ["SELECT g, lpad('x', 100) FROM generate_series(1, 100) AS g", "SELECT lpad('y', 5000) AS big"]) {
        const res = await sql(statement);
        expect({ statement, status: res.status, code: res.body.code }).toEqual({ statement, status: 400, code: 'result_too_large' });
        expect(res.body.message).toContain('4096 bytes');
      }
    });

    it('still answers the statement\'s own errors as before, and keeps serving after a refusal', async () => {
      expect((await sql("SELECT 'abc'::int").expect(400)).body).toMatchObject({ code: 'filter_error', message: expect.stringContaining('invalid input syntax') });
      expect((await sql("SELECT 'wb_result_too_large 1'::int, 'wb_result_too_large_0123456789abcdef 1'::int").expect(400)).body.code).toBe('filter_error');
      expect((await sql('SELECT 1 AS one').expect(200)).body.data.rows).toEqual([{ one: 1 }]);
    });
  });
});
