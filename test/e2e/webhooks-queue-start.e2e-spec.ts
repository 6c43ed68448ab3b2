import { Client } from 'pg';
import type { TransactionRunner } from '@workbase/shared/persistence';
import { DELIVERY_QUEUE, DeliveryQueue } from '../../libs/webhooks/src/infrastructure/delivery-queue';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

/**
 * Several workers started at once on a database pg-boss has never seen (a fresh deployment with
 * replicas): every one starts, and there is one delivery queue. pg-boss creates a queue by
 * attaching a partition to its job table, and two such statements at once can deadlock.
 */
describe('webhook delivery queue: workers starting together on a new database', () => {
  let database: TestDatabase;

  beforeAll(async () => {
    database = await createTestDatabase();
    const client = new Client({ connectionString: database.url });
    await client.connect();
    await client.query('DROP SCHEMA IF EXISTS pgboss CASCADE');
    await client.end();
  });

  afterAll(async () => {
    await database.drop();
  });

  it('all start, and the queue exists once', async () => {
    // Started and stopped only: no job is enqueued, so no transaction runner is needed.
    const noTransactions = null as unknown as TransactionRunner;
    const queues = Array.from({ length: 4 }, () => new DeliveryQueue({ connectionString: database.url, expireInSeconds: 60, maintenanceIntervalSeconds: 300, poolSize: 2 }, noTransactions));
    try {
      const started = await Promise.allSettled(queues.map((queue) => queue.start()));
      expect(started.filter((result) => result.status === 'rejected')).toEqual([]);
    } finally {
      await Promise.all(queues.map((queue) => queue.stop(false).catch(() => undefined)));
    }
    const client = new Client({ connectionString: database.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ count: string }>('SELECT count(*) FROM pgboss.queue WHERE name = $1', [DELIVERY_QUEUE]);
      expect(Number(rows[0].count)).toBe(1);
    } finally {
      await client.end();
    }
  });
});
