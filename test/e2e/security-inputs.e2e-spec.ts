import { useTestApp, useWorkspace } from '../support/suite';

/** Issue 20, item 4: inputs that reached a 500 are 4xx in the documented error shape, naming the problem. */
describe('malformed bodies and deep nesting are 400s', () => {
  const t = useTestApp();
  const ws = useWorkspace(t, 'inputs');
  let optionId: string;
  let statusId: string;

  const send = (method: 'post' | 'patch', path: string, body: unknown) =>
    t.http()[method](path).set('Authorization', `Bearer ${ws.token}`).set('Content-Type', 'application/json').send(typeof body === 'string' ? body : JSON.stringify(body));

  beforeAll(async () => {
    await send('post', '/v2/objects', { data: { api_slug: 'gadgets', singular_noun: 'Gadget', plural_noun: 'Gadgets' } }).expect(200);
    await send('post', '/v2/objects/gadgets/attributes', { data: { title: 'Kind', api_slug: 'kind', type: 'select', is_required: false, is_unique: false, is_multiselect: false, config: {} } }).expect(200);
    await send('post', '/v2/objects/gadgets/attributes', { data: { title: 'Phase', api_slug: 'phase', type: 'status', is_required: false, is_unique: false, is_multiselect: false, config: {} } }).expect(200);
    optionId = (await send('post', '/v2/objects/gadgets/attributes/kind/options', { data: { title: 'Widget' } }).expect(200)).body.data.id.option_id;
    statusId = (await send('post', '/v2/objects/gadgets/attributes/phase/statuses', { data: { title: 'Draft' } }).expect(200)).body.data.id.status_id;
    await send('post', '/v2/lists', { data: { name: 'Pipeline', api_slug: 'pipeline', parent_object: 'companies', workspace_access: 'full-access', workspace_member_access: [] } }).expect(200);
  });

  const expect400 = (body: Record<string, unknown>, mentions: RegExp) => {
    expect(body).toEqual({ status_code: 400, type: 'invalid_request_error', code: expect.any(String), message: expect.stringMatching(mentions) });
  };

  it.each([
    ['patch', '/v2/objects/gadgets', { data: {} }],
    ['patch', '/v2/lists/pipeline', { data: {} }],
    ['patch', () => `/v2/objects/gadgets/attributes/kind/options/${optionId}`, { data: {} }],
    ['patch', () => `/v2/objects/gadgets/attributes/phase/statuses/${statusId}`, { data: {} }],
    ['post', '/v2/objects', { data: [] }],
    ['post', '/v2/lists', { data: [] }],
    ['post', '/v2/webhooks', { data: [] }],
    ['patch', '/v2/objects/gadgets', { data: [] }],
  ] as const)('%s %p with %j', async (method, path, body) => {
    const res = await send(method, typeof path === 'function' ? path() : path, body);
    expect(res.status).toBe(400);
    expect400(res.body, /data/);
  });

  it('refuses a record body of 5,000 nested arrays before anything recursive runs', async () => {
    const deep = `{"data":{"values":{"name":${'['.repeat(5000)}${']'.repeat(5000)}}}}`;
    const res = await send('post', '/v2/objects/people/records', deep);
    expect(res.status).toBe(400);
    expect400(res.body, /nest/i);
  });

  it('refuses 3,000 nested $not and deeply nested $and in a query filter', async () => {
    let not: unknown = { name: 'x' };
    for (let i = 0; i < 3000; i++) not = { $not: not };
    const notBody = `{"filter":${'{"$not":'.repeat(3000)}{"name":"x"}${'}'.repeat(3000)}}`;
    expect400((await send('post', '/v2/objects/people/records/query', notBody)).body, /nest/i);
    const andBody = `{"filter":${'{"$and":['.repeat(200)}{"name":"x"}${']}'.repeat(200)}}`;
    expect400((await send('post', '/v2/objects/people/records/query', andBody)).body, /nest/i);
  });

  it('still accepts filters and values nested within the limit', async () => {
    let filter: unknown = { name: 'x' };
    for (let i = 0; i < 10; i++) filter = { $not: filter };
    await send('post', '/v2/objects/people/records/query', { filter }).expect(200);
  });
});
