import { WebhookWorker } from '@workbase/webhooks';
import { DataSource } from 'typeorm';
import { startTestApp, type TestApp, type TestWorkspace } from '../support/test-app';
import { createMemberEvent, createWebhook, FAST_WEBHOOK_ENV, type Receiver, startReceiver, stopWithWorker, waitFor } from './webhooks.helpers';

/** Far longer than any wait below: a delivery in time can only come from a notification. */
const POLL_MS = 120_000;

/**
 * Fan-out wakes on the outbox's pg_notify (sent at commit) on a dedicated listening connection,
 * not on its poll; a dropped listening connection is re-opened, and events committed while it
 * was down are fanned out once it is back.
 */
describe('webhook fan-out wake-up (e2e)', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let rx: Receiver;

  const listenerPids = async (): Promise<number[]> =>
    (
      (await t.app.get(DataSource).query(
        `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'workbase-webhooks-listener'`,
      )) as Array<{ pid: number }>
    ).map((row) => row.pid);

  beforeAll(async () => {
    t = await startTestApp({ env: { ...FAST_WEBHOOK_ENV, WEBHOOK_FANOUT_INTERVAL_MS: String(POLL_MS) } });
    ws = await t.createWorkspace();
    rx = await startReceiver();
    await createWebhook(t, ws.token, rx.url, [{ event_type: 'workspace-member.created', filter: null }]);
    await t.app.get(WebhookWorker).start();
  });
  afterAll(() => stopWithWorker(t, rx));

  it('delivers a committed event without waiting for the fan-out poll, over one listening connection of its own', async () => {
    expect(await listenerPids()).toHaveLength(1);
    for (let i = 1; i <= 3; i++) {
      await createMemberEvent(t, ws.workspaceId);
      await waitFor(() => rx.accepted.length >= i, 10_000, `delivery ${i}`);
    }
  });

  it('re-opens a dropped listening connection and fans out what was committed while it was down', async () => {
    const [before] = await listenerPids();
    const delivered = rx.accepted.length;
    await t.app.get(DataSource).query(`SELECT pg_terminate_backend($1)`, [before]);
    // Committed at once, most likely before the listener is back: its notification reaches nobody.
    await createMemberEvent(t, ws.workspaceId);
    await waitFor(() => rx.accepted.length >= delivered + 1, 15_000, 'the event committed while the listener was down');
    const after = await waitFor(async () => {
      const pids = await listenerPids();
      return pids.length === 1 && pids[0] !== before ? pids[0] : null;
    }, 10_000, 'a new listening connection');
    expect(after).not.toBe(before);

    await createMemberEvent(t, ws.workspaceId);
    await waitFor(() => rx.accepted.length >= delivered + 2, 10_000, 'an event committed after the reconnection');
  });

  it('closes the listening connection when the worker stops', async () => {
    await t.app.get(WebhookWorker).stop();
    await waitFor(async () => (await listenerPids()).length === 0, 10_000, 'the listening connection to close');
    await t.app.get(WebhookWorker).start();
    await waitFor(async () => (await listenerPids()).length === 1, 10_000, 'a listening connection again');
  });
});
