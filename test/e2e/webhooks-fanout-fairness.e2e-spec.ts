import { WebhookWorker } from '@workbase/webhooks';
import { rateTargetKey } from '../../libs/webhooks/src/domain/rate-target';
import { DataSource } from 'typeorm';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { WorkerModule } from '../../apps/worker/src/worker.module';
import { startTestApp, type TestApp } from '../support/test-app';
import { Client } from 'pg';
import { FanOut } from '../../libs/webhooks/src/application/fan-out';
import { DeliveryQueue } from '../../libs/webhooks/src/infrastructure/delivery-queue';
import { createWebhook, FAST_WEBHOOK_ENV, type Receiver, recordEvents, startReceiver, waitFor, waitForFanOut, waitForHorizon, taskEvents } from './webhooks.helpers';

const BACKLOG = 2_000;
const subscriptions = [{ event_type: 'task.created', filter: null }];


/** A's backlog in transactions of 500 (as an import would write it), then B's one event: all still in the outbox. */
async function backlogThenOne(t: TestApp, busy: string, quiet: string, backlog: number): Promise<void> {
  for (let i = 0; i < backlog; i += 500) await recordEvents(t, ...taskEvents(busy, Math.min(500, backlog - i), `busy-${i}`));
  await recordEvents(t, ...taskEvents(quiet, 1, 'quiet'));
}

interface DeliveryRow {
  workspace_id: string;
  event_id: string;
  created_at: Date;
}

const deliveriesOf = async (t: TestApp, ...workspaceIds: string[]): Promise<DeliveryRow[]> =>
  t.app
    .get(DataSource)
    .query(`SELECT workspace_id, event_id::text, created_at FROM webhook_deliveries WHERE workspace_id = ANY($1::uuid[]) ORDER BY seq`, [workspaceIds]);

/**
 * Each of the busy workspace's deliveries counted once: its target's clock moved one interval per
 * delivery made, so it ends `events / rate` after the first fan-out (each delivery counted twice,
 * made ahead and then skipped by the cursor, would add one more; checked within `toleranceSeconds`
 * when all were made while the clock ran ahead); and the priorities, minus the
 * workspace's deliveries pending before each, are 0, -1, … -(events - 1), each once. Needs every
 * delivery still pending (a failing receiver).
 */
async function expectCountedOnce(t: TestApp, workspaceId: string, targetUrl: string, events: number, rate: number, toleranceSeconds: number | null): Promise<void> {
  const db = t.app.get(DataSource);
  const [{ first_made, paced_until }] = await db.query(
    `SELECT (SELECT min(created_at) FROM webhook_deliveries WHERE workspace_id = $1) AS first_made,
       (SELECT paced_until FROM webhook_targets WHERE target_hash = $2) AS paced_until`,
    [workspaceId, rateTargetKey(targetUrl)],
  );
  if (toleranceSeconds !== null) {
    const pacedSeconds = (new Date(paced_until).getTime() - new Date(first_made).getTime()) / 1000;
    expect(pacedSeconds).toBeGreaterThan(events / rate - toleranceSeconds);
    expect(pacedSeconds).toBeLessThan(events / rate + toleranceSeconds);
  }
  const jobs: Array<{ priority: number }> = await db.query(
    `SELECT DISTINCT ON (data->>'deliveryId') priority FROM pgboss.job WHERE data->>'workspaceId' = $1 AND (data->>'attempt')::int = 1`,
    [workspaceId],
  );
  expect(jobs).toHaveLength(events);
  expect(jobs.map((job) => job.priority).sort((a, b) => b - a)).toEqual(Array.from({ length: events }, (_, i) => 0 - i));
}

/**
 * Fan-out's look-ahead: an event committed behind another workspace's backlog of outbox events
 * is fanned out (and delivered) before that backlog is, and the cursor, reaching the events read
 * ahead, makes nothing twice: every event is delivered once, and pacing and priorities count each
 * delivery once. The worker starts only once everything is committed, so B's event is behind
 * all of A's in the outbox whatever the machine's speed.
 */
describe("webhook fan-out: a workspace's backlog in the outbox does not hold up another's event (e2e)", () => {
  describe('delivery', () => {
    let t: TestApp;
    const receivers: Receiver[] = [];

    beforeAll(async () => {
      // Enough room per target that A's backlog is delivered within seconds.
      t = await startTestApp({ env: { ...FAST_WEBHOOK_ENV, WEBHOOK_MAX_IN_FLIGHT_PER_TARGET: '16', WEBHOOK_WORKER_CONCURRENCY: '16' } });
    });
    afterAll(async () => {
      await Promise.all(receivers.map((r) => r.close()));
      await t.app.get(WebhookWorker).stop();
      await t.close();
    });

    it(`delivers B's event committed after ${BACKLOG} outbox events of A before A's backlog is fanned out, and each of A's events exactly once`, async () => {
      const [wsBusy, wsQuiet] = [await t.createWorkspace(), await t.createWorkspace()];
      const busy = await startReceiver();
      const quiet = await startReceiver();
      receivers.push(busy, quiet);
      const busyHook = await createWebhook(t, wsBusy.token, busy.url, subscriptions);
      await createWebhook(t, wsQuiet.token, quiet.url, subscriptions);
      await backlogThenOne(t, wsBusy.workspaceId, wsQuiet.workspaceId, BACKLOG);
      await waitForHorizon(t);

      await t.app.get(WebhookWorker).start();
      const started = Date.now();
      await waitFor(() => quiet.accepted.length >= 1, 5_000, "B's event");
      // Two passes of fan-out (A's first batch, then the look-ahead) and one attempt; generous for a loaded machine.
      expect(quiet.accepted[0].receivedAt - started).toBeLessThan(3_000);

      await waitForFanOut(t);
      const rows = await deliveriesOf(t, wsBusy.workspaceId, wsQuiet.workspaceId);
      const quietRow = rows.find((row) => row.workspace_id === wsQuiet.workspaceId)!;
      const busyRows = rows.filter((row) => row.workspace_id === wsBusy.workspaceId);
      // B's delivery was made while most of A's were still to come (in commit order it is last).
      const busyMadeBefore = busyRows.filter((row) => row.created_at.getTime() < quietRow.created_at.getTime()).length;
      expect(busyMadeBefore).toBeLessThan(BACKLOG / 2);
      // One delivery per event; A, the backlog itself, is left to the cursor: made in commit order.
      expect(busyRows).toHaveLength(BACKLOG);
      expect(new Set(busyRows.map((row) => row.event_id)).size).toBe(BACKLOG);
      expect(busyRows.some((row, i) => i > 0 && BigInt(row.event_id) < BigInt(busyRows[i - 1].event_id))).toBe(false);

      // Every event of A arrives, each once (the webhook-id of a delivery; retries would repeat one).
      await waitFor(() => busy.accepted.length >= BACKLOG, 60_000, "all of A's backlog");
      const ids = busy.accepted.map((request) => String(request.headers['webhook-id']));
      expect(new Set(ids).size).toBe(BACKLOG);
      const taskIds = busy.accepted.map((request) => (JSON.parse(request.body) as { webhook_id: string; events: Array<{ id: { task_id: string } }> }).events[0].id.task_id);
      expect(new Set(taskIds).size).toBe(BACKLOG);
      expect(busy.accepted.every((request) => (JSON.parse(request.body) as { webhook_id: string }).webhook_id === busyHook.id)).toBe(true);
      expect(quiet.accepted).toHaveLength(1);
    }, 90_000);
  });

  describe('pacing and priority', () => {
    // Slow enough that each delivery counted twice would move the target's clock by 0.2 s.
    const RATE = 5;
    const EVENTS = 1_200;
    let t: TestApp;
    let failing: Receiver;

    beforeAll(async () => {
      t = await startTestApp({ env: { ...FAST_WEBHOOK_ENV, WEBHOOK_RATE_LIMIT_PER_SECOND: String(RATE), WEBHOOK_RATE_LIMIT_BURST: String(RATE) } });
      // Every attempt fails, so every delivery stays pending: the priorities were all given against the same backlog.
      failing = await startReceiver(() => ({ status: 500 }));
    });
    afterAll(async () => {
      await failing.close();
      await t.app.get(WebhookWorker).stop();
      await t.close();
    });

    it('paces a target and ranks a workspace by the deliveries made once each, whether read ahead or in order', async () => {
      const [wsBusy, wsQuiet] = [await t.createWorkspace(), await t.createWorkspace()];
      const quiet = await startReceiver();
      try {
        const wsSmall = await t.createWorkspace();
        const smallTarget = `${failing.url}-small`;
        await createWebhook(t, wsBusy.token, failing.url, subscriptions);
        await createWebhook(t, wsSmall.token, smallTarget, subscriptions);
        await createWebhook(t, wsQuiet.token, quiet.url, subscriptions);
        // A's backlog, then C's 8 events (read ahead, then reached by the cursor), then B's one.
        for (let i = 0; i < EVENTS; i += 500) await recordEvents(t, ...taskEvents(wsBusy.workspaceId, Math.min(500, EVENTS - i), `busy-${i}`));
        await recordEvents(t, ...taskEvents(wsSmall.workspaceId, 8, 'small'));
        await recordEvents(t, ...taskEvents(wsQuiet.workspaceId, 1, 'quiet'));
        await waitForHorizon(t);
        await t.app.get(WebhookWorker).start();
        await waitFor(() => quiet.accepted.length >= 1, 5_000, "B's event");
        await waitForFanOut(t);

        const busyRows = await deliveriesOf(t, wsBusy.workspaceId);
        const smallRows = await deliveriesOf(t, wsSmall.workspaceId);
        expect(busyRows).toHaveLength(EVENTS);
        expect(smallRows).toHaveLength(8);
        // C's were made ahead of the cursor (before A's last), so the cursor met them made.
        expect(Math.max(...smallRows.map((row) => row.created_at.getTime()))).toBeLessThan(Math.max(...busyRows.map((row) => row.created_at.getTime())));
        await expectCountedOnce(t, wsSmall.workspaceId, smallTarget, 8, RATE, 0.5);
        await expectCountedOnce(t, wsBusy.workspaceId, failing.url, EVENTS, RATE, 1);
      } finally {
        await quiet.close();
      }
    }, 60_000);
  });

  describe('two workers', () => {
    const RATE = 5;
    const EVENTS = 1_500;
    let t: TestApp;
    let second: INestApplicationContext;
    let failing: Receiver;

    beforeAll(async () => {
      t = await startTestApp({ env: { ...FAST_WEBHOOK_ENV, WEBHOOK_RATE_LIMIT_PER_SECOND: String(RATE), WEBHOOK_RATE_LIMIT_BURST: String(RATE) } });
      second = await NestFactory.createApplicationContext(WorkerModule.forRoot({ ...t.config, dbPoolSize: 5 }, t.database.url), { logger: false });
      failing = await startReceiver(() => ({ status: 500 }));
    });
    afterAll(async () => {
      await second?.close();
      await failing?.close();
      await t.app.get(WebhookWorker).stop();
      await t?.close();
    });

    it("fans out with both (the cursor's lock taken in turns, the look-ahead's position shared): each event made once, the backlog paced and counted once", async () => {
      const [wsBusy, wsQuiet] = [await t.createWorkspace(), await t.createWorkspace()];
      const quietTarget = `${failing.url}-quiet`;
      await createWebhook(t, wsBusy.token, failing.url, subscriptions);
      await createWebhook(t, wsQuiet.token, quietTarget, subscriptions);
      // B's events (3 at a time) between A's transactions: some are read ahead by one worker and reached by the other's cursor.
      for (let i = 0; i < EVENTS; i += 500) {
        await recordEvents(t, ...taskEvents(wsBusy.workspaceId, 500, `busy-${i}`));
        await recordEvents(t, ...taskEvents(wsQuiet.workspaceId, 3, `quiet-${i}`));
      }
      await Promise.all([t.app.get(WebhookWorker).start(), second.get(WebhookWorker).start()]);
      await waitForFanOut(t);

      const rows = await deliveriesOf(t, wsBusy.workspaceId, wsQuiet.workspaceId);
      const quietCount = (EVENTS / 500) * 3;
      expect(rows.filter((row) => row.workspace_id === wsBusy.workspaceId)).toHaveLength(EVENTS);
      expect(rows.filter((row) => row.workspace_id === wsQuiet.workspaceId)).toHaveLength(quietCount);
      expect(new Set(rows.map((row) => row.event_id)).size).toBe(rows.length);
      // B's come in several passes (its clock may fall back to now between them): its priorities say it.
      await expectCountedOnce(t, wsQuiet.workspaceId, quietTarget, quietCount, RATE, null);
      await expectCountedOnce(t, wsBusy.workspaceId, failing.url, EVENTS, RATE, 1);
    }, 60_000);
  });

  describe('passes that read nothing', () => {
    let t: TestApp;
    let failing: Receiver;
    let queue: DeliveryQueue;
    const clients: Client[] = [];

    beforeAll(async () => {
      // No worker: the test runs fan-out's passes itself, one at a time.
      t = await startTestApp({ env: FAST_WEBHOOK_ENV });
      failing = await startReceiver(() => ({ status: 500 }));
      // The app's queue (the one fan-out enqueues on), started without the worker.
      queue = t.app.get(DeliveryQueue);
      await queue.start();
    });
    afterAll(async () => {
      await Promise.all(clients.map((client) => client.end().catch(() => undefined)));
      await queue.stop(false);
      await failing.close();
      await t.close();
    });

    const openTransaction = async (): Promise<Client> => {
      const client = new Client({ connectionString: t.database.url });
      clients.push(client);
      await client.connect();
      await client.query('BEGIN');
      return client;
    };

    it('keep the backlog in mind: after the cursor was locked elsewhere and the horizon held back, the next pass still reads ahead', async () => {
      const fanOut = t.app.get(FanOut);
      const [wsBusy, wsSmall] = [await t.createWorkspace(), await t.createWorkspace()];
      await createWebhook(t, wsBusy.token, failing.url, subscriptions);
      await createWebhook(t, wsSmall.token, `${failing.url}-small`, subscriptions);
      // The events of making the workspaces and webhooks out of the way: the batches below are the test's own.
      await waitForHorizon(t);
      while ((await fanOut.runOnce()).events > 0);
      await recordEvents(t, ...taskEvents(wsBusy.workspaceId, 500, 'busy-0'));
      // Another suite's transaction on a shared cluster could still hold the horizon before these.
      await waitForHorizon(t);
      // A transaction begun now (with an id) holds the horizon before everything committed after it.
      const older = await openTransaction();
      await older.query('SELECT pg_current_xact_id()');
      await recordEvents(t, ...taskEvents(wsBusy.workspaceId, 500, 'busy-500'));
      await recordEvents(t, ...taskEvents(wsBusy.workspaceId, 200, 'busy-1000'));
      await recordEvents(t, ...taskEvents(wsSmall.workspaceId, 8, 'small'));

      // A full batch: a backlog may wait.
      expect(await fanOut.runOnce()).toMatchObject({ events: 500, ahead: 0 });
      // Another worker holds the cursor: this pass reads nothing and learns nothing.
      const otherWorker = await openTransaction();
      await otherWorker.query(`SELECT 1 FROM webhook_dispatch_cursor WHERE consumer = 'webhooks' FOR UPDATE`);
      expect(await fanOut.runOnce()).toMatchObject({ events: 0, ahead: 0, waiting: false });
      await otherWorker.query('ROLLBACK');
      // The rest is committed but behind the older transaction: nothing to read yet, events waiting.
      expect(await fanOut.runOnce()).toMatchObject({ events: 0, ahead: 0, waiting: true });
      await older.query('COMMIT');
      await waitForHorizon(t);

      // The backlog is still known: the small workspace's 8 are read ahead of the busy one's 700.
      expect(await fanOut.runOnce()).toMatchObject({ events: 500, ahead: 8 });
      expect(await fanOut.runOnce()).toMatchObject({ events: 208, ahead: 0, deliveries: 200 });
      expect(await fanOut.runOnce()).toMatchObject({ events: 0, waiting: false });

      const busyRows = await deliveriesOf(t, wsBusy.workspaceId);
      const smallRows = await deliveriesOf(t, wsSmall.workspaceId);
      expect(busyRows).toHaveLength(1_200);
      expect(smallRows).toHaveLength(8);
      expect(Math.max(...smallRows.map((row) => row.created_at.getTime()))).toBeLessThan(Math.max(...busyRows.map((row) => row.created_at.getTime())));
      await expectCountedOnce(t, wsSmall.workspaceId, `${failing.url}-small`, 8, Number(FAST_WEBHOOK_ENV.WEBHOOK_RATE_LIMIT_PER_SECOND), null);
    }, 60_000);
  });

  describe('commit order across a digit boundary', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await startTestApp({ env: FAST_WEBHOOK_ENV });
    });
    afterAll(async () => {
      await t.app.get(WebhookWorker).stop();
      await t.close();
    });

    it('fans out every event of a transaction whose event ids go from 3 to 4 digits (or more): the batch is cut in number order, not text order', async () => {
      const ws = await t.createWorkspace();
      const rx = await startReceiver();
      try {
        await createWebhook(t, ws.token, rx.url, subscriptions);
        // Ids from 10 below a power of ten: in text order "1000" < "990", so a batch of 500 cut in text
        // order would end at a 4-digit id and leave the 3-digit ones behind the cursor, unread.
        const db = t.app.get(DataSource);
        const [{ max }] = await db.query(`SELECT COALESCE(max(id), 0)::text AS max FROM event_outbox`);
        const boundary = 10 ** String(Number(max) + 20).length;
        await db.query(`ALTER TABLE event_outbox ALTER COLUMN id RESTART WITH ${boundary - 10}`);
        const count = 611;
        await recordEvents(t, ...taskEvents(ws.workspaceId, count, 'boundary'));
        const [{ first }] = await db.query(`SELECT min(id)::text AS first FROM event_outbox WHERE workspace_id = $1 AND event_type = 'task.created'`, [ws.workspaceId]);
        expect(Number(first)).toBe(boundary - 10);

        await t.app.get(WebhookWorker).start();
        await waitForFanOut(t);
        const rows = await deliveriesOf(t, ws.workspaceId);
        expect(rows).toHaveLength(count);
        expect(rows.filter((row) => Number(row.event_id) < boundary)).toHaveLength(10);
      } finally {
        await rx.close();
      }
    }, 60_000);
  });
});
