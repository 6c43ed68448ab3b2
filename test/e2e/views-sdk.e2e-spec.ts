import { createAttioClient, getAttioErrorCode, getAttioErrorStatus, getV2ListsByListViews, getV2ObjectsByObjectViews } from 'attio-ts-sdk';
import { bearerRequests } from '../support/requests';
import { useTestApp, useWorkspace } from '../support/suite';

/**
 * The views list routes through the reference's typed client (attio-ts-sdk 2.3.0, unmodified):
 * its generated functions check every answer with the reference's Zod schemas (responseValidator),
 * so a field, id format or pagination shape the client does not expect fails here.
 */
describe('views through the typed SDK (e2e)', () => {
  const t = useTestApp({ listen: true });
  const ws = useWorkspace(t, 'views-sdk');
  const { post } = bearerRequests(() => t, () => ws.token);
  const client = () => createAttioClient({ baseUrl: t.baseUrl!, authToken: ws.token, throwOnError: true });

  beforeAll(async () => {
    await post('/v2/lists', { data: { name: 'Leads', api_slug: 'leads', parent_object: 'people' } }).expect(200);
    for (const title of ['All people', 'Engineers']) await post('/v2/objects/people/views', { data: { title, type: 'table', filter: title === 'Engineers' ? { job_title: 'Engineer' } : null } }).expect(200);
    await post('/v2/lists/leads/views', { data: { title: 'Board', type: 'board' } }).expect(200);
  });

  it('lists object views, validated by the client, in view id order, page by page', async () => {
    const all = await getV2ObjectsByObjectViews({ client: client(), throwOnError: true, path: { object: 'people' } });
    const ids = all.data.data.map((view) => view.id.view_id);
    expect(ids).toHaveLength(2);
    expect([...ids].sort()).toEqual(ids);
    expect(all.data.data.map((view) => view.id.workspace_id)).toEqual([ws.workspaceId, ws.workspaceId]);
    expect(all.data.pagination.next_cursor).toBeNull();

    const first = await getV2ObjectsByObjectViews({ client: client(), throwOnError: true, path: { object: 'people' }, query: { limit: 1 } });
    expect(first.data.data.map((view) => view.id.view_id)).toEqual([ids[0]]);
    const second = await getV2ObjectsByObjectViews({ client: client(), throwOnError: true, path: { object: 'people' }, query: { limit: 1, cursor: first.data.pagination.next_cursor! } });
    expect(second.data.data.map((view) => view.title)).toEqual([all.data.data[1].title]);
  });

  it('lists list views, validated by the client; an unknown list is the documented 404', async () => {
    const res = await getV2ListsByListViews({ client: client(), throwOnError: true, path: { list: 'leads' } });
    expect(res.data.data.map((view) => [view.title, view.id.workspace_id])).toEqual([['Board', ws.workspaceId]]);
    const missing = await getV2ListsByListViews({ client: client(), throwOnError: true, path: { list: 'martians' } }).then(
      () => null,
      (error: unknown) => error,
    );
    expect([getAttioErrorStatus(missing), getAttioErrorCode(missing)]).toEqual([404, 'not_found']);
  });
});
