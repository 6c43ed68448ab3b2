import { SCOPES } from '@workbase/shared/kernel';
import { bearerRequests } from '../support/requests';
import { useTestApp, useWorkspace } from '../support/suite';

describe("record entries, record search and entry value history", () => {
  const t = useTestApp();
  const ws = useWorkspace(t, 'links');
  const other = useWorkspace(t, 'links-other');
  let peopleObjectId: string;
  let companiesObjectId: string;
  const people: Record<string, string> = {};
  let acmeId: string;
  let hiringId: string;
  let salesId: string;
  let theirPersonId: string;

  const { get, post, patch, createRecord, objectId } = bearerRequests(() => t, () => ws.token);
  const person = async (values: Record<string, unknown>, token = ws.token) =>
    (await post('/v2/objects/people/records', { data: { values } }, token).expect(200)).body.data.id.record_id as string;

  beforeAll(async () => {
    peopleObjectId = await objectId('people');
    companiesObjectId = await objectId('companies');
    people.ada = await person({ name: [{ first_name: 'Ada', last_name: 'Lovelace', full_name: 'Ada Lovelace' }], email_addresses: ['ada@analytical.example'], phone_numbers: ['+44 20 7946 0018'] });
    people.adam = await person({ name: [{ first_name: 'Adam', last_name: 'Smith', full_name: 'Adam Smith' }], email_addresses: ['adam.smith@wealth.example'] });
    people.grace = await person({ name: [{ first_name: 'Grace', last_name: 'Hopper', full_name: 'Grace Hopper' }], email_addresses: ['grace@navy.example', 'hopper@cobol.example'] });
    people.nadal = await person({ name: [{ first_name: 'Rafa', last_name: 'Nadal', full_name: 'Rafa Nadal' }], email_addresses: ['rafa@tennis.example'] });
    acmeId = await createRecord('companies', { name: 'Ada Industries', domains: ['ada-industries.example'] });
    hiringId = (await post('/v2/lists', { data: { name: 'Hiring', api_slug: 'hiring', parent_object: 'people', workspace_access: 'full-access', workspace_member_access: [] } }).expect(200)).body.data.id.list_id;
    salesId = (await post('/v2/lists', { data: { name: 'Sales', api_slug: 'sales', parent_object: 'people', workspace_access: 'full-access', workspace_member_access: [] } }).expect(200)).body.data.id.list_id;
    await post('/v2/lists/hiring/attributes', { data: { title: 'Stage', api_slug: 'stage', type: 'text', description: '', is_required: false, is_unique: false, is_multiselect: false, config: {} } }).expect(200);
    theirPersonId = await person({ name: [{ first_name: 'Ada', last_name: 'Other', full_name: 'Ada Other' }], email_addresses: ['ada@other.example'] }, other.token);
  });

  describe('GET /v2/objects/{object}/records/{record_id}/entries', () => {
    it("lists the record's entries in every list, oldest first, with limit/offset", async () => {
      const e1 = (await post('/v2/lists/hiring/entries', { data: { parent_record_id: people.grace, parent_object: 'people', entry_values: {} } }).expect(200)).body.data;
      const e2 = (await post('/v2/lists/sales/entries', { data: { parent_record_id: people.grace, parent_object: 'people', entry_values: {} } }).expect(200)).body.data;
      await post('/v2/lists/sales/entries', { data: { parent_record_id: people.ada, parent_object: 'people', entry_values: {} } }).expect(200);
      const res = await get(`/v2/objects/people/records/${people.grace}/entries`).expect(200);
      expect(res.body).toEqual({
        data: [
          { list_id: hiringId, list_api_slug: 'hiring', entry_id: e1.id.entry_id, created_at: e1.created_at },
          { list_id: salesId, list_api_slug: 'sales', entry_id: e2.id.entry_id, created_at: e2.created_at },
        ],
      });
      expect((await get(`/v2/objects/${peopleObjectId}/records/${people.grace}/entries?limit=1&offset=1`).expect(200)).body.data.map((e: { entry_id: string }) => e.entry_id)).toEqual([e2.id.entry_id]);
      expect((await get(`/v2/objects/people/records/${people.nadal}/entries`).expect(200)).body.data).toEqual([]);
    });

    it("404s unknown objects and records, another workspace's record, and a record of another object", async () => {
      await get(`/v2/objects/planets/records/${people.grace}/entries`).expect(404);
      await get(`/v2/objects/people/records/00000000-0000-4000-8000-000000000000/entries`).expect(404);
      await get(`/v2/objects/people/records/${theirPersonId}/entries`).expect(404);
      await get(`/v2/objects/companies/records/${people.grace}/entries`).expect(404);
      await get('/v2/objects/people/records/nope/entries').expect(404);
      for (const [query, field] of [['?limit=0', 'limit'], ['?limit=1001', 'limit'], ['?offset=x', 'offset']]) {
        expect((await get(`/v2/objects/people/records/${people.grace}/entries${query}`).expect(400)).body.message).toContain(field);
      }
    });

    it('needs list_entry:read besides the record scopes', async () => {
      const token = await t.tokenFor(ws.workspaceId, [SCOPES.recordPermissionRead, SCOPES.objectConfigurationRead]);
      expect((await get(`/v2/objects/people/records/${people.grace}/entries`, token).expect(403)).body.message).toContain('list_entry:read');
    });
  });

  describe('POST /v2/objects/records/search', () => {
    const search = (body: Record<string, unknown>, token = ws.token) => post('/v2/objects/records/search', { objects: ['people', 'companies'], request_as: { type: 'workspace' }, ...body }, token);
    const ids = async (body: Record<string, unknown>) => (await search(body).expect(200)).body.data.map((r: { id: { record_id: string } }) => r.id.record_id);

    it('answers the documented shape: people with emails and phones, companies with domains', async () => {
      const res = await search({ query: 'ada' }).expect(200);
      const ada = res.body.data.find((r: { id: { record_id: string } }) => r.id.record_id === people.ada);
      expect(ada).toEqual({
        id: { workspace_id: ws.workspaceId, object_id: peopleObjectId, record_id: people.ada },
        record_text: 'Ada Lovelace',
        record_image: null,
        object_slug: 'people',
        email_addresses: ['ada@analytical.example'],
        phone_numbers: ['+442079460018'],
      });
      const company = res.body.data.find((r: { id: { record_id: string } }) => r.id.record_id === acmeId);
      expect(company).toEqual({
        id: { workspace_id: ws.workspaceId, object_id: companiesObjectId, record_id: acmeId },
        record_text: 'Ada Industries',
        record_image: null,
        object_slug: 'companies',
        domains: ['ada-industries.example'],
      });
    });

    it('ranks names above addresses, prefixes above word prefixes above substrings', async () => {
      // "ada": Ada Lovelace (name prefix) and Ada Industries (name prefix) before Adam Smith
      // (longer name prefix), and Rafa Nadal only through a substring of "nadal".
      expect(await ids({ query: 'ada' })).toEqual([people.ada, acmeId, people.adam, people.nadal]);
      expect(await ids({ query: 'lovelace' })).toEqual([people.ada]);
      expect(await ids({ query: 'HOPPER@cobol' })).toEqual([people.grace]);
      expect(await ids({ query: 'navy.example' })).toEqual([people.grace]);
      expect(await ids({ query: 'ada-industries' })).toEqual([acmeId]);
      expect(await ids({ query: '7946 0018' })).toEqual([people.ada]);
      expect(await ids({ query: 'ada', objects: ['companies'] })).toEqual([acmeId]);
      expect(await ids({ query: 'ada', limit: 2 })).toEqual([people.ada, acmeId]);
      expect(await ids({ query: 'zzzz' })).toEqual([]);
      // Two characters match prefixes only (a trigram needs three).
      expect(await ids({ query: 'da' })).toEqual([]);
      // LIKE metacharacters are literal.
      expect(await ids({ query: '%' })).toEqual([]);
    });

    it('sees a change at once, and never another workspace', async () => {
      const late = await person({ name: [{ first_name: 'Zelda', last_name: 'Quux', full_name: 'Zelda Quux' }] });
      expect(await ids({ query: 'zelda' })).toEqual([late]);
      await patch(`/v2/objects/people/records/${late}`, { data: { values: { name: [{ first_name: 'Zora', last_name: 'Quux', full_name: 'Zora Quux' }] } } }).expect(200);
      expect(await ids({ query: 'zelda' })).toEqual([]);
      expect(await ids({ query: 'ada other' })).toEqual([]);
      expect((await search({ query: 'ada' }, other.token).expect(200)).body.data.map((r: { id: { record_id: string } }) => r.id.record_id)).toEqual([theirPersonId]);
    });

    it('runs as a workspace member by id or email', async () => {
      const memberId = await t.createMember(ws.workspaceId, 'searcher@links.test');
      expect((await search({ query: 'grace', request_as: { type: 'workspace-member', workspace_member_id: memberId } }).expect(200)).body.data).toHaveLength(1);
      expect((await search({ query: 'grace', request_as: { type: 'workspace-member', email_address: 'searcher@links.test' } }).expect(200)).body.data).toHaveLength(1);
    });

    it.each([
      ['a missing query', { query: undefined }, 'query'],
      ['an empty query', { query: '' }, 'query'],
      ['a query of the wrong type', { query: 42 }, 'query'],
      ['no objects', { query: 'ada', objects: [] }, 'objects'],
      ['an unknown object', { query: 'ada', objects: ['people', 'planets'] }, 'objects[1]'],
      ['a limit out of range', { query: 'ada', limit: 101 }, 'limit'],
      ['a string limit', { query: 'ada', limit: '5' }, 'limit'],
      ['no request_as', { query: 'ada', request_as: undefined }, 'request_as'],
      ['an unknown request_as type', { query: 'ada', request_as: { type: 'robot' } }, 'request_as.type'],
      ['a member request without the member', { query: 'ada', request_as: { type: 'workspace-member' } }, 'request_as'],
      ['an unknown member', { query: 'ada', request_as: { type: 'workspace-member', workspace_member_id: '00000000-0000-4000-8000-000000000000' } }, 'request_as.workspace_member_id'],
      ['an unknown field', { query: 'ada', fuzzy: true }, 'fuzzy'],
    ])('refuses %s with a 400 naming the field', async (_, body, field) => {
      const res = await search(body).expect(400);
      expect(res.body).toMatchObject({ status_code: 400, type: 'invalid_request_error' });
      expect(res.body.message).toContain(field);
    });

    it('needs the record read scopes', async () => {
      const token = await t.tokenFor(ws.workspaceId, [SCOPES.objectConfigurationRead]);
      expect((await search({ query: 'ada' }, token).expect(403)).body.message).toContain('record_permission:read');
    });
  });

  describe('GET /v2/lists/{list}/entries/{entry_id}/attributes/{attribute}/values', () => {
    it('answers current values, and with show_historic every value oldest first', async () => {
      const entry = (await post('/v2/lists/hiring/entries', { data: { parent_record_id: people.nadal, parent_object: 'people', entry_values: { stage: 'Applied' } } }).expect(200)).body.data.id.entry_id;
      await patch(`/v2/lists/hiring/entries/${entry}`, { data: { entry_values: { stage: 'Interview' } } }).expect(200);
      const current = (await get(`/v2/lists/hiring/entries/${entry}/attributes/stage/values`).expect(200)).body.data;
      expect(current).toEqual([expect.objectContaining({ attribute_type: 'text', value: 'Interview', active_until: null })]);
      const history = (await get(`/v2/lists/${hiringId}/entries/${entry}/attributes/stage/values?show_historic=true`).expect(200)).body.data;
      expect(history.map((v: { value: string }) => v.value)).toEqual(['Applied', 'Interview']);
      expect(history[0].active_until).not.toBeNull();
      expect((await get(`/v2/lists/hiring/entries/${entry}/attributes/stage/values?show_historic=true&limit=1&offset=1`).expect(200)).body.data.map((v: { value: string }) => v.value)).toEqual(['Interview']);
    });

    it('404s unknown lists, entries and attributes, and entries of another list; 400s bad parameters', async () => {
      const entry = (await post('/v2/lists/sales/entries', { data: { parent_record_id: people.adam, parent_object: 'people', entry_values: {} } }).expect(200)).body.data.id.entry_id;
      await get(`/v2/lists/nope/entries/${entry}/attributes/stage/values`).expect(404);
      await get(`/v2/lists/hiring/entries/${entry}/attributes/stage/values`).expect(404);
      await get(`/v2/lists/sales/entries/00000000-0000-4000-8000-000000000000/attributes/stage/values`).expect(404);
      await get(`/v2/lists/sales/entries/${entry}/attributes/nope/values`).expect(404);
      await get(`/v2/lists/sales/entries/${entry}/attributes/stage/values`, other.token).expect(404);
      expect((await get(`/v2/lists/sales/entries/${entry}/attributes/updated_at/values?show_historic=maybe`).expect(400)).body.message).toContain('show_historic');
      // The ids of the path come first: an attribute the list does not have is a 404 whatever the query.
      await get(`/v2/lists/sales/entries/${entry}/attributes/parent_record/values?show_historic=maybe`).expect(404);
    });

    it('needs list_entry:read', async () => {
      const token = await t.tokenFor(ws.workspaceId, [SCOPES.listConfigurationRead]);
      const entry = (await post('/v2/lists/sales/entries', { data: { parent_record_id: people.nadal, parent_object: 'people', entry_values: {} } }).expect(200)).body.data.id.entry_id;
      expect((await get(`/v2/lists/sales/entries/${entry}/attributes/stage/values`, token).expect(403)).body.message).toContain('list_entry:read');
    });
  });
});
