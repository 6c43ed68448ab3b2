import { SCOPES } from '@workbase/shared/kernel';
import { DataSource } from 'typeorm';
import { useTestApp, useWorkspace } from '../support/suite';

describe('lists and entries', () => {
  const t = useTestApp();
  const ws = useWorkspace(t, 'lists');
  const other = useWorkspace(t, 'lists-other');
  let acme: string;
  let globex: string;
  let ada: string;

  const as = (token = ws.token) => ({ Authorization: `Bearer ${token}` });
  const events = async (type: string) =>
    Number((await t.app.get(DataSource).query(`SELECT count(*) AS n FROM event_outbox WHERE workspace_id = $1 AND event_type = $2`, [ws.workspaceId, type]))[0].n);

  beforeAll(async () => {
    const company = async (name: string, domain: string) =>
      (await t.http().post('/v2/objects/companies/records').set(as()).send({ data: { values: { name, domains: [domain] } } }).expect(200)).body.data.id.record_id;
    acme = await company('Acme', 'acme.com');
    globex = await company('Globex', 'globex.com');
    ada = (await t.http().post('/v2/objects/people/records').set(as()).send({ data: { values: { name: 'Ada' } } }).expect(200)).body.data.id.record_id;
  });

  it('creates, lists, gets and patches a list', async () => {
    const created = await t.http().post('/v2/lists').set(as()).send({ data: { name: 'Pipeline', api_slug: 'pipeline', parent_object: 'companies' } }).expect(200);
    expect(created.body.data).toEqual({
      id: { workspace_id: ws.workspaceId, list_id: expect.any(String) },
      api_slug: 'pipeline',
      name: 'Pipeline',
      parent_object: ['companies'],
      workspace_access: 'full-access',
      workspace_member_access: [],
      created_by_actor: { type: 'api-token', id: expect.any(String) },
      created_at: expect.any(String),
    });
    expect((await t.http().get('/v2/lists').set(as()).expect(200)).body.data).toHaveLength(1);
    expect((await t.http().get(`/v2/lists/${created.body.data.id.list_id}`).set(as()).expect(200)).body.data.api_slug).toBe('pipeline');
    expect((await t.http().patch('/v2/lists/pipeline').set(as()).send({ data: { name: 'Sales pipeline' } }).expect(200)).body.data.name).toBe('Sales pipeline');
    expect(await events('list.created')).toBe(1);
    expect(await events('list.updated')).toBe(1);
  });

  it('refuses bad lists', async () => {
    expect((await t.http().post('/v2/lists').set(as()).send({ data: { name: 'X', api_slug: 'pipeline', parent_object: 'companies' } }).expect(409)).body.code).toBe('slug_conflict');
    expect((await t.http().post('/v2/lists').set(as()).send({ data: { name: 'X', api_slug: 'x', parent_object: 'martians' } }).expect(400)).body.message).toContain('parent_object');
    expect((await t.http().post('/v2/lists').set(as()).send({ data: { api_slug: 'x', parent_object: 'companies' } }).expect(400)).body.message).toContain('data.name');
    expect((await t.http().post('/v2/lists').set(as()).send({ data: { name: 'X', api_slug: 'y', parent_object: 'companies', workspace_access: 'everyone' } }).expect(400)).body.message).toContain('workspace_access');
    expect((await t.http().patch('/v2/lists/pipeline').set(as()).send({ data: { parent_object: 'people' } }).expect(400)).body.message).toContain('parent_object');
    await t.http().get('/v2/lists/nope').set(as()).expect(404);
    await t.http().get('/v2/lists/pipeline').set(as(other.token)).expect(404);
  });

  it("grants list access only to this workspace's members, naming the field, and keeps the order given", async () => {
    const member = await t.createMember(ws.workspaceId, `access-${Date.now()}@lists.test`);
    const grants = [{ workspace_member_id: member, level: 'read-only' }, { workspace_member_id: ws.adminMemberId, level: 'full-access' }];
    const created = await t.http().post('/v2/lists').set(as()).send({ data: { name: 'Private', api_slug: 'private_list', parent_object: 'people', workspace_member_access: grants } }).expect(200);
    expect(created.body.data.workspace_member_access).toEqual(grants);
    expect((await t.http().get('/v2/lists/private_list').set(as()).expect(200)).body.data.workspace_member_access).toEqual(grants);
    const refusals: Array<[unknown[], RegExp]> = [
      [[{ workspace_member_id: other.adminMemberId, level: 'read-only' }], /workspace_member_access\[0\]\.workspace_member_id .* not a member of this workspace/],
      [[{ workspace_member_id: member, level: 'read-only' }, { workspace_member_id: '00000000-0000-4000-8000-000000000000', level: 'read-only' }], /workspace_member_access\[1\]\.workspace_member_id/],
      [[{ workspace_member_id: member, level: 'read-only' }, { workspace_member_id: member, level: 'full-access' }], /workspace_member_access\[1\].* twice/],
    ];
    for (const [access, message] of refusals) {
      const refusedCreate = await t.http().post('/v2/lists').set(as()).send({ data: { name: 'Y', api_slug: 'refused_list', parent_object: 'people', workspace_member_access: access } }).expect(400);
      expect(refusedCreate.body.message).toMatch(message);
      const refusedPatch = await t.http().patch('/v2/lists/private_list').set(as()).send({ data: { name: 'Renamed', workspace_member_access: access } }).expect(400);
      expect(refusedPatch.body.message).toMatch(message);
    }
    // Nothing of a refused write stays: no list, no rename, the grants unchanged.
    await t.http().get('/v2/lists/refused_list').set(as()).expect(404);
    const after = (await t.http().get('/v2/lists/private_list').set(as()).expect(200)).body.data;
    expect([after.name, after.workspace_member_access]).toEqual(['Private', grants]);
    // The database refuses a foreign member whatever the code path.
    const list = after.id.list_id as string;
    await expect(t.app.get(DataSource).query(
      `INSERT INTO list_member_access (workspace_id, list_id, workspace_member_id, level, position) VALUES ($1, $2, $3, 'read-only', 9)`,
      [ws.workspaceId, list, other.adminMemberId],
    )).rejects.toThrow(/foreign key/);
    await t.http().patch('/v2/lists/private_list').set(as()).send({ data: { workspace_member_access: [] } }).expect(200);
    expect((await t.http().get('/v2/lists/private_list').set(as()).expect(200)).body.data.workspace_member_access).toEqual([]);
  });

  it('has list attributes through the attribute endpoints, with statuses', async () => {
    await t.http().post('/v2/lists/pipeline/attributes').set(as())
      .send({ data: { title: 'Stage', api_slug: 'stage', type: 'status', is_required: false, is_unique: false, is_multiselect: false, config: {} } }).expect(200);
    await t.http().post('/v2/lists/pipeline/attributes').set(as())
      .send({ data: { title: 'Tags', api_slug: 'tags', type: 'select', is_required: false, is_unique: false, is_multiselect: true, config: {} } }).expect(200);
    await t.http().post('/v2/lists/pipeline/attributes').set(as())
      .send({ data: { title: 'Value', api_slug: 'value', type: 'currency', is_required: false, is_unique: false, is_multiselect: false, config: { currency: { default_currency_code: 'USD', display_type: 'symbol' } } } }).expect(200);
    for (const title of ['New', 'Won']) await t.http().post('/v2/lists/pipeline/attributes/stage/statuses').set(as()).send({ data: { title } }).expect(200);
    for (const title of ['hot', 'cold', 'big']) await t.http().post('/v2/lists/pipeline/attributes/tags/options').set(as()).send({ data: { title } }).expect(200);
    const attributes = (await t.http().get('/v2/lists/pipeline/attributes').set(as()).expect(200)).body.data;
    expect(attributes.map((a: { api_slug: string }) => a.api_slug)).toEqual(['updated_at', 'stage', 'tags', 'value']);
    expect(await events('list-attribute.created')).toBe(3);
    const noScope = await t.tokenFor(ws.workspaceId, [SCOPES.objectConfigurationReadWrite]);
    expect((await t.http().get('/v2/lists/pipeline/attributes').set(as(noScope)).expect(403)).body.message).toContain('list_configuration:read');
  });

  let entryId: string;

  it('creates entries, gets, patches (append) and puts (overwrite) them', async () => {
    const created = await t.http().post('/v2/lists/pipeline/entries').set(as())
      .send({ data: { parent_record_id: acme, parent_object: 'companies', entry_values: { stage: 'New', tags: ['hot'], value: 1000 } } }).expect(200);
    entryId = created.body.data.id.entry_id;
    expect(created.body.data).toMatchObject({ id: { workspace_id: ws.workspaceId, list_id: expect.any(String), entry_id: expect.any(String) }, parent_record_id: acme, parent_object: 'companies' });
    expect(created.body.data.entry_values.stage[0].status.title).toBe('New');
    expect(created.body.data.entry_values.value[0]).toMatchObject({ currency_value: '1000', currency_code: 'USD' });
    const patched = await t.http().patch(`/v2/lists/pipeline/entries/${entryId}`).set(as()).send({ data: { entry_values: { tags: ['big'] } } }).expect(200);
    expect(patched.body.data.entry_values.tags.map((v: { option: { title: string } }) => v.option.title)).toEqual(['hot', 'big']);
    const put = await t.http().put(`/v2/lists/pipeline/entries/${entryId}`).set(as()).send({ data: { entry_values: { tags: ['cold'] } } }).expect(200);
    expect(put.body.data.entry_values.tags.map((v: { option: { title: string } }) => v.option.title)).toEqual(['cold']);
    expect((await t.http().get(`/v2/lists/pipeline/entries/${entryId}`).set(as()).expect(200)).body.data.id.entry_id).toBe(entryId);
    expect(await events('list-entry.created')).toBe(1);
    expect(await events('list-entry.updated')).toBe(2);
  });

  it('refuses entries of the wrong object or of unknown records', async () => {
    expect((await t.http().post('/v2/lists/pipeline/entries').set(as()).send({ data: { parent_record_id: ada, parent_object: 'people' } }).expect(400)).body.message).toContain('parent_object');
    const unknown = await t.http().post('/v2/lists/pipeline/entries').set(as())
      .send({ data: { parent_record_id: '00000000-0000-4000-8000-000000000000', parent_object: 'companies' } }).expect(400);
    expect(unknown.body.code).toBe('value_not_found');
    expect((await t.http().post('/v2/lists/pipeline/entries').set(as()).send({ data: { parent_record_id: acme, parent_object: 'companies', entry_values: { stage: 'Lost' } } }).expect(400)).body.code).toBe('value_not_found');
  });

  it('asserts by parent: updates the one entry, creates when none, refuses several', async () => {
    const updated = await t.http().put('/v2/lists/pipeline/entries').set(as()).send({ data: { parent_record_id: acme, parent_object: 'companies', entry_values: { stage: 'Won' } } }).expect(200);
    expect(updated.body.data.id.entry_id).toBe(entryId);
    expect(updated.body.data.entry_values.stage[0].status.title).toBe('Won');
    const created = await t.http().put('/v2/lists/pipeline/entries').set(as()).send({ data: { parent_record_id: globex, parent_object: 'companies', entry_values: { stage: 'New' } } }).expect(200);
    expect(created.body.data.id.entry_id).not.toBe(entryId);
    await t.http().post('/v2/lists/pipeline/entries').set(as()).send({ data: { parent_record_id: globex, parent_object: 'companies' } }).expect(200);
    const several = await t.http().put('/v2/lists/pipeline/entries').set(as()).send({ data: { parent_record_id: globex, parent_object: 'companies' } }).expect(400);
    expect(several.body.code).toBe('multiple_match_results');
  });

  it('queries entries with filters, parent-record paths and sorts', async () => {
    const won = await t.http().post('/v2/lists/pipeline/entries/query').set(as()).send({ filter: { stage: 'Won' } }).expect(200);
    expect(won.body.data.map((e: { id: { entry_id: string } }) => e.id.entry_id)).toEqual([entryId]);
    const viaParent = await t.http().post('/v2/lists/pipeline/entries/query').set(as())
      .send({ filter: { path: [['pipeline', 'parent_record'], ['companies', 'domains']], constraints: { domain: 'globex.com' } } }).expect(200);
    expect(viaParent.body.data).toHaveLength(2);
    expect(viaParent.body.data.every((e: { parent_record_id: string }) => e.parent_record_id === globex)).toBe(true);
    const sorted = await t.http().post('/v2/lists/pipeline/entries/query').set(as()).send({ sorts: [{ direction: 'desc', attribute: 'stage' }], limit: 1 }).expect(200);
    expect(sorted.body.data[0].entry_values.stage[0].status.title).toBe('Won');
    expect((await t.http().post('/v2/lists/pipeline/entries/query').set(as()).send({ filter: { nope: 1 } }).expect(400)).body.code).toBe('filter_error');
  });

  it('deletes entries; other workspaces and missing scopes are refused', async () => {
    await t.http().get(`/v2/lists/pipeline/entries/${entryId}`).set(as(other.token)).expect(404);
    const readOnly = await t.tokenFor(ws.workspaceId, [SCOPES.listEntryRead, SCOPES.listConfigurationRead]);
    await t.http().get(`/v2/lists/pipeline/entries/${entryId}`).set(as(readOnly)).expect(200);
    expect((await t.http().delete(`/v2/lists/pipeline/entries/${entryId}`).set(as(readOnly)).expect(403)).body.message).toContain('list_entry:read-write');
    expect((await t.http().delete(`/v2/lists/pipeline/entries/${entryId}`).set(as()).expect(200)).body).toEqual({});
    await t.http().get(`/v2/lists/pipeline/entries/${entryId}`).set(as()).expect(404);
    expect(await events('list-entry.deleted')).toBe(1);
  });
  it("deletes a record's entries with it, one list-entry.deleted each, and leaves other records' entries", async () => {
    await t.http().post('/v2/lists').set(as()).send({ data: { name: 'Accounts', api_slug: 'accounts', parent_object: 'companies' } }).expect(200);
    const doomed = (await t.http().post('/v2/objects/companies/records').set(as()).send({ data: { values: { name: 'Doomed', domains: ['doomed.com'] } } }).expect(200)).body.data.id.record_id as string;
    const entryOf = async (list: string, parent: string) =>
      (await t.http().post(`/v2/lists/${list}/entries`).set(as()).send({ data: { parent_record_id: parent, parent_object: 'companies' } }).expect(200)).body.data.id.entry_id as string;
    const doomedEntries = [await entryOf('pipeline', doomed), await entryOf('pipeline', doomed), await entryOf('accounts', doomed)];
    const kept = await entryOf('accounts', globex);
    const before = await events('list-entry.deleted');
    await t.http().delete(`/v2/objects/companies/records/${doomed}`).set(as()).expect(200);
    for (const [list, entry] of [['pipeline', doomedEntries[0]], ['pipeline', doomedEntries[1]], ['accounts', doomedEntries[2]]]) {
      await t.http().get(`/v2/lists/${list}/entries/${entry}`).set(as()).expect(404);
    }
    await t.http().get(`/v2/lists/accounts/entries/${kept}`).set(as()).expect(200);
    expect(await events('list-entry.deleted')).toBe(before + 3);
    const ids = (await t.app.get(DataSource).query(
      `SELECT entity_id FROM event_outbox WHERE workspace_id = $1 AND event_type = 'list-entry.deleted' ORDER BY id DESC LIMIT 3`, [ws.workspaceId],
    )) as Array<{ entity_id: { workspace_id: string; list_id: string; entry_id: string } }>;
    expect(ids.map((row) => row.entity_id.entry_id).sort()).toEqual([...doomedEntries].sort());
    expect(ids.every((row) => row.entity_id.workspace_id === ws.workspaceId && typeof row.entity_id.list_id === 'string')).toBe(true);
    const refused = await t.http().delete(`/v2/objects/companies/records/${doomed}`).set(as()).expect(404);
    expect(refused.body.code).toBe('not_found');
    expect(await events('list-entry.deleted')).toBe(before + 3);
  });
});
