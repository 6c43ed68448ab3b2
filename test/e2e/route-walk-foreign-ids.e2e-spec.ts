import { randomUUID } from 'node:crypto';
import { meetingBody } from '../support/meetings';
import { bearerRequests } from '../support/requests';
import { ERROR, GROUP, USER } from '../support/scim';
import { useTestApp, useWorkspace } from '../support/suite';

interface Operation {
  readonly method: string;
  readonly path: string;
}

/**
 * Tenancy before validation, on every route: each documented operation with an id in its path is
 * called with another workspace's ids (the first id of the path is one that exists there) and an
 * empty, an invalid and no body, and once more with an invalid query. Each answer is a 404: whether
 * the id exists in the caller's workspace is decided before the body and query count, so their
 * errors never tell a caller anything about another workspace's ids (PathIdsFirstInterceptor and each controller's `resolvePathIds`).
 * A second walk keeps the first id the caller's own and makes the next one another workspace's or
 * unknown: every id of the path counts, not only the first. The walk covers the document, so a new
 * route is covered (or fails here for want of an id) without being listed.
 */
describe('route walk: another workspace\'s id in the path is a 404 (before the body is validated)', () => {
  const t = useTestApp();
  const caller = useWorkspace(t, 'walk-caller');
  const other = useWorkspace(t, 'walk-other');
  const foreign: Record<string, string> = {};
  const own: Record<string, string> = {};

  beforeAll(async () => {
    const b = bearerRequests(() => t, () => other.token);
    const scim = (path: string, body: object) => t.http().post(path).set('Authorization', `Bearer ${other.token}`).set('Content-Type', 'application/scim+json').send(JSON.stringify(body));
    foreign.object = (await b.post('/v2/objects', { data: { api_slug: 'gadgets', singular_noun: 'Gadget', plural_noun: 'Gadgets' } }).expect(200)).body.data.id.object_id;
    foreign.list = (await b.post('/v2/lists', { data: { name: 'Walk', api_slug: 'walk', parent_object: 'companies', workspace_access: 'full-access', workspace_member_access: [] } }).expect(200)).body.data.id.list_id;
    foreign.activity = (await b.post('/v2/activities', { data: { api_slug: 'walk_calls', singular_noun: 'Call', plural_noun: 'Calls', extends: 'calls' } }).expect(200)).body.data.id.activity_id;
    const company = await b.createRecord('companies', { name: 'Other Co' });
    foreign.meeting_id = (await b.post('/v2/meetings', meetingBody({ title: 'Other call' })).expect(200)).body.data.id.meeting_id;
    foreign.note_id = (await b.post('/v2/notes', { data: { parent_object: 'companies', parent_record_id: company, title: 'n', format: 'plaintext', content: 'x' } }).expect(200)).body.data.id.note_id;
    foreign.task_id = (await b.post('/v2/tasks', { data: { content: 'x', format: 'plaintext', deadline_at: null, is_completed: false, linked_records: [], assignees: [] } }).expect(200)).body.data.id.task_id;
    foreign.webhook_id = (await b.post('/v2/webhooks', { data: { target_url: 'http://127.0.0.1:9/hook', subscriptions: [{ event_type: 'record.created', filter: null }] } }).expect(200)).body.data.id.webhook_id;
    const comment = (await b.post('/v2/comments', { data: { format: 'plaintext', content: 'x', record: { object: 'companies', record_id: company } } }).expect(200)).body.data;
    foreign.comment_id = comment.id.comment_id;
    foreign.thread_id = comment.thread_id;
    foreign.workspace_member_id = other.adminMemberId;
    foreign.file_id = (await b.post('/v2/files', { object: 'companies', record_id: company, file_type: 'folder', name: 'Walk' }).expect(200)).body.data.id.file_id;
    foreign.user_id = (await scim('/scim/v2/Users', { schemas: [USER], userName: 'walker@other.example' }).expect(201)).body.id;
    foreign.workspace_team_id = (await scim('/scim/v2/Groups', { schemas: [GROUP], displayName: 'Walkers' }).expect(201)).body.id;
    foreign.record_id = company;

    // The caller's own containers, under which the second walk names another workspace's or unknown ids.
    const mine = bearerRequests(() => t, () => caller.token);
    own.object = 'companies';
    own.list = (await mine.post('/v2/lists', { data: { name: 'Mine', api_slug: 'mine', parent_object: 'companies', workspace_access: 'full-access', workspace_member_access: [] } }).expect(200)).body.data.id.list_id;
    own.activity = (await mine.post('/v2/activities', { data: { api_slug: 'my_calls', singular_noun: 'Call', plural_noun: 'Calls', extends: 'calls' } }).expect(200)).body.data.id.activity_id;
    own.meeting_id = (await mine.post('/v2/meetings', meetingBody({ title: 'My call' })).expect(200)).body.data.id.meeting_id;
    own.webhook_id = (await mine.post('/v2/webhooks', { data: { target_url: 'http://127.0.0.1:9/mine', subscriptions: [{ event_type: 'record.created', filter: null }] } }).expect(200)).body.data.id.webhook_id;

    // The trash names an item by kind, then id: the other workspace's deleted task.
    const trashed = (await b.post('/v2/tasks', { data: { content: 'gone', format: 'plaintext', deadline_at: null, is_completed: false, linked_records: [], assignees: [] } }).expect(200)).body.data.id.task_id;
    await b.del(`/v2/tasks/${trashed}`).expect(200);
    foreign.kind = 'tasks';
    own.kind = 'tasks';
    foreign.trashed_id = trashed;
  });

  /** The id in `ids` that a path's first parameter names (`{identifier}` is the container the path is under). */
  function firstId(ids: Record<string, string>, path: string, name: string): string | undefined {
    if (name === 'identifier') return ids[({ objects: 'object', lists: 'list', activities: 'activity' } as Record<string, string>)[path.split('/')[2]]];
    return ids[name];
  }

  /** The path with the other workspace's id first and, after it, ids that exist nowhere (the first one already decides). */
  function foreignPath(path: string): string | null {
    let first = true;
    let missing = false;
    const filled = path.replace(/\{([^}]+)\}/g, (_, name: string) => {
      if (!first) return path.startsWith('/v2/trash/') && name === 'id' ? foreign.trashed_id : randomUUID();
      first = false;
      const id = firstId(foreign, path, name);
      if (id === undefined) missing = true;
      return id ?? '';
    });
    return missing ? null : filled;
  }

  /** A path of two ids or more: the caller's own first id, then another workspace's id where one is at hand, else an unknown one. */
  function ownThenForeignPath(path: string): string | null {
    let index = 0;
    let missing = false;
    const filled = path.replace(/\{([^}]+)\}/g, (_, name: string) => {
      if (index++ > 0) return foreign[name] ?? randomUUID();
      const id = firstId(own, path, name);
      if (id === undefined) missing = true;
      return id ?? '';
    });
    return index < 2 || missing ? null : filled;
  }

  async function documentedOperations(): Promise<Operation[]> {
    const doc = (await t.http().get('/openapi.json').expect(200)).body as { paths: Record<string, Record<string, unknown>> };
    // Not workspace data: the SCIM discovery documents are named by URN and resource type. Not the
    // token's: a file's content answers a signed URL, whose signature (not a token) names the workspace.
    return Object.entries(doc.paths)
      .filter(([path]) => path.includes('{') && !/\/scim\/v2\/(Schemas|ResourceTypes)\//.test(path) && path !== '/v2/files/{file_id}/content')
      .flatMap(([path, item]) => Object.keys(item).map((method) => ({ method, path })));
  }

  /** Calls each operation at the URL `urlOf` gives it with an empty, an invalid and no body, and with an invalid query; what is not a 404 (in the dialect of its area). */
  async function non404s(operations: readonly Operation[], urlOf: (path: string) => string): Promise<string[]> {
    const answers: string[] = [];
    for (const { method, path } of operations) {
      const url = urlOf(path);
      const scim = path.startsWith('/scim/');
      const bodies: Array<string | undefined> = ['get', 'delete'].includes(method) ? [undefined] : ['{}', scim ? '{"schemas":5,"Operations":5}' : '{"data":5,"filter":5}', undefined];
      for (const [body, query] of [...bodies.map((b) => [b, ''] as const), [bodies[0], '?limit=-1&not_a_parameter=1'] as const]) {
        let request = t.http()[method as 'get' | 'post' | 'put' | 'patch' | 'delete'](url + query).set('Authorization', `Bearer ${caller.token}`);
        if (body !== undefined) request = request.set('Content-Type', scim ? 'application/scim+json' : 'application/json').send(body);
        const res = await request;
        const id = `${method.toUpperCase()} ${path}${query} with ${body ?? 'no body'}`;
        // SCIM's 404 is its error schema without a scimType (RFC 7644 §3.12 defines none for 404).
        const shaped = scim ? res.body.schemas?.[0] === ERROR && res.body.status === '404' && !('scimType' in res.body) : res.body.status_code === 404 && res.body.code === 'not_found';
        if (res.status !== 404 || !shaped) answers.push(`${id}: ${res.status} ${res.text.slice(0, 160)}`);
      }
    }
    return answers;
  }

  it('answers 404 to each, with an empty, an invalid and no body, and an invalid query', async () => {
    const operations = await documentedOperations();
    expect(operations.length).toBeGreaterThan(60);
    const unmapped = operations.filter((o) => foreignPath(o.path) === null).map((o) => `${o.method} ${o.path}`);
    expect(unmapped).toEqual([]);
    expect(await non404s(operations, (path) => foreignPath(path)!)).toEqual([]);
  });

  it('answers 404 when the first id is the caller\'s and a later one another workspace\'s or unknown, whatever the body and query', async () => {
    const operations = (await documentedOperations()).filter((o) => (o.path.match(/\{/g) ?? []).length >= 2);
    expect(operations.length).toBeGreaterThan(30);
    const unmapped = operations.filter((o) => ownThenForeignPath(o.path) === null).map((o) => `${o.method} ${o.path}`);
    expect(unmapped).toEqual([]);
    expect(await non404s(operations, (path) => ownThenForeignPath(path)!)).toEqual([]);
  });
});
