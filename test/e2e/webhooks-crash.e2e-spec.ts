import { type ChildProcess, spawn } from 'node:child_process';
import * as path from 'node:path';
import { startTestApp, type TestApp, type TestWorkspace } from '../support/test-app';
import { createMemberEvent, createWebhook, deliveryRows, FAST_WEBHOOK_ENV, type Receiver, startReceiver, waitFor } from './webhooks.helpers';

const ROOT = path.resolve(__dirname, '../..');

/** Starts `apps/worker` as a real process on the test database and waits until it runs. */
async function startWorkerProcess(t: TestApp): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['-r', '@swc-node/register', 'apps/worker/src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, ...FAST_WEBHOOK_ENV, DATABASE_URL: t.database.url, LOG_LEVEL: 'silent', WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', DB_POOL_SIZE: '5' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  // Generous: a cold start transpiles the worker's whole module graph, slow on a loaded 2-core box.
  await waitFor(() => output.includes('webhook worker running') || child.exitCode !== null, 90_000, 'the worker process');
  if (child.exitCode !== null) throw new Error(`worker exited: ${output}`);
  return child;
}

/** A worker killed (SIGKILL) in the middle of a delivery loses nothing once a worker runs again. */
describe('webhook worker crash (e2e)', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let rx: Receiver;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    t = await startTestApp({ env: FAST_WEBHOOK_ENV });
    ws = await t.createWorkspace();
  });
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
    await rx?.close();
    await t?.close();
  });

  it('redelivers the in-flight event with the same webhook-id and delivers events committed while no worker ran', async () => {
    const first = await startWorkerProcess(t);
    children.push(first);
    const exited = new Promise<void>((resolve) => first.once('exit', () => resolve()));
    rx = await startReceiver((_, index) => {
      if (index === 0) {
        first.kill('SIGKILL'); // dies while this request is open: no response, no bookkeeping
        return 'hang';
      }
      return { status: 200 };
    });
    const hook = await createWebhook(t, ws.token, rx.url, [{ event_type: 'workspace-member.created', filter: null }]);
    const members: string[] = [];
    for (let i = 0; i < 10; i++) members.push(await createMemberEvent(t, ws.workspaceId));
    await waitFor(() => rx.requests.length >= 1, 60_000, 'the first request');
    await exited;
    const inFlightId = rx.requests[0].headers['webhook-id'];
    for (let i = 0; i < 5; i++) members.push(await createMemberEvent(t, ws.workspaceId)); // committed while no worker runs

    const restarted = await startWorkerProcess(t);
    children.push(restarted);
    await waitFor(() => new Set(rx.accepted.map((r) => (JSON.parse(r.body) as { events: { id: { workspace_member_id: string } }[] }).events[0].id.workspace_member_id)).size >= members.length, 90_000, 'every event');
    const accepted = new Set(rx.accepted.map((r) => (JSON.parse(r.body) as { events: { id: { workspace_member_id: string } }[] }).events[0].id.workspace_member_id));
    expect(accepted).toEqual(new Set(members));
    expect(rx.accepted.some((r) => r.headers['webhook-id'] === inFlightId)).toBe(true);
    // A request the killed worker sent may have been answered with no record of it: every event
    // has arrived, but such a delivery succeeds on the record only once the restarted worker
    // delivers it again (its job's lease expires first). Wait for the records, not the requests.
    await waitFor(
      async () => {
        const rows = await deliveryRows(t, hook.id);
        return rows.length === members.length && rows.every((row) => row.status === 'succeeded');
      },
      90_000,
      'every delivery recorded as succeeded',
    );

    // The attempt the crash cut short was written as started before its request went out: the log
    // shows it as interrupted, followed by the attempt that delivered it.
    const log = await t.http().get(`/v2/webhooks/${hook.id}/deliveries?limit=100`).set('Authorization', `Bearer ${ws.token}`);
    const inFlight = log.body.data.find((d: { id: { delivery_id: string } }) => d.id.delivery_id === inFlightId);
    // attempt_count counts every automatic attempt listed, the interrupted one included.
    expect(inFlight).toMatchObject({ status: 'succeeded', attempt_count: 2 });
    expect(inFlight.attempts.map((a: { outcome: string }) => a.outcome)).toEqual(['interrupted', 'succeeded']);
    expect(inFlight.attempts[0]).toMatchObject({ trigger: 'automatic', succeeded: false, duration_ms: null, status_code: null, error: expect.stringMatching(/^interrupted: /) });
    // Others the killed worker had started (attempt written, request not yet received) read the same way.
    for (const delivery of log.body.data as Array<{ status: string; attempt_count: number; attempts: Array<{ trigger: string; outcome: string }> }>) {
      const outcomes = delivery.attempts.map((a) => a.outcome);
      expect(delivery.attempt_count).toBe(delivery.attempts.filter((a) => a.trigger === 'automatic').length);
      expect({ status: delivery.status, last: outcomes[outcomes.length - 1] }).toEqual({ status: 'succeeded', last: 'succeeded' });
      expect(outcomes.slice(0, -1).every((o) => o === 'interrupted')).toBe(true);
    }
    restarted.kill('SIGTERM');
    await new Promise<void>((resolve) => (restarted.exitCode !== null ? resolve() : restarted.once('exit', () => resolve())));
    expect(restarted.exitCode === 0 || restarted.signalCode === 'SIGTERM').toBe(true);
  }, 300_000); // two cold starts of a worker process
});
