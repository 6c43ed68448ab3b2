import fc from 'fast-check';
import { DataSource } from 'typeorm';
import { useTestApp, useWorkspace } from '../support/suite';
import { meetingBody } from '../support/meetings';

/**
 * Issue 20, item 4: generated bodies on every write and query endpoint are answered with a 2xx or
 * a 4xx, never a 5xx, and a refused write changes nothing: the row counts of every table of
 * workspace data and the event outbox are the same before and after it. Seeded, so a failure
 * replays; fast-check prints the counterexample. FUZZ_RUNS scales the runs per endpoint.
 */
describe('generated input on every write and query endpoint', () => {
  const t = useTestApp();
  const ws = useWorkspace(t, 'security-fuzz');
  let db: DataSource;
  let countsSql: string;
  const ids: Record<string, string> = {};
  const RUNS = Number(process.env.FUZZ_RUNS ?? 60);

  const call = (method: 'post' | 'patch' | 'put', path: string, body: string) =>
    t.http()[method](path).set('Authorization', `Bearer ${ws.token}`).set('Content-Type', 'application/json').send(body);
  const json = (method: 'post' | 'patch' | 'put', path: string, body: unknown) => call(method, path, JSON.stringify(body));

  // Tables that a read or a refused request may legitimately touch (rate windows, statistics, queues).
  const VOLATILE = new Set(['request_rate_windows', 'record_query_statistics', 'oauth_sign_in_failures', 'webhook_target_rate_buckets', 'migrations']);

  beforeAll(async () => {
    db = t.app.get(DataSource);
    const tables: Array<{ table_name: string }> = await db.query(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`);
    countsSql = `SELECT ${tables.filter((row) => !VOLATILE.has(row.table_name)).map((row) => `(SELECT count(*) FROM "${row.table_name}") AS "${row.table_name}"`).join(', ')}`;

    await json('post', '/v2/objects', { data: { api_slug: 'gadgets', singular_noun: 'Gadget', plural_noun: 'Gadgets' } }).expect(200);
    await json('post', '/v2/objects/gadgets/attributes', { data: { title: 'Kind', api_slug: 'kind', type: 'select', is_required: false, is_unique: false, is_multiselect: false, config: {} } }).expect(200);
    await json('post', '/v2/objects/gadgets/attributes', { data: { title: 'Phase', api_slug: 'phase', type: 'status', is_required: false, is_unique: false, is_multiselect: false, config: {} } }).expect(200);
    await json('post', '/v2/objects/gadgets/attributes/kind/options', { data: { title: 'Widget' } }).expect(200);
    await json('post', '/v2/objects/gadgets/attributes/phase/statuses', { data: { title: 'Draft' } }).expect(200);
    ids.person = (await json('post', '/v2/objects/people/records', { data: { values: { name: 'Lovelace, Ada', email_addresses: ['ada@example.com'] } } }).expect(200)).body.data.id.record_id;
    ids.company = (await json('post', '/v2/objects/companies/records', { data: { values: { name: 'Acme' } } }).expect(200)).body.data.id.record_id;
    await json('post', '/v2/lists', { data: { name: 'Pipeline', api_slug: 'pipeline', parent_object: 'companies', workspace_access: 'full-access', workspace_member_access: [] } }).expect(200);
    ids.entry = (await json('post', '/v2/lists/pipeline/entries', { data: { parent_record_id: ids.company, parent_object: 'companies', entry_values: {} } }).expect(200)).body.data.id.entry_id;
    await json('post', '/v2/activities', { data: { api_slug: 'fuzz_emails', singular_noun: 'Email', plural_noun: 'Emails', extends: 'emails' } }).expect(200);
    ids.note = (await json('post', '/v2/notes', { data: { parent_object: 'people', parent_record_id: ids.person, title: 'Hello', format: 'plaintext', content: 'x' } }).expect(200)).body.data.id.note_id;
    ids.webhook = (await json('post', '/v2/webhooks', { data: { target_url: 'http://127.0.0.1:9/hook', subscriptions: [{ event_type: 'record.created', filter: null }] } }).expect(200)).body.data.id.webhook_id;
    ids.task = (await json('post', '/v2/tasks', { data: { content: 'Call Ada', format: 'plaintext', deadline_at: null, is_completed: false, linked_records: [], assignees: [] } }).expect(200)).body.data.id.task_id;
    ids.meeting = (await json('post', '/v2/meetings', meetingBody({ title: 'Fuzz call' })).expect(200)).body.data.id.meeting_id;
    ids.group = (await t.http().post('/scim/v2/Groups').set('Authorization', `Bearer ${ws.token}`).set('Content-Type', 'application/scim+json')
      .send(JSON.stringify({ schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'], displayName: 'Fuzzers' })).expect(201)).body.id;
    ids.user = (await t.http().post('/scim/v2/Users').set('Authorization', `Bearer ${ws.token}`).set('Content-Type', 'application/scim+json')
      .send(JSON.stringify({ schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'], userName: 'grace@example.com' })).expect(201)).body.id;
  });

  const FIELDS = [
    'api_slug', 'singular_noun', 'plural_noun', 'title', 'type', 'is_required', 'is_unique', 'is_multiselect', 'is_archived', 'config', 'default_value', 'relationship',
    'values', 'entry_values', 'parent_record_id', 'parent_object', 'name', 'workspace_access', 'workspace_member_access', 'target_url', 'subscriptions',
    'format', 'content', 'filter', 'sorts', 'limit', 'offset', 'extends', 'timestamp', 'linked_records', 'participants', 'start', 'end', 'description',
    'content', 'deadline_at', 'is_completed', 'assignees', 'thread_id', 'record', 'entry', 'author', 'video_url', 'query', 'objects', 'sql', 'request_as',
    'schemas', 'userName', 'displayName', 'members', 'Operations', 'emails', 'active', 'op', 'path', 'value', '__proto__', 'constructor', '$not', '$and', 'email_addresses',
  ];
  const leaf = fc.oneof(
    fc.jsonValue({ maxDepth: 2 }),
    fc.constantFrom('people', 'companies', 'gadgets', 'pipeline', 'Widget', 'Draft', 'full-access', 'text', 'select', 'plaintext', 'ada@example.com', '2026-01-01T00:00:00Z', '\u0000', '', 'x'.repeat(300)),
    fc.uuid(),
  );
  const shaped: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
    node: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, fc.array(tie('node'), { maxLength: 3 }), fc.dictionary(fc.constantFrom(...FIELDS), tie('node'), { maxKeys: 4 })),
  })).node;
  const deep = fc.tuple(fc.integer({ min: 30, max: 6000 }), fc.constantFrom(['[', ']'], ['{"$not":', '}'], ['{"$and":[', ']}'], ['{"a":', '}'])).map(([n, [open, close]]) => `{"data":{"values":{"name":${open.repeat(n)}1${close.repeat(n)}}},"filter":${open.repeat(n)}{}${close.repeat(n)}}`);
  const body = fc.oneof(
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)) },
    { weight: 3, arbitrary: fc.dictionary(fc.constantFrom('data', 'filter', 'sorts', 'limit', 'offset', 'schemas', 'Operations', 'userName'), shaped, { maxKeys: 3 }).map((value) => JSON.stringify(value)) },
    { weight: 3, arbitrary: fc.record({ data: fc.dictionary(fc.constantFrom(...FIELDS), shaped, { maxKeys: 5 }) }).map((value) => JSON.stringify(value)) },
    { weight: 1, arbitrary: deep },
    { weight: 1, arbitrary: fc.constantFrom('{"data":{}}', '{"data":[]}', '{"data":null}', '[]', '{', '"x"', '{"data":{"values":{"__proto__":{"x":1}}}}', '{"filter":{"__proto__":{}}}') },
  );

  const endpoints: Array<[string, 'post' | 'patch' | 'put', () => string]> = [
    ['create object', 'post', () => '/v2/objects'],
    ['update object', 'patch', () => '/v2/objects/gadgets'],
    ['create attribute', 'post', () => '/v2/objects/gadgets/attributes'],
    ['update attribute', 'patch', () => '/v2/objects/gadgets/attributes/kind'],
    ['create option', 'post', () => '/v2/objects/gadgets/attributes/kind/options'],
    ['update option', 'patch', () => '/v2/objects/gadgets/attributes/kind/options/Widget'],
    ['create status', 'post', () => '/v2/objects/gadgets/attributes/phase/statuses'],
    ['update status', 'patch', () => '/v2/objects/gadgets/attributes/phase/statuses/Draft'],
    ['create record', 'post', () => '/v2/objects/people/records'],
    ['assert record', 'put', () => '/v2/objects/people/records?matching_attribute=email_addresses'],
    ['update record', 'patch', () => `/v2/objects/people/records/${ids.person}`],
    ['query records', 'post', () => '/v2/objects/people/records/query'],
    ['create list', 'post', () => '/v2/lists'],
    ['update list', 'patch', () => '/v2/lists/pipeline'],
    ['create entry', 'post', () => '/v2/lists/pipeline/entries'],
    ['update entry', 'patch', () => `/v2/lists/pipeline/entries/${ids.entry}`],
    ['query entries', 'post', () => '/v2/lists/pipeline/entries/query'],
    ['create activity', 'post', () => '/v2/activities'],
    ['create activity record', 'post', () => '/v2/activities/fuzz_emails/records'],
    ['query activity records', 'post', () => '/v2/activities/fuzz_emails/records/query'],
    ['create note', 'post', () => '/v2/notes'],
    ['update note', 'patch', () => `/v2/notes/${ids.note}`],
    ['create meeting', 'post', () => '/v2/meetings'],
    ['create webhook', 'post', () => '/v2/webhooks'],
    ['update webhook', 'patch', () => `/v2/webhooks/${ids.webhook}`],
    ['create SCIM user', 'post', () => '/scim/v2/Users'],
    ['patch SCIM user', 'patch', () => `/scim/v2/Users/${ids.user}`],
    ['create SCIM group', 'post', () => '/scim/v2/Groups'],
    ['replace record', 'put', () => `/v2/objects/people/records/${ids.person}`],
    ['assert entry', 'put', () => '/v2/lists/pipeline/entries'],
    ['replace entry', 'put', () => `/v2/lists/pipeline/entries/${ids.entry}`],
    ['search records', 'post', () => '/v2/objects/records/search'],
    ['create task', 'post', () => '/v2/tasks'],
    ['update task', 'patch', () => `/v2/tasks/${ids.task}`],
    ['create comment', 'post', () => '/v2/comments'],
    ['create call recording', 'post', () => `/v2/meetings/${ids.meeting}/call_recordings`],
    ['run SQL', 'post', () => '/v2/sql'],
    ['replace SCIM user', 'put', () => `/scim/v2/Users/${ids.user}`],
    ['search SCIM users', 'post', () => '/scim/v2/Users/.search'],
    ['replace SCIM group', 'put', () => `/scim/v2/Groups/${ids.group}`],
    ['patch SCIM group', 'patch', () => `/scim/v2/Groups/${ids.group}`],
  ];

  it.each(endpoints)('%s: no 5xx, and a refused write changes no table', async (_label, method, path) => {
    await fc.assert(
      fc.asyncProperty(body, async (payload) => {
        const before = (await db.query(countsSql))[0];
        const res = await call(method, path(), payload);
        expect(res.status).toBeLessThan(500);
        if (res.status >= 400) expect((await db.query(countsSql))[0]).toEqual(before);
      }),
      { seed: 20, numRuns: RUNS },
    );
  });
});
