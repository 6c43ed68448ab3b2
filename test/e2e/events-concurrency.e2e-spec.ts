import { randomUUID } from 'node:crypto';
import { type DomainEvent } from '@workbase/shared/kernel';
import { EventOutbox, TransactionRunner } from '@workbase/shared/persistence';
import { DataSource } from 'typeorm';
import { bearerRequests } from '../support/requests';
import { useTestApp, useWorkspace } from '../support/suite';
import { type FeedEvent, feedReader } from './events.helpers';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The feed's guarantee under concurrency: 8 writers, half of them through the API (one record per
 * transaction) and half in transactions of 1 to 40 events that stay open for a while between
 * statements, so that transactions commit in another order than they began (and some roll back),
 * while a reader follows the cursors every 100 ms. At the end the reader holds every acknowledged
 * write's event exactly once, in (tx_id, id) order, none of a rolled-back transaction and none of
 * another workspace, which writes at the same time.
 */
describe('change feed under concurrent writers', () => {
  const t = useTestApp();
  const ws = useWorkspace(t, 'feed-concurrency');
  const other = useWorkspace(t, 'feed-concurrency-other');
  const { createRecord } = bearerRequests(() => t, () => ws.token);
  const db = () => t.app.get(DataSource);

  it('gives a reader polling every 100 ms every committed event exactly once, in commit order, while transactions commit out of order', async () => {
    const transactions = t.app.get(TransactionRunner);
    const outbox = t.app.get(EventOutbox);
    const marker = (workspaceId: string): DomainEvent<'task.created'> => ({
      eventType: 'task.created',
      workspaceId,
      id: { workspace_id: workspaceId, task_id: randomUUID() },
      actor: { type: 'system', id: null },
    });

    const acknowledged = new Set<string>(); // record ids and marker task ids of committed writes
    const rolledBack = new Set<string>();
    // Transaction ids in the order their commits returned.
    const commits: bigint[] = [];
    let writing = true;

    // The reader: catches up every 100 ms while the writers run.
    const reader = feedReader(() => t, () => ws.token, { limit: 50 });
    const reading = (async () => {
      while (writing) {
        await reader.catchUp();
        await sleep(100);
      }
    })();

    const apiWriter = async (n: number) => {
      for (let i = 0; i < 12; i++) acknowledged.add(await createRecord('people', { name: `Writer${n}, Record${i}` }));
    };
    const transactionWriter = async (n: number) => {
      const sizes = [1, 40, 3, 17, 1, 25, 8, 2].map((size) => size + n);
      for (const [round, size] of sizes.entries()) {
        const ids: string[] = [];
        const rollBack = round === 3 && n % 2 === 0;
        try {
          const tx = await transactions.run(async () => {
            const [{ tx: id }] = await transactions.query<{ tx: string }>('SELECT pg_current_xact_id()::text AS tx');
            for (let i = 0; i < size; i++) {
              const event = marker(ws.workspaceId);
              ids.push(event.id.task_id);
              await outbox.record(event);
              // Open for 0-60 ms between statements: a transaction begun earlier often commits later.
              if (i % 5 === 0) await sleep(Math.floor(Math.random() * 60));
            }
            await outbox.record(marker(other.workspaceId));
            if (rollBack) throw new Error('rolled back on purpose');
            return BigInt(id);
          });
          commits.push(tx);
          for (const id of ids) acknowledged.add(id);
        } catch (error) {
          if (!rollBack) throw error;
          for (const id of ids) rolledBack.add(id);
        }
      }
    };
    const otherWriter = async () => {
      for (let i = 0; i < 10; i++) await createRecord('people', { name: `Theirs, ${i}` }, other.token);
    };

    await Promise.all([0, 1, 2, 3].map(apiWriter).concat([0, 1, 2, 3].map(transactionWriter), [otherWriter()]));
    writing = false;
    await reading;

    // Out-of-order commits did happen: a transaction with a later id committed before an earlier one.
    expect(commits.some((tx, i) => i > 0 && tx < commits[i - 1])).toBe(true);
    expect(rolledBack.size).toBeGreaterThan(0);

    const idOf = (event: FeedEvent) => event.id.record_id ?? event.id.task_id;
    await reader.until((events) => {
      const seen = new Set(events.map(idOf));
      return [...acknowledged].every((id) => seen.has(id));
    });
    await reader.catchUp();
    const events = reader.events;

    // Exactly once: no event twice, every acknowledged write's event once, nothing rolled back, nothing of the other workspace.
    expect(new Set(events.map((e) => e.event_id)).size).toBe(events.length);
    const written = events.filter((e) => (e.event_type === 'record.created' || e.event_type === 'task.created') && acknowledged.has(idOf(e)));
    expect(written).toHaveLength(acknowledged.size);
    expect(events.filter((e) => rolledBack.has(idOf(e)))).toEqual([]);
    expect(events.filter((e) => e.id.workspace_id !== ws.workspaceId)).toEqual([]);
    // And the reader holds the workspace's whole outbox, in (tx_id, id) order.
    const stored = await db().query(`SELECT e.id::text FROM event_outbox e WHERE e.workspace_id = $1 ORDER BY e.tx_id, e.id`, [ws.workspaceId]);
    expect(events.map((e) => e.event_id)).toEqual(stored.map((row: { id: string }) => row.id));
  });
});
