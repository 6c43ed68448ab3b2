import { randomUUID } from 'node:crypto';
import { NestFactory } from '@nestjs/core';
import { DataSource } from 'typeorm';
import type { INestApplicationContext } from '@nestjs/common';
import { WebhookWorker } from '@workbase/webhooks';
import { WorkerModule } from '../../apps/worker/src/worker.module';
import { DeliveryAttempts } from '../../libs/webhooks/src/application/delivery-attempts';
import { startTestApp, type TestApp, type TestWorkspace } from '../support/test-app';
import { createMemberEvent, createWebhook, deliveryRows, FAST_WEBHOOK_ENV, type Receiver, recordEvents, startReceiver, uniqueDeliveries, waitFor, waitForFanOut } from './webhooks.helpers';

const RATE = 10;
const BURST = 2;

/** The per-endpoint delivery rate holds across two workers sharing the database. */
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
  afterAll(async () => {
    await second?.close();
    await rx?.close();
    await t?.close();
  });

  it(`delivers at most ${RATE}/s (+ burst ${BURST}) to one endpoint with two workers, and loses nothing`, async () => {
    const attemptsA = jest.spyOn(t.app.get(DeliveryAttempts), 'attempt');
    const attemptsB = jest.spyOn(second.get(DeliveryAttempts), 'attempt');
    await createWebhook(t, ws.token, rx.url, [{ event_type: 'workspace-member.created', filter: null }]);
    const count = 40;
    for (let i = 0; i < count; i++) await createMemberEvent(t, ws.workspaceId);
    await Promise.all([t.app.get(WebhookWorker).start(), second.get(WebhookWorker).start()]);

    await waitFor(() => rx.accepted.length >= count, 30_000, `${count} deliveries`);
    const times = rx.accepted.map((r) => r.receivedAt).sort((a, b) => a - b);
    const span = times[times.length - 1] - times[0];
    let busiest = 0;
    for (let i = 0, j = 0; i < times.length; i++) {
      while (times[i] - times[j] >= 1000) j++;
      busiest = Math.max(busiest, i - j + 1);
    }
    expect(new Set(rx.accepted.map((r) => r.headers['webhook-id'])).size).toBe(count);
    // The span is the real test: one shared bucket needs (count - burst) / rate seconds; a bucket per
    // worker would need half that. The busiest second is measured at the receiver, where a stalled
    // event loop on a loaded machine can bunch requests that were sent evenly: hence the slack.
    expect(span).toBeGreaterThanOrEqual(((count - BURST) / RATE) * 1000 - 300);
    expect(busiest).toBeLessThanOrEqual(RATE + BURST + Math.ceil(RATE / 2));
    expect(attemptsA).toHaveBeenCalled();
    expect(attemptsB).toHaveBeenCalled();
  });

  it('does not count events filtered out by a subscription against the endpoint rate', async () => {
    const filtered = await startReceiver();
    try {
      const hook = await createWebhook(t, ws.token, filtered.url, [
        { event_type: 'activity-record.created', filter: { $and: [{ field: 'api_slug', operator: 'equals', value: 'site_visits' }] } },
      ]);
      const event = (slug: string) => ({
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
      const [{ n }] = (await t.app.get(DataSource).query(
        `SELECT count(*)::int AS n FROM webhook_delivery_attempts a JOIN webhook_deliveries d ON d.workspace_id = a.workspace_id AND d.id = a.delivery_id WHERE d.webhook_id = $1`,
        [hook.id],
      )) as Array<{ n: number }>;
      expect(n).toBe(2);
      expect(uniqueDeliveries(filtered.requests).map((r) => (JSON.parse(r.body) as { events: Array<{ api_slug: string }> }).events[0].api_slug)).toEqual(['site_visits', 'site_visits']);
    } finally {
      await filtered.close();
    }
  });
});
