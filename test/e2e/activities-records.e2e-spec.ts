import { ALL_SCOPES, SCOPES, type Scope } from '@workbase/shared/kernel';
import { DataSource } from 'typeorm';
import { bearerRequests } from '../support/requests';
import { useTestApp, useWorkspace } from '../support/suite';

type Row = Record<string, unknown>;
type Values = Record<string, Array<Record<string, unknown>>>;

/** Walks the Activity record section of the spec: endpoints, reference formats, errors, limits, scopes. */
describe('activity records', () => {
  const t = useTestApp();
  const ws = useWorkspace(t, 'activity-records');
  const other = useWorkspace(t, 'activity-records-other');
  let activityId: string;

  beforeAll(async () => {
    const res = await post('/v2/activities', { data: { api_slug: 'acme_calls', singular_noun: 'Call', plural_noun: 'Calls', extends: 'calls' } }).expect(200);
    activityId = res.body.data.id.activity_id;
    const attr = (api_slug: string, type: string, extra: object = {}) =>
      post('/v2/activities/acme_calls/attributes', { data: { title: api_slug, api_slug, type, is_required: false, is_unique: false, is_multiselect: false, config: {}, ...extra } }).expect(200);
    await attr('tags', 'select', { is_multiselect: true });
    for (const title of ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J', 'K', 'L']) await post('/v2/activities/acme_calls/attributes/tags/options', { data: { title } }).expect(200);
    await attr('amount', 'currency', { config: { currency: { default_currency_code: 'GBP', display_type: 'symbol' } } });
    await attr('external_id', 'text', { is_unique: true });
    await attr('contact_emails', 'email-address', { is_unique: true, is_multiselect: true });
    await attr('note', 'text');
  });

  const { get, post, put, patch, del, createRecord } = bearerRequests(() => t, () => ws.token);
  const db = () => t.app.get(DataSource);
  const records = '/v2/activities/acme_calls/records';
  const create = (values: Row, token = ws.token) => post(records, { data: { values } }, token);
  const at = (day: number) => `2026-02-${String(day).padStart(2, '0')}T10:00:00Z`;
  // Sorted: the engine orders values by their id as text (reported to the record engine's owner).
  const titles = (values: Values, slug: string) => values[slug].map((v) => (v.option as { title: string }).title).sort();
  const targets = (values: Values, slug: string) => values[slug].map((v) => v.target_record_id as string).sort();
  const person = (name: string, email: string, jobTitle = 'Engineer') => createRecord('people', { name, email_addresses: [email], job_title: jobTitle });

  describe('create and read', () => {
    it('creates a record with the documented response: composite id, created_at, created_by, values, no web_url', async () => {
      const res = await create({ timestamp: '2026-02-01T10:00:00.123Z', direction: 'Outbound', duration: 95, note: 'Intro call' }).expect(200);
      const data = res.body.data;
      expect(Object.keys(data).sort()).toEqual(['created_at', 'created_by', 'id', 'values']);
      expect(data.id).toEqual({ workspace_id: ws.workspaceId, activity_id: activityId, record_id: expect.any(String) });
      expect(data.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z$/);
      expect(data.created_by).toEqual({ type: 'api-token', id: expect.any(String) });
      expect(data.values.timestamp).toEqual([
        { active_from: expect.any(String), active_until: null, created_by_actor: data.created_by, value: '2026-02-01T10:00:00.123000000Z', attribute_type: 'timestamp' },
      ]);
      expect(titles(data.values, 'direction')).toEqual(['Outbound']);
      expect(data.values.duration[0]).toMatchObject({ value: 95, attribute_type: 'number' });
      expect(data.values.record_id[0].value).toBe(data.id.record_id);
      expect(data.values.participants).toEqual([]);
      expect(Object.keys(data.values)).toEqual(expect.arrayContaining(['timestamp', 'direction', 'duration', 'phone_number', 'participants', 'linked_records', 'tags', 'amount', 'note']));
      const read = await get(`${records}/${data.id.record_id}`).expect(200);
      expect(read.body.data).toEqual(data);
      expect((await get(`/v2/activities/${activityId}/records/${data.id.record_id}`).expect(200)).body.data).toEqual(data);
    });

    it('requires timestamp on every record and refuses bad values with 400s naming the attribute', async () => {
      const missing = await create({ direction: 'Inbound' }).expect(400);
      expect(missing.body).toMatchObject({ status_code: 400, code: 'missing_value', message: expect.stringContaining('timestamp') });
      const cases: Array<[Row, string, string]> = [
        [{ timestamp: 'yesterday-ish' }, 'validation_type', 'timestamp'],
        [{ timestamp: at(1), direction: 'Sideways' }, 'value_not_found', 'direction'],
        [{ timestamp: at(1), nope: 1 }, 'validation_type', 'nope'],
        [{ timestamp: at(1), duration: 'long' }, 'validation_type', 'duration'],
        [{ timestamp: at(1), record_id: '7b0f0bd8-0000-4000-8000-000000000000' }, 'immutable_value', 'record_id'],
        [{ timestamp: at(1), created_at: at(2) }, 'immutable_value', 'created_at'],
        [{ timestamp: [at(1), at(2)] }, 'validation_type', 'timestamp'],
      ];
      for (const [values, code, field] of cases) {
        const res = await create(values);
        expect([res.status, res.body.code, res.body.message.includes(field)]).toEqual([400, code, true]);
      }
      await post(records, { data: {} }).expect(400);
      await post(records, { values: { timestamp: at(1) } }).expect(400);
      const emptied = (await create({ timestamp: at(3) }).expect(200)).body.data.id.record_id;
      expect((await patch(`${records}/${emptied}`, { data: { values: { timestamp: null } } }).expect(400)).body.code).toBe('missing_value');
    });

    it('refuses the NUL character anywhere in values, references, filters and matching_attribute with a 400 naming the field', async () => {
      const nul = 'a\u0000b';
      const cases: Array<[() => ReturnType<typeof post>, string]> = [
        [() => create({ timestamp: at(1), note: nul }), 'data.values.note'],
        [() => create({ timestamp: at(1), direction: nul }), 'data.values.direction'],
        [() => create({ timestamp: at(1), tags: ['A', nul] }), 'data.values.tags[1]'],
        [() => create({ timestamp: at(1), participants: [{ target_object: nul, target_record_id: '7b0f0bd8-0000-4000-8000-000000000000' }] }), 'data.values.participants[0].target_object'],
        [() => create({ timestamp: at(1), participants: [{ target_object: 'people', email_addresses: [{ email_address: `x${nul}@example.com` }] }] }), 'data.values.participants[0].email_addresses[0].email_address'],
        [() => create({ timestamp: at(1), participants: [{ target_object: 'people', target_record_reference: { attribute: 'job_title', value: nul } }] }), 'target_record_reference.value'],
        [() => put(`${records}?matching_attribute=ext${encodeURIComponent('\u0000')}`, { data: { values: { timestamp: at(1) } } }), 'matching_attribute'],
        [() => post(`${records}/query`, { filter: { note: nul } }), 'filter.note'],
        [() => post(`${records}/query`, { filter: { direction: { $eq: nul } } }), 'filter.direction.$eq'],
        [() => post(`${records}/query`, { filter: { path: [['acme_calls', 'participants'], [nul, 'name']], constraints: { full_name: 'x' } } }), 'filter.path[1][0]'],
        [() => post(`${records}/query`, { sorts: [{ direction: 'asc', attribute: nul }] }), 'sorts[0].attribute'],
      ];
      for (const [send, field] of cases) {
        const res = await send();
        expect([field, res.status, res.body.code, res.body.message]).toEqual([field, 400, 'validation_type', expect.stringContaining(field)]);
      }
      const id = (await create({ timestamp: at(1), note: 'clean' }).expect(200)).body.data.id.record_id;
      expect((await patch(`${records}/${id}`, { data: { values: { note: nul } } }).expect(400)).body.message).toContain('data.values.note');
      expect((await get(`${records}/${id}`).expect(200)).body.data.values.note[0].value).toBe('clean');
    });

    it('addresses records by UUID only; unknown and foreign ids are 404', async () => {
      const mine = (await create({ timestamp: at(4) }).expect(200)).body.data.id.record_id;
      expect((await get(`${records}/not-a-uuid`).expect(404)).body.code).toBe('not_found');
      await get(`${records}/7b0f0bd8-0000-4000-8000-000000000000`).expect(404);
      await get(`/v2/activities/phone_calls/records/${mine}`).expect(404);
      const theirs = (await post('/v2/activities/phone_calls/records', { data: { values: { timestamp: at(4) } } }, other.token).expect(200)).body.data.id.record_id;
      const theirActivity = (await get('/v2/activities/phone_calls', other.token).expect(200)).body.data.id.activity_id;
      for (const path of [`${records}/${theirs}`, `/v2/activities/phone_calls/records/${theirs}`, `/v2/activities/${theirActivity}/records/${theirs}`]) {
        await get(path).expect(404);
        await patch(path, { data: { values: { duration: 1 } } }).expect(404);
        await put(path, { data: { values: { duration: 1 } } }).expect(404);
        await del(path).expect(404);
      }
      await get(`/v2/activities/acme_calls/records/${mine}`, other.token).expect(404);
      expect((await get(`/v2/activities/phone_calls/records/${theirs}`, other.token).expect(200)).body.data.values.duration).toEqual([]);
    });

    it('accepts the activity UUID in place of its slug on every record endpoint', async () => {
      const base = `/v2/activities/${activityId}/records`;
      const created = await post(base, { data: { values: { timestamp: at(20), tags: ['A'] } } }).expect(200);
      const id = created.body.data.id.record_id;
      expect(created.body.data.id).toEqual({ workspace_id: ws.workspaceId, activity_id: activityId, record_id: id });
      expect(titles((await patch(`${base}/${id}`, { data: { values: { tags: ['B'] } } }).expect(200)).body.data.values, 'tags')).toEqual(['A', 'B']);
      expect(titles((await put(`${base}/${id}`, { data: { values: { tags: ['C'] } } }).expect(200)).body.data.values, 'tags')).toEqual(['C']);
      const upserted = await put(`${base}?matching_attribute=external_id`, { data: { values: { external_id: 'by-uuid', timestamp: at(20) } } }).expect(200);
      expect((await put(`${base}?matching_attribute=external_id`, { data: { values: { external_id: 'by-uuid', note: 'again' } } }).expect(200)).body.data.id.record_id).toBe(upserted.body.data.id.record_id);
      expect((await post(`${base}/query`, { filter: { external_id: 'by-uuid' } }).expect(200)).body.data).toHaveLength(1);
      await get(`${base}/${id}`).expect(200);
      await del(`${base}/${id}`).expect(200);
      await get(`${records}/${id}`).expect(404);
      await del(`${base}/${upserted.body.data.id.record_id}`).expect(200);
    });

    it('answers 404, not 400, for a record_id that is not a UUID (a record has no slug), on every method', async () => {
      for (const key of ['acme', 'phone_calls', '12345', '7b0f0bd8-0000-4000-8000-00000000000g']) {
        for (const res of [
          await get(`${records}/${key}`),
          await patch(`${records}/${key}`, { data: { values: { duration: 1 } } }),
          await put(`${records}/${key}`, { data: { values: { duration: 1 } } }),
          await del(`${records}/${key}`),
        ]) {
          expect([res.status, res.body.code]).toEqual([404, 'not_found']);
        }
      }
    });
  });

  describe('update and delete', () => {
    it('PATCH appends to a multiselect, PUT replaces the list', async () => {
      const id = (await create({ timestamp: at(5), tags: ['A'], note: 'first' }).expect(200)).body.data.id.record_id;
      const patched = await patch(`${records}/${id}`, { data: { values: { tags: ['B', 'C'] } } }).expect(200);
      expect(titles(patched.body.data.values, 'tags')).toEqual(['A', 'B', 'C']);
      expect(patched.body.data.values.note[0].value).toBe('first');
      const replaced = await put(`${records}/${id}`, { data: { values: { tags: ['D'] } } }).expect(200);
      expect(titles(replaced.body.data.values, 'tags')).toEqual(['D']);
      expect(Object.keys(replaced.body.data).sort()).toEqual(['created_at', 'created_by', 'id', 'values']);
      expect(titles((await patch(`${records}/${id}`, { data: { values: { tags: 'D' } } }).expect(200)).body.data.values, 'tags')).toEqual(['D']);
      expect(titles((await put(`${records}/${id}`, { data: { values: { tags: [] } } }).expect(200)).body.data.values, 'tags')).toEqual([]);
      expect((await patch(`${records}/${id}`, { data: { values: { direction: 'Inbound', note: 'second' } } }).expect(200)).body.data.values.note[0].value).toBe('second');
      await patch(`${records}/${id}`, { data: { values: { tags: ['Z'] } } }).expect(400);
    });

    it('deletes one record', async () => {
      const id = (await create({ timestamp: at(6) }).expect(200)).body.data.id.record_id;
      expect((await del(`${records}/${id}`).expect(200)).body).toEqual({});
      await get(`${records}/${id}`).expect(404);
      await del(`${records}/${id}`).expect(404);
      await del(`${records}/nope`).expect(404);
    });
  });

  describe('currency on an activity attribute', () => {
    it('stores up to 4 decimal places with the attribute currency code', async () => {
      const res = await create({ timestamp: at(7), amount: 1234.5678 }).expect(200);
      expect(res.body.data.values.amount).toEqual([
        { active_from: expect.any(String), active_until: null, created_by_actor: expect.any(Object), currency_value: '1234.5678', currency_code: 'GBP', attribute_type: 'currency' },
      ]);
      const id = res.body.data.id.record_id;
      for (const [input, stored] of [[42, '42'], ['19.99', '19.99'], [{ currency_value: 7.5 }, '7.5'], [[3], '3']] as const) {
        const written = await patch(`${records}/${id}`, { data: { values: { amount: input } } }).expect(200);
        expect(written.body.data.values.amount[0]).toMatchObject({ currency_value: stored, currency_code: 'GBP' });
      }
      for (const bad of [1.23456, null, { currency_value: 1, currency_code: 'USD' }, 'lots', [1, 2]]) {
        const res2 = await patch(`${records}/${id}`, { data: { values: { amount: bad } } });
        expect([res2.status, res2.body.message.includes('amount')]).toEqual([400, true]);
      }
      const filtered = await post(`${records}/query`, { filter: { amount: { currency_value: { $gte: 3, $lt: 4 } } } }).expect(200);
      expect(filtered.body.data.map((r: { id: Row }) => r.id.record_id)).toEqual([id]);
    });
  });

  describe('record references', () => {
    let ada: string;
    let grace: string;
    let acme: string;

    beforeAll(async () => {
      ada = await person('Lovelace, Ada', 'ada@example.com', 'Analyst');
      grace = await person('Hopper, Grace', 'grace@example.com', 'Admiral');
      acme = await createRecord('companies', { name: 'Acme', domains: ['acme.test'] });
    });

    it('accepts the three formats: by id, by a unique matching value, and target_record_reference', async () => {
      const res = await create({
        timestamp: at(8),
        participants: [
          { target_object: 'people', target_record_id: ada },
          { target_object: 'people', email_addresses: [{ email_address: 'grace@example.com' }] },
        ],
        linked_records: [{ target_object: 'companies', target_record_reference: { attribute: 'name', value: 'Acme' } }],
      }).expect(200);
      expect(targets(res.body.data.values, 'participants')).toEqual([ada, grace].sort());
      expect(res.body.data.values.participants[0]).toMatchObject({ target_object: 'people', attribute_type: 'record-reference' });
      expect(res.body.data.values.linked_records).toEqual([expect.objectContaining({ target_object: 'companies', target_record_id: acme })]);
      const byDomain = await create({ timestamp: at(8), linked_records: [{ target_object: 'companies', domains: ['acme.test'] }, { target_object: 'people', target_record_id: grace }] }).expect(200);
      expect(targets(byDomain.body.data.values, 'linked_records')).toEqual([acme, grace].sort());
    });

    it('answers the spec errors: several matches, the same record twice, no match (naming the value), wrong object', async () => {
      await person('Turing, Alan', 'alan@example.com', 'Admiral');
      const several = await create({ timestamp: at(9), participants: [{ target_object: 'people', target_record_reference: { attribute: 'job_title', value: 'Admiral' } }] }).expect(400);
      expect(several.body.message).toContain('match_all');
      const twice = await create({
        timestamp: at(9),
        participants: [
          { target_object: 'people', target_record_id: ada },
          { target_object: 'people', email_addresses: [{ email_address: 'ada@example.com' }] },
        ],
      }).expect(400);
      expect(twice.body.message).toContain('more than once');
      const none = await create({ timestamp: at(9), participants: [{ target_object: 'people', email_addresses: [{ email_address: 'nobody@example.com' }] }] }).expect(400);
      expect(none.body).toMatchObject({ code: 'value_not_found', message: expect.stringContaining('nobody@example.com') });
      const noneRef = await create({ timestamp: at(9), participants: [{ target_object: 'people', target_record_reference: { attribute: 'job_title', value: 'Astronaut' } }] }).expect(400);
      expect(noneRef.body.message).toContain('Astronaut');
      await create({ timestamp: at(9), participants: [{ target_object: 'people', target_record_id: '7b0f0bd8-0000-4000-8000-000000000000' }] }).expect(400);
      expect((await create({ timestamp: at(9), participants: [{ target_object: 'companies', target_record_id: acme }] }).expect(400)).body.message).toContain('participants');
      const peopleBefore = Number((await db().query(`SELECT count(*) AS n FROM records r JOIN objects o ON o.workspace_id = r.workspace_id AND o.id = r.container_id WHERE r.workspace_id = $1 AND o.api_slug = 'people'`, [ws.workspaceId]))[0].n);
      expect(peopleBefore).toBe(3);
    });

    it('links every match with match_all, up to 50 records', async () => {
      for (let i = 0; i < 50; i++) await person(`Pilot, P${i}`, `pilot${i}@example.com`, 'Pilot');
      const fifty = await create({ timestamp: at(10), participants: [{ target_object: 'people', target_record_reference: { attribute: 'job_title', value: 'Pilot', if_multiple_matches: 'match_all' } }] }).expect(200);
      expect(fifty.body.data.values.participants).toHaveLength(50);
      await person('Pilot, P50', 'pilot50@example.com', 'Pilot');
      const tooMany = await create({ timestamp: at(10), participants: [{ target_object: 'people', target_record_reference: { attribute: 'job_title', value: 'Pilot', if_multiple_matches: 'match_all' } }] }).expect(400);
      expect(tooMany.body.message).toContain('50');
    });

    it("never resolves a reference, matching value or matching_attribute to another workspace's data", async () => {
      const theirPerson = await createRecord('people', { name: 'Other, Olga', email_addresses: ['olga@other.test'] }, other.token);
      const byId = await create({ timestamp: at(9), participants: [{ target_object: 'people', target_record_id: theirPerson }] }).expect(400);
      expect(byId.body).toMatchObject({ code: 'value_not_found', message: expect.stringContaining(theirPerson) });
      const byEmail = await create({ timestamp: at(9), participants: [{ target_object: 'people', email_addresses: ['olga@other.test'] }] }).expect(400);
      expect(byEmail.body).toMatchObject({ code: 'value_not_found', message: expect.stringContaining('olga@other.test') });
      const theirPeople = (await get('/v2/objects/people', other.token).expect(200)).body.data.id.object_id;
      expect((await create({ timestamp: at(9), linked_records: [{ target_object: theirPeople, target_record_id: theirPerson }] }).expect(400)).body.code).toBe('value_not_found');
      await post('/v2/activities', { data: { api_slug: 'acme_calls', singular_noun: 'Call', plural_noun: 'Calls', extends: 'calls' } }, other.token).expect(200);
      await post('/v2/activities/acme_calls/attributes', { data: { title: 'ext', api_slug: 'external_id', type: 'text', is_required: false, is_unique: true, is_multiselect: false, config: {} } }, other.token).expect(200);
      const theirAttribute = (await get('/v2/activities/acme_calls/attributes/external_id', other.token).expect(200)).body.data.id.attribute_id;
      const upsert = await put(`${records}?matching_attribute=${theirAttribute}`, { data: { values: { external_id: 'x', timestamp: at(9) } } }).expect(400);
      expect(upsert.body).toMatchObject({ code: 'value_not_found', message: expect.stringContaining(theirAttribute) });
      expect((await create({ timestamp: at(9), [theirAttribute]: 'x' }).expect(400)).body.message).toContain(theirAttribute);
      const theirRecord = (await post('/v2/activities/acme_calls/records', { data: { values: { timestamp: at(9) } } }, other.token).expect(200)).body.data.id.record_id;
      expect((await post(`${records}/query`, { filter: { record_id: theirRecord } }).expect(200)).body.data).toEqual([]);
    });
  });

  describe('upsert', () => {
    it('creates on 0 matches, updates on 1, refuses 2 (400), by matching attribute slug or id', async () => {
      const created = await put(`${records}?matching_attribute=external_id`, { data: { values: { external_id: 'call-1', timestamp: at(11), tags: ['A'] } } }).expect(200);
      const id = created.body.data.id.record_id;
      expect(Object.keys(created.body.data).sort()).toEqual(['created_at', 'created_by', 'id', 'values']);
      const updated = await put(`${records}?matching_attribute=external_id`, { data: { values: { external_id: 'call-1', tags: ['B'], note: 'upserted' } } }).expect(200);
      expect(updated.body.data.id.record_id).toBe(id);
      expect(titles(updated.body.data.values, 'tags')).toEqual(['B']);
      expect(updated.body.data.values.note[0].value).toBe('upserted');
      const attributeId = (await get('/v2/activities/acme_calls/attributes/external_id').expect(200)).body.data.id.attribute_id;
      expect((await put(`${records}?matching_attribute=${attributeId}`, { data: { values: { external_id: 'call-1', duration: 5 } } }).expect(200)).body.data.id.record_id).toBe(id);
      expect((await put(`${records}?matching_attribute=external_id`, { data: { values: { external_id: 'call-2' } } }).expect(400)).body.code).toBe('missing_value');

      const first = (await create({ timestamp: at(12), contact_emails: ['one@example.com'] }).expect(200)).body.data.id.record_id;
      const second = (await create({ timestamp: at(12), contact_emails: ['two@example.com'] }).expect(200)).body.data.id.record_id;
      const two = await put(`${records}?matching_attribute=contact_emails`, { data: { values: { contact_emails: ['one@example.com', 'two@example.com'], timestamp: at(13) } } }).expect(400);
      expect(two.body).toMatchObject({ status_code: 400, code: 'multiple_match_results' });
      const one = await put(`${records}?matching_attribute=contact_emails`, { data: { values: { contact_emails: ['two@example.com', 'three@example.com'] } } }).expect(200);
      expect(one.body.data.id.record_id).toBe(second);
      expect(one.body.data.values.contact_emails.map((v: Row) => v.email_address).sort()).toEqual(['three@example.com', 'two@example.com']);
      expect(first).not.toBe(second);

      expect((await put(`${records}?matching_attribute=nope`, { data: { values: { timestamp: at(1) } } }).expect(400)).body.code).toBe('value_not_found');
      expect((await put(`${records}?matching_attribute=note`, { data: { values: { note: 'x', timestamp: at(1) } } }).expect(400)).body.message).toContain('unique');
      expect((await put(records, { data: { values: { timestamp: at(1) } } }).expect(400)).body.message).toContain('matching_attribute');
      expect((await create({ timestamp: at(14), external_id: 'call-1' }).expect(409)).body.code).toBe('uniqueness_conflict');
    });
  });

  describe('query', () => {
    beforeAll(async () => {
      await post('/v2/activities', { data: { api_slug: 'acme_bulk', singular_noun: 'Bulk', plural_noun: 'Bulks', extends: 'activities' } }).expect(200);
      const ids: string[] = await db().query(`SELECT gen_random_uuid()::text AS id FROM generate_series(1, 501)`).then((rows: Array<{ id: string }>) => rows.map((r) => r.id));
      // 501 records through the API, 8 at a time.
      for (let i = 0; i < ids.length; i += 8) {
        await Promise.all(ids.slice(i, i + 8).map((_, j) => post('/v2/activities/acme_bulk/records', { data: { values: { timestamp: new Date(Date.UTC(2026, 0, 1) + (i + j) * 60_000).toISOString() } } }).expect(200)));
      }
    });

    it('pages with limit default 500 and offset default 0; a short page is the last', async () => {
      const first = await post('/v2/activities/acme_bulk/records/query', {}).expect(200);
      expect(first.body.data).toHaveLength(500);
      const rest = await post('/v2/activities/acme_bulk/records/query', { offset: 500 }).expect(200);
      expect(rest.body.data).toHaveLength(1);
      const page = await post('/v2/activities/acme_bulk/records/query', { limit: 10, offset: 5 }).expect(200);
      expect(page.body.data.map((r: { id: Row }) => r.id.record_id)).toEqual(first.body.data.slice(5, 15).map((r: { id: Row }) => r.id.record_id));
      expect(Object.keys(page.body.data[0]).sort()).toEqual(['created_at', 'created_by', 'id', 'values']);
      expect((await post('/v2/activities/acme_bulk/records/query', { offset: 600 }).expect(200)).body.data).toEqual([]);
      expect((await post('/v2/activities/acme_bulk/records/query', { limit: 1000 }).expect(200)).body.data).toHaveLength(501);
      for (const bad of [{ limit: 0 }, { limit: 1001 }, { limit: 1.5 }, { limit: 'ten' }, { offset: -1 }, { offset: 0.5 }, { offset: '5' }, { offset: 1e20 }, { offset: 2 ** 63 }]) {
        const res = await post('/v2/activities/acme_bulk/records/query', bad);
        const field = Object.keys(bad)[0];
        expect([JSON.stringify(bad), res.status, res.body.code, res.body.message.includes(field)]).toEqual([JSON.stringify(bad), 400, 'validation_type', true]);
      }
    });

    it('filters and sorts like object record queries', async () => {
      const sorted = await post('/v2/activities/acme_bulk/records/query', { sorts: [{ direction: 'desc', attribute: 'timestamp' }], limit: 3 }).expect(200);
      expect(sorted.body.data.map((r: { values: Values }) => r.values.timestamp[0].value)).toEqual(['2026-01-01T08:20:00.000000000Z', '2026-01-01T08:19:00.000000000Z', '2026-01-01T08:18:00.000000000Z']);
      const ranged = await post('/v2/activities/acme_bulk/records/query', { filter: { timestamp: { $gte: '2026-01-01T08:00:00Z', $lt: '2026-01-01T08:05:00Z' } } }).expect(200);
      expect(ranged.body.data).toHaveLength(5);
      const outbound = await post(`${records}/query`, { filter: { direction: 'Outbound' } }).expect(200);
      expect(outbound.body.data.length).toBeGreaterThan(0);
      for (const record of outbound.body.data) expect(titles(record.values, 'direction')).toEqual(['Outbound']);
      const byParticipant = await post(`${records}/query`, { filter: { participants: { target_object: 'people', target_record_id: (await post('/v2/objects/people/records/query', { filter: { email_addresses: 'ada@example.com' } }).expect(200)).body.data[0].id.record_id } } }).expect(200);
      expect(byParticipant.body.data).toHaveLength(1);
      const bad = await post(`${records}/query`, { filter: { nope: 1 } }).expect(400);
      expect(bad.body).toMatchObject({ code: 'filter_error', message: expect.stringContaining('nope') });
      expect((await post(`${records}/query`, { sorts: [{ direction: 'up', attribute: 'timestamp' }] }).expect(400)).body.code).toBe('filter_error');
      await post('/v2/activities/nope/records/query', {}).expect(404);
      expect((await post(`/v2/activities/${activityId}/records/query`, { limit: 1 }).expect(200)).body.data).toHaveLength(1);
    });

    it('sorts on an attribute some records lack, with a second sort, and pages across that boundary', async () => {
      const sorts = [{ direction: 'asc', attribute: 'note' }, { direction: 'desc', attribute: 'timestamp' }];
      const all: Array<{ id: Row; values: Values }> = (await post(`${records}/query`, { sorts, limit: 1000 }).expect(200)).body.data;
      const notes = all.map((r) => (r.values.note[0]?.value as string | undefined) ?? null);
      const withNote = notes.filter((n) => n !== null).length;
      expect(withNote).toBeGreaterThan(0);
      expect(withNote).toBeLessThan(all.length);
      expect(notes.slice(0, withNote)).toEqual([...notes.slice(0, withNote)].sort());
      expect(notes.slice(withNote).every((n) => n === null)).toBe(true);
      const stamps = all.slice(withNote).map((r) => r.values.timestamp[0].value as string);
      expect(stamps).toEqual([...stamps].sort().reverse());
      const paged: string[] = [];
      for (let offset = 0; offset < all.length + 7; offset += 7) {
        paged.push(...(await post(`${records}/query`, { sorts, limit: 7, offset }).expect(200)).body.data.map((r: { id: Row }) => r.id.record_id));
      }
      expect(paged).toEqual(all.map((r) => r.id.record_id));
      // A page that starts past every record with a note (the second part of the query alone).
      const tail = await post(`${records}/query`, { sorts, limit: 3, offset: withNote + 1 }).expect(200);
      expect(tail.body.data.map((r: { id: Row }) => r.id.record_id)).toEqual(all.slice(withNote + 1, withNote + 4).map((r) => r.id.record_id));
      expect((await post('/v2/activities/acme_bulk/records/query', { sorts: [{ direction: 'asc', attribute: 'linked_records' }, { direction: 'asc', attribute: 'timestamp' }], limit: 2, offset: 3 }).expect(200)).body.data).toHaveLength(2);
    });
  });

  describe('concurrent writes', () => {
    it('never loses an update: each concurrent append commits (200) or is refused with 409 concurrent_write_conflict', async () => {
      const id = (await create({ timestamp: at(15), tags: ['A'] }).expect(200)).body.data.id.record_id;
      const options = ['B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J', 'K', 'L'];
      const responses = await Promise.all(options.map((tag) => patch(`${records}/${id}`, { data: { values: { tags: [tag] } } })));
      const committed = options.filter((_, i) => responses[i].status === 200);
      for (const res of responses) {
        expect([200, 409]).toContain(res.status);
        if (res.status === 409) expect(res.body).toMatchObject({ status_code: 409, code: 'concurrent_write_conflict' });
      }
      expect(committed.length).toBeGreaterThan(0);
      const final = (await get(`${records}/${id}`).expect(200)).body.data.values;
      expect(titles(final, 'tags').sort()).toEqual(['A', ...committed].sort());
      const rows: Array<{ n: string }> = await db().query(`SELECT count(*) AS n FROM event_outbox WHERE workspace_id = $1 AND event_type LIKE 'activity-record.%' AND entity_id->>'record_id' = $2`, [ws.workspaceId, id]);
      expect(Number(rows[0].n)).toBe(1);
    });

    it('answers 409 concurrent_write_conflict at once, for PATCH, PUT, upsert and DELETE, while another transaction writes the record', async () => {
      const id = (await create({ timestamp: at(21), external_id: 'locked-1', tags: ['A'], note: 'before' }).expect(200)).body.data.id.record_id;
      const holder = db().createQueryRunner();
      await holder.connect();
      try {
        await holder.startTransaction();
        // What a concurrent write of the record holds until it commits.
        await holder.query(`SELECT id FROM records WHERE workspace_id = $1 AND id = $2 FOR UPDATE`, [ws.workspaceId, id]);
        const started = Date.now();
        for (const res of [
          await patch(`${records}/${id}`, { data: { values: { note: 'patched' } } }),
          await put(`${records}/${id}`, { data: { values: { tags: ['B'] } } }),
          await put(`${records}?matching_attribute=external_id`, { data: { values: { external_id: 'locked-1', note: 'upserted' } } }),
          await del(`${records}/${id}`),
        ]) {
          expect([res.status, res.body]).toEqual([409, { status_code: 409, type: 'invalid_request_error', code: 'concurrent_write_conflict', message: expect.stringContaining(id) }]);
        }
        expect(Date.now() - started).toBeLessThan(5_000);
        // Reads do not wait either.
        expect((await get(`${records}/${id}`).expect(200)).body.data.values.note[0].value).toBe('before');
      } finally {
        await holder.rollbackTransaction();
        await holder.release();
      }
      const after = (await get(`${records}/${id}`).expect(200)).body.data.values;
      expect([after.note[0].value, titles(after, 'tags')]).toEqual(['before', ['A']]);
      expect((await patch(`${records}/${id}`, { data: { values: { note: 'patched' } } }).expect(200)).body.data.values.note[0].value).toBe('patched');
      await del(`${records}/${id}`).expect(200);
    });

    it('serialises concurrent upserts of one value into one record', async () => {
      const responses = await Promise.all(Array.from({ length: 8 }, (_, i) => put(`${records}?matching_attribute=external_id`, { data: { values: { external_id: 'race-1', timestamp: at(16), note: `n${i}` } } })));
      const ok = responses.filter((res) => res.status === 200);
      for (const res of responses) expect([200, 409]).toContain(res.status);
      expect(new Set(ok.map((res) => res.body.data.id.record_id)).size).toBe(1);
      const matches = await post(`${records}/query`, { filter: { external_id: 'race-1' } }).expect(200);
      expect(matches.body.data).toHaveLength(1);
    });
  });

  describe('scopes', () => {
    const READS: Scope[] = [SCOPES.activityRecordRead, SCOPES.activityConfigurationRead, SCOPES.objectConfigurationRead, SCOPES.recordPermissionRead];
    const WRITES: Scope[] = [SCOPES.activityRecordReadWrite, SCOPES.activityConfigurationRead, SCOPES.objectConfigurationRead, SCOPES.recordPermissionRead];
    const minus = (scopes: Scope[], scope: Scope) => scopes.filter((s) => s !== scope);

    it('record reads need activity_record:read, activity_configuration:read, object_configuration:read and record_permission:read', async () => {
      const id = (await create({ timestamp: at(17) }).expect(200)).body.data.id.record_id;
      const calls = (token: string) => [get(`${records}/${id}`, token), post(`${records}/query`, { limit: 1 }, token)];
      const exact = await t.tokenFor(ws.workspaceId, READS);
      for (const res of await Promise.all(calls(exact))) expect(res.status).toBe(200);
      for (const scope of READS) {
        const token = await t.tokenFor(ws.workspaceId, minus(READS, scope));
        for (const res of await Promise.all(calls(token))) {
          expect([res.status, res.body.type, res.body.message.includes(scope)]).toEqual([403, 'auth_error', true]);
        }
      }
    });

    it('record writes need activity_record:read-write with the same reads (record_permission:read-write is not needed)', async () => {
      const id = (await create({ timestamp: at(18) }).expect(200)).body.data.id.record_id;
      const calls = (token: string) => [
        () => post(records, { data: { values: { timestamp: at(18) } } }, token),
        () => put(`${records}?matching_attribute=external_id`, { data: { values: { external_id: `scoped-${token.slice(-6)}`, timestamp: at(18) } } }, token),
        () => patch(`${records}/${id}`, { data: { values: { duration: 1 } } }, token),
        () => put(`${records}/${id}`, { data: { values: { duration: 2 } } }, token),
      ];
      for (const scope of [...WRITES, SCOPES.activityRecordRead]) {
        const scopes = scope === SCOPES.activityRecordRead ? [...minus(WRITES, SCOPES.activityRecordReadWrite), scope] : minus(WRITES, scope);
        const token = await t.tokenFor(ws.workspaceId, scopes);
        for (const call of calls(token)) {
          const res = await call();
          expect([res.status, res.body.message]).toEqual([403, expect.stringContaining(scope === SCOPES.activityRecordRead ? 'activity_record:read-write' : scope)]);
        }
        expect((await del(`${records}/${id}`, token).expect(403)).body).toMatchObject({ type: 'auth_error', message: expect.stringContaining(scope === SCOPES.activityRecordRead ? 'activity_record:read-write' : scope) });
      }
      const exact = await t.tokenFor(ws.workspaceId, WRITES);
      for (const call of calls(exact)) expect((await call()).status).toBe(200);
      await del(`${records}/${id}`, exact).expect(200);
      const everythingElse = await t.tokenFor(ws.workspaceId, ALL_SCOPES.filter((s) => !s.startsWith('activity_record')));
      await create({ timestamp: at(18) }, everythingElse).expect(403);
    });
  });

  describe('events', () => {
    it('records activity-record.created and .deleted (never .updated) with activity_id ids, actor and api_slug', async () => {
      const id = (await create({ timestamp: at(19) }).expect(200)).body.data.id.record_id;
      await patch(`${records}/${id}`, { data: { values: { duration: 3 } } }).expect(200);
      await put(`${records}/${id}`, { data: { values: { duration: 4 } } }).expect(200);
      await del(`${records}/${id}`).expect(200);
      const rows: Array<{ event_type: string; entity_id: Row; actor: Row; payload: Row }> = await db().query(
        `SELECT event_type, entity_id, actor, payload FROM event_outbox WHERE workspace_id = $1 AND entity_id->>'record_id' = $2 ORDER BY id`,
        [ws.workspaceId, id],
      );
      expect(rows.map((row) => row.event_type)).toEqual(['activity-record.created', 'activity-record.deleted']);
      for (const row of rows) {
        expect(row.entity_id).toEqual({ workspace_id: ws.workspaceId, activity_id: activityId, record_id: id });
        expect(row.actor).toEqual({ type: 'api-token', id: expect.any(String) });
        expect(row.payload).toEqual({ api_slug: 'acme_calls' });
      }
      const phoneCall = (await post('/v2/activities/phone_calls/records', { data: { values: { timestamp: at(19), direction: 'Inbound' } } }).expect(200)).body.data.id;
      const system: Array<{ event_type: string; entity_id: Row; payload: Row }> = await db().query(
        `SELECT event_type, entity_id, payload FROM event_outbox WHERE workspace_id = $1 AND entity_id->>'record_id' = $2`,
        [ws.workspaceId, phoneCall.record_id],
      );
      expect(system).toEqual([{ event_type: 'activity-record.created', entity_id: phoneCall, payload: { api_slug: 'phone_calls' } }]);
      const updated: Array<{ n: string }> = await db().query(`SELECT count(*) AS n FROM event_outbox WHERE event_type = 'activity-record.updated'`);
      expect(Number(updated[0].n)).toBe(0);
    });
  });
});
