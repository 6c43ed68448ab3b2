import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';
import { WebhookWorker } from '@workbase/webhooks';
import { WorkerModule } from '../../apps/worker/src/worker.module';
import { DeliveryAttempts } from '../../libs/webhooks/src/application/delivery-attempts';
import { startTestApp, type TestApp, type TestWorkspace } from '../support/test-app';
import { createMemberEvent, createWebhook, FAST_WEBHOOK_ENV, type Receiver, startReceiver, waitFor } from './webhooks.helpers';

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
});
