import { SCOPES } from '@workbase/shared/kernel';
import { DataSource } from 'typeorm';
import { bearerRequests, expectEachRefused } from '../support/requests';
import { useTestApp, useWorkspace } from '../support/suite';

describe('threads and comments', () => {
  const t = useTestApp();
  const ws = useWorkspace(t, 'comments');
  const other = useWorkspace(t, 'comments-other');
  let personId: string;
  let peopleObjectId: string;
  let listId: string;
  let entryId: string;
  let adaId: string;
  let theirPersonId: string;

  beforeAll(async () => {
    personId = await createRecord('people', { email_addresses: ['grace@example.com'] });
    peopleObjectId = await objectId('people');
    listId = (await post('/v2/lists', { data: { name: 'Hiring', api_slug: 'hiring', parent_object: 'people', workspace_access: 'full-access', workspace_member_access: [] } }).expect(200)).body.data.id.list_id;
    entryId = (await post('/v2/lists/hiring/entries', { data: { parent_record_id: personId, parent_object: 'people', entry_values: {} } }).expect(200)).body.data.id.entry_id;
    adaId = await t.createMember(ws.workspaceId, 'ada@comments.test');
    theirPersonId = await createRecord('people', { email_addresses: ['x@other.example'] }, other.token);
  });

  const { get, post, del, createRecord, objectId } = bearerRequests(() => t, () => ws.token);
  const db = () => t.app.get(DataSource);
  const eventsOf = async (commentIds: string[]) =>
    (await db().query(`SELECT event_type, entity_id->>'comment_id' AS comment_id, payload FROM event_outbox WHERE entity_id->>'comment_id' = ANY ($1) ORDER BY event_outbox.id`, [commentIds])).map(
      (row: { event_type: string; comment_id: string; payload: unknown }) => [row.event_type, row.comment_id, row.payload],
    );
  const counts = async () => {
    const [row] = await db().query(
      `SELECT (SELECT count(*) FROM comment_threads) AS threads, (SELECT count(*) FROM comments) AS comments, (SELECT count(*) FROM event_outbox WHERE event_type LIKE 'comment.%') AS events`,
    );
    return [Number(row.threads), Number(row.comments), Number(row.events)];
  };
  const onRecord = (overrides: Record<string, unknown> = {}) => ({
    data: { format: 'plaintext', content: 'Can we move the call?', author: { type: 'workspace-member', id: adaId }, record: { object: 'people', record_id: personId }, ...overrides },
  });

  it('opens a thread on a record, replies in it, and reads comments and the thread back', async () => {
    const head = (await post('/v2/comments', onRecord()).expect(200)).body.data;
    expect(head).toEqual({
      id: { workspace_id: ws.workspaceId, comment_id: expect.any(String) },
      thread_id: expect.any(String),
      content_plaintext: 'Can we move the call?',
      entry: null,
      record: { object_id: peopleObjectId, record_id: personId },
      resolved_at: null,
      resolved_by: { type: null, id: null },
      created_at: expect.any(String),
      author: { type: 'workspace-member', id: adaId },
    });
    const reply = (await post('/v2/comments', { data: { format: 'plaintext', content: 'Friday works', thread_id: head.thread_id } }).expect(200)).body.data;
    // Without author, the comment is written as the token's member (the workspace admin).
    expect(reply).toMatchObject({ thread_id: head.thread_id, record: head.record, entry: null, author: { type: 'workspace-member', id: ws.adminMemberId } });
    expect((await get(`/v2/comments/${reply.id.comment_id}`).expect(200)).body).toEqual({ data: reply });
    const thread = (await get(`/v2/threads/${head.thread_id}`).expect(200)).body.data;
    expect(thread).toEqual({ id: { workspace_id: ws.workspaceId, thread_id: head.thread_id }, comments: [head, reply], created_at: expect.any(String) });
    expect(await eventsOf([head.id.comment_id, reply.id.comment_id])).toEqual([
      ['comment.created', head.id.comment_id, { thread_id: head.thread_id, object_id: peopleObjectId, record_id: personId }],
      ['comment.created', reply.id.comment_id, { thread_id: head.thread_id, object_id: peopleObjectId, record_id: personId }],
    ]);
  });

  it("opens a thread on a list entry, naming the entry and its parent record; lists a record's and an entry's threads apart", async () => {
    const onEntry = (await post('/v2/comments', { data: { format: 'plaintext', content: 'Strong candidate', author: { type: 'workspace-member', id: adaId }, entry: { list: 'hiring', entry_id: entryId } } }).expect(200))
      .body.data;
    expect(onEntry).toMatchObject({ entry: { list_id: listId, entry_id: entryId }, record: { object_id: peopleObjectId, record_id: personId } });
    const entryThreads = (await get(`/v2/threads?entry_id=${entryId}&list=${listId}`).expect(200)).body.data;
    expect(entryThreads.map((x: { id: { thread_id: string } }) => x.id.thread_id)).toEqual([onEntry.thread_id]);
    const recordThreads = (await get(`/v2/threads?record_id=${personId}&object=people`).expect(200)).body.data;
    expect(recordThreads.length).toBeGreaterThan(0);
    expect(recordThreads.map((x: { id: { thread_id: string } }) => x.id.thread_id)).not.toContain(onEntry.thread_id);
    expect(await eventsOf([onEntry.id.comment_id])).toEqual([
      ['comment.created', onEntry.id.comment_id, { thread_id: onEntry.thread_id, object_id: peopleObjectId, record_id: personId, list_id: listId, entry_id: entryId }],
    ]);
  });

  it('pages threads with limit/offset, oldest first', async () => {
    const person = await createRecord('people', { email_addresses: ['paged@example.com'] });
    const threadIds: string[] = [];
    for (const content of ['a', 'b', 'c']) threadIds.push((await post('/v2/comments', onRecord({ content, record: { object: 'people', record_id: person } })).expect(200)).body.data.thread_id);
    const page = async (q: string) => (await get(`/v2/threads?object=people&record_id=${person}${q}`).expect(200)).body.data.map((x: { id: { thread_id: string } }) => x.id.thread_id);
    expect(await page('')).toEqual(threadIds);
    expect(await page('&limit=2&offset=1')).toEqual(threadIds.slice(1));
    expect(await page('&offset=3')).toEqual([]);
  });

  it("deletes a reply alone, and the thread with all replies when its first comment is deleted", async () => {
    const head = (await post('/v2/comments', onRecord({ content: 'head' })).expect(200)).body.data;
    const r1 = (await post('/v2/comments', { data: { format: 'plaintext', content: 'r1', thread_id: head.thread_id } }).expect(200)).body.data;
    const r2 = (await post('/v2/comments', { data: { format: 'plaintext', content: 'r2', thread_id: head.thread_id } }).expect(200)).body.data;
    expect((await del(`/v2/comments/${r1.id.comment_id}`).expect(200)).body).toEqual({});
    expect((await get(`/v2/threads/${head.thread_id}`).expect(200)).body.data.comments.map((c: { content_plaintext: string }) => c.content_plaintext)).toEqual(['head', 'r2']);
    await del(`/v2/comments/${head.id.comment_id}`).expect(200);
    await get(`/v2/threads/${head.thread_id}`).expect(404);
    await get(`/v2/comments/${r2.id.comment_id}`).expect(404);
    await del(`/v2/comments/${head.id.comment_id}`).expect(404);
    const types = (await eventsOf([head.id.comment_id, r1.id.comment_id, r2.id.comment_id])).map(([type, id]: [string, string]) => [type, id]);
    expect(types).toEqual([
      ['comment.created', head.id.comment_id],
      ['comment.created', r1.id.comment_id],
      ['comment.created', r2.id.comment_id],
      ['comment.deleted', r1.id.comment_id],
      ['comment.deleted', head.id.comment_id],
      ['comment.deleted', r2.id.comment_id],
    ]);
  });

  it("deletes a record's threads with it, recording comment.deleted", async () => {
    const doomed = await createRecord('people', { email_addresses: ['doomed@example.com'] });
    const c = (await post('/v2/comments', onRecord({ record: { object: 'people', record_id: doomed } })).expect(200)).body.data;
    await del(`/v2/objects/people/records/${doomed}`).expect(200);
    await get(`/v2/threads/${c.thread_id}`).expect(404);
    expect((await eventsOf([c.id.comment_id])).map(([type]: [string]) => type)).toEqual(['comment.created', 'comment.deleted']);
  });

  it('backdates a comment with created_at', async () => {
    const c = (await post('/v2/comments', onRecord({ created_at: '2023-01-01T15:00:00.000000000Z' })).expect(200)).body.data;
    expect(c.created_at).toBe('2023-01-01T15:00:00.000Z');
  });

  describe('bad input and tenancy', () => {
    const zero = '00000000-0000-4000-8000-000000000000';
    it.each([
      ['no target', { record: undefined }, 400, 'thread_id, record, entry'],
      ['two targets', { thread_id: zero }, 400, 'got thread_id, record'],
      ['empty content', { content: '  ' }, 400, 'data.content'],
      ['content of the wrong type', { content: 5 }, 400, 'data.content'],
      ['a format other than plaintext', { format: 'markdown' }, 400, 'data.format'],
      ['an author of the wrong type', { author: { type: 'api-token', id: zero } }, 400, 'data.author.type'],
      ['an unknown author', { author: { type: 'workspace-member', id: zero } }, 400, 'data.author.id'],
      ['a future created_at', { created_at: '2999-01-01T00:00:00Z' }, 400, 'data.created_at'],
      ['a record id that is no UUID', { record: { object: 'people', record_id: 'abc' } }, 400, 'data.record.record_id'],
      ['an unknown object', { record: { object: 'planets', record_id: zero } }, 404, 'data.record.object'],
      ['an unknown record', { record: { object: 'people', record_id: zero } }, 404, 'data.record.record_id'],
      ['an unknown thread', { record: undefined, thread_id: zero }, 404, 'data.thread_id'],
      ['an unknown list', { record: undefined, entry: { list: 'nope', entry_id: zero } }, 404, 'data.entry.list'],
      ['an unknown entry', { record: undefined, entry: { list: 'hiring', entry_id: zero } }, 404, 'data.entry.entry_id'],
    ])('refuses %s, naming the field, and writes nothing', async (_, overrides, status, field) => {
      const before = await counts();
      const res = await post('/v2/comments', onRecord(overrides as Record<string, unknown>)).expect(status);
      expect(res.body).toMatchObject({ status_code: status, type: 'invalid_request_error' });
      expect(res.body.message).toContain(field);
      expect(await counts()).toEqual(before);
    });

    it('refuses bad thread list parameters with a 400 naming the parameter', async () => {
      await expectEachRefused([
        [`?record_id=${personId}`, 'object'],
        ['?object=people', 'record_id'],
        [`?entry_id=${entryId}`, 'list'],
        [`?record_id=${personId}&object=people&entry_id=${entryId}&list=hiring`, 'entry_id'],
        ['?limit=51', 'limit'],
        ['?record_id=abc&object=people', 'record_id'],
      ], (query) => get(`/v2/threads${query}`));
      await get(`/v2/threads?record_id=${zero}&object=people`).expect(404);
    });

    it("404s another workspace's comments, threads and records on every route", async () => {
      const theirs = (await post('/v2/comments', { data: { content: 'theirs', record: { object: 'people', record_id: theirPersonId } } }, other.token).expect(200)).body.data;
      const before = await counts();
      await get(`/v2/comments/${theirs.id.comment_id}`).expect(404);
      await del(`/v2/comments/${theirs.id.comment_id}`).expect(404);
      await get(`/v2/threads/${theirs.thread_id}`).expect(404);
      await post('/v2/comments', { data: { content: 'hijack', thread_id: theirs.thread_id } }).expect(404);
      await post('/v2/comments', onRecord({ record: { object: 'people', record_id: theirPersonId } })).expect(404);
      await get(`/v2/threads?record_id=${theirPersonId}&object=people`).expect(404);
      expect((await get('/v2/threads?limit=50').expect(200)).body.data.map((x: { id: { thread_id: string } }) => x.id.thread_id)).not.toContain(theirs.thread_id);
      expect(await counts()).toEqual(before);
      expect((await get(`/v2/comments/${theirs.id.comment_id}`, other.token).expect(200)).body.data.content_plaintext).toBe('theirs');
      await get('/v2/comments/not-a-uuid').expect(404);
    });

    it('needs comment scopes, plus the record or list scopes of the subject (403 naming them)', async () => {
      const commentsOnly = await t.tokenFor(ws.workspaceId, [SCOPES.commentReadWrite], { memberId: ws.adminMemberId });
      const readOnly = await t.tokenFor(ws.workspaceId, [SCOPES.commentRead, SCOPES.objectConfigurationRead, SCOPES.recordPermissionRead]);
      const onRec = await post('/v2/comments', onRecord(), commentsOnly).expect(403);
      expect(onRec.body).toMatchObject({ type: 'auth_error' });
      expect(onRec.body.message).toContain('object_configuration:read');
      const onEntry = await post('/v2/comments', onRecord({ record: undefined, entry: { list: 'hiring', entry_id: entryId } }), commentsOnly).expect(403);
      expect(onEntry.body.message).toContain('list_entry:read');
      expect((await post('/v2/comments', onRecord(), readOnly).expect(403)).body.message).toContain('comment:read-write');
      await get(`/v2/threads?record_id=${personId}&object=people`, readOnly).expect(200);
      expect((await get(`/v2/threads?entry_id=${entryId}&list=hiring`, readOnly).expect(403)).body.message).toContain('list_configuration:read');
    });
  });
});
