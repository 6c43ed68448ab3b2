import { SCOPES } from '@workbase/shared/kernel';
import { DataSource } from 'typeorm';
import { bearerRequests, expectEachRefused } from '../support/requests';
import { useTestApp, useWorkspace } from '../support/suite';
import type { TestWorkspace } from '../support/test-app';

describe('tasks', () => {
  const t = useTestApp();
  const ws = useWorkspace(t, 'tasks');
  const other = useWorkspace(t, 'tasks-other');
  let personId: string;
  let companyId: string;
  let peopleObjectId: string;
  let companiesObjectId: string;
  let adaId: string;
  let theirPersonId: string;
  let theirMemberId: string;

  beforeAll(async () => {
    personId = await createRecord('people', { email_addresses: ['grace@example.com'] });
    companyId = await createRecord('companies', { name: 'Acme' });
    peopleObjectId = await objectId('people');
    companiesObjectId = await objectId('companies');
    adaId = await t.createMember(ws.workspaceId, 'ada@tasks.test');
    theirPersonId = await createRecord('people', { email_addresses: ['x@other.example'] }, other.token);
    theirMemberId = await t.createMember(other.workspaceId, 'eve@other.test');
  });

  const { get, post, patch, del, createRecord, objectId } = bearerRequests(() => t, () => ws.token);
  const db = () => t.app.get(DataSource);
  const events = async (taskId: string) =>
    (await db().query(`SELECT event_type, entity_id FROM event_outbox WHERE entity_id->>'task_id' = $1 ORDER BY id`, [taskId])).map(
      (row: { event_type: string; entity_id: unknown }) => [row.event_type, row.entity_id],
    );
  const countTasks = async (workspaceId = ws.workspaceId) => Number((await db().query(`SELECT count(*) AS n FROM tasks WHERE workspace_id = $1`, [workspaceId]))[0].n);
  const countEvents = async () => Number((await db().query(`SELECT count(*) AS n FROM event_outbox WHERE event_type LIKE 'task.%'`))[0].n);

  const task = (overrides: Record<string, unknown> = {}) => ({
    data: {
      content: 'Send the proposal',
      format: 'plaintext',
      deadline_at: '2026-03-01T17:00:00.000000000Z',
      is_completed: false,
      linked_records: [{ target_object: 'people', target_record_id: personId }],
      assignees: [{ referenced_actor_type: 'workspace-member', referenced_actor_id: adaId }],
      ...overrides,
    },
  });

  describe('CRUD', () => {
    it('creates a task with links and assignees, reads it back and records task.created', async () => {
      const res = await post('/v2/tasks', task()).expect(200);
      const data = res.body.data;
      expect(data).toEqual({
        id: { workspace_id: ws.workspaceId, task_id: expect.any(String) },
        content_plaintext: 'Send the proposal',
        deadline_at: '2026-03-01T17:00:00.000Z',
        is_completed: false,
        completed_at: null,
        linked_records: [{ target_object_id: peopleObjectId, target_record_id: personId }],
        assignees: [{ referenced_actor_type: 'workspace-member', referenced_actor_id: adaId }],
        created_by_actor: { type: 'api-token', id: expect.any(String) },
        created_at: expect.any(String),
      });
      expect((await get(`/v2/tasks/${data.id.task_id}`).expect(200)).body).toEqual({ data });
      expect(await events(data.id.task_id)).toEqual([['task.created', { workspace_id: ws.workspaceId, task_id: data.id.task_id }]]);
    });

    it('accepts an assignee by email, a linked object by id, no deadline, and content of exactly 2000 characters', async () => {
      const res = await post(
        '/v2/tasks',
        task({
          content: 'x'.repeat(2000),
          deadline_at: null,
          linked_records: [{ target_object: companiesObjectId, target_record_id: companyId }],
          assignees: [{ workspace_member_email_address: 'ADA@tasks.test' }],
        }),
      ).expect(200);
      expect(res.body.data).toMatchObject({
        content_plaintext: 'x'.repeat(2000),
        deadline_at: null,
        linked_records: [{ target_object_id: companiesObjectId, target_record_id: companyId }],
        assignees: [{ referenced_actor_type: 'workspace-member', referenced_actor_id: adaId }],
      });
    });

    it('patches deadline, completion, links and assignees; completing stamps completed_at; each change records task.updated', async () => {
      const id = (await post('/v2/tasks', task()).expect(200)).body.data.id.task_id;
      const done = await patch(`/v2/tasks/${id}`, { data: { is_completed: true } }).expect(200);
      expect(done.body.data.is_completed).toBe(true);
      expect(Math.abs(Date.parse(done.body.data.completed_at) - Date.now())).toBeLessThan(60_000);
      const moved = await patch(`/v2/tasks/${id}`, { data: { deadline_at: null, linked_records: [{ target_object: 'companies', target_record_id: companyId }], assignees: [] } }).expect(200);
      expect(moved.body.data).toMatchObject({
        deadline_at: null,
        is_completed: true,
        completed_at: done.body.data.completed_at,
        linked_records: [{ target_object_id: companiesObjectId, target_record_id: companyId }],
        assignees: [],
        content_plaintext: 'Send the proposal',
      });
      // The same values again change nothing and record nothing.
      await patch(`/v2/tasks/${id}`, { data: { is_completed: true, assignees: [] } }).expect(200);
      const reopened = await patch(`/v2/tasks/${id}`, { data: { is_completed: false } }).expect(200);
      expect(reopened.body.data).toMatchObject({ is_completed: false, completed_at: null });
      expect((await events(id)).map(([type]: [string]) => type)).toEqual(['task.created', 'task.updated', 'task.updated', 'task.updated']);
    });

    it('deletes a task ({}), recording task.deleted; then it is gone everywhere', async () => {
      const id = (await post('/v2/tasks', task()).expect(200)).body.data.id.task_id;
      expect((await del(`/v2/tasks/${id}`).expect(200)).body).toEqual({});
      await get(`/v2/tasks/${id}`).expect(404);
      await del(`/v2/tasks/${id}`).expect(404);
      await patch(`/v2/tasks/${id}`, { data: { is_completed: true } }).expect(404);
      expect((await events(id)).map(([type]: [string]) => type)).toEqual(['task.created', 'task.deleted']);
    });

    it('drops the link, not the task, when a linked record is deleted', async () => {
      const doomed = await createRecord('people', { email_addresses: ['doomed@example.com'] });
      const id = (await post('/v2/tasks', task({ linked_records: [{ target_object: 'people', target_record_id: doomed }] })).expect(200)).body.data.id.task_id;
      await del(`/v2/objects/people/records/${doomed}`).expect(200);
      expect((await get(`/v2/tasks/${id}`).expect(200)).body.data.linked_records).toEqual([]);
    });
  });

  describe('listing', () => {
    let list: TestWorkspace;
    const ids: string[] = [];
    let lovelace: string;
    let person: string;

    beforeAll(async () => {
      list = await t.createWorkspace('tasks-list');
      lovelace = await t.createMember(list.workspaceId, 'lovelace@list.test');
      person = await createRecord('people', { email_addresses: ['p@list.test'] }, list.token);
      const specs = [
        { content: 'one', is_completed: false, assignees: [{ referenced_actor_type: 'workspace-member', referenced_actor_id: lovelace }], linked_records: [{ target_object: 'people', target_record_id: person }] },
        { content: 'two', is_completed: true, assignees: [], linked_records: [] },
        { content: 'three', is_completed: false, assignees: [], linked_records: [{ target_object: 'people', target_record_id: person }] },
        { content: 'four', is_completed: true, assignees: [{ workspace_member_email_address: 'lovelace@list.test' }], linked_records: [] },
      ];
      for (const spec of specs) ids.push((await post('/v2/tasks', { data: spec }, list.token).expect(200)).body.data.id.task_id);
    });

    const contents = async (query: string) => (await get(`/v2/tasks${query}`, list.token).expect(200)).body.data.map((x: { content_plaintext: string }) => x.content_plaintext);

    it('pages with limit/offset in created_at order, either direction', async () => {
      expect(await contents('')).toEqual(['one', 'two', 'three', 'four']);
      expect(await contents('?limit=2&offset=1')).toEqual(['two', 'three']);
      expect(await contents('?sort=created_at:desc&limit=3')).toEqual(['four', 'three', 'two']);
      expect(await contents('?offset=4')).toEqual([]);
    });

    it('sorts by completed_at: completed in completion order, open tasks last ascending and first descending', async () => {
      expect((await contents('?sort=completed_at:asc')).slice(0, 2)).toEqual(['two', 'four']);
      expect((await contents('?sort=completed_at:desc')).slice(2)).toEqual(['four', 'two']);
    });

    it('filters by linked record, assignee (id, email, null) and completion, ANDed', async () => {
      expect(await contents(`?linked_object=people&linked_record_id=${person}`)).toEqual(['one', 'three']);
      expect(await contents(`?assignee=${lovelace}`)).toEqual(['one', 'four']);
      expect(await contents('?assignee=LOVELACE@list.test')).toEqual(['one', 'four']);
      expect(await contents('?assignee=null')).toEqual(['two', 'three']);
      expect(await contents('?is_completed=true')).toEqual(['two', 'four']);
      expect(await contents(`?is_completed=false&assignee=null&linked_object=people&linked_record_id=${person}`)).toEqual(['three']);
    });

    it('refuses bad list parameters with a 400 naming the parameter', async () => {
      await expectEachRefused([
        ['?limit=0', 'limit'],
        ['?limit=1001', 'limit'],
        ['?offset=-1', 'offset'],
        ['?sort=content:asc', 'sort'],
        ['?is_completed=yes', 'is_completed'],
        ['?linked_object=people', 'linked_record_id'],
        [`?linked_record_id=${person}`, 'linked_object'],
        ['?linked_object=people&linked_record_id=nope', 'linked_record_id'],
        ['?assignee=somebody', 'assignee'],
        ['?assignee=nobody@list.test', 'assignee'],
      ], (query) => get(`/v2/tasks${query}`, list.token));
      await get('/v2/tasks?linked_object=nope&linked_record_id=' + person, list.token).expect(404);
    });
  });

  describe('bad input and tenancy', () => {
    it.each([
      ['missing content', { content: undefined }, 'data.content'],
      ['content over 2000 characters', { content: 'x'.repeat(2001) }, 'data.content'],
      ['content of the wrong type', { content: 42 }, 'data.content'],
      ['a format other than plaintext', { format: 'markdown' }, 'data.format'],
      ['a deadline without offset', { deadline_at: '2026-03-01T17:00:00' }, 'data.deadline_at'],
      ['a non-boolean completion', { is_completed: 'yes' }, 'data.is_completed'],
      ['a linked record id that is no UUID', { linked_records: [{ target_object: 'people', target_record_id: 'abc' }] }, 'data.linked_records.0.target_record_id'],
      ['an unknown linked object', { linked_records: [{ target_object: 'planets', target_record_id: '00000000-0000-4000-8000-000000000000' }] }, 'data.linked_records[0].target_object'],
      ['an unknown linked record', { linked_records: [{ target_object: 'people', target_record_id: '00000000-0000-4000-8000-000000000000' }] }, 'data.linked_records[0].target_record_id'],
      ['an unknown assignee', { assignees: [{ referenced_actor_type: 'workspace-member', referenced_actor_id: '00000000-0000-4000-8000-000000000000' }] }, 'data.assignees[0].referenced_actor_id'],
      ['an assignee of the wrong type', { assignees: [{ referenced_actor_type: 'api-token', referenced_actor_id: '00000000-0000-4000-8000-000000000001' }] }, 'data.assignees.0.referenced_actor_type'],
      ['an unknown field', { title: 'x' }, 'data.title'],
    ])('refuses %s with a 400 naming the field, and writes nothing', async (_, overrides, field) => {
      const [tasksBefore, eventsBefore] = [await countTasks(), await countEvents()];
      const body = task(overrides as Record<string, unknown>);
      const res = await post('/v2/tasks', body).expect(400);
      expect(res.body).toMatchObject({ status_code: 400, type: 'invalid_request_error' });
      expect(res.body.message).toContain(field);
      expect([await countTasks(), await countEvents()]).toEqual([tasksBefore, eventsBefore]);
    });

    it("refuses another workspace's records and members as references (400, nothing written)", async () => {
      const before = await countTasks();
      const record = await post('/v2/tasks', task({ linked_records: [{ target_object: 'people', target_record_id: theirPersonId }] })).expect(400);
      expect(record.body).toMatchObject({ code: 'value_not_found' });
      expect(record.body.message).toContain('data.linked_records[0].target_record_id');
      const member = await post('/v2/tasks', task({ assignees: [{ referenced_actor_type: 'workspace-member', referenced_actor_id: theirMemberId }] })).expect(400);
      expect(member.body.message).toContain('data.assignees[0].referenced_actor_id');
      expect(await countTasks()).toBe(before);
    });

    it('refuses PATCH of other fields, and a failed PATCH changes nothing', async () => {
      const created = (await post('/v2/tasks', task()).expect(200)).body.data;
      const id = created.id.task_id;
      await expectEachRefused([
        [{ data: { content: 'rewritten' } }, 'data.content'],
        [{ data: { format: 'plaintext' } }, 'data.format'],
        [{ data: {} }, 'data'],
        [{ data: { is_completed: null } }, 'data.is_completed'],
        [{ data: { deadline_at: 'soon' } }, 'data.deadline_at'],
      ], (body) => patch(`/v2/tasks/${id}`, body));
      // A valid change together with a bad reference is refused whole.
      const res = await patch(`/v2/tasks/${id}`, {
        data: { is_completed: true, assignees: [{ referenced_actor_type: 'workspace-member', referenced_actor_id: theirMemberId }] },
      }).expect(400);
      expect(res.body.message).toContain('data.assignees[0].referenced_actor_id');
      expect((await get(`/v2/tasks/${id}`).expect(200)).body.data).toEqual(created);
      expect((await events(id)).map(([type]: [string]) => type)).toEqual(['task.created']);
    });

    it("404s another workspace's tasks on every route, and malformed ids", async () => {
      const theirs = (await post('/v2/tasks', task({ linked_records: [], assignees: [] }), other.token).expect(200)).body.data.id.task_id;
      const res = await get(`/v2/tasks/${theirs}`).expect(404);
      expect(res.body).toMatchObject({ status_code: 404, type: 'invalid_request_error', code: 'not_found' });
      await patch(`/v2/tasks/${theirs}`, { data: { is_completed: true } }).expect(404);
      await del(`/v2/tasks/${theirs}`).expect(404);
      expect((await get('/v2/tasks').expect(200)).body.data.map((x: { id: { task_id: string } }) => x.id.task_id)).not.toContain(theirs);
      await get('/v2/tasks/not-a-uuid').expect(404);
      expect((await get(`/v2/tasks/${theirs}`, other.token).expect(200)).body.data.is_completed).toBe(false);
    });

    it('needs task:read to read and task:read-write to write (403 naming the scope)', async () => {
      const readOnly = await t.tokenFor(ws.workspaceId, [SCOPES.taskRead, SCOPES.objectConfigurationRead, SCOPES.recordPermissionRead]);
      const none = await t.tokenFor(ws.workspaceId, [SCOPES.objectConfigurationRead, SCOPES.recordPermissionRead]);
      await get('/v2/tasks', readOnly).expect(200);
      const denied = await post('/v2/tasks', task(), readOnly).expect(403);
      expect(denied.body).toMatchObject({ status_code: 403, type: 'auth_error' });
      expect(denied.body.message).toContain('task:read-write');
      const unread = await get('/v2/tasks', none).expect(403);
      expect(unread.body.message).toContain('task:read');
    });
  });
});
