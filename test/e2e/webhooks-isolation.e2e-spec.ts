import { WebhookWorker } from '@workbase/webhooks';
import { startTestApp, type TestApp, type TestWorkspace } from '../support/test-app';
import { createWebhook, FAST_WEBHOOK_ENV, type Receiver, recordEvents, startReceiver, uniqueDeliveries, waitFor, waitForFanOut, taskEvents } from './webhooks.helpers';

const CAP = 3;
const TIMEOUT_MS = 10_000;


/**
 * One target's trouble stays its own: a receiver that never answers holds at most its cap of
 * attempts (never the healthy receivers' turn), a failing one is backed off as a whole by its
 * circuit, and one workspace's backlog does not queue ahead of another workspace's first event.
 */
describe('webhook target isolation (e2e)', () => {
  let t: TestApp;
  const receivers: Receiver[] = [];

  beforeAll(async () => {
    t = await startTestApp({
      env: {
        ...FAST_WEBHOOK_ENV,
        WEBHOOK_DELIVERY_TIMEOUT_MS: String(TIMEOUT_MS),
        WEBHOOK_MAX_IN_FLIGHT_PER_TARGET: String(CAP),
        WEBHOOK_WORKER_CONCURRENCY: '8',
        // Retries 3 s apart after two quick ones: the circuit's open time is bounded by the failed
        // attempt's next retry, so these let it stay open for 2-3 s.
        WEBHOOK_RETRY_SCHEDULE: ['0.2', '0.3', ...Array.from({ length: 8 }, () => '3')].join(','),
        WEBHOOK_CIRCUIT_OPEN_MS: '2000',
        WEBHOOK_CIRCUIT_MAX_OPEN_MS: '4000',
      },
    });
    await t.app.get(WebhookWorker).start();
  });
  afterAll(async () => {
    await Promise.all(receivers.map((r) => r.close()));
    await t.app.get(WebhookWorker).stop();
    await t.close();
  });

  async function receiver(reply?: Receiver['reply']): Promise<Receiver> {
    const started = await startReceiver(reply);
    receivers.push(started);
    return started;
  }
  const subscriptions = [{ event_type: 'task.created', filter: null }];
  const log = async (ws: TestWorkspace, webhookId: string) => (await t.http().get(`/v2/webhooks/${webhookId}/deliveries?limit=100`).set('Authorization', `Bearer ${ws.token}`)).body;

  it('delivers to a healthy receiver within 2 s while a hanging one holds no more than its cap of attempts', async () => {
    const [wsHang, wsHealthy] = [await t.createWorkspace(), await t.createWorkspace()];
    const hanging = await receiver(() => 'hang');
    const healthy = await receiver();
    const hangHook = await createWebhook(t, wsHang.token, hanging.url, subscriptions);
    await createWebhook(t, wsHealthy.token, healthy.url, subscriptions);

    await recordEvents(t, ...taskEvents(wsHang.workspaceId, 20, 'hang'));
    await waitFor(() => hanging.requests.length >= CAP, 5_000, 'the hanging receiver to hold its cap');
    const latencies: number[] = [];
    for (let i = 0; i < 5; i++) {
      const committed = Date.now();
      await recordEvents(t, ...taskEvents(wsHealthy.workspaceId, 1, `healthy-${i}`));
      await waitFor(() => healthy.accepted.length >= i + 1, 2_000, `healthy delivery ${i} within 2 s`);
      latencies.push(healthy.accepted[i].receivedAt - committed);
    }
    expect(Math.max(...latencies)).toBeLessThan(2_000);
    // The hanging receiver's attempts are all still open (the timeout is 10 s): never more than the cap.
    expect(hanging.requests).toHaveLength(CAP);

    const body = await log(wsHang, hangHook.id);
    const attempts = body.data.flatMap((d: { attempts: Array<{ outcome: string; duration_ms: number | null }> }) => d.attempts);
    expect(attempts.filter((a: { outcome: string }) => a.outcome === 'in_progress')).toHaveLength(CAP);
    expect(attempts.every((a: { outcome: string; duration_ms: number | null }) => a.outcome === 'in_progress' && a.duration_ms === null)).toBe(true);
    const waiting = body.data.filter((d: { waiting_reason: string | null }) => d.waiting_reason === 'target_busy');
    expect(waiting.length).toBeGreaterThan(0);
    expect(waiting.every((d: { status: string; attempt_count: number }) => d.status === 'pending' && d.attempt_count === 0)).toBe(true);
    expect(body.target).toMatchObject({ circuit_state: 'closed', attempts_in_flight: CAP, max_attempts_in_flight: CAP });
  }, 30_000);

  it('opens the circuit of a target that fails every attempt: its deliveries wait for the probes, the log says so, and all arrive once it recovers', async () => {
    const ws = await t.createWorkspace();
    let healthy = false;
    const failing = await receiver(() => (healthy ? { status: 200 } : { status: 500 }));
    const hook = await createWebhook(t, ws.token, failing.url, subscriptions);
    await recordEvents(t, ...taskEvents(ws.workspaceId, 10, 'circuit'));

    const open = await waitFor(async () => {
      const body = await log(ws, hook.id);
      return body.target.circuit_state === 'open' ? body : null;
    }, 10_000, 'the circuit to open');
    expect(open.target).toMatchObject({ consecutive_failures: expect.any(Number), failing_since: expect.any(String), next_probe_at: expect.any(String) });
    expect(open.target.consecutive_failures).toBeGreaterThanOrEqual(20);
    // While it is open, no attempt goes out; pending deliveries say why and wait past the probe.
    const sentWhenOpened = failing.requests.length;
    const probeAt = Date.parse(open.target.next_probe_at);
    await waitFor(async () => {
      const body = await log(ws, hook.id);
      return body.data.filter((d: { waiting_reason: string | null }) => d.waiting_reason === 'circuit_open').length > 0 ? body : null;
    }, 5_000, 'a delivery waiting for the circuit');
    const waiting = (await log(ws, hook.id)).data.filter((d: { waiting_reason: string | null }) => d.waiting_reason === 'circuit_open');
    expect(waiting.every((d: { status: string }) => d.status === 'pending')).toBe(true);
    const quietUntil = probeAt - 200;
    if (Date.now() < quietUntil) await new Promise((resolve) => setTimeout(resolve, quietUntil - Date.now()));
    // At most the attempts already under way when it opened may still land: the cap's worth.
    expect(failing.requests.length).toBeLessThanOrEqual(sentWhenOpened + CAP);
    const beforeRecovery = failing.requests.length;
    expect(beforeRecovery).toBeLessThanOrEqual(20 + 2 * CAP); // 10 deliveries, 10 attempts each with no circuit

    healthy = true;
    await waitFor(() => uniqueDeliveries(failing.accepted).length >= 10, 20_000, 'every delivery after the recovery');
    // The receiver answers before the worker records the attempt: wait for the records, not the requests.
    const closed = await waitFor(async () => {
      const body = await log(ws, hook.id);
      return body.data.every((d: { status: string }) => d.status === 'succeeded') ? body : null;
    }, 10_000, 'every delivery recorded as succeeded');
    expect(closed.target).toEqual({ circuit_state: 'closed', consecutive_failures: 0, failing_since: null, next_probe_at: null, attempts_in_flight: 0, max_attempts_in_flight: CAP });
    expect(closed.data.every((d: { status: string; waiting_reason: string | null }) => d.status === 'succeeded' && d.waiting_reason === null)).toBe(true);
  }, 40_000);

  it("does not queue one workspace's backlog ahead of another workspace's first event", async () => {
    const [wsBusy, wsQuiet] = [await t.createWorkspace(), await t.createWorkspace()];
    const busy = await receiver();
    const quiet = await receiver();
    await createWebhook(t, wsBusy.token, busy.url, subscriptions);
    await createWebhook(t, wsQuiet.token, quiet.url, subscriptions);
    const backlog = 1_500;
    for (let i = 0; i < backlog; i += 500) await recordEvents(t, ...taskEvents(wsBusy.workspaceId, 500, `busy-${i}`));
    await waitForFanOut(t);
    expect(busy.accepted.length).toBeLessThan(backlog); // still queued
    const committed = Date.now();
    await recordEvents(t, ...taskEvents(wsQuiet.workspaceId, 1, 'quiet'));
    await waitFor(() => quiet.accepted.length >= 1, 5_000, "the quiet workspace's event");
    expect(quiet.accepted[0].receivedAt - committed).toBeLessThan(1_000);
    expect(busy.accepted.length).toBeLessThan(backlog); // it went ahead of the backlog
    // The whole backlog still arrives: one target, at most CAP attempts at a time, takes a minute or more on a loaded CI machine.
    await waitFor(() => uniqueDeliveries(busy.accepted).length >= backlog, 150_000, 'the backlog');
  }, 180_000);
});
