import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { bearer, bearerRequests } from '../support/requests';
import { useTestApp, useWorkspace } from '../support/suite';
import { startTestApp, type TestApp, type TestWorkspace } from '../support/test-app';

/**
 * Bulk writes (issue 30 part 3): `POST /v2/objects/{object}/records/batch` and
 * `POST /v2/lists/{list}/entries/batch` answer each operation in its place as its single endpoint
 * would, apply them in order in one transaction, roll a refused item back alone (or the whole
 * batch when atomic), and record each applied operation's usual events.
 */
describe('batch writes of records and entries (e2e)', () => {
  const t = useTestApp();
  const ws = useWorkspace(t, 'batch');
  const other = useWorkspace(t, 'batch-other');
  const { get, post } = bearerRequests(() => t, () => ws.token);
  const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> => t.app.get(DataSource).query(text, params);
  const batch = (operations: unknown, extra: Record<string, unknown> = {}, object = 'people') => post(`/v2/objects/${object}/records/batch`, { operations, ...extra });
  /** Records, value rows and events of the workspace: what a write leaves behind. */
  const footprint = async () =>
    (await sql<{ records: string; values: string; events: string }>(
      `SELECT (SELECT count(*) FROM records WHERE workspace_id = $1) AS records,
              (SELECT count(*) FROM record_values WHERE workspace_id = $1) AS values,
              (SELECT count(*) FROM event_outbox WHERE workspace_id = $1) AS events`,
      [ws.workspaceId],
    ))[0];
  const lastEvent = async () => Number((await sql<{ n: string }>(`SELECT coalesce(max(id), 0) AS n FROM event_outbox`))[0].n);
  const eventsSince = async (id: number) =>
    sql<{ event_type: string; entity_id: Record<string, string> }>(`SELECT event_type, entity_id FROM event_outbox WHERE workspace_id = $1 AND id > $2 ORDER BY id`, [ws.workspaceId, id]);
  const person = (email: string, name = 'Ada Lovelace') => ({ values: { email_addresses: [email], name } });

  it('creates, asserts, updates and deletes in order, each answered as its single endpoint would', async () => {
    const existing = (await post('/v2/objects/people/records', { data: person('grace@batch.test', 'Grace Hopper') }).expect(200)).body.data.id.record_id as string;
    const doomed = (await post('/v2/objects/people/records', { data: person('doomed@batch.test') }).expect(200)).body.data.id.record_id as string;
    const since = await lastEvent();
    const res = await batch([
      { op: 'create', data: person('ada@batch.test') },
      { op: 'assert', matching_attribute: 'email_addresses', data: person('grace@batch.test', 'Grace B. Hopper') },
      { op: 'update', record_id: existing, data: { values: { job_title: 'Admiral' } } },
      { op: 'delete', record_id: doomed },
    ]).expect(200);
    const items = res.body.data;
    expect(items.map((item: { index: number; status: number }) => [item.index, item.status])).toEqual([[0, 200], [1, 200], [2, 200], [3, 200]]);
    expect(items[0].data.values.email_addresses[0].email_address).toBe('ada@batch.test');
    expect(items[0].data.web_url).toContain(items[0].data.id.record_id);
    expect(items[1].data.id.record_id).toBe(existing);
    // Items are answered as the batch left the record: the assert's item shows the later update too.
    expect(items[1].data.values.name[0].full_name).toBe('Grace B. Hopper');
    expect(items[2].data.values.job_title[0].value).toBe('Admiral');
    expect(items[3]).toEqual({ index: 3, status: 200, data: {} });
    // The same record a single GET answers.
    expect((await get(`/v2/objects/people/records/${existing}`).expect(200)).body.data).toEqual(items[2].data);
    await get(`/v2/objects/people/records/${doomed}`).expect(404);
    // Each applied operation recorded its usual events, in order.
    const events = (await eventsSince(since)).map((e) => [e.event_type, e.entity_id.record_id]);
    expect(events[0]).toEqual(['record.created', items[0].data.id.record_id]);
    expect(events.filter(([type]) => type === 'record.updated').every(([, id]) => id === existing)).toBe(true);
    expect(events.filter(([type]) => type === 'record.updated').length).toBeGreaterThanOrEqual(2);
    expect(events.at(-1)).toEqual(['record.deleted', doomed]);
  });

  it('makes one record of two asserts of one key in a batch', async () => {
    const res = await batch([
      { op: 'assert', matching_attribute: 'email_addresses', data: person('twice@batch.test', 'First') },
      { op: 'assert', matching_attribute: 'email_addresses', data: person('twice@batch.test', 'Second') },
    ]).expect(200);
    const [first, second] = res.body.data;
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.data.id.record_id).toBe(first.data.id.record_id);
    const found = (await post('/v2/objects/people/records/query', { filter: { email_addresses: 'twice@batch.test' } }).expect(200)).body.data;
    expect(found.map((r: { id: { record_id: string } }) => r.id.record_id)).toEqual([first.data.id.record_id]);
    expect(found[0].values.name[0].full_name).toBe('Second');
  });

  it('refuses items alone: 400, 404 (unknown or another workspace), 409; the others apply and the refused ones leave nothing', async () => {
    const taken = (await post('/v2/objects/people/records', { data: person('taken@batch.test') }).expect(200)).body.data.id.record_id as string;
    const foreign = (await post('/v2/objects/people/records', { data: person('foreign@batch.test') }, other.token).expect(200)).body.data.id.record_id as string;
    const before = await footprint();
    const res = await batch([
      { op: 'create', data: person('ok-1@batch.test') },
      { op: 'create', data: { values: { email_addresses: ['not an email'] } } },
      { op: 'create', data: { values: { no_such_attribute: 1 } } },
      { op: 'update', record_id: foreign, data: { values: { job_title: 'Spy' } } },
      { op: 'delete', record_id: foreign },
      { op: 'update', record_id: randomUUID(), data: { values: { job_title: 'Nobody' } } },
      { op: 'delete', record_id: 'not-a-uuid' },
      { op: 'create', data: person('taken@batch.test') },
      { op: 'create', data: { values: { updated_at: '2030-01-01T00:00:00Z' } } },
      { op: 'upsert', data: person('x@batch.test') },
      { op: 'update', data: { values: {} } },
      { op: 'assert', data: person('y@batch.test') },
      { op: 'create' },
      'not an object',
      { op: 'create', data: person('ok-2@batch.test') },
    ]).expect(200);
    const items: Array<{ index: number; status: number; data?: unknown; error?: { status_code: number; type: string; code: string; message: string } }> = res.body.data;
    expect(items.map((item) => item.index)).toEqual(items.map((_, i) => i));
    expect(items.map((item) => item.status)).toEqual([200, 400, 400, 404, 404, 404, 404, 409, 400, 400, 400, 400, 400, 400, 200]);
    for (const item of items.filter((i) => i.status !== 200)) {
      expect(item.data).toBeUndefined();
      expect(item.error).toMatchObject({ status_code: item.status, type: 'invalid_request_error' });
    }
    expect(items[7].error!.code).toBe('uniqueness_conflict');
    expect(items[8].error!.message).toContain('updated_at');
    expect(items[9].error!.message).toContain('operations[9].op');
    expect(items[10].error!.message).toContain('operations[10].record_id');
    expect(items[11].error!.message).toContain('operations[11].matching_attribute');
    expect(items[12].error!.message).toContain('operations[12].data');
    expect(items[13].error!.message).toContain('operations[13]');
    // The single endpoints answer the same statuses and codes.
    const single = await post('/v2/objects/people/records', { data: person('taken@batch.test') });
    expect([single.status, single.body.code]).toEqual([409, items[7].error!.code]);
    const foreignUpdate = await post(`/v2/objects/people/records/${foreign}`, {});
    expect(foreignUpdate.status).toBe(404);
    // Two records and their events were added; nothing of the refused items, nothing in the other workspace.
    const after = await footprint();
    expect(Number(after.records) - Number(before.records)).toBe(2);
    expect((await get(`/v2/objects/people/records/${foreign}`, other.token).expect(200)).body.data.values.job_title).toEqual([]);
    expect((await get(`/v2/objects/people/records/${taken}`).expect(200)).body.data.values.email_addresses[0].email_address).toBe('taken@batch.test');
  });

  it('applies nothing when atomic and one item is refused: 400 naming its index', async () => {
    const before = await footprint();
    const res = await batch(
      [
        { op: 'create', data: person('atomic-1@batch.test') },
        { op: 'assert', matching_attribute: 'email_addresses', data: person('atomic-2@batch.test') },
        { op: 'update', record_id: randomUUID(), data: { values: { job_title: 'Nobody' } } },
        { op: 'create', data: person('atomic-3@batch.test') },
      ],
      { atomic: true },
    );
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ status_code: 400, type: 'invalid_request_error' });
    expect(res.body.message).toContain('operations[2]');
    expect(await footprint()).toEqual(before);
    // The same batch without the bad item applies entirely.
    const ok = await batch([{ op: 'create', data: person('atomic-1@batch.test') }, { op: 'create', data: person('atomic-3@batch.test') }], { atomic: true }).expect(200);
    expect(ok.body.data.map((item: { status: number }) => item.status)).toEqual([200, 200]);
  });

  it('refuses an empty list, more than 1,000 operations, a missing list and a bad atomic flag (400 naming the field)', async () => {
    const before = await footprint();
    const ops = (n: number) => Array.from({ length: n }, (_, i) => ({ op: 'create', data: person(`many-${i}@batch.test`) }));
    for (const [body, field] of [
      [{ operations: [] }, 'operations'],
      [{ operations: ops(1001) }, 'operations'],
      [{}, 'operations'],
      [{ operations: 'create' }, 'operations'],
      [{ operations: ops(1), atomic: 'yes' }, 'atomic'],
      [{ operations: ops(1), atomc: true }, 'atomc'],
      // The depth limit covers the operations, which the DTO takes without copying them.
      [{ operations: [{ op: 'create', data: { values: { name: JSON.parse(`${'['.repeat(40)}"deep"${']'.repeat(40)}`) } } }] }, 'body'],
    ] as const) {
      const res = await post('/v2/objects/people/records/batch', body);
      expect([res.status, res.body.type]).toEqual([400, 'invalid_request_error']);
      expect(res.body.message).toContain(field);
    }
    expect(await footprint()).toEqual(before);
    await post('/v2/objects/no_such_object/records/batch', { operations: ops(1) }).expect(404);
    // Another workspace's object id is unknown here.
    const foreignObject = (await get('/v2/objects/people', other.token).expect(200)).body.data.id.object_id;
    await post(`/v2/objects/${foreignObject}/records/batch`, { operations: ops(1) }).expect(404);
    // A token that may only read cannot write in a batch.
    const reader = await t.tokenFor(ws.workspaceId, ['record_permission:read', 'object_configuration:read']);
    const denied = await post('/v2/objects/people/records/batch', { operations: ops(1) }, reader);
    expect([denied.status, denied.body.message]).toEqual([403, expect.stringContaining('record_permission:read-write')]);
    expect(await footprint()).toEqual(before);
  });

  it('strips prototype keys from the operations, as from any body: nothing is polluted and the item is written without them', async () => {
    const raw = `{"operations":[{"op":"create","data":{"values":{"email_addresses":["proto@batch.test"],"name":"Proto","__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}}}}}]}`;
    const res = await t.http().post('/v2/objects/people/records/batch').set(bearer(ws.token)).set('content-type', 'application/json').send(raw);
    expect(res.status).toBe(200);
    expect(res.body.data[0].status).toBe(200);
    expect(res.body.data[0].data.values.name[0].full_name).toBe('Proto');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted')).toBe(false);
  });

  it('takes 1,000 operations', async () => {
    const operations = Array.from({ length: 1000 }, (_, i) => ({ op: 'assert', matching_attribute: 'email_addresses', data: person(`bulk-${i % 500}@batch.test`, `Bulk ${i}`) }));
    const res = await batch(operations).expect(200);
    expect(res.body.data).toHaveLength(1000);
    expect(res.body.data.every((item: { status: number }) => item.status === 200)).toBe(true);
    // 500 keys, each asserted twice: 500 records, each holding its second name.
    const [{ count }] = await sql<{ count: string }>(
      `SELECT count(DISTINCT record_id) AS count FROM unique_values WHERE workspace_id = $1 AND value_key LIKE 'bulk-%'`,
      [ws.workspaceId],
    );
    expect(Number(count)).toBe(500);
    expect(res.body.data[999].data.id.record_id).toBe(res.body.data[499].data.id.record_id);
    expect(res.body.data[999].data.values.name[0].full_name).toBe('Bulk 999');
  });

  describe('entries', () => {
    it('creates, asserts by parent, updates and deletes entries, refusing items alone', async () => {
      await post('/v2/lists', { data: { name: 'Hiring', api_slug: 'hiring', parent_object: 'people' } }).expect(200);
      await post('/v2/lists/hiring/attributes', { data: { title: 'Score', api_slug: 'score', type: 'number', is_required: false, is_unique: false, is_multiselect: false, config: {} } }).expect(200);
      const [a, b] = await Promise.all(['entry-a@batch.test', 'entry-b@batch.test'].map(async (email) => (await post('/v2/objects/people/records', { data: person(email) }).expect(200)).body.data.id.record_id as string));
      const foreignPerson = (await post('/v2/objects/people/records', { data: person('entry-foreign@batch.test') }, other.token).expect(200)).body.data.id.record_id as string;
      const entries = (operations: unknown[], extra: Record<string, unknown> = {}) => post('/v2/lists/hiring/entries/batch', { operations, ...extra });

      const created = (await entries([
        { op: 'create', data: { parent_record_id: a, parent_object: 'people', entry_values: { score: 1 } } },
        { op: 'assert', data: { parent_record_id: b, parent_object: 'people', entry_values: { score: 2 } } },
        { op: 'assert', data: { parent_record_id: b, parent_object: 'people', entry_values: { score: 3 } } },
        { op: 'create', data: { parent_record_id: foreignPerson, parent_object: 'people' } },
        { op: 'create', data: { parent_record_id: a, parent_object: 'companies' } },
        { op: 'update', entry_id: randomUUID(), data: { entry_values: { score: 9 } } },
        { op: 'create', data: { entry_values: { score: 1 } } },
      ]).expect(200)).body.data;
      expect(created.map((item: { status: number }) => item.status)).toEqual([200, 200, 200, 400, 400, 404, 400]);
      expect(created[0].data).toMatchObject({ parent_record_id: a, parent_object: 'people' });
      expect(created[0].data.entry_values.score[0].value).toBe(1);
      // Two asserts of one parent: one entry, holding the second score.
      expect(created[2].data.id.entry_id).toBe(created[1].data.id.entry_id);
      expect(created[2].data.entry_values.score[0].value).toBe(3);
      expect(created[6].error.message).toContain('operations[6].data.parent_record_id');

      const entryA = created[0].data.id.entry_id;
      const changed = (await entries([
        { op: 'update', entry_id: entryA, data: { entry_values: { score: 5 } } },
        { op: 'delete', entry_id: created[1].data.id.entry_id },
      ]).expect(200)).body.data;
      expect(changed.map((item: { status: number }) => item.status)).toEqual([200, 200]);
      expect(changed[0].data.entry_values.score[0].value).toBe(5);
      expect(changed[1].data).toEqual({});
      expect((await get(`/v2/lists/hiring/entries/${entryA}`).expect(200)).body.data).toEqual(changed[0].data);
      await get(`/v2/lists/hiring/entries/${created[1].data.id.entry_id}`).expect(404);

      const atomic = await entries([{ op: 'update', entry_id: entryA, data: { entry_values: { score: 6 } } }, { op: 'delete', entry_id: randomUUID() }], { atomic: true });
      expect([atomic.status, atomic.body.message]).toEqual([400, expect.stringContaining('operations[1]')]);
      expect((await get(`/v2/lists/hiring/entries/${entryA}`).expect(200)).body.data.entry_values.score[0].value).toBe(5);
      await post('/v2/lists/hiring/entries/batch', { operations: [] }).expect(400);
    });

    it("answers 404 for another workspace's list, an item 404 for its entry, and 403 without the write scope", async () => {
      await post('/v2/lists', { data: { name: 'Hiring', api_slug: 'hiring', parent_object: 'people' } }, other.token).expect(200);
      const foreignList = (await get('/v2/lists/hiring', other.token).expect(200)).body.data.id.list_id as string;
      const parent = (await post('/v2/objects/people/records', { data: person('entry-tenancy@batch.test') }, other.token).expect(200)).body.data.id.record_id as string;
      const foreignEntry = (await post('/v2/lists/hiring/entries', { data: { parent_record_id: parent, parent_object: 'people', entry_values: {} } }, other.token).expect(200)).body.data.id.entry_id as string;
      const before = await footprint();
      await post(`/v2/lists/${foreignList}/entries/batch`, { operations: [{ op: 'delete', entry_id: foreignEntry }] }).expect(404);
      const items = (await post('/v2/lists/hiring/entries/batch', { operations: [{ op: 'update', entry_id: foreignEntry, data: { entry_values: {} } }, { op: 'delete', entry_id: foreignEntry }] }).expect(200)).body.data;
      expect(items.map((item: { status: number }) => item.status)).toEqual([404, 404]);
      const reader = await t.tokenFor(ws.workspaceId, ['record_permission:read', 'list_entry:read', 'list_configuration:read', 'object_configuration:read']);
      expect((await post('/v2/lists/hiring/entries/batch', { operations: [{ op: 'delete', entry_id: foreignEntry }] }, reader)).status).toBe(403);
      expect(await footprint()).toEqual(before);
      await get(`/v2/lists/hiring/entries/${foreignEntry}`, other.token).expect(200);
    });
  });
});

describe('batch writes against the rate limit', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  beforeAll(async () => {
    t = await startTestApp({ env: { RATE_LIMIT_ENABLED: 'true', RATE_LIMIT_WRITES_PER_SECOND: '5' } });
    ws = await t.createWorkspace('batch-limits');
  });
  afterAll(() => t.close());

  /** Waits for the next one-second window (windows are aligned on the clock), so that a burst lands in one window. */
  const atWindowStart = () => new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 15));
  // Malformed operations: refused per item without touching the database, so the requests are quick.
  const batchOf = (n: number) => t.http().post('/v2/objects/people/records/batch').set('Authorization', `Bearer ${ws.token}`).send({ operations: Array.from({ length: n }, () => ({ op: 'noop' })) });

  it('costs one write per started 100 operations', async () => {
    // With 5 writes a second: 501 operations cost 6, more than the whole budget, so the batch is
    // refused before any work whenever it is sent; 500 cost 5 and fit in a fresh window. (Which
    // requests share a window is up to the clock, so the exact counts are writeCost's spec.)
    await atWindowStart();
    const refused = await batchOf(501);
    expect([refused.status, refused.body.code]).toEqual([429, 'rate_limit_exceeded']);
    await atWindowStart();
    await atWindowStart();
    expect((await batchOf(500)).status).toBe(200);
  });
});
