import { Client } from 'pg';
import { ensureDatabase, standaloneClient, TransactionRunner } from '@workbase/shared/persistence';
import { useTestApp } from '../support/suite';

describe('TransactionRunner on the real pool', () => {
  const t = useTestApp();
  let transactions: TransactionRunner;
  const level = async () => ((await transactions.manager().query('SHOW transaction_isolation')) as { transaction_isolation: string }[])[0].transaction_isolation;
  const txid = async () => ((await transactions.manager().query('SELECT pg_current_xact_id()::text AS id')) as { id: string }[])[0].id;

  beforeAll(async () => {
    transactions = t.app.get(TransactionRunner);
  });

  it('runs READ COMMITTED by default, and the level asked for otherwise', async () => {
    expect(await transactions.run(level)).toBe('read committed');
    expect(await transactions.run(level, 'SERIALIZABLE')).toBe('serializable');
    expect(await transactions.run(level, 'REPEATABLE READ')).toBe('repeatable read');
    // Pinned per connection, so the default holds whatever the server's default is.
    expect(await level()).toBe('read committed');
  });

  it('joins the outer transaction from a nested run, and rolls back everything on failure', async () => {
    const [outer, inner] = await transactions.run(async () => [await txid(), await transactions.run(txid)]);
    expect(inner).toBe(outer);
    await transactions.manager().query(`CREATE TABLE probe_rollback (n int)`);
    await expect(
      transactions.run(async () => {
        await transactions.manager().query(`INSERT INTO probe_rollback VALUES (1)`);
        await transactions.run((m) => m.query(`INSERT INTO probe_rollback VALUES (2)`));
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(await transactions.manager().query(`SELECT count(*)::int AS n FROM probe_rollback`)).toEqual([{ n: 0 }]);
    await transactions.run((m) => m.query(`INSERT INTO probe_rollback VALUES (3)`));
    expect(await transactions.manager().query(`SELECT count(*)::int AS n FROM probe_rollback`)).toEqual([{ n: 1 }]);
  });
});

describe('ensureDatabase with starters racing', () => {
  const adminUrl = () => process.env.WB_TEST_ADMIN_URL!;
  async function asAdmin<T>(work: (admin: Client) => Promise<T>): Promise<T> {
    const admin = new Client({ connectionString: adminUrl() });
    await admin.connect();
    try {
      return await work(admin);
    } finally {
      await admin.end();
    }
  }

  it('lets every one of eight processes starting at once find the database made, whichever of them made it', async () => {
    for (let round = 0; round < 3; round++) {
      const name = `wb_race_${process.pid}_${Date.now()}_${round}`;
      try {
        const outcomes = await Promise.allSettled(Array.from({ length: 8 }, () => ensureDatabase(adminUrl(), name)));
        expect(outcomes.filter((outcome) => outcome.status === 'rejected')).toEqual([]);
        expect(await asAdmin(async (admin) => (await admin.query('SELECT count(*)::int AS n FROM pg_database WHERE datname = $1', [name])).rows)).toEqual([{ n: 1 }]);
      } finally {
        await asAdmin((admin) => admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
      }
    }
  });
});

describe('a connection of its own that the server ends between queries', () => {
  const adminUrl = () => process.env.WB_TEST_ADMIN_URL!;

  it('leaves the process running, and its next query fails instead of hanging', async () => {
    const client = standaloneClient({ connectionString: adminUrl(), application_name: 'workbase-test-standalone' });
    await client.connect();
    const ended = new Promise((resolve) => client.once('end', resolve));
    const [{ pid }] = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows;
    const admin = standaloneClient({ connectionString: adminUrl() });
    await admin.connect();
    try {
      // As a fast shutdown or another process's pg_terminate_backend does: 57P01 on an idle connection.
      expect((await admin.query('SELECT pg_terminate_backend($1, 5000) AS done', [pid])).rows).toEqual([{ done: true }]);
    } finally {
      await admin.end();
    }
    await ended;
    await expect(client.query('SELECT 1')).rejects.toThrow(/not queryable|Connection terminated/);
    await client.end().catch(() => undefined);
  });
});
