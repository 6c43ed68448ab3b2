import { randomUUID } from 'node:crypto';
import { NestFactory } from '@nestjs/core';
import { DataSource } from 'typeorm';
import type { INestApplicationContext } from '@nestjs/common';
import type { DomainEvent } from '@workbase/shared/kernel';
import { WebhookWorker } from '@workbase/webhooks';
import { WorkerModule } from '../../apps/worker/src/worker.module';
import { DeliveryAttempts } from '../../libs/webhooks/src/application/delivery-attempts';
import { DeliveryQueue } from '../../libs/webhooks/src/infrastructure/delivery-queue';
import { startTestApp, type TestApp, type TestWorkspace } from '../support/test-app';
import { createMemberEvent, createWebhook, deliveryRows, FAST_WEBHOOK_ENV, type Receiver, recordEvents, startReceiver, uniqueDeliveries, waitFor, waitForFanOut } from './webhooks.helpers';

const RATE = 10;
const BURST = 2;

/** Busiest sliding second of sorted arrival times. */
function busiestSecond(times: readonly number[]): number {
  let busiest = 0;
  for (let i = 0, j = 0; i < times.length; i++) {
    while (times[i] - times[j] >= 1000) j++;
    busiest = Math.max(busiest, i - j + 1);
  }
  return busiest;
}

/** The per-target delivery rate holds across two workers sharing the database. */
describe('webhook delivery rate limit (e2e)', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let second: INestApplicationContext;
  let rx: Receiver;

  beforeAll(async () => {
    t = await startTestApp({ env: { ...FAST_WEBHOOK_ENV, WEBHOOK_RATE_LIMIT_PER_SECOND: String(RATE), WEBHOOK_RATE_LIMIT_BURST: String(BURST) } });
    ws = await t.createWorkspace();
    second = await NestFactory.createApplicationContext(WorkerModule.forRoot({ ...t.config, dbPoolSize: 5 }, t.database.url), { logger: false });
    rx = await startReceiver();
  });
  afterEach(() => jest.restoreAllMocks());
  afterAll(async () => {
    await second?.close();
    await rx?.close();
    await t?.close();
  });

  it(`delivers at most ${RATE}/s (+ burst ${BURST}) to one endpoint with two workers, and loses nothing`, async () => {
    const attemptsA = jest.spyOn(t.app.get(DeliveryAttempts), 'attempt');
    const attemptsB = jest.spyOn(second.get(DeliveryAttempts), 'attempt');
    // Both workers must take part for the span to prove one shared bucket. Left alone, the worker
    // that first defers a job wakes exactly when it is due and keeps the target, while the other
    // polls every 500 ms and finds nothing (correct, but it would test one worker). So a worker
    // fetches only while it is at most two attempts ahead of the other.
    const fetch = DeliveryQueue.prototype.fetch;
    jest.spyOn(DeliveryQueue.prototype, 'fetch').mockImplementation(function (this: DeliveryQueue, ...args) {
      const [mine, theirs] = this === t.app.get(DeliveryQueue) ? [attemptsA, attemptsB] : [attemptsB, attemptsA];
      if (mine.mock.calls.length > theirs.mock.calls.length + 2) return Promise.resolve([]);
      return fetch.apply(this, args);
    });
    await createWebhook(t, ws.token, rx.url, [{ event_type: 'workspace-member.created', filter: null }]);
    const count = 40;
    for (let i = 0; i < count; i++) await createMemberEvent(t, ws.workspaceId);
    await Promise.all([t.app.get(WebhookWorker).start(), second.get(WebhookWorker).start()]);

    await waitFor(() => rx.accepted.length >= count, 30_000, `${count} deliveries`);
    const times = rx.accepted.map((r) => r.receivedAt).sort((a, b) => a - b);
    const span = times[times.length - 1] - times[0];
    const busiest = busiestSecond(times);
    expect(new Set(rx.accepted.map((r) => r.headers['webhook-id'])).size).toBe(count);
    // The span is the real test: one shared bucket needs (count - burst) / rate seconds; a bucket per
    // worker would need half that. The busiest second is measured at the receiver, where a stalled
    // event loop on a loaded machine can bunch requests that were sent evenly: hence the slack.
    expect(span).toBeGreaterThanOrEqual(((count - BURST) / RATE) * 1000 - 300);
    expect(busiest).toBeLessThanOrEqual(RATE + BURST + Math.ceil(RATE / 2));
    expect(attemptsA).toHaveBeenCalled();
    expect(attemptsB).toHaveBeenCalled();
  });

  it('shares one bucket among the webhooks of two workspaces on one target, and does not slow another target', async () => {
    const shared = await startReceiver();
    const other = await startReceiver();
    try {
      await Promise.all([t.app.get(WebhookWorker).start(), second.get(WebhookWorker).start()]); // no-ops when running
      const [wsA, wsB, wsC] = [await t.createWorkspace(), await t.createWorkspace(), await t.createWorkspace()];
      const subscriptions = [{ event_type: 'workspace-member.created', filter: null }];
      // A query string does not make another target: both count against `shared`.
      const hookA = await createWebhook(t, wsA.token, shared.url, subscriptions);
      const hookB = await createWebhook(t, wsB.token, `${shared.url}?workspace=b`, subscriptions);
      const hookC = await createWebhook(t, wsC.token, other.url, subscriptions);
      const memberEvents = (workspaceId: string, count: number) =>
        Array.from({ length: count }, (): DomainEvent => ({
          eventType: 'workspace-member.created',
          workspaceId,
          id: { workspace_id: workspaceId, workspace_member_id: randomUUID() },
          actor: { type: 'system' as const, id: null },
        }));
      const perSharedHook = 30;
      const toOther = 15;
      const committedAt = Date.now();
      // One transaction: every delivery is due at once, 2 x 30 to the shared target, 15 to the other.
      await recordEvents(t, ...memberEvents(wsA.workspaceId, perSharedHook), ...memberEvents(wsB.workspaceId, perSharedHook), ...memberEvents(wsC.workspaceId, toOther));

      await waitFor(() => uniqueDeliveries(shared.accepted).length >= 2 * perSharedHook, 30_000, 'the shared target to get every delivery');
      await waitFor(() => uniqueDeliveries(other.accepted).length >= toOther, 10_000, 'the other target to get every delivery');
      const byHook = (rx: Receiver, hookId: string) => uniqueDeliveries(rx.accepted).filter((r) => (JSON.parse(r.body) as { webhook_id: string }).webhook_id === hookId);
      expect(byHook(shared, hookA.id)).toHaveLength(perSharedHook);
      expect(byHook(shared, hookB.id)).toHaveLength(perSharedHook);
      expect(byHook(other, hookC.id)).toHaveLength(toOther);

      // Together, the two webhooks on the shared target keep to one rate: (60 - burst) / rate = 5.8 s
      // at least (a bucket per webhook would take half that), never much more than the rate in a second.
      const sharedTimes = shared.accepted.map((r) => r.receivedAt).sort((a, b) => a - b);
      const sharedDone = sharedTimes[sharedTimes.length - 1];
      expect(sharedDone - sharedTimes[0]).toBeGreaterThanOrEqual(((2 * perSharedHook - BURST) / RATE) * 1000 - 300);
      expect(busiestSecond(sharedTimes)).toBeLessThanOrEqual(RATE + BURST + Math.ceil(RATE / 2));
      // The other target has a bucket of its own: its 15 need (15 - burst) / rate = 1.3 s and are done
      // long before the shared target's 60 (in the shared bucket they would end about with them).
      const otherTimes = other.accepted.map((r) => r.receivedAt).sort((a, b) => a - b);
      const otherDone = otherTimes[otherTimes.length - 1];
      expect(otherDone - otherTimes[0]).toBeGreaterThanOrEqual(((toOther - BURST) / RATE) * 1000 - 300);
      expect(otherDone - committedAt).toBeLessThan(((toOther - BURST) / RATE) * 1000 + 1_500);
      expect(sharedDone - otherDone).toBeGreaterThan(2_000);
    } finally {
      await shared.close();
      await other.close();
    }
  });

  it('does not count events filtered out by a subscription against the endpoint rate', async () => {
    const filtered = await startReceiver();
    try {
      const hook = await createWebhook(t, ws.token, filtered.url, [
        { event_type: 'activity-record.created', filter: { $and: [{ field: 'api_slug', operator: 'equals', value: 'site_visits' }] } },
      ]);
      const event = (slug: string): DomainEvent => ({
        eventType: 'activity-record.created',
        workspaceId: ws.workspaceId,
        id: { workspace_id: ws.workspaceId, activity_id: randomUUID(), record_id: randomUUID() },
        actor: { type: 'system' as const, id: null },
        payload: { api_slug: slug },
      });
      // 60 events of other activities around 2 wanted ones: at 10/s they alone would take 6 s.
      await recordEvents(t, ...Array.from({ length: 30 }, () => event('phone_calls')), event('site_visits'), ...Array.from({ length: 30 }, () => event('emails')), event('site_visits'));
      await waitForFanOut(t);
      expect(await deliveryRows(t, hook.id)).toHaveLength(2);
      await waitFor(() => filtered.accepted.length >= 2, 10_000, 'the two wanted events');
      const attemptsMade = async () =>
        ((await t.app.get(DataSource).query(
          `SELECT count(*)::int AS n FROM webhook_delivery_attempts a JOIN webhook_deliveries d ON d.workspace_id = a.workspace_id AND d.id = a.delivery_id WHERE d.webhook_id = $1`,
          [hook.id],
        )) as Array<{ n: number }>)[0].n;
      // The attempt is recorded after the receiver's answer: wait for the record.
      await waitFor(async () => (await attemptsMade()) >= 2, 10_000, 'both attempts recorded');
      expect(await attemptsMade()).toBe(2);
      expect(uniqueDeliveries(filtered.requests).map((r) => (JSON.parse(r.body) as { events: Array<{ api_slug: string }> }).events[0].api_slug)).toEqual(['site_visits', 'site_visits']);
    } finally {
      await filtered.close();
    }
  });
});
