import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { createServer } from 'node:http';
import type { DomainEvent } from '@workbase/shared/kernel';
import { TransactionRunner, EventOutbox } from '@workbase/shared/persistence';
import { ACTIVITY_EVENT_TYPES, WEBHOOK_EVENT_TYPES, WEBHOOK_EVENT_TYPE_NAMES } from '@workbase/webhooks';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { DataSource } from 'typeorm';
import { EndpointHealthRepository } from '../../libs/webhooks/src/infrastructure/endpoint-health.repository';
import { useWorkspace } from '../support/suite';
import {
  canonicalSet,
  createMemberEvent,
  createWebhook,
  deliveryRows,
  eventsOf,
  hexSignature,
  type Receiver,
  recordEvents,
  startReceiver,
  uniqueDeliveries,
  useReceiver,
  useWorkerApp,
  verifyStandard,
  waitFor,
  waitForFanOut,
} from './webhooks.helpers';

/** Delivery through a real worker to real HTTP receivers on loopback. */
describe('webhook delivery (e2e)', () => {
  const t = useWorkerApp();
  const ws = useWorkspace(t);
  const receivers: Receiver[] = [];
  afterAll(() => Promise.all(receivers.map((receiver) => receiver.close())));

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
    // A receiver using the library's usual form of a secret: whsec_ + base64 of the secret's bytes.
    const whsec = `whsec_${Buffer.from(hook.secret, 'utf8').toString('base64')}`;
    expect(new StandardWebhook(whsec).verify(request.body, request.headers as Record<string, string>)).toEqual(verified);
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
    const note = (parent: string): DomainEvent => ({
      eventType: 'note.created',
      workspaceId: ws.workspaceId,
      id: { workspace_id: ws.workspaceId, note_id: randomUUID() },
      actor: { type: 'workspace-member' as const, id: memberId },
      payload: { parent_object_id: parent, parent_record_id: randomUUID() },
    });
    const activityRecord = (slug: string, actor: { type: 'system' | 'workspace-member'; id: string | null }): DomainEvent => ({
      eventType: 'activity-record.created',
      workspaceId: ws.workspaceId,
      id: { workspace_id: ws.workspaceId, activity_id: randomUUID(), record_id: randomUUID() },
      actor,
      payload: { api_slug: slug },
    });
    const activity = (actorId: string): DomainEvent => ({
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
    // Every event has been through fan-out: the deliveries that exist are all there will be.
    await waitForFanOut(t);
    for (const hook of [noteHook, activityHook]) {
      expect(await deliveryRows(t, hook.id)).toHaveLength(2);
      const log = await t.http().get(`/v2/webhooks/${hook.id}/deliveries`).set('Authorization', `Bearer ${ws.token}`);
      expect(log.body.data).toHaveLength(2);
    }
    const idsAt = (path: string) => uniqueDeliveries(rx.accepted.filter((r) => r.path === path)).map((r) => eventsOf(r)[0].id);
    await waitFor(() => idsAt('/hook/notes').length >= 2 && idsAt('/hook/activities').length >= 2, 10_000, 'four deliveries');
    // Ids are compared in canonical form: key order is not part of the contract.
    expect(canonicalSet(idsAt('/hook/notes'))).toEqual(canonicalSet(wantedNotes.map((e) => e.id)));
    expect(canonicalSet(idsAt('/hook/activities'))).toEqual(canonicalSet(wantedActivities.map((e) => e.id)));
    const noteEvent = eventsOf(rx.accepted.find((r) => r.path === '/hook/notes')!)[0];
    expect(noteEvent).toMatchObject({ event_type: 'note.created', parent_object_id: expect.any(String), parent_record_id: expect.any(String) });
    // The documented order of the composite id: workspace_id first.
    expect(Object.keys(noteEvent.id as object)).toEqual(['workspace_id', 'note_id']);
    expect(uniqueDeliveries(rx.requests.filter((r) => r.path === '/hook/notes' || r.path === '/hook/activities'))).toHaveLength(4);
  });

  it('delivers every event type of the catalogue, the seven activity events and note.created included', async () => {
    const rx = await receiver();
    await createWebhook(
      t,
      ws.token,
      rx.url,
      WEBHOOK_EVENT_TYPE_NAMES.map((event_type) => ({ event_type, filter: null })),
    );
    // Built from the catalogue's runtime entries (ids and fields by name), so typed by assertion.
    const events = WEBHOOK_EVENT_TYPE_NAMES.map((eventType) => ({
      eventType,
      workspaceId: ws.workspaceId,
      id: Object.fromEntries([['workspace_id', ws.workspaceId], ...WEBHOOK_EVENT_TYPES[eventType].idKeys.map((key) => [key, randomUUID()])]),
      actor: { type: 'api-token' as const, id: randomUUID() },
      payload: Object.fromEntries(WEBHOOK_EVENT_TYPES[eventType].payloadFields.map((field) => [field, `${field}-value`])),
    })) as unknown as DomainEvent[];
    await recordEvents(t, ...events);
    await waitFor(() => uniqueDeliveries(rx.accepted).length >= events.length, 15_000, 'one delivery per event type');
    const received = uniqueDeliveries(rx.accepted).map((r) => eventsOf(r)[0].event_type).sort();
    expect(received).toEqual([...WEBHOOK_EVENT_TYPE_NAMES].sort());
    const activityRecord = rx.accepted.map((r) => eventsOf(r)[0]).find((e) => e.event_type === 'activity-record.deleted')!;
    expect(activityRecord).toMatchObject({ id: { workspace_id: ws.workspaceId, activity_id: expect.any(String), record_id: expect.any(String) }, api_slug: 'api_slug-value' });
  });

  it('delivers real events of the contexts: the seven activity events filtered on api_slug, note.created on parent_object_id', async () => {
    const rx = await receiver();
    const auth = { Authorization: `Bearer ${ws.token}` };
    const post = (path: string, body: object) => t.http().post(path).set(auth).send(body);
    const person = await post('/v2/objects/people/records', { data: { values: { email_addresses: [`${randomUUID()}@hooks.test`] } } }).expect(200);
    const { object_id: peopleObjectId, record_id: personId } = person.body.data.id as { object_id: string; record_id: string };
    const slugIs = (value: string) => ({ $and: [{ field: 'api_slug', operator: 'equals', value }] });
    const visitsHook = await createWebhook(t, ws.token, `${rx.url}/visits`, ACTIVITY_EVENT_TYPES.map((event_type) => ({ event_type, filter: slugIs('site_visits') })));
    const peopleNotes = await createWebhook(t, ws.token, `${rx.url}/people-notes`, [
      { event_type: 'note.created', filter: { $or: [{ field: 'parent_object_id', operator: 'equals', value: peopleObjectId }] } },
    ]);
    const otherNotes = await createWebhook(t, ws.token, `${rx.url}/other-notes`, [
      { event_type: 'note.created', filter: { $or: [{ field: 'parent_object_id', operator: 'not_equals', value: peopleObjectId }] } },
    ]);

    const activity = (slug: string) => ({ data: { api_slug: slug, singular_noun: slug, plural_noun: `${slug}s`, extends: 'activities' } });
    for (const slug of ['site_visits', 'other_visits']) {
      await post('/v2/activities', activity(slug)).expect(200);
      await t.http().patch(`/v2/activities/${slug}`).set(auth).send({ data: { plural_noun: 'Visits' } }).expect(200);
      await post(`/v2/activities/${slug}/attributes`, { data: { title: 'rep', api_slug: 'rep', type: 'text', is_required: false, is_unique: false, is_multiselect: false, config: {} } }).expect(200);
      await t.http().patch(`/v2/activities/${slug}/attributes/rep`).set(auth).send({ data: { title: 'Rep' } }).expect(200);
      const record = await post(`/v2/activities/${slug}/records`, { data: { values: { timestamp: '2026-03-01T09:00:00Z', rep: 'Ada' } } }).expect(200);
      await t.http().delete(`/v2/activities/${slug}/records/${record.body.data.id.record_id}`).set(auth).expect(200);
    }
    // Every activity event carries its api_slug from the moment it is recorded: fan-out needs
    // nothing from the activities, which are deleted before it runs.
    for (const slug of ['site_visits', 'other_visits']) await t.http().delete(`/v2/activities/${slug}`).set(auth).expect(200);
    await post('/v2/notes', { data: { parent_object: 'people', parent_record_id: personId, title: 'Visit', format: 'plaintext', content: 'Went well' } }).expect(200);

    await waitForFanOut(t);
    expect((await deliveryRows(t, visitsHook.id)).map((d) => d.event_type).sort()).toEqual([...ACTIVITY_EVENT_TYPES].sort());
    expect(await deliveryRows(t, peopleNotes.id)).toHaveLength(1);
    expect(await deliveryRows(t, otherNotes.id)).toHaveLength(0);
    await waitFor(() => uniqueDeliveries(rx.accepted).length >= 8, 10_000, 'eight deliveries');
    const visits = uniqueDeliveries(rx.accepted.filter((r) => r.path === '/hook/visits')).map((r) => eventsOf(r)[0]);
    expect(visits).toHaveLength(7);
    for (const event of visits) {
      expect(event).toMatchObject({ api_slug: 'site_visits', actor: { type: 'api-token', id: expect.any(String) }, id: { workspace_id: ws.workspaceId, activity_id: expect.any(String) } });
      expect(Object.keys(event.id as object)[0]).toBe('workspace_id');
    }
    expect(visits.find((e) => e.event_type === 'activity-record.created')!.id).toEqual({ workspace_id: ws.workspaceId, activity_id: expect.any(String), record_id: expect.any(String) });
    const [noteRequest] = rx.accepted.filter((r) => r.path === '/hook/people-notes');
    expect(eventsOf(noteRequest)[0]).toMatchObject({ event_type: 'note.created', parent_object_id: peopleObjectId, parent_record_id: personId });
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
    await waitForFanOut(t);
    await waitFor(() => rx.accepted.length >= 1, 10_000, 'the committed event');
    expect(uniqueDeliveries(rx.requests).map((r) => (eventsOf(r)[0].id as { task_id: string }).task_id)).toEqual(['committed']);
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

  it('honours Retry-After given as an HTTP date on 503', async () => {
    const rx = await receiver((_, index) =>
      index === 0 ? { status: 503, headers: { 'Retry-After': new Date(Date.now() + 2500).toUTCString() } } : { status: 200 },
    );
    await createWebhook(t, ws.token, rx.url, [{ event_type: 'workspace-member.created', filter: null }]);
    await createMemberEvent(t, ws.workspaceId);
    await waitFor(() => rx.accepted.length >= 1, 10_000, 'the retried delivery');
    const [first, second] = rx.requests;
    expect(second.headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect(second.receivedAt - first.receivedAt).toBeGreaterThanOrEqual(1000); // HTTP dates have whole seconds
  });

  it('disables the webhook on 410 Gone and stops delivering to it', async () => {
    const rx = await receiver(() => ({ status: 410 }));
    const hook = await createWebhook(t, ws.token, rx.url, [{ event_type: 'workspace-member.created', filter: null }]);
    await createMemberEvent(t, ws.workspaceId);
    await waitFor(async () => (await status(hook.id)) === 'inactive', 10_000, 'inactive');
    expect(rx.requests).toHaveLength(1);
    await createMemberEvent(t, ws.workspaceId);
    await waitForFanOut(t);
    expect(await deliveryRows(t, hook.id)).toHaveLength(1); // an inactive webhook gets no new deliveries
    expect(rx.requests).toHaveLength(1);
    const log = await t.http().get(`/v2/webhooks/${hook.id}/deliveries`).set('Authorization', `Bearer ${ws.token}`);
    expect(log.body.data[0]).toMatchObject({ status: 'failed', attempt_count: 1, last_status_code: 410 });

    // Updating an inactive webhook makes it active again, and it receives new events.
    rx.reply = () => ({ status: 200 });
    const patched = await t.http().patch(`/v2/webhooks/${hook.id}`).set('Authorization', `Bearer ${ws.token}`).send({ data: { target_url: rx.url } });
    expect(patched.body.data.status).toBe('active');
    await createMemberEvent(t, ws.workspaceId);
    await waitFor(() => rx.accepted.length >= 1, 10_000, 'a delivery after reactivation');
  });

  it('moves active → degraded after sustained failure and back to active on success', async () => {
    let healthy = false;
    const rx = await receiver(() => (healthy ? { status: 200 } : { status: 500 }));
    const hook = await createWebhook(t, ws.token, rx.url, [{ event_type: 'workspace-member.created', filter: null }]);
    await createMemberEvent(t, ws.workspaceId);
    await waitFor(async () => (await status(hook.id)) === 'degraded', 10_000, 'degraded');
    healthy = true;
    await waitFor(async () => (await status(hook.id)) === 'active', 10_000, 'active again');
    expect(uniqueDeliveries(rx.accepted)).toHaveLength(1);
    expect(rx.requests.length).toBeGreaterThanOrEqual(4); // three failures made it degraded
  });

  it('does not count a failure towards degraded when another worker already recorded that attempt', async () => {
    const rx = await receiver();
    const hook = await createWebhook(t, ws.token, rx.url, [{ event_type: 'workspace-member.created', filter: null }]);
    await createMemberEvent(t, ws.workspaceId);
    const [delivery] = await waitFor(async () => {
      const rows = await deliveryRows(t, hook.id);
      return rows[0]?.status === 'succeeded' ? rows : null;
    }, 10_000, 'the delivery to succeed');
    // A second run of the same job (pg-boss handed it out again) whose request failed: its attempt
    // is stale, and three such failures (the suite's degraded threshold) change nothing.
    const endpoints = t.app.get(EndpointHealthRepository);
    const policy = { degradedAfterFailures: 3, inactiveAfterSeconds: 3600, gone: false };
    for (let i = 0; i < 3; i++) {
      expect(await endpoints.markEndpointFailure(ws.workspaceId, hook.id, { deliveryId: delivery.id, attempt: delivery.attempts }, policy)).toBeNull();
    }
    const [row] = (await t.app.get(DataSource).query(`SELECT consecutive_failures, status FROM webhooks WHERE id = $1`, [hook.id])) as Array<{ consecutive_failures: number; status: string }>;
    expect(row).toEqual({ consecutive_failures: 0, status: 'active' });
    expect(await status(hook.id)).toBe('active');
  });

  it('makes a webhook degraded for 7 days inactive at its next failure; a replay does not revive it', async () => {
    const rx = await receiver(() => ({ status: 500 }));
    const hook = await createWebhook(t, ws.token, rx.url, [{ event_type: 'workspace-member.created', filter: null }]);
    await createMemberEvent(t, ws.workspaceId);
    await waitFor(async () => (await status(hook.id)) === 'degraded', 10_000, 'degraded');
    // Seven days pass.
    await t.app.get(DataSource).query(`UPDATE webhooks SET degraded_since = degraded_since - interval '7 days 1 minute' WHERE id = $1`, [hook.id]);
    await waitFor(async () => (await status(hook.id)) === 'inactive', 10_000, 'inactive');
    const [delivery] = await waitFor(async () => {
      const rows = await deliveryRows(t, hook.id);
      return rows[0]?.status === 'failed' ? rows : null;
    }, 10_000, 'the delivery to end');
    rx.reply = () => ({ status: 200 });
    const replayed = await t.http().post(`/v2/webhooks/${hook.id}/deliveries/${delivery.id}/replay`).set('Authorization', `Bearer ${ws.token}`);
    expect(replayed.status).toBe(200);
    expect(replayed.body.data).toMatchObject({ status: 'succeeded' });
    expect(rx.accepted).toHaveLength(1);
    expect(await status(hook.id)).toBe('inactive');
  });

  it('logs deliveries with attempts (cursor paginated) and replays one with the same webhook-id', async () => {
    let fail = true;
    const rx = await receiver(() => (fail ? { status: 500 } : { status: 204 }));
    const hook = await createWebhook(t, ws.token, rx.url, [{ event_type: 'workspace-member.created', filter: null }]);
    fail = false;
    await createMemberEvent(t, ws.workspaceId);
    await createMemberEvent(t, ws.workspaceId);
    // The receiver answers before the worker records the attempt: wait for the record, not the request.
    await waitFor(async () => (await deliveryRows(t, hook.id)).filter((row) => row.status === 'succeeded').length >= 2, 10_000, 'two deliveries recorded');
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
    const other = await t.createWorkspace();
    const foreign = { Authorization: `Bearer ${other.token}` };
    expect((await t.http().post(`/v2/webhooks/${hook.id}/deliveries/${delivery.id.delivery_id}/replay`).set(foreign)).status).toBe(404);
    expect((await t.http().get(`/v2/webhooks/${hook.id}/deliveries`).set(foreign)).status).toBe(404);
    expect(rx.requests).toHaveLength(before + 1);
    const reader = await t.tokenFor(ws.workspaceId, ['webhook:read']);
    expect((await t.http().post(`/v2/webhooks/${hook.id}/deliveries/${delivery.id.delivery_id}/replay`).set({ Authorization: `Bearer ${reader}` })).status).toBe(403);
  });
});


/**
 * The SSRF policy is checked again when the worker connects: a target whose name resolved to a
 * public address at creation but resolves to a private one later (DNS rebinding) gets nothing.
 */
describe('webhook delivery with private targets refused (e2e)', () => {
  const t = useWorkerApp({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' });
  const ws = useWorkspace(t);
  const rx = useReceiver();

  it('refuses at connect time a target that now resolves to loopback, and an address literal', async () => {
    const port = new URL(rx.url).port;
    const byName = await createWebhook(t, ws.token, 'https://93.184.215.14/hook', [{ event_type: 'workspace-member.created', filter: null }]);
    const byLiteral = await createWebhook(t, ws.token, 'https://93.184.215.14/other', [{ event_type: 'workspace-member.created', filter: null }]);
    // What a rebinding attacker achieves: the name now points at the loopback interface.
    const db = t.app.get(DataSource);
    await db.query(`UPDATE webhooks SET target_url = $2 WHERE id = $1`, [byName.id, `http://localhost:${port}/hook`]);
    await db.query(`UPDATE webhooks SET target_url = $2 WHERE id = $1`, [byLiteral.id, `http://127.0.0.1:${port}/hook`]);
    await createMemberEvent(t, ws.workspaceId);
    await waitForFanOut(t);
    const errorOf = async (webhookId: string) => {
      const log = await t.http().get(`/v2/webhooks/${webhookId}/deliveries`).set('Authorization', `Bearer ${ws.token}`);
      return log.body.data[0]?.attempts[0]?.error as string | undefined;
    };
    expect(await waitFor(() => errorOf(byName.id), 10_000, 'an attempt by name')).toMatch(/target refused: localhost resolves to .*loopback/);
    expect(await waitFor(() => errorOf(byLiteral.id), 10_000, 'an attempt by literal')).toMatch(/target refused: 127\.0\.0\.1 is a loopback address/);
    expect(rx.requests).toHaveLength(0);
  });
});
