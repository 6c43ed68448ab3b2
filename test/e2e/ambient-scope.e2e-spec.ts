import { currentRequestContext, runInRequestContext, TransactionRunner } from '@workbase/shared/persistence';
import { DataSource } from 'typeorm';
import { useTestDatabase } from '../support/suite';

/**
 * The request context and the open transactions share one AsyncLocalStorage (ambient-scope.ts):
 * each runner still sees only its own transaction, the request's context reaches into its
 * transactions, and concurrent requests never see each other's.
 */
describe('ambient scope: request context and transactions in one storage', () => {
  const db = useTestDatabase();
  const sources: DataSource[] = [];
  const runner = async () => {
    const source = new DataSource({ type: 'postgres', url: db.url, poolSize: 2 });
    await source.initialize();
    sources.push(source);
    return new TransactionRunner(source);
  };
  const txid = async (transactions: TransactionRunner) => (await transactions.query<{ id: string }>(`SELECT pg_current_xact_id()::text AS id`))[0].id;
  afterAll(async () => {
    for (const source of sources) await source.destroy();
  });

  it('keeps each runner to its own transaction, nested or not', async () => {
    const [a, b] = [await runner(), await runner()];
    expect(a.inTransaction()).toBe(false);
    await a.run(async () => {
      expect(a.inTransaction()).toBe(true);
      expect(b.inTransaction()).toBe(false);
      const outer = await txid(a);
      // A nested run of the same runner joins its transaction.
      expect(await a.run(() => txid(a))).toBe(outer);
      // Another runner's run is a transaction of its own, and leaves the first one's in place.
      const inner = await b.run(async () => {
        expect(a.inTransaction()).toBe(true);
        expect(b.inTransaction()).toBe(true);
        return txid(b);
      });
      expect(inner).not.toBe(outer);
      expect(b.inTransaction()).toBe(false);
      expect(await txid(a)).toBe(outer);
    });
    expect(a.inTransaction()).toBe(false);
  });

  it('carries the request context into transactions, and keeps concurrent requests apart', async () => {
    const transactions = await runner();
    const seen = await Promise.all(
      ['first', 'second', 'third'].map((requestId, i) =>
        runInRequestContext({ requestId }, async () => {
          await new Promise((resolve) => setTimeout(resolve, 10 * (3 - i)));
          const inside = await transactions.run(async () => {
            await txid(transactions);
            return currentRequestContext()?.requestId;
          });
          expect(transactions.inTransaction()).toBe(false);
          return [inside, currentRequestContext()?.requestId];
        }),
      ),
    );
    expect(seen).toEqual([
      ['first', 'first'],
      ['second', 'second'],
      ['third', 'third'],
    ]);
    expect(currentRequestContext()).toBeUndefined();
  });
});
