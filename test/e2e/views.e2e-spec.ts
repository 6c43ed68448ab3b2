import { SCOPES } from '@workbase/shared/kernel';
import { bearerRequests, expectEachRefused } from '../support/requests';
import { useTestApp, useWorkspace } from '../support/suite';

/**
 * Object and list views (issue 32 part 2; attio-2026-surface §2): the reference's list (by view id,
 * `show_archived`, limit, cursor), the alpha get/create/update/archive, and `filter_view_id` on
 * record and entry queries.
 */
describe('views (e2e)', () => {
  const t = useTestApp();
  const ws = useWorkspace(t, 'views');
  const other = useWorkspace(t, 'views-other');
  const { get, post, patch, createRecord } = bearerRequests(() => t, () => ws.token);
  const createView = (path: string, data: Record<string, unknown>, token = ws.token) => post(`${path}/views`, { data }, token);
  const view = (title: string, extra: Record<string, unknown> = {}) => ({ title, type: 'table', ...extra });

  beforeAll(async () => {
    await post('/v2/lists', { data: { name: 'Leads', api_slug: 'leads', parent_object: 'people' } }).expect(200);
    await post('/v2/lists/leads/attributes', { data: { title: 'Stage', api_slug: 'stage', type: 'text', is_required: false, is_unique: false, is_multiselect: false, config: {} } }).expect(200);
  });

  it('creates object views in the alpha shape and lists them by view id, archived ones only when asked, page by page', async () => {
    const made = [];
    for (const title of ['Everyone', 'Engineers', 'Old']) {
      const res = await createView('/v2/objects/people', view(title, { filter: { job_title: 'Engineer' }, sorts: [{ attribute: 'name', field: 'last_name', direction: 'asc' }], attributes: [{ attribute: 'name' }, { attribute: 'email_addresses' }] })).expect(200);
      made.push(res.body.data);
    }
    expect(made[0]).toEqual({
      id: { workspace_id: ws.workspaceId, object_id: expect.any(String), view_id: expect.any(String) },
      title: 'Everyone',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      type: 'table',
      filter: { job_title: 'Engineer' },
      sorts: [{ attribute: 'name', field: 'last_name', direction: 'asc' }],
      attributes: [{ attribute: 'name' }, { attribute: 'email_addresses' }],
      is_archived: false,
    });
    const old = made[2].id.view_id;
    expect((await patch(`/v2/objects/people/views/${old}`, { data: { is_archived: true } }).expect(200)).body.data.is_archived).toBe(true);

    const ids = made.map((v) => v.id.view_id).sort();
    const listed = (await get('/v2/objects/people/views').expect(200)).body;
    expect(listed.data.map((v: { id: { view_id: string } }) => v.id.view_id)).toEqual(ids.filter((id) => id !== old));
    expect(Object.keys(listed.data[0]).sort()).toEqual(['created_at', 'id', 'title']);
    expect(listed.pagination).toEqual({ next_cursor: null });

    const first = (await get('/v2/objects/people/views?show_archived=true&limit=2').expect(200)).body;
    expect(first.data.map((v: { id: { view_id: string } }) => v.id.view_id)).toEqual(ids.slice(0, 2));
    const second = (await get(`/v2/objects/people/views?show_archived=true&limit=2&cursor=${first.pagination.next_cursor}`).expect(200)).body;
    expect(second).toEqual({ data: [expect.objectContaining({ id: expect.objectContaining({ view_id: ids[2] }) })], pagination: { next_cursor: null } });
    // A cursor replayed with another limit is refused, naming it.
    expect((await get(`/v2/objects/people/views?show_archived=true&limit=3&cursor=${first.pagination.next_cursor}`).expect(400)).body.message).toContain('cursor');
  });

  it('updates a view and gets a list view; refuses bad bodies naming the field and filters a query would refuse', async () => {
    const listView = (await createView('/v2/lists/leads', view('Hot', { type: 'board', filter: { stage: 'hot' } })).expect(200)).body.data;
    expect(listView.id).toEqual({ workspace_id: ws.workspaceId, list_id: expect.any(String), view_id: expect.any(String) });
    const path = `/v2/lists/leads/views/${listView.id.view_id}`;
    expect((await get(path).expect(200)).body.data).toEqual(listView);
    const changed = (await patch(path, { data: { title: 'Warm', filter: null } }).expect(200)).body.data;
    expect(changed).toMatchObject({ title: 'Warm', filter: null, type: 'board' });

    await expectEachRefused<Record<string, unknown>>(
      [
        [{ type: 'table' }, 'title'],
        [view(''), 'title'],
        [view('X', { type: 'kanban' }), 'type'],
        [view('X', { filter: 'stage' }), 'filter'],
        [view('X', { filter: { nope: 'x' } }), 'nope'],
        [view('X', { filter: { stage: { $bogus: 1 } } }), '$bogus'],
        [view('X', { sorts: [{ attribute: 'stage', direction: 'up' }] }), 'direction'],
        [view('X', { sorts: [{ attribute: 'nope', direction: 'asc' }] }), 'nope'],
        [view('X', { attributes: [{ attribute: 'nope' }] }), 'data.attributes[0].attribute'],
      ],
      (data) => createView('/v2/lists/leads', data),
    );
    await expectEachRefused<Record<string, unknown>>(
      [
        [{}, 'data'],
        [{ is_archived: 'yes' }, 'is_archived'],
        [{ filter: { nope: 1 } }, 'nope'],
      ],
      (data) => patch(path, { data }),
    );
    expect((await get(path).expect(200)).body.data).toMatchObject({ title: 'Warm', filter: null });
  });

  it('applies a view filter (not its sorts) with filter_view_id to record and entry queries; with filter it is a 400', async () => {
    const eng = await createRecord('people', { name: 'Hopper, Grace', job_title: 'Engineer' });
    const other1 = await createRecord('people', { name: 'Lamarr, Hedy', job_title: 'Actor' });
    const engineers = (await createView('/v2/objects/people', view('Engineers only', { filter: { job_title: 'Engineer' }, sorts: [{ attribute: 'job_title', direction: 'desc' }] })).expect(200)).body
      .data.id.view_id;
    const found = (await post('/v2/objects/people/records/query', { filter_view_id: engineers }).expect(200)).body.data.map((r: { id: { record_id: string } }) => r.id.record_id);
    expect(found).toContain(eng);
    expect(found).not.toContain(other1);

    await post('/v2/lists/leads/entries', { data: { parent_record_id: eng, parent_object: 'people', entry_values: { stage: 'hot' } } }).expect(200);
    await post('/v2/lists/leads/entries', { data: { parent_record_id: other1, parent_object: 'people', entry_values: { stage: 'cold' } } }).expect(200);
    const hot = (await createView('/v2/lists/leads', view('Hot', { filter: { stage: 'hot' } })).expect(200)).body.data.id.view_id;
    const entries = (await post('/v2/lists/leads/entries/query', { filter_view_id: hot }).expect(200)).body.data;
    expect(entries.map((e: { parent_record_id: string }) => e.parent_record_id)).toEqual([eng]);

    const both = await post('/v2/objects/people/records/query', { filter_view_id: engineers, filter: { job_title: 'Actor' } }).expect(400);
    expect(both.body.message).toContain('filter_view_id');
    // A view of another container, an unknown view, not a UUID: 400 naming the field.
    for (const id of [hot, '00000000-0000-4000-8000-000000000000']) {
      const res = await post('/v2/objects/people/records/query', { filter_view_id: id }).expect(400);
      expect(res.body).toMatchObject({ code: 'value_not_found' });
      expect(res.body.message).toContain('filter_view_id');
    }
    expect((await post('/v2/objects/people/records/query', { filter_view_id: 'x' }).expect(400)).body.message).toContain('filter_view_id');
  });

  it('documents the alpha routes as alpha (x-alpha and the summary), and the reference list routes without the mark', async () => {
    const { paths } = (await t.http().get('/openapi.json').expect(200)).body;
    for (const base of ['/v2/objects/{object}/views', '/v2/lists/{list}/views']) {
      expect(paths[base].get['x-alpha']).toBeUndefined();
      for (const operation of [paths[base].post, paths[`${base}/{view_id}`].get, paths[`${base}/{view_id}`].patch]) {
        expect(operation).toMatchObject({ 'x-alpha': true, summary: expect.stringContaining('(alpha)') });
      }
    }
  });

  it("answers 404 for another workspace's views and containers, unknown ids; 403 without the scope", async () => {
    const mine = (await createView('/v2/objects/people', view('Mine')).expect(200)).body.data.id.view_id;
    const { get: getAs, patch: patchAs, post: postAs } = bearerRequests(() => t, () => other.token);
    await getAs(`/v2/objects/people/views/${mine}`).expect(404);
    await patchAs(`/v2/objects/people/views/${mine}`, { data: { title: 'Stolen' } }).expect(404);
    await patchAs(`/v2/objects/people/views/${mine}`, {}).expect(404);
    expect((await getAs('/v2/objects/people/views').expect(200)).body.data).toEqual([]);
    expect((await postAs('/v2/objects/people/records/query', { filter_view_id: mine }).expect(400)).body.code).toBe('value_not_found');
    await getAs('/v2/lists/leads/views').expect(404);
    await postAs('/v2/lists/leads/views', {}).expect(404);
    await get('/v2/objects/martians/views').expect(404);
    await get('/v2/objects/people/views/not-a-uuid').expect(404);
    await get('/v2/objects/people/views/00000000-0000-4000-8000-000000000000').expect(404);
    await get(`/v2/objects/companies/views/${mine}`).expect(404);
    expect((await get(`/v2/objects/people/views/${mine}`).expect(200)).body.data.title).toBe('Mine');

    // Listing needs only the configuration read scope (the reference's); the alpha routes need the view scopes too.
    const readOnly = await t.tokenFor(ws.workspaceId, [SCOPES.objectConfigurationRead]);
    await get('/v2/objects/people/views', readOnly).expect(200);
    expect((await get(`/v2/objects/people/views/${mine}`, readOnly).expect(403)).body.message).toContain('view:read');
    await createView('/v2/objects/people', view('No'), readOnly).expect(403);
    await get('/v2/lists/leads/views', readOnly).expect(403);
    const configurationWriter = await t.tokenFor(ws.workspaceId, [SCOPES.objectConfigurationReadWrite]);
    expect((await createView('/v2/objects/people', view('No'), configurationWriter).expect(403)).body.message).toContain('view:read-write');
    const viewReader = await t.tokenFor(ws.workspaceId, [SCOPES.viewRead, SCOPES.objectConfigurationRead]);
    await get(`/v2/objects/people/views/${mine}`, viewReader).expect(200);
    await createView('/v2/objects/people', view('No'), viewReader).expect(403);
    await get(`/v2/lists/leads/views`, viewReader).expect(403);
    const viewWriter = await t.tokenFor(ws.workspaceId, [SCOPES.viewReadWrite, SCOPES.objectConfigurationRead]);
    const made = (await createView('/v2/objects/people', view('By a view writer'), viewWriter).expect(200)).body.data.id.view_id;
    await patch(`/v2/objects/people/views/${made}`, { data: { title: 'Renamed' } }, viewWriter).expect(200);
    await patch(`/v2/objects/people/views/${made}`, { data: { title: 'Renamed' } }, viewReader).expect(403);
    await createView('/v2/objects/people', view('No'), await t.tokenFor(ws.workspaceId, [SCOPES.viewReadWrite])).expect(403);
    for (const limit of ['0', '1001', 'x']) expect((await get(`/v2/objects/people/views?limit=${limit}`).expect(400)).body.message).toContain('limit');
  });
});
