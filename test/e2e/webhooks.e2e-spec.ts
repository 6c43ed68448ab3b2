import { SCOPES } from '@workbase/shared/kernel';
import { WEBHOOK_EVENT_TYPE_NAMES } from '@workbase/webhooks';
import { startTestApp, type TestApp, type TestWorkspace } from '../support/test-app';

/** Management API of webhooks: CRUD, validation, scopes, tenancy, and the SSRF policy at creation. */
describe('webhooks management (e2e)', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  let other: TestWorkspace;
  const target = 'http://127.0.0.1:9/hook';

  beforeAll(async () => {
    t = await startTestApp();
    ws = await t.createWorkspace();
    other = await t.createWorkspace();
  });
  afterAll(() => t.close());

  const auth = (token = ws.token) => ({ Authorization: `Bearer ${token}` });
  const create = (body: object, token = ws.token) => t.http().post('/v2/webhooks').set(auth(token)).send(body);

  it('creates a webhook, returns the secret once, and reads it back without it', async () => {
    const filter = { $or: [{ field: 'parent_object_id', operator: 'equals', value: 'abc' }] };
    const res = await create({ data: { target_url: target, subscriptions: [{ event_type: 'note.created', filter }] } });
    expect(res.status).toBe(200);
    const data = res.body.data;
    expect(data.secret).toMatch(/^[0-9a-f]{64}$/);
    expect(data).toMatchObject({
      target_url: target,
      subscriptions: [{ event_type: 'note.created', filter }],
      id: { workspace_id: ws.workspaceId, webhook_id: expect.any(String) },
      status: 'active',
    });
    expect(new Date(data.created_at).toISOString()).toBe(data.created_at);

    const got = await t.http().get(`/v2/webhooks/${data.id.webhook_id}`).set(auth());
    expect(got.status).toBe(200);
    expect(got.body.data.secret).toBeUndefined();
    expect(Object.keys(got.body.data).sort()).toEqual(['created_at', 'id', 'status', 'subscriptions', 'target_url']);
  });

  it('accepts every catalogued event type, including the seven activity events, with a null filter', async () => {
    const subscriptions = WEBHOOK_EVENT_TYPE_NAMES.map((event_type) => ({ event_type, filter: null }));
    expect(WEBHOOK_EVENT_TYPE_NAMES.filter((name) => name.startsWith('activity'))).toHaveLength(7);
    const res = await create({ data: { target_url: target, subscriptions } });
    expect(res.status).toBe(200);
    expect(res.body.data.subscriptions).toHaveLength(WEBHOOK_EVENT_TYPE_NAMES.length);
  });

  it('accepts $and filters with not_equals on activity fields', async () => {
    const filter = {
      $and: [
        { field: 'api_slug', operator: 'equals', value: 'site_visits' },
        { field: 'actor.type', operator: 'not_equals', value: 'system' },
        { field: 'id.record_id', operator: 'not_equals', value: 'x' },
      ],
    };
    const res = await create({ data: { target_url: target, subscriptions: [{ event_type: 'activity-record.created', filter }] } });
    expect(res.status).toBe(200);
    expect(res.body.data.subscriptions[0].filter).toEqual(filter);
  });

  it.each([
    ['unknown event type', [{ event_type: 'record.exploded', filter: null }], /event_type/],
    ['filter not an object', [{ event_type: 'note.created', filter: 'yes' }], /filter/],
    ['two combinators', [{ event_type: 'note.created', filter: { $or: [], $and: [] } }], /exactly one key/],
    ['empty $or', [{ event_type: 'note.created', filter: { $or: [] } }], /non-empty/],
    ['unknown operator', [{ event_type: 'note.created', filter: { $or: [{ field: 'id.note_id', operator: 'contains', value: 'a' }] } }], /operator/],
    ['field not of the family', [{ event_type: 'note.created', filter: { $or: [{ field: 'api_slug', operator: 'equals', value: 'a' }] } }], /field/],
    ['value not a string', [{ event_type: 'note.created', filter: { $and: [{ field: 'id.note_id', operator: 'equals', value: 3 }] } }], /value/],
    ['extra property in a condition', [{ event_type: 'note.created', filter: { $and: [{ field: 'id.note_id', operator: 'equals', value: 'a', x: 1 }] } }], /unknown properties/],
    ['nested combinator', [{ event_type: 'note.created', filter: { $or: [{ $and: [] }] } }], /unknown properties/],
    ['event_type missing', [{ filter: null }], /event_type/],
  ])('refuses %s with 400', async (_, subscriptions, message) => {
    const res = await create({ data: { target_url: target, subscriptions } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_type');
    expect(res.body.message).toMatch(message);
  });

  it.each([
    ['not a URL', 'not a url', /absolute URL/],
    ['ftp scheme', 'ftp://example.com/x', /http or https/],
    ['credentials', 'http://user:pw@127.0.0.1/x', /credentials/],
    ['cloud metadata even with private targets allowed', 'http://169.254.169.254/latest/meta-data', /metadata/],
  ])('refuses a target URL that is %s', async (_, url, message) => {
    const res = await create({ data: { target_url: url, subscriptions: [] } });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(message);
  });

  it('refuses missing data, missing fields and wrong types', async () => {
    expect((await create({})).status).toBe(400);
    expect((await create({ data: { subscriptions: [] } })).status).toBe(400);
    expect((await create({ data: { target_url: target } })).status).toBe(400);
    expect((await create({ data: { target_url: 5, subscriptions: [] } })).status).toBe(400);
    expect((await create({ data: { target_url: target, subscriptions: {} } })).status).toBe(400);
    expect((await create({ data: { target_url: target, subscriptions: [], secret: 'mine' } })).status).toBe(400);
  });

  it('lists with limit 10–100 and offset, and refuses out-of-range values', async () => {
    const fresh = await t.createWorkspace();
    for (let i = 0; i < 12; i++) expect((await create({ data: { target_url: `${target}?n=${i}`, subscriptions: [] } }, fresh.token)).status).toBe(200);
    const first = await t.http().get('/v2/webhooks').set(auth(fresh.token));
    expect(first.status).toBe(200);
    expect(first.body.data).toHaveLength(10);
    const second = await t.http().get('/v2/webhooks?limit=10&offset=10').set(auth(fresh.token));
    expect(second.body.data).toHaveLength(2);
    expect(second.body.data[1].target_url).toBe(`${target}?n=11`);
    expect((await t.http().get('/v2/webhooks?limit=100').set(auth(fresh.token))).body.data).toHaveLength(12);
    expect((await t.http().get('/v2/webhooks?offset=12').set(auth(fresh.token))).body.data).toEqual([]);
    for (const query of ['limit=9', 'limit=101', 'limit=0', 'offset=-1', 'limit=abc', 'limit=10.5', 'offset=abc', 'offset=1.5', 'offset=99999999999999999999']) {
      const res = await t.http().get(`/v2/webhooks?${query}`).set(auth(fresh.token));
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ status_code: 400, type: 'invalid_request_error', code: 'validation_type', message: expect.stringMatching(query.split('=')[0]) });
    }
    // The secret is shown by the create call only.
    const listed = await t.http().get('/v2/webhooks?limit=100').set(auth(fresh.token));
    for (const webhook of listed.body.data) expect(webhook).not.toHaveProperty('secret');
  });

  it('updates the target and subscriptions, validating both', async () => {
    const { body } = await create({ data: { target_url: target, subscriptions: [] } });
    const id = body.data.id.webhook_id;
    const patched = await t
      .http()
      .patch(`/v2/webhooks/${id}`)
      .set(auth())
      .send({ data: { target_url: 'http://127.0.0.1:10/other', subscriptions: [{ event_type: 'record.created', filter: null }] } });
    expect(patched.status).toBe(200);
    expect(patched.body.data).toMatchObject({ target_url: 'http://127.0.0.1:10/other', subscriptions: [{ event_type: 'record.created', filter: null }] });
    const onlyTarget = await t.http().patch(`/v2/webhooks/${id}`).set(auth()).send({ data: { target_url: target } });
    expect(onlyTarget.body.data.subscriptions).toHaveLength(1);
    expect((await t.http().patch(`/v2/webhooks/${id}`).set(auth()).send({ data: { subscriptions: [{ event_type: 'nope' }] } })).status).toBe(400);
    expect((await t.http().patch(`/v2/webhooks/${id}`).set(auth()).send({ data: { target_url: 'gopher://x' } })).status).toBe(400);
    expect(patched.body.data).not.toHaveProperty('secret');
    const bad = [
      { data: { target_url: null } },
      { data: { subscriptions: null } },
      { data: { target_url: 7 } },
      { data: { subscriptions: [{ event_type: 'note.created', filter: { $or: [{ field: 'parent_object_id', operator: 'like', value: 'x' }] } }] } },
      { data: { subscriptions: [{ event_type: 'note-content.updated', filter: { $or: [{ field: 'parent_object_id', operator: 'equals', value: 'x' }] } }] } },
      { data: { status: 'inactive' } },
      { target_url: target },
    ];
    for (const body of bad) {
      const res = await t.http().patch(`/v2/webhooks/${id}`).set(auth()).send(body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('validation_type');
    }
    // A refused update changed nothing.
    const after = await t.http().get(`/v2/webhooks/${id}`).set(auth());
    expect(after.body.data).toMatchObject({ target_url: target, subscriptions: [{ event_type: 'record.created', filter: null }], status: 'active' });
  });

  it('refuses a target whose host does not resolve', async () => {
    const res = await create({ data: { target_url: 'https://no-such-host.invalid/hook', subscriptions: [] } });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/data\.target_url .*does not resolve/);
  });

  it('deletes with {} and then 404s', async () => {
    const { body } = await create({ data: { target_url: target, subscriptions: [] } });
    const id = body.data.id.webhook_id;
    const deleted = await t.http().delete(`/v2/webhooks/${id}`).set(auth());
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({});
    expect((await t.http().get(`/v2/webhooks/${id}`).set(auth())).status).toBe(404);
    expect((await t.http().delete(`/v2/webhooks/${id}`).set(auth())).status).toBe(404);
  });

  it("404s for another workspace's webhook, unknown ids and malformed ids", async () => {
    const { body } = await create({ data: { target_url: target, subscriptions: [] } });
    const id = body.data.id.webhook_id;
    for (const request of [
      t.http().get(`/v2/webhooks/${id}`),
      t.http().patch(`/v2/webhooks/${id}`).send({ data: {} }),
      t.http().delete(`/v2/webhooks/${id}`),
      t.http().get(`/v2/webhooks/${id}/deliveries`),
    ]) {
      expect((await request.set(auth(other.token))).status).toBe(404);
    }
    expect((await t.http().get('/v2/webhooks').set(auth(other.token))).body.data).toEqual([]);
    expect((await t.http().get('/v2/webhooks/00000000-0000-4000-8000-000000000000').set(auth())).status).toBe(404);
    expect((await t.http().get('/v2/webhooks/not-a-uuid').set(auth())).status).toBe(404);
    expect((await t.http().post(`/v2/webhooks/${id}/deliveries/00000000-0000-4000-8000-000000000000/replay`).set(auth())).status).toBe(404);
    expect((await t.http().get(`/v2/webhooks/${id}`).set(auth())).status).toBe(200);
  });

  it('requires webhook:read to read and webhook:read-write to write', async () => {
    const reader = await t.tokenFor(ws.workspaceId, [SCOPES.webhookRead]);
    const none = await t.tokenFor(ws.workspaceId, [SCOPES.noteRead]);
    const { body } = await create({ data: { target_url: target, subscriptions: [] } });
    const id = body.data.id.webhook_id;
    expect((await t.http().get('/v2/webhooks').set(auth(reader))).status).toBe(200);
    expect((await t.http().get(`/v2/webhooks/${id}/deliveries`).set(auth(reader))).status).toBe(200);
    expect((await t.http().get('/v2/webhooks').set(auth(none))).status).toBe(403);
    expect((await create({ data: { target_url: target, subscriptions: [] } }, reader)).status).toBe(403);
    expect((await t.http().patch(`/v2/webhooks/${id}`).set(auth(reader)).send({ data: {} })).status).toBe(403);
    expect((await t.http().delete(`/v2/webhooks/${id}`).set(auth(reader))).status).toBe(403);
    expect((await t.http().get('/v2/webhooks')).status).toBe(401);
    // read-write implies read; a 403 names the missing scope
    const writer = await t.tokenFor(ws.workspaceId, [SCOPES.webhookReadWrite]);
    expect((await t.http().get(`/v2/webhooks/${id}`).set(auth(writer))).status).toBe(200);
    const denied = await t.http().post(`/v2/webhooks/${id}/deliveries/00000000-0000-4000-8000-000000000000/replay`).set(auth(reader));
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({ type: 'auth_error', message: expect.stringContaining('webhook:read-write') });
    expect((await t.http().get(`/v2/webhooks/${id}`).set(auth(none))).status).toBe(403);
  });

  it('documents the delivery log and replay as Workbase extensions', async () => {
    const doc = (await t.http().get('/openapi.json')).body as { paths: Record<string, Record<string, { description?: string }>> };
    expect(doc.paths['/v2/webhooks/{webhook_id}/deliveries'].get.description).toMatch(/Workbase extension/);
    expect(doc.paths['/v2/webhooks/{webhook_id}/deliveries/{delivery_id}/replay'].post.description).toMatch(/Workbase extension/);
  });
});

describe('webhooks SSRF policy with private targets refused (e2e)', () => {
  let t: TestApp;
  let ws: TestWorkspace;

  beforeAll(async () => {
    t = await startTestApp({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' } });
    ws = await t.createWorkspace();
  });
  afterAll(() => t.close());

  it.each([
    'http://127.0.0.1:8080/hook',
    'http://localhost/hook',
    'http://10.1.2.3/hook',
    'http://172.16.0.1/hook',
    'http://192.168.1.1/hook',
    'http://169.254.169.254/latest/meta-data',
    'http://100.64.0.1/hook',
    'http://224.0.0.1/hook',
    'http://0.0.0.0/hook',
    'http://[::1]/hook',
    'http://[fe80::1]/hook',
    'http://[fd00::1]/hook',
    'http://[::ffff:127.0.0.1]/hook',
    'http://2130706433/hook',
  ])('refuses %s', async (url) => {
    const res = await t
      .http()
      .post('/v2/webhooks')
      .set('Authorization', `Bearer ${ws.token}`)
      .send({ data: { target_url: url, subscriptions: [] } });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/not an allowed target/);
  });

  it('refuses an update to a private target and keeps the old one', async () => {
    const created = await t
      .http()
      .post('/v2/webhooks')
      .set('Authorization', `Bearer ${ws.token}`)
      .send({ data: { target_url: 'https://93.184.215.14/hook', subscriptions: [] } });
    const id = created.body.data.id.webhook_id;
    const res = await t.http().patch(`/v2/webhooks/${id}`).set('Authorization', `Bearer ${ws.token}`).send({ data: { target_url: 'http://localhost:3000/hook' } });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(/data\.target_url is not an allowed target: localhost resolves to .*loopback/);
    expect((await t.http().get(`/v2/webhooks/${id}`).set('Authorization', `Bearer ${ws.token}`)).body.data.target_url).toBe('https://93.184.215.14/hook');
  });

  it('accepts a public address literal', async () => {
    const res = await t
      .http()
      .post('/v2/webhooks')
      .set('Authorization', `Bearer ${ws.token}`)
      .send({ data: { target_url: 'https://93.184.215.14/hook', subscriptions: [] } });
    expect(res.status).toBe(200);
  });
});
