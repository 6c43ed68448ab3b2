import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:http';
import { TransactionRunner, EventOutbox } from '@workbase/shared/persistence';
import { WEBHOOK_EVENT_TYPES, WEBHOOK_EVENT_TYPE_NAMES, WebhookWorker } from '@workbase/webhooks';
import { startTestApp, type TestApp, type TestWorkspace } from '../support/test-app';
import {
  createMemberEvent,
  createWebhook,
  eventsOf,
  FAST_WEBHOOK_ENV,
  hexSignature,
  type Receiver,
  recordEvents,
  startReceiver,
  verifyStandard,
  waitFor,
} from './webhooks.helpers';

/** Delivery through a real worker to real HTTP receivers on loopback. */
describe('webhook delivery (e2e)', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  const receivers: Receiver[] = [];

  beforeAll(async () => {
    t = await startTestApp({ env: FAST_WEBHOOK_ENV });
    ws = await t.createWorkspace();
    await t.app.get(WebhookWorker).start();
  });
  afterAll(async () => {
    await t.app.get(WebhookWorker).stop();
    await Promise.all(receivers.map((r) => r.close()));
    await t.close();
  });

  async function receiver(reply?: Receiver['reply'], port?: number): Promise<Receiver> {
    const started = await startReceiver(reply, port);
    receivers.push(started);
    return started;
  }

  const status = async (webhookId: string) =>
    (await t.http().get(`/v2/webhooks/${webhookId}`).set('Authorization', `Bearer ${ws.token}`)).body.data.status as string;

  it('signs deliveries: Attio-Signature is the hex HMAC of the body, and Standard Webhooks headers verify', async () => {
    const rx = await receiver();
    const hook = await createWebhook(t, ws.token, rx.url, [{ event_type: 'workspace-member.created', filter: null }]);
    const memberId = await createMemberEvent(t, ws.workspaceId);
    await waitFor(() => rx.accepted.length >= 1, 10_000, 'a delivery');
    const [request] = rx.accepted;

    expect(request.headers['attio-signature']).toBe(hexSignature(hook.secret, request.body));
    expect(request.headers['x-attio-signature']).toBe(request.headers['attio-signature']);
    expect(request.headers['content-type']).toBe('application/json');
    const verified = verifyStandard(hook.secret, request);
    expect(verified).toEqual({
      webhook_id: hook.id,
      events: [{ event_type: 'workspace-member.created', id: { workspace_id: ws.workspaceId, workspace_member_id: memberId }, actor: { type: 'system', id: null } }],
    });
    expect(() => verifyStandard('0'.repeat(64), request)).toThrow();
    expect(() => verifyStandard(hook.secret, { ...request, body: request.body.replace('system', 'member') })).toThrow();
    expect(Math.abs(Number(request.headers['webhook-timestamp']) - Date.now() / 1000)).toBeLessThan(30);
  });

  it('applies $or / $and filters with equals and not_equals, and creates no delivery for filtered-out events', async () => {
    const rx = await receiver();
    const [objA, objB, objC] = [randomUUID(), randomUUID(), randomUUID()];
    const memberId = randomUUID();
    const noteHook = await createWebhook(t, ws.token, `${rx.url}/notes`, [
      { event_type: 'note.created', filter: { $or: [{ field: 'parent_object_id', operator: 'equals', value: objA }, { field: 'parent_object_id', operator: 'equals', value: objB }] } },
    ]);
    const activityHook = await createWebhook(t, ws.token, `${rx.url}/activities`, [
      {
        event_type: 'activity-record.created',
        filter: { $and: [{ field: 'api_slug', operator: 'equals', value: 'site_visits' }, { field: 'actor.type', operator: 'not_equals', value: 'system' }] },
      },
      { event_type: 'activity.created', filter: { $or: [{ field: 'actor.id', operator: 'not_equals', value: memberId }] } },
    ]);
    const note = (parent: string) => ({
      eventType: 'note.created',
      workspaceId: ws.workspaceId,
      id: { workspace_id: ws.workspaceId, note_id: randomUUID() },
      actor: { type: 'workspace-member' as const, id: memberId },
      payload: { parent_object_id: parent, parent_record_id: randomUUID() },
    });
    const activityRecord = (slug: string, actor: { type: 'system' | 'workspace-member'; id: string | null }) => ({
      eventType: 'activity-record.created',
      workspaceId: ws.workspaceId,
      id: { workspace_id: ws.workspaceId, activity_id: randomUUID(), record_id: randomUUID() },
      actor,
      payload: { api_slug: slug },
    });
    const activity = (actorId: string) => ({
      eventType: 'activity.created',
      workspaceId: ws.workspaceId,
      id: { workspace_id: ws.workspaceId, activity_id: randomUUID() },
      actor: { type: 'workspace-member' as const, id: actorId },
      payload: { api_slug: 'x' },
    });
    const wantedNotes = [note(objA), note(objB)];
    const wantedActivities = [activityRecord('site_visits', { type: 'workspace-member', id: memberId }), activity(randomUUID())];
    await recordEvents(
      t,
      wantedNotes[0],
      note(objC),
      wantedNotes[1],
      activityRecord('site_visits', { type: 'system', id: null }),
      activityRecord('other_slug', { type: 'workspace-member', id: memberId }),
      wantedActivities[0],
      activity(memberId),
      wantedActivities[1],
    );
    await waitFor(() => rx.accepted.length >= 4, 10_000, 'four deliveries');
    await new Promise((resolve) => setTimeout(resolve, 700));
    const byPath = (path: string) => rx.accepted.filter((r) => r.path === path).map((r) => eventsOf(r)[0].id);
    expect(byPath('/hook/notes').sort(byJson)).toEqual(wantedNotes.map((e) => e.id).sort(byJson));
    expect(byPath('/hook/activities').sort(byJson)).toEqual(wantedActivities.map((e) => e.id).sort(byJson));
    const noteEvent = eventsOf(rx.accepted.find((r) => r.path === '/hook/notes')!)[0];
    expect(noteEvent).toMatchObject({ event_type: 'note.created', parent_object_id: expect.any(String), parent_record_id: expect.any(String) });
    for (const hook of [noteHook, activityHook]) {
      const log = await t.http().get(`/v2/webhooks/${hook.id}/deliveries`).set('Authorization', `Bearer ${ws.token}`);
      expect(log.body.data).toHaveLength(2);
    }
  });

  it('delivers every event type of the catalogue, the seven activity events and note.created included', async () => {
    const rx = await receiver();
    await createWebhook(
      t,
      ws.token,
      rx.url,
      WEBHOOK_EVENT_TYPE_NAMES.map((event_type) => ({ event_type, filter: null })),
    );
    const events = WEBHOOK_EVENT_TYPE_NAMES.map((eventType) => ({
      eventType,
      workspaceId: ws.workspaceId,
      id: Object.fromEntries([['workspace_id', ws.workspaceId], ...WEBHOOK_EVENT_TYPES[eventType].idKeys.map((key) => [key, randomUUID()])]),
      actor: { type: 'api-token' as const, id: randomUUID() },
      payload: Object.fromEntries(WEBHOOK_EVENT_TYPES[eventType].payloadFields.map((field) => [field, `${field}-value`])),
    }));
    await recordEvents(t, ...events);
    await waitFor(() => rx.accepted.length >= events.length, 15_000, 'one delivery per event type');
    const received = rx.accepted.map((r) => eventsOf(r)[0].event_type).sort();
    expect(received).toEqual([...WEBHOOK_EVENT_TYPE_NAMES].sort());
    const activityRecord = rx.accepted.map((r) => eventsOf(r)[0]).find((e) => e.event_type === 'activity-record.deleted')!;
    expect(activityRecord).toMatchObject({ id: { workspace_id: ws.workspaceId, activity_id: expect.any(String), record_id: expect.any(String) }, api_slug: 'api_slug-value' });
  });

  it('delivers nothing for a rolled-back transaction', async () => {
    const rx = await receiver();
    await createWebhook(t, ws.token, rx.url, [{ event_type: 'task.created', filter: null }]);
    await expect(
      t.app.get(TransactionRunner).run(async () => {
        await t.app.get(EventOutbox).record({ eventType: 'task.created', workspaceId: ws.workspaceId, id: { workspace_id: ws.workspaceId, task_id: 'rolled-back' }, actor: { type: 'system', id: null } });
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    await recordEvents(t, { eventType: 'task.created', workspaceId: ws.workspaceId, id: { workspace_id: ws.workspaceId, task_id: 'committed' }, actor: { type: 'system', id: null } });
    await waitFor(() => rx.accepted.length >= 1, 10_000, 'the committed event');
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(rx.requests.map((r) => (eventsOf(r)[0].id as { task_id: string }).task_id)).toEqual(['committed']);
  });

  it('gets every event at least once through a receiver that fails 50 % of the time, with a stable webhook-id', async () => {
    const rx = await receiver(() => (Math.random() < 0.5 ? { status: 500 } : { status: 200 }));
    const hook = await createWebhook(t, ws.token, rx.url, [{ event_type: 'workspace-member.created', filter: null }]);
    const members = await Promise.all(Array.from({ length: 20 }, () => createMemberEvent(t, ws.workspaceId)));
    await waitFor(() => new Set(rx.accepted.map((r) => r.headers['webhook-id'])).size >= members.length, 30_000, 'all 20 events');
    const acceptedMembers = new Set(rx.accepted.map((r) => (eventsOf(r)[0].id as { workspace_member_id: string }).workspace_member_id));
    expect([...acceptedMembers].sort()).toEqual([...members].sort());
    const bodyById = new Map<string, string>();
    for (const request of rx.requests) {
      const id = String(request.headers['webhook-id']);
      expect(bodyById.get(id) ?? request.body).toBe(request.body); // retries resend the same bytes under the same id
      bodyById.set(id, request.body);
      expect(verifyStandard(hook.secret, request)).toBeTruthy();
    }
    expect(bodyById.size).toBe(members.length);
    expect(rx.requests.length).toBeGreaterThan(members.length); // some were retried
  });

  it('gets every event once a receiver that was down comes back', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    await createWebhook(t, ws.token, `http://127.0.0.1:${port}/hook`, [{ event_type: 'workspace-member.created', filter: null }]);
    const members = await Promise.all(Array.from({ length: 5 }, () => createMemberEvent(t, ws.workspaceId)));
    await new Promise((resolve) => setTimeout(resolve, 1500)); // connection refused meanwhile
    const rx = await receiver(undefined, port);
    await waitFor(() => new Set(rx.accepted.map((r) => r.headers['webhook-id'])).size >= members.length, 20_000, 'all 5 events after recovery');
    expect(new Set(rx.accepted.map((r) => (eventsOf(r)[0].id as { workspace_member_id: string }).workspace_member_id))).toEqual(new Set(members));
  });

  it('honours Retry-After on 429', async () => {
    const rx = await receiver((_, index) => (index === 0 ? { status: 429, headers: { 'Retry-After': '2' } } : { status: 200 }));
    await createWebhook(t, ws.token, rx.url, [{ event_type: 'workspace-member.created', filter: null }]);
    await createMemberEvent(t, ws.workspaceId);
    await waitFor(() => rx.accepted.length >= 1, 10_000, 'the retried delivery');
    const [first, second] = rx.requests;
    expect(second.headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect(second.receivedAt - first.receivedAt).toBeGreaterThanOrEqual(1900); // the schedule alone would retry after 0.2 s
  });

  it('disables the webhook on 410 Gone and stops delivering to it', async () => {
    const rx = await receiver(() => ({ status: 410 }));
    const hook = await createWebhook(t, ws.token, rx.url, [{ event_type: 'workspace-member.created', filter: null }]);
    await createMemberEvent(t, ws.workspaceId);
    await waitFor(async () => (await status(hook.id)) === 'inactive', 10_000, 'inactive');
    expect(rx.requests).toHaveLength(1);
    await createMemberEvent(t, ws.workspaceId);
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(rx.requests).toHaveLength(1);
  });

  it('moves active → degraded after sustained failure and back to active on success', async () => {
    let healthy = false;
    const rx = await receiver(() => (healthy ? { status: 200 } : { status: 500 }));
    const hook = await createWebhook(t, ws.token, rx.url, [{ event_type: 'workspace-member.created', filter: null }]);
    await createMemberEvent(t, ws.workspaceId);
    await waitFor(async () => (await status(hook.id)) === 'degraded', 10_000, 'degraded');
    healthy = true;
    await waitFor(async () => (await status(hook.id)) === 'active', 10_000, 'active again');
    expect(rx.accepted).toHaveLength(1);
  });

  it('logs deliveries with attempts (cursor paginated) and replays one with the same webhook-id', async () => {
    let fail = true;
    const rx = await receiver(() => (fail ? { status: 500 } : { status: 204 }));
    const hook = await createWebhook(t, ws.token, rx.url, [{ event_type: 'workspace-member.created', filter: null }]);
    fail = false;
    await createMemberEvent(t, ws.workspaceId);
    await createMemberEvent(t, ws.workspaceId);
    await waitFor(() => rx.accepted.length >= 2, 10_000, 'two deliveries');
    const auth = { Authorization: `Bearer ${ws.token}` };
    const page1 = await t.http().get(`/v2/webhooks/${hook.id}/deliveries?limit=1`).set(auth);
    expect(page1.status).toBe(200);
    expect(page1.body.data).toHaveLength(1);
    expect(page1.body.pagination.next_cursor).toEqual(expect.any(String));
    const page2 = await t.http().get(`/v2/webhooks/${hook.id}/deliveries?limit=1&cursor=${page1.body.pagination.next_cursor}`).set(auth);
    expect(page2.body.data).toHaveLength(1);
    expect(page2.body.pagination.next_cursor).toBeNull();
    const delivery = page2.body.data[0];
    expect(delivery).toMatchObject({
      id: { workspace_id: ws.workspaceId, webhook_id: hook.id, delivery_id: expect.any(String) },
      event_type: 'workspace-member.created',
      status: 'succeeded',
      attempt_count: 1,
      last_status_code: 204,
      payload: { webhook_id: hook.id, events: [expect.objectContaining({ event_type: 'workspace-member.created' })] },
      attempts: [{ trigger: 'automatic', status_code: 204, succeeded: true, error: null, duration_ms: expect.any(Number), started_at: expect.any(String) }],
    });
    expect(page1.body.data[0].id.delivery_id).not.toBe(delivery.id.delivery_id);
    expect((await t.http().get(`/v2/webhooks/${hook.id}/deliveries?cursor=bogus`).set(auth)).status).toBe(400);
    expect((await t.http().get(`/v2/webhooks/${hook.id}/deliveries?limit=0`).set(auth)).status).toBe(400);

    const before = rx.requests.length;
    const replayed = await t.http().post(`/v2/webhooks/${hook.id}/deliveries/${delivery.id.delivery_id}/replay`).set(auth);
    expect(replayed.status).toBe(200);
    expect(replayed.body.data.attempts.map((a: { trigger: string }) => a.trigger)).toEqual(['automatic', 'replay']);
    expect(rx.requests).toHaveLength(before + 1);
    const last = rx.requests[rx.requests.length - 1];
    expect(last.headers['webhook-id']).toBe(delivery.id.delivery_id);
    expect(JSON.parse(last.body)).toEqual(delivery.payload);
    expect(verifyStandard(hook.secret, last)).toBeTruthy();
    const reader = await t.tokenFor(ws.workspaceId, ['webhook:read']);
    expect((await t.http().post(`/v2/webhooks/${hook.id}/deliveries/${delivery.id.delivery_id}/replay`).set({ Authorization: `Bearer ${reader}` })).status).toBe(403);
  });
});

function byJson(a: unknown, b: unknown): number {
  return JSON.stringify(a).localeCompare(JSON.stringify(b));
}
