import { SCOPES } from '@workbase/shared/kernel';
import { DataSource } from 'typeorm';
import { bearer, bearerRequests } from '../support/requests';
import { useTestApp, useWorkspace } from '../support/suite';

describe('record engine: objects, attributes, records', () => {
  const t = useTestApp();
  const ws = useWorkspace(t, 'records');
  const other = useWorkspace(t, 'records-other');

  const { get, post, put, patch, createRecord, objectId } = bearerRequests(() => t, () => ws.token);
  const outboxCount = async (eventType: string) =>
    Number((await dataSource().query(`SELECT count(*) AS n FROM event_outbox WHERE workspace_id = $1 AND event_type = $2`, [ws.workspaceId, eventType]))[0].n);
  const dataSource = () => t.app.get(DataSource);

  describe('objects', () => {
    it('lists the standard objects of a new workspace', async () => {
      const res = await get('/v2/objects').expect(200);
      expect(res.body.data.map((o: { api_slug: string }) => o.api_slug).sort()).toEqual(['companies', 'deals', 'people', 'users', 'workspaces']);
      expect(res.body.data[0]).toEqual({
        id: { workspace_id: ws.workspaceId, object_id: expect.any(String) },
        api_slug: expect.any(String),
        singular_noun: expect.any(String),
        plural_noun: expect.any(String),
        created_at: expect.any(String),
      });
    });

    it('creates, gets by slug and id, and patches a custom object', async () => {
      const created = await post('/v2/objects', { data: { api_slug: 'projects', singular_noun: 'Project', plural_noun: 'Projects' } }).expect(200);
      const id = created.body.data.id.object_id;
      expect((await get(`/v2/objects/${id}`).expect(200)).body.data.api_slug).toBe('projects');
      const patched = await patch('/v2/objects/projects', { data: { plural_noun: 'All projects' } }).expect(200);
      expect(patched.body.data).toMatchObject({ api_slug: 'projects', singular_noun: 'Project', plural_noun: 'All projects' });
      const attributes = await get('/v2/objects/projects/attributes').expect(200);
      expect(attributes.body.data.map((a: { api_slug: string }) => a.api_slug)).toEqual(['record_id', 'created_at', 'created_by', 'updated_at']);
    });

    it('refuses a duplicate slug (409 slug_conflict), a bad slug (400) and a missing noun (400 naming it)', async () => {
      const dup = await post('/v2/objects', { data: { api_slug: 'people', singular_noun: 'P', plural_noun: 'Ps' } }).expect(409);
      expect(dup.body).toMatchObject({ status_code: 409, type: 'invalid_request_error', code: 'slug_conflict' });
      expect((await post('/v2/objects', { data: { api_slug: 'Bad Slug', singular_noun: 'P', plural_noun: 'Ps' } }).expect(400)).body.message).toContain('api_slug');
      expect((await post('/v2/objects', { data: { api_slug: 'things' } }).expect(400)).body.message).toContain('data.singular_noun');
      expect((await post('/v2/objects', {}).expect(400)).body.message).toContain('data');
    });

    it("refuses to rename a standard object, and 404s unknown and other workspaces' objects", async () => {
      expect((await patch('/v2/objects/people', { data: { api_slug: 'humans' } }).expect(400)).body.code).toBe('system_edit_unauthorized');
      await get('/v2/objects/nope').expect(404);
      const theirs = (await get('/v2/objects/people', other.token).expect(200)).body.data.id.object_id;
      const res = await get(`/v2/objects/${theirs}`).expect(404);
      expect(res.body).toMatchObject({ code: 'not_found', message: expect.stringContaining(theirs) });
    });

    it('needs object_configuration scopes', async () => {
      const readOnly = await t.tokenFor(ws.workspaceId, [SCOPES.objectConfigurationRead]);
      await get('/v2/objects', readOnly).expect(200);
      const res = await post('/v2/objects', { data: { api_slug: 'x1', singular_noun: 'X', plural_noun: 'Xs' } }, readOnly).expect(403);
      expect(res.body.message).toContain('object_configuration:read-write');
      const none = await t.tokenFor(ws.workspaceId, [SCOPES.noteRead]);
      expect((await get('/v2/objects', none).expect(403)).body.message).toContain('object_configuration:read');
    });
  });

  describe('attributes', () => {
    it('creates an attribute of each creatable type and returns the attribute object', async () => {
      await post('/v2/objects', { data: { api_slug: 'gadgets', singular_noun: 'Gadget', plural_noun: 'Gadgets' } }).expect(200);
      const res = await post('/v2/objects/gadgets/attributes', {
        data: { title: 'Price', description: 'List price', api_slug: 'price', type: 'currency', is_required: false, is_unique: false, is_multiselect: false, config: { currency: { default_currency_code: 'EUR', display_type: 'symbol' } } },
      }).expect(200);
      expect(res.body.data).toEqual({
        id: { workspace_id: ws.workspaceId, object_id: expect.any(String), attribute_id: expect.any(String) },
        title: 'Price',
        description: 'List price',
        api_slug: 'price',
        type: 'currency',
        is_system_attribute: false,
        is_writable: true,
        is_required: false,
        is_unique: false,
        is_multiselect: false,
        is_default_value_enabled: false,
        is_archived: false,
        default_value: null,
        relationship: null,
        created_at: expect.any(String),
        config: { currency: { default_currency_code: 'EUR', display_type: 'symbol' }, record_reference: { allowed_object_ids: null } },
      });
      for (const [slug, type, extra] of [
        ['label', 'text', {}], ['count', 'number', {}], ['done', 'checkbox', {}], ['due', 'date', {}], ['seen_at', 'timestamp', {}],
        ['score', 'rating', {}], ['phase', 'status', {}], ['kind', 'select', {}], ['owner', 'actor-reference', {}], ['where', 'location', {}],
        ['site', 'domain', {}], ['contact', 'email-address', {}], ['phone', 'phone-number', {}],
        ['maker', 'record-reference', { config: { record_reference: { allowed_objects: ['companies'] } } }],
      ] as const) {
        const body = { data: { title: slug, api_slug: slug, type, is_required: false, is_unique: false, is_multiselect: false, config: {}, ...extra } };
        const created = await post('/v2/objects/gadgets/attributes', body);
        expect([created.status, created.body.data?.type]).toEqual([200, type]);
      }
      const maker = (await get('/v2/objects/gadgets/attributes/maker').expect(200)).body.data;
      const companies = await objectId('companies');
      expect(maker.config.record_reference.allowed_object_ids).toEqual([companies]);
    });

    it('refuses bad attribute definitions with 400s naming the field', async () => {
      const base = { title: 'X', api_slug: 'x_attr', type: 'text', is_required: false, is_unique: false, is_multiselect: false, config: {} };
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ type: 'banana' }, 'data.type'],
        [{ type: 'interaction' }, 'data.type'],
        [{ type: 'personal-name' }, 'data.type'],
        [{ type: 'currency' }, 'data.config.currency'],
        [{ type: 'currency', config: { currency: { default_currency_code: 'XXX', display_type: 'symbol' } } }, 'default_currency_code'],
        [{ type: 'currency', config: { currency: { default_currency_code: 'USD', display_type: 'fancy' } } }, 'display_type'],
        [{ type: 'currency', is_multiselect: true, config: { currency: { default_currency_code: 'USD', display_type: 'code' } } }, 'is_multiselect'],
        [{ type: 'select', is_unique: true }, 'is_unique'],
        [{ type: 'rating', is_multiselect: true }, 'is_multiselect'],
        [{ api_slug: '9lives' }, 'api_slug'],
        [{ is_required: 'yes' }, 'data.is_required'],
        [{ config: { colour: 'red' } }, 'data.config'],
        [{ type: 'record-reference', config: { record_reference: { allowed_objects: ['nope'] } } }, 'allowed_objects'],
      ];
      for (const [override, field] of cases) {
        const res = await post('/v2/objects/gadgets/attributes', { data: { ...base, ...override } });
        expect([res.status, res.body.code, res.body.message.includes(field)]).toEqual([400, 'validation_type', true]);
      }
      const dup = await post('/v2/objects/gadgets/attributes', { data: { ...base, api_slug: 'label' } }).expect(409);
      expect(dup.body.code).toBe('slug_conflict');
    });

    it('creates the paired reverse attribute for a relationship', async () => {
      const res = await post('/v2/objects/gadgets/attributes', {
        data: { title: 'Designer', api_slug: 'designer', type: 'record-reference', is_required: false, is_unique: false, is_multiselect: false, config: {}, relationship: { object: 'people', title: 'Designed gadgets', api_slug: 'designed_gadgets', is_multiselect: true } },
      }).expect(200);
      expect(res.body.data.relationship).toMatchObject({ object_slug: 'people', api_slug: 'designed_gadgets', is_multiselect: true });
      const reverse = (await get('/v2/objects/people/attributes/designed_gadgets').expect(200)).body.data;
      expect(reverse.relationship).toMatchObject({ object_slug: 'gadgets', api_slug: 'designer', is_multiselect: false });
    });

    it('lists with limit, offset and show_archived, and patches title, slug, flags and archive state', async () => {
      const all = (await get('/v2/objects/gadgets/attributes').expect(200)).body.data;
      const page = (await get('/v2/objects/gadgets/attributes?limit=2&offset=1').expect(200)).body.data;
      expect(page.map((a: { api_slug: string }) => a.api_slug)).toEqual(all.slice(1, 3).map((a: { api_slug: string }) => a.api_slug));
      await get('/v2/objects/gadgets/attributes?limit=0').expect(400);
      await get('/v2/objects/gadgets/attributes?show_archived=maybe').expect(400);
      const patched = await patch('/v2/objects/gadgets/attributes/label', { data: { title: 'Label text', api_slug: 'label_text', is_required: true } }).expect(200);
      expect(patched.body.data).toMatchObject({ title: 'Label text', api_slug: 'label_text', is_required: true });
      await patch('/v2/objects/gadgets/attributes/label_text', { data: { is_required: false } }).expect(200);
      await patch('/v2/objects/gadgets/attributes/count', { data: { is_archived: true } }).expect(200);
      expect((await get('/v2/objects/gadgets/attributes').expect(200)).body.data.some((a: { api_slug: string }) => a.api_slug === 'count')).toBe(false);
      expect((await get('/v2/objects/gadgets/attributes?show_archived=true').expect(200)).body.data.some((a: { api_slug: string }) => a.api_slug === 'count')).toBe(true);
      expect((await patch('/v2/objects/people/attributes/email_addresses', { data: { title: 'Emails' } }).expect(400)).body.code).toBe('system_edit_unauthorized');
      await patch('/v2/objects/gadgets/attributes/nope', { data: { title: 'x' } }).expect(404);
      expect((await patch('/v2/objects/gadgets/attributes/site', { data: { type: 'text' } }).expect(400)).body.message).toContain('type');
    });

    it('manages select options by id or title', async () => {
      const created = await post('/v2/objects/gadgets/attributes/kind/options', { data: { title: 'Widget' } }).expect(200);
      expect(created.body.data).toEqual({ id: expect.objectContaining({ option_id: expect.any(String) }), title: 'Widget', is_archived: false });
      await post('/v2/objects/gadgets/attributes/kind/options', { data: { title: 'Doohickey' } }).expect(200);
      expect((await post('/v2/objects/gadgets/attributes/kind/options', { data: { title: 'Widget' } }).expect(409)).body.code).toBe('slug_conflict');
      await patch('/v2/objects/gadgets/attributes/kind/options/Doohickey', { data: { is_archived: true } }).expect(200);
      const renamed = await patch(`/v2/objects/gadgets/attributes/kind/options/${created.body.data.id.option_id}`, { data: { title: 'Gizmo' } }).expect(200);
      expect(renamed.body.data.title).toBe('Gizmo');
      expect((await get('/v2/objects/gadgets/attributes/kind/options').expect(200)).body.data.map((o: { title: string }) => o.title)).toEqual(['Gizmo']);
      expect((await get('/v2/objects/gadgets/attributes/kind/options?show_archived=true').expect(200)).body.data).toHaveLength(2);
      expect((await post('/v2/objects/gadgets/attributes/label_text/options', { data: { title: 'x' } }).expect(400)).body.message).toContain('select');
      await patch('/v2/objects/gadgets/attributes/kind/options/Nope', { data: { title: 'x' } }).expect(404);
    });

    it('manages statuses', async () => {
      const created = await post('/v2/objects/gadgets/attributes/phase/statuses', { data: { title: 'Draft', target_time_in_status: 'P7D' } }).expect(200);
      expect(created.body.data).toMatchObject({ title: 'Draft', is_archived: false, celebration_enabled: false, target_time_in_status: 'P7D' });
      await post('/v2/objects/gadgets/attributes/phase/statuses', { data: { title: 'Shipped', celebration_enabled: true } }).expect(200);
      expect((await post('/v2/objects/gadgets/attributes/phase/statuses', { data: { title: 'Draft' } }).expect(409)).body.code).toBe('slug_conflict');
      expect((await post('/v2/objects/gadgets/attributes/phase/statuses', { data: { title: 'Bad', target_time_in_status: 'a week' } }).expect(400)).body.message).toContain('target_time_in_status');
      await patch('/v2/objects/gadgets/attributes/phase/statuses/Draft', { data: { title: 'Drafting' } }).expect(200);
      expect((await get('/v2/objects/gadgets/attributes/phase/statuses').expect(200)).body.data.map((s: { title: string }) => s.title)).toEqual(['Drafting', 'Shipped']);
      expect((await get('/v2/objects/deals/attributes/stage/statuses').expect(200)).body.data.map((s: { title: string }) => s.title)).toEqual(['Lead', 'In Progress', 'Won 🎉', 'Lost']);
    });

    it('records object-attribute events', async () => {
      expect(await outboxCount('object-attribute.created')).toBeGreaterThan(10);
      expect(await outboxCount('object-attribute.updated')).toBeGreaterThan(0);
    });
  });

  describe('records', () => {
    let personId: string;

    it('creates a person with the documented response shape', async () => {
      const res = await post('/v2/objects/people/records', { data: { values: { name: 'Hopper, Grace', email_addresses: ['grace@navy.mil'], job_title: 'Rear Admiral' } } }).expect(200);
      personId = res.body.data.id.record_id;
      expect(res.body.data).toMatchObject({
        id: { workspace_id: ws.workspaceId, object_id: expect.any(String), record_id: expect.any(String) },
        created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{9}Z$/),
        web_url: `http://localhost:3000/records/people/${personId}`,
      });
      const name = res.body.data.values.name[0];
      expect(name).toEqual({
        active_from: res.body.data.created_at,
        active_until: null,
        created_by_actor: { type: 'api-token', id: expect.any(String) },
        first_name: 'Grace',
        last_name: 'Hopper',
        full_name: 'Grace Hopper',
        attribute_type: 'personal-name',
      });
      expect(res.body.data.values.description).toEqual([]);
      expect(res.body.data.values.record_id[0].value).toBe(personId);
      expect((await get(`/v2/objects/people/records/${personId}`).expect(200)).body.data).toEqual(res.body.data);
    });

    it('accepts attribute ids as keys', async () => {
      const jobTitle = (await get('/v2/objects/people/attributes/job_title').expect(200)).body.data.id.attribute_id;
      const res = await patch(`/v2/objects/people/records/${personId}`, { data: { values: { [jobTitle]: 'Admiral' } } }).expect(200);
      expect(res.body.data.values.job_title[0].value).toBe('Admiral');
    });

    it('appends multiselect values with PATCH and replaces them with PUT', async () => {
      await patch(`/v2/objects/people/records/${personId}`, { data: { values: { email_addresses: ['hopper@navy.mil'] } } }).expect(200);
      let emails = (await get(`/v2/objects/people/records/${personId}`).expect(200)).body.data.values.email_addresses.map((v: { email_address: string }) => v.email_address);
      expect(emails.sort()).toEqual(['grace@navy.mil', 'hopper@navy.mil']);
      const res = await put(`/v2/objects/people/records/${personId}`, { data: { values: { email_addresses: ['grace@cobol.org'] } } }).expect(200);
      emails = res.body.data.values.email_addresses.map((v: { email_address: string }) => v.email_address);
      expect(emails).toEqual(['grace@cobol.org']);
      const historic = (await get(`/v2/objects/people/records/${personId}/attributes/email_addresses/values?show_historic=true`).expect(200)).body.data;
      expect(historic).toHaveLength(3);
      expect(historic.filter((v: { active_until: string | null }) => v.active_until !== null)).toHaveLength(2);
    });

    it('keeps the history of a value overwritten twice, oldest first', async () => {
      await patch(`/v2/objects/people/records/${personId}`, { data: { values: { description: 'first' } } }).expect(200);
      await patch(`/v2/objects/people/records/${personId}`, { data: { values: { description: 'second' } } }).expect(200);
      await patch(`/v2/objects/people/records/${personId}`, { data: { values: { description: 'third' } } }).expect(200);
      await patch(`/v2/objects/people/records/${personId}`, { data: { values: { description: 'third' } } }).expect(200);
      const history = (await get(`/v2/objects/people/records/${personId}/attributes/description/values?show_historic=true`).expect(200)).body.data;
      expect(history.map((v: { value: string }) => v.value)).toEqual(['first', 'second', 'third']);
      expect(history[0].active_until).toBe(history[1].active_from);
      expect(history[1].active_until).toBe(history[2].active_from);
      expect(history[2].active_until).toBeNull();
      const current = (await get(`/v2/objects/people/records/${personId}/attributes/description/values`).expect(200)).body.data;
      expect(current.map((v: { value: string }) => v.value)).toEqual(['third']);
      await get(`/v2/objects/people/records/${personId}/attributes/description/values?show_historic=yes`).expect(400);
      await get(`/v2/objects/people/records/${personId}/attributes/nope/values`).expect(404);
    });

    it('refuses a unique value held by another record with 409, and leaves no trace', async () => {
      const before = await outboxCount('record.created');
      const res = await post('/v2/objects/people/records', { data: { values: { name: 'Impostor', job_title: 'Spy', email_addresses: ['someone@else.org', 'GRACE@cobol.org'] } } }).expect(409);
      expect(res.body).toMatchObject({ code: 'uniqueness_conflict', message: expect.stringContaining('email_addresses') });
      expect(await outboxCount('record.created')).toBe(before);
      const rows = await dataSource().query(`SELECT count(*) AS n FROM record_values WHERE workspace_id = $1 AND value_text = 'someone@else.org'`, [ws.workspaceId]);
      expect(Number(rows[0].n)).toBe(0);
    });

    it('enforces required attributes on create and update', async () => {
      const missing = await post('/v2/objects/deals/records', { data: { values: { name: 'No stage' } } }).expect(400);
      expect(missing.body).toMatchObject({ code: 'missing_value', message: expect.stringContaining('stage') });
      const deal = await post('/v2/objects/deals/records', { data: { values: { name: 'Deal', stage: 'Lead' } } }).expect(200);
      expect(deal.body.data.values.owner[0]).toMatchObject({ referenced_actor_type: 'workspace-member', referenced_actor_id: ws.adminMemberId });
      const cleared = await patch(`/v2/objects/deals/records/${deal.body.data.id.record_id}`, { data: { values: { name: null } } }).expect(400);
      expect(cleared.body.code).toBe('missing_value');
    });

    it('refuses unknown, system and archived attributes, and changes nothing on any failure', async () => {
      expect((await patch(`/v2/objects/people/records/${personId}`, { data: { values: { shoe_size: 42 } } }).expect(400)).body.message).toContain('shoe_size');
      expect((await patch(`/v2/objects/people/records/${personId}`, { data: { values: { created_at: '2020-01-01' } } }).expect(400)).body.code).toBe('immutable_value');
      expect((await patch(`/v2/objects/people/records/${personId}`, { data: { values: { first_email_interaction: {} } } }).expect(400)).body.code).toBe('immutable_value');
      const before = (await get(`/v2/objects/people/records/${personId}`).expect(200)).body.data;
      const res = await patch(`/v2/objects/people/records/${personId}`, { data: { values: { job_title: 'Changed', phone_numbers: ['not a phone'] } } }).expect(400);
      expect(res.body.message).toContain('phone_numbers');
      expect((await get(`/v2/objects/people/records/${personId}`).expect(200)).body.data).toEqual(before);
      await patch(`/v2/objects/people/records/${personId}`, { data: {} }).expect(400);
      await patch(`/v2/objects/people/records/${personId}`, { data: { values: 'nope' } }).expect(400);
    });

    it('records record events with the actor and one update event per changed attribute', async () => {
      const [event] = await dataSource().query(
        `SELECT entity_id, actor FROM event_outbox WHERE workspace_id = $1 AND event_type = 'record.created' AND entity_id->>'record_id' = $2`,
        [ws.workspaceId, personId],
      );
      expect(event.entity_id).toEqual({ workspace_id: ws.workspaceId, object_id: expect.any(String), record_id: personId });
      expect(event.actor).toEqual({ type: 'api-token', id: expect.any(String) });
      const before = await outboxCount('record.updated');
      await patch(`/v2/objects/people/records/${personId}`, { data: { values: { job_title: 'Commodore', description: 'third', twitter: '@grace' } } }).expect(200);
      expect(await outboxCount('record.updated')).toBe(before + 2);
    });

    it('mirrors relationship writes onto the paired attribute, both ways', async () => {
      const company = (id: string) => get(`/v2/objects/companies/records/${id}`).expect(200).then((r) => r.body.data.values);
      const person = (id: string) => get(`/v2/objects/people/records/${id}`).expect(200).then((r) => r.body.data.values);
      const initech = await createRecord('companies', { name: 'Initech' });
      const hooli = await createRecord('companies', { name: 'Hooli' });
      const peter = await createRecord('people', { name: 'Gibbons, Peter', company: { target_object: 'companies', target_record_id: initech } });
      expect((await company(initech)).team.map((v: { target_record_id: string }) => v.target_record_id)).toEqual([peter]);
      // Moving Peter by writing the other side: Hooli's team gains him, his company follows, Initech loses him.
      await patch(`/v2/objects/companies/records/${hooli}`, { data: { values: { team: [{ target_object: 'people', target_record_id: peter }] } } }).expect(200);
      expect((await person(peter)).company.map((v: { target_record_id: string }) => v.target_record_id)).toEqual([hooli]);
      expect((await company(initech)).team).toEqual([]);
      // Unlinking from the person's side empties the company's team.
      await put(`/v2/objects/people/records/${peter}`, { data: { values: { company: [] } } }).expect(200);
      expect((await company(hooli)).team).toEqual([]);
      // Deleting a record unlinks it everywhere.
      await patch(`/v2/objects/people/records/${peter}`, { data: { values: { company: { target_object: 'companies', target_record_id: hooli } } } }).expect(200);
      await t.http().delete(`/v2/objects/companies/records/${hooli}`).set(bearer(ws.token)).expect(200);
      expect((await person(peter)).company).toEqual([]);
    });

    it('keeps a single-valued reverse link single when many records link to it at once', async () => {
      const person = await createRecord('people', { name: 'Contested, Casey' });
      const companies: string[] = [];
      for (let i = 0; i < 8; i++) companies.push(await createRecord('companies', { name: `Suitor ${i}` }));
      // Eight companies claim the same person in their (multiselect) team at once; the person's
      // company is single-valued, so exactly one claim may stand.
      const responses = await Promise.all(
        companies.map((id) => patch(`/v2/objects/companies/records/${id}`, { data: { values: { team: [{ target_object: 'people', target_record_id: person }] } } })),
      );
      for (const res of responses) expect([200, 409]).toContain(res.status);
      const current = await t.app
        .get(DataSource)
        .query(`SELECT v.value_ref FROM record_values v JOIN attributes a ON a.workspace_id = v.workspace_id AND a.id = v.attribute_id
                 WHERE v.workspace_id = $1 AND v.record_id = $2 AND a.api_slug = 'company' AND v.active_until IS NULL`, [ws.workspaceId, person]);
      expect(current).toHaveLength(1);
      const teams = await Promise.all(companies.map(async (id) => ((await get(`/v2/objects/companies/records/${id}`).expect(200)).body.data.values.team as { target_record_id: string }[]).map((v) => v.target_record_id)));
      const holders = companies.filter((_, i) => teams[i].includes(person));
      expect(holders).toEqual([current[0].value_ref]);
    });

    it('deletes records, then 404s them', async () => {
      const res = await post('/v2/objects/people/records', { data: { values: { name: 'Temp' } } }).expect(200);
      const id = res.body.data.id.record_id;
      expect((await t.http().delete(`/v2/objects/people/records/${id}`).set(bearer(ws.token)).expect(200)).body).toEqual({});
      await get(`/v2/objects/people/records/${id}`).expect(404);
      await t.http().delete(`/v2/objects/people/records/${id}`).set(bearer(ws.token)).expect(404);
      expect(await outboxCount('record.deleted')).toBeGreaterThanOrEqual(1);
    });

    it("404s another workspace's records and malformed ids", async () => {
      const theirs = await createRecord('people', { name: 'Theirs' }, other.token);
      await get(`/v2/objects/people/records/${theirs}`).expect(404);
      await patch(`/v2/objects/people/records/${theirs}`, { data: { values: { job_title: 'x' } } }).expect(404);
      await t.http().delete(`/v2/objects/people/records/${theirs}`).set(bearer(ws.token)).expect(404);
      await get(`/v2/objects/people/records/${theirs}`, other.token).expect(200);
      await get('/v2/objects/people/records/not-a-uuid').expect(404);
    });

    it('needs record_permission scopes', async () => {
      const readOnly = await t.tokenFor(ws.workspaceId, [SCOPES.recordPermissionRead, SCOPES.objectConfigurationRead]);
      await get(`/v2/objects/people/records/${personId}`, readOnly).expect(200);
      expect((await post('/v2/objects/people/records', { data: { values: {} } }, readOnly).expect(403)).body.message).toContain('record_permission:read-write');
      const noObjectConfig = await t.tokenFor(ws.workspaceId, [SCOPES.recordPermissionReadWrite]);
      expect((await get(`/v2/objects/people/records/${personId}`, noObjectConfig).expect(403)).body.message).toContain('object_configuration:read');
    });
  });
});
