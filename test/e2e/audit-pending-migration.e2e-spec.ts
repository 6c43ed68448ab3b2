import { randomUUID } from 'node:crypto';
import { MIGRATIONS } from '@workbase/shared/persistence';
import type { QueryRunner } from 'typeorm';
import { useTestDatabase } from '../support/suite';

/**
 * The migration that moved unsealed audit entries into `audit_pending`: on a database written by
 * the earlier schema (entries sealed and not, in one table), the sealed ones stay in the chain, the
 * unsealed ones move with their `(tx_id, entry_no)`, and new entries are numbered after all of
 * them. Down puts them back, and up again gives the same tables.
 */
describe('migration AuditPending: existing entries', () => {
  const db = useTestDatabase();
  const migration = () => MIGRATIONS.find((m) => m.name === 'AuditPending1766100000000')!;
  const runner = () => ({ query: (sql: string) => db.client.query(sql) }) as unknown as QueryRunner;
  const rows = async (table: string, workspaceId: string) =>
    (await db.client.query<{ entry_no: string; tx_id: string; id: string; seq: string | null }>(
      `SELECT entry_no::text, tx_id::text, id, ${table === 'audit_log' ? 'seq::text' : 'NULL AS seq'} FROM ${table} WHERE workspace_id = $1 ORDER BY tx_id, entry_no`,
      [workspaceId],
    )).rows;

  it('keeps sealed entries in the chain, moves unsealed ones with their order, and numbers new entries after them', async () => {
    await new (migration())().down(runner());
    const ws = randomUUID();
    await db.client.query(`INSERT INTO workspaces (id, name, slug) VALUES ($1, 'Before', 'before-pending')`, [ws]);
    const entry = (seq: number | null) =>
      db.client.query(
        `INSERT INTO audit_log (workspace_id, id, occurred_at, actor, action, target_kind, target_id, target, content_hash, seq, prev_hash, hash)
         VALUES ($1, $2, now(), '{}', 'record.created', 'record', 'r', '{}', repeat('c', 64), $3::bigint, CASE WHEN $3::bigint IS NULL THEN NULL ELSE repeat('p', 64) END, CASE WHEN $3::bigint IS NULL THEN NULL ELSE repeat('h', 64) END)
         RETURNING entry_no::text`,
        [ws, randomUUID(), seq],
      );
    for (const seq of [1, 2, null, null]) await entry(seq);
    const before = await rows('audit_log', ws);
    expect(before.map((row) => row.seq)).toEqual(['1', '2', null, null]);

    await new (migration())().up(runner());
    const chain = await rows('audit_log', ws);
    const pending = await rows('audit_pending', ws);
    expect(chain).toEqual(before.slice(0, 2));
    expect(pending).toEqual(before.slice(2).map((row) => ({ ...row, seq: null })));
    const next = await db.client.query<{ entry_no: string }>(
      `INSERT INTO audit_pending (workspace_id, id, occurred_at, actor, action, target_kind, target_id, target, content_hash)
       VALUES ($1, $2, now(), '{}', 'record.created', 'record', 'r', '{}', repeat('c', 64)) RETURNING entry_no::text`,
      [ws, randomUUID()],
    );
    expect(BigInt(next.rows[0].entry_no)).toBeGreaterThan(BigInt(before[before.length - 1].entry_no));
    // The chain's rows are complete: a row without its seal is refused.
    await expect(
      db.client.query(`INSERT INTO audit_log (entry_no, workspace_id, id, occurred_at, actor, action, target_kind, target_id, target, content_hash) VALUES (999999, $1, $2, now(), '{}', 'a', 'b', 'c', '{}', 'd')`, [ws, randomUUID()]),
    ).rejects.toThrow(/null value in column "seq"/);

    await new (migration())().down(runner());
    expect((await rows('audit_log', ws)).map((row) => row.seq)).toEqual(['1', '2', null, null, null]);
    await new (migration())().up(runner());
    expect(await rows('audit_log', ws)).toEqual(chain);
    expect((await rows('audit_pending', ws)).length).toBe(3);
  });
});
