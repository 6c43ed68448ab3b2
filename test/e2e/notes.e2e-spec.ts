import { SCOPES } from '@workbase/shared/kernel';
import { DataSource } from 'typeorm';
import { bearerRequests, expectEachRefused } from '../support/requests';
import { useTestApp, useWorkspace } from '../support/suite';
import type { TestWorkspace } from '../support/test-app';
import { meetingBody } from '../support/meetings';

describe('notes', () => {
  const t = useTestApp();
  const ws = useWorkspace(t, 'notes');
  const other = useWorkspace(t, 'notes-other');
  let personId: string;
  let companyId: string;
  let peopleObjectId: string;

  beforeAll(async () => {
    personId = await createRecord('people', { email_addresses: ['grace@example.com'] });
    companyId = await createRecord('companies', { name: 'Acme' });
    peopleObjectId = await objectId('people');
  });

  const { get, post, patch, del, createRecord, objectId } = bearerRequests(() => t, () => ws.token);
  const events = async (workspaceId: string, noteId: string) =>
    (
      await t.app
        .get(DataSource)
        .query(`SELECT event_type, entity_id, actor, payload FROM event_outbox WHERE workspace_id = $1 AND entity_id->>'note_id' = $2 ORDER BY id`, [workspaceId, noteId])
    ).map((row: { event_type: string; entity_id: unknown; actor: unknown; payload: unknown }) => ({ type: row.event_type, id: row.entity_id, actor: row.actor, payload: row.payload }));

  const note = (overrides: Record<string, unknown> = {}) => ({
    data: { parent_object: 'people', parent_record_id: personId, title: 'Intro call', format: 'plaintext', content: 'Talked about *pricing*.\nNext: demo', ...overrides },
  });

  describe('CRUD', () => {
    it('creates a plaintext note, keeping a markdown form, and reads it back', async () => {
      const res = await post('/v2/notes', note()).expect(200);
      const data = res.body.data;
      expect(data).toEqual({
        id: { workspace_id: ws.workspaceId, note_id: expect.any(String) },
        parent_object: 'people',
        parent_record_id: personId,
        title: 'Intro call',
        meeting_id: null,
        content_plaintext: 'Talked about *pricing*.\nNext: demo',
        content_markdown: 'Talked about \\*pricing\\*.\nNext: demo',
        tags: [],
        created_by_actor: { type: 'api-token', id: expect.any(String) },
        created_at: expect.any(String),
      });
      expect(Math.abs(Date.parse(data.created_at) - Date.now())).toBeLessThan(60_000);
      expect((await get(`/v2/notes/${data.id.note_id}`).expect(200)).body).toEqual({ data });
      const recorded = await events(ws.workspaceId, data.id.note_id);
      expect(recorded).toEqual([
        {
          type: 'note.created',
          id: { workspace_id: ws.workspaceId, note_id: data.id.note_id },
          actor: { type: 'api-token', id: expect.any(String) },
          payload: { parent_object_id: peopleObjectId, parent_record_id: personId },
        },
      ]);
    });

    it('creates a markdown note with the documented subset, backdated and linked to a meeting', async () => {
      const meeting = await post(
        '/v2/meetings',
        meetingBody({ title: 'Kick-off', start: { datetime: '2026-01-05T09:00:00Z', timezone: 'UTC' }, end: { datetime: '2026-01-05T10:00:00Z', timezone: 'UTC' } }),
      ).expect(200);
      const meetingId = meeting.body.data.id.meeting_id;
      const markdown = '# Recap\n\n**Date:** 2023-10-26\n- Reviewed ==metrics==\n1. Follow up with [Marketing](https://example.com)\n~~Deferred~~ _later_';
      const res = await post(
        '/v2/notes',
        note({ parent_object: 'companies', parent_record_id: companyId, format: 'markdown', content: markdown, created_at: '2023-01-01T15:00:00.000000000Z', meeting_id: meetingId }),
      ).expect(200);
      expect(res.body.data).toMatchObject({
        parent_object: 'companies',
        parent_record_id: companyId,
        meeting_id: meetingId,
        content_markdown: markdown,
        content_plaintext: 'Recap\n\nDate: 2023-10-26\n- Reviewed metrics\n1. Follow up with Marketing\nDeferred later',
        created_at: '2023-01-01T15:00:00.000Z',
      });
      // The parent object may be given by id too.
      const byId = await post('/v2/notes', note({ parent_object: peopleObjectId, meeting_id: null })).expect(200);
      expect(byId.body.data).toMatchObject({ parent_object: 'people', meeting_id: null });
    });

    it('patches title and content, recording note.updated and note-content.updated', async () => {
      const id = (await post('/v2/notes', note()).expect(200)).body.data.id.note_id;
      const titled = await patch(`/v2/notes/${id}`, { data: { title: 'Renamed' } }).expect(200);
      expect(titled.body.data).toMatchObject({ title: 'Renamed', content_plaintext: 'Talked about *pricing*.\nNext: demo' });
      const rewritten = await patch(`/v2/notes/${id}`, { data: { format: 'markdown', content: '## New **plan**' } }).expect(200);
      expect(rewritten.body.data).toMatchObject({ title: 'Renamed', content_markdown: '## New **plan**', content_plaintext: 'New plan' });
      await patch(`/v2/notes/${id}`, { data: { title: 'Renamed', format: 'markdown', content: '## New **plan**' } }).expect(200);
      await patch(`/v2/notes/${id}`, { data: { title: 'Both', format: 'plaintext', content: 'plain' } }).expect(200);
      expect((await events(ws.workspaceId, id)).map((e: { type: string; payload: unknown }) => [e.type, e.payload])).toEqual([
        ['note.created', { parent_object_id: peopleObjectId, parent_record_id: personId }],
        ['note.updated', { parent_object_id: peopleObjectId, parent_record_id: personId }],
        ['note-content.updated', {}],
        ['note.updated', { parent_object_id: peopleObjectId, parent_record_id: personId }],
        ['note-content.updated', {}],
      ]);
      expect((await get(`/v2/notes/${id}`).expect(200)).body.data).toMatchObject({ title: 'Both', content_plaintext: 'plain', content_markdown: 'plain' });
    });

    it('deletes a note ({}), recording note.deleted; then it is gone', async () => {
      const id = (await post('/v2/notes', note()).expect(200)).body.data.id.note_id;
      expect((await del(`/v2/notes/${id}`).expect(200)).body).toEqual({});
      await get(`/v2/notes/${id}`).expect(404);
      await del(`/v2/notes/${id}`).expect(404);
      await patch(`/v2/notes/${id}`, { data: { title: 'x' } }).expect(404);
      expect((await events(ws.workspaceId, id)).map((e: { type: string }) => e.type)).toEqual(['note.created', 'note.deleted']);
      expect((await events(ws.workspaceId, id))[1].payload).toEqual({ parent_object_id: peopleObjectId, parent_record_id: personId });
    });

    it("404s another workspace's notes on every route, and unknown or malformed ids", async () => {
      const theirPerson = await createRecord('people', { email_addresses: ['x@other.example'] }, other.token);
      const theirs = (await post('/v2/notes', note({ parent_record_id: theirPerson }), other.token).expect(200)).body.data.id.note_id;
      const res = await get(`/v2/notes/${theirs}`).expect(404);
      expect(res.body).toMatchObject({ status_code: 404, type: 'invalid_request_error', code: 'not_found' });
      await patch(`/v2/notes/${theirs}`, { data: { title: 'mine now' } }).expect(404);
      await del(`/v2/notes/${theirs}`).expect(404);
      await get(`/v2/notes/${theirs}`, other.token).expect(200);
      expect((await get('/v2/notes?limit=50').expect(200)).body.data.map((n: { id: { note_id: string } }) => n.id.note_id)).not.toContain(theirs);
      await get('/v2/notes/8f5a3c5e-0000-4000-8000-000000000000').expect(404);
      await get('/v2/notes/not-a-uuid').expect(404);
      // Another workspace's record or meeting cannot be a parent or a link.
      await post('/v2/notes', note({ parent_record_id: theirPerson })).expect(404);
      const theirMeeting = (
        await post(
          '/v2/meetings',
          { data: { title: 'M', is_all_day: true, start: { date: '2026-01-01' }, end: { date: '2026-01-02' }, participants: [] } },
          other.token,
        ).expect(200)
      ).body.data.id.meeting_id;
      const linked = await post('/v2/notes', note({ meeting_id: theirMeeting })).expect(400);
      expect(linked.body).toMatchObject({ code: 'value_not_found' });
      expect(linked.body.message).toContain('data.meeting_id');
    });
  });

  describe('validation', () => {
    it('refuses bad inputs with a 400 naming the field', async () => {
      const tomorrow = new Date(Date.now() + 86_400_000).toISOString();
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ parent_object: undefined }, 'data.parent_object'],
        [{ parent_record_id: 'nope' }, 'data.parent_record_id'],
        [{ title: undefined }, 'data.title'],
        [{ title: 5 }, 'data.title'],
        [{ format: 'html' }, 'data.format'],
        [{ content: undefined }, 'data.content'],
        [{ content: ['a'] }, 'data.content'],
        [{ created_at: 'yesterday' }, 'data.created_at'],
        [{ created_at: '1969-12-31T23:59:59Z' }, 'data.created_at'],
        [{ created_at: tomorrow }, 'data.created_at'],
        [{ created_at: '2024-02-30T00:00:00Z' }, 'data.created_at'],
        [{ meeting_id: 'nope' }, 'data.meeting_id'],
        [{ meeting_id: '8f5a3c5e-0000-4000-8000-000000000000' }, 'data.meeting_id'],
        [{ tags: [] }, 'data.tags'],
        [{ parent_object: 'peo\u0000ple' }, 'data.parent_object'],
        [{ title: 'In\u0000tro' }, 'data.title'],
        [{ content: 'nul \u0000 byte' }, 'data.content'],
        [{ format: 'markdown', content: '# a\u0000' }, 'data.content'],
        [{ format: null }, 'data.format'],
        [{ created_at: 5 }, 'data.created_at'],
      ];
      await expectEachRefused(cases, (overrides) => post('/v2/notes', note(overrides)));
      await post('/v2/notes', {}).expect(400);
      const id = (await post('/v2/notes', note()).expect(200)).body.data.id.note_id;
      const patchCases: Array<[Record<string, unknown>, string]> = [
        [{ content: 'x' }, 'data.format'],
        [{ format: 'markdown' }, 'data.content'],
        [{}, 'data'],
        [{ title: 3 }, 'data.title'],
        [{ format: 'rtf', content: 'x' }, 'data.format'],
        [{ parent_record_id: companyId }, 'data.parent_record_id'],
        // An explicit null is a wrong type, not "unchanged" (and never a 500).
        [{ title: null }, 'data.title'],
        [{ format: 'plaintext', content: null }, 'data.content'],
        [{ format: null, content: 'x' }, 'data.format'],
        [{ title: 'nul\u0000' }, 'data.title'],
        [{ format: 'plaintext', content: 'nul\u0000' }, 'data.content'],
      ];
      await expectEachRefused(patchCases, (data) => patch(`/v2/notes/${id}`, { data }));
      // Nothing was changed by the refused patches.
      expect((await get(`/v2/notes/${id}`).expect(200)).body.data).toMatchObject({ title: 'Intro call', content_plaintext: 'Talked about *pricing*.\nNext: demo' });
      expect((await events(ws.workspaceId, id)).map((e: { type: string }) => e.type)).toEqual(['note.created']);
    });

    it('reads created_at as RFC 3339 does: t and z in either case, any offset, digits past milliseconds dropped', async () => {
      for (const [createdAt, stored] of [
        ['2024-05-06t07:08:09.123456z', '2024-05-06T07:08:09.123Z'],
        ['2024-05-06T09:08:09+02:00', '2024-05-06T07:08:09.000Z'],
        ['2024-05-06T07:08Z', '2024-05-06T07:08:00.000Z'],
      ]) {
        const res = await post('/v2/notes', note({ created_at: createdAt }));
        expect({ createdAt, status: res.status, stored: res.body.data?.created_at }).toEqual({ createdAt, status: 200, stored });
      }
    });

    it('takes ids in any letter case, and a null created_at or meeting_id as absent', async () => {
      const res = await post('/v2/notes', note({ parent_record_id: personId.toUpperCase(), created_at: null, meeting_id: null })).expect(200);
      expect(res.body.data).toMatchObject({ parent_record_id: personId, meeting_id: null });
      expect(Math.abs(Date.parse(res.body.data.created_at) - Date.now())).toBeLessThan(60_000);
      const id: string = res.body.data.id.note_id;
      expect((await get(`/v2/notes/${id.toUpperCase()}`).expect(200)).body.data.id.note_id).toBe(id);
      const listed = await get(`/v2/notes?limit=50&parent_object=people&parent_record_id=${personId.toUpperCase()}`).expect(200);
      expect(listed.body.data.map((n: { id: { note_id: string } }) => n.id.note_id)).toContain(id);
    });

    it('404s an unknown parent object or record', async () => {
      expect((await post('/v2/notes', note({ parent_object: 'spaceships' })).expect(404)).body.message).toContain('spaceships');
      expect((await post('/v2/notes', note({ parent_object: 'companies' })).expect(404)).body.message).toContain('data.parent_record_id');
    });

    it('refuses content over 1 MiB with a 413, on create and on update', async () => {
      const big = 'x'.repeat(1024 * 1024 + 1);
      const res = await post('/v2/notes', note({ content: big })).expect(413);
      expect(res.body).toMatchObject({ status_code: 413, type: 'invalid_request_error', code: 'validation_type' });
      expect(res.body.message).toContain('data.content');
      await post('/v2/notes', note({ content: 'é'.repeat(512 * 1024 + 1) })).expect(413);
      const id = (await post('/v2/notes', note({ content: 'x'.repeat(1024 * 1024) })).expect(200)).body.data.id.note_id;
      await patch(`/v2/notes/${id}`, { data: { format: 'plaintext', content: big } }).expect(413);
    });
  });

  describe('list paging', () => {
    let p: TestWorkspace;
    let alice: string;
    let bob: string;
    const ids = (res: { body: { data: Array<{ id: { note_id: string } }> } }) => res.body.data.map((n) => n.id.note_id);

    beforeAll(async () => {
      p = await t.createWorkspace('notes-paging');
      alice = await createRecord('people', { email_addresses: ['alice@example.com'] }, p.token);
      bob = await createRecord('people', { email_addresses: ['bob@example.com'] }, p.token);
      for (let i = 0; i < 23; i++) {
        const created_at = new Date(Date.UTC(2025, 0, 1, 0, i)).toISOString();
        await post('/v2/notes', note({ parent_record_id: i % 3 === 0 ? bob : alice, title: `n${i}`, created_at }), p.token).expect(200);
      }
    });

    it('pages with limit/offset in created_at order: default 10, next = offset + limit, a short page is the last', async () => {
      const first = await get('/v2/notes', p.token).expect(200);
      expect(first.body.data).toHaveLength(10);
      expect(first.body.data.map((n: { title: string }) => n.title)).toEqual(['n0', 'n1', 'n2', 'n3', 'n4', 'n5', 'n6', 'n7', 'n8', 'n9']);
      const seen: string[] = [];
      let offset = 0;
      for (;;) {
        const page = await get(`/v2/notes?limit=7&offset=${offset}`, p.token).expect(200);
        seen.push(...ids(page));
        if (page.body.data.length < 7) break;
        offset += 7;
      }
      expect(seen).toHaveLength(23);
      expect(new Set(seen).size).toBe(23);
      expect((await get('/v2/notes?limit=50', p.token).expect(200)).body.data).toHaveLength(23);
      expect((await get('/v2/notes?offset=100', p.token).expect(200)).body.data).toEqual([]);
    });

    it('filters by parent object and record', async () => {
      const bobs = await get(`/v2/notes?limit=50&parent_object=people&parent_record_id=${bob}`, p.token).expect(200);
      expect(bobs.body.data.map((n: { title: string }) => n.title)).toEqual(['n0', 'n3', 'n6', 'n9', 'n12', 'n15', 'n18', 'n21']);
      expect(bobs.body.data.every((n: { parent_record_id: string }) => n.parent_record_id === bob)).toBe(true);
      expect((await get(`/v2/notes?limit=3&offset=3&parent_object=people&parent_record_id=${alice}`, p.token).expect(200)).body.data.map((n: { title: string }) => n.title)).toEqual([
        'n5',
        'n7',
        'n8',
      ]);
      expect((await get('/v2/notes?limit=50&parent_object=people', p.token).expect(200)).body.data).toHaveLength(23);
      expect((await get('/v2/notes?limit=50&parent_object=companies', p.token).expect(200)).body.data).toEqual([]);
      expect((await get(`/v2/notes?parent_object=people&parent_record_id=${personId}`, p.token).expect(200)).body.data).toEqual([]);
      await get(`/v2/notes?parent_object=spaceships`, p.token).expect(404);
    });

    it('refuses out-of-range and malformed list parameters with a 400 naming them', async () => {
      const cases: Array<[string, string]> = [
        ['limit=0', 'limit'],
        ['limit=51', 'limit'],
        ['limit=-1', 'limit'],
        ['limit=ten', 'limit'],
        ['limit=1.5', 'limit'],
        ['offset=-1', 'offset'],
        ['offset=x', 'offset'],
        [`parent_record_id=${alice}`, 'parent_object'],
        ['parent_object=people&parent_record_id=nope', 'parent_record_id'],
        ['parent_object=', 'parent_object'],
        ['sort=created_at', 'sort'],
        // Only plain decimal integers; nothing is reinterpreted or clamped, and a huge offset is a 400, not a 500.
        ['limit=1e1', 'limit'],
        ['limit=0x10', 'limit'],
        ['limit=', 'limit'],
        ['limit=5&limit=6', 'limit'],
        ['offset=', 'offset'],
        ['offset=1e3', 'offset'],
        ['offset=2147483648', 'offset'],
        ['offset=100000000000000000000', 'offset'],
        ['parent_object=%00', 'parent_object'],
      ];
      await expectEachRefused(cases, (query) => get(`/v2/notes?${query}`, p.token));
      expect((await get('/v2/notes?limit=1', p.token).expect(200)).body.data).toHaveLength(1);
      await get('/v2/notes?limit=50&offset=0', p.token).expect(200);
      expect((await get('/v2/notes?offset=2147483647', p.token).expect(200)).body.data).toEqual([]);
    });
  });

  describe('scopes', () => {
    it('needs note:read + object_configuration:read + record_permission:read to read; note:read-write to write; delete needs note:read-write only', async () => {
      const id = (await post('/v2/notes', note()).expect(200)).body.data.id.note_id;
      const reader = await t.tokenFor(ws.workspaceId, [SCOPES.noteRead, SCOPES.objectConfigurationRead, SCOPES.recordPermissionRead]);
      const noObject = await t.tokenFor(ws.workspaceId, [SCOPES.noteReadWrite, SCOPES.recordPermissionRead]);
      const noRecord = await t.tokenFor(ws.workspaceId, [SCOPES.noteReadWrite, SCOPES.objectConfigurationRead]);
      const deleter = await t.tokenFor(ws.workspaceId, [SCOPES.noteReadWrite]);
      await get('/v2/notes', reader).expect(200);
      await get(`/v2/notes/${id}`, reader).expect(200);
      const denied = await post('/v2/notes', note(), reader).expect(403);
      expect(denied.body).toMatchObject({ status_code: 403, type: 'auth_error' });
      expect(denied.body.message).toContain('note:read-write');
      await patch(`/v2/notes/${id}`, { data: { title: 'x' } }, reader).expect(403);
      await del(`/v2/notes/${id}`, reader).expect(403);
      expect((await get('/v2/notes', noObject).expect(403)).body.message).toContain('object_configuration:read');
      expect((await post('/v2/notes', note(), noRecord).expect(403)).body.message).toContain('record_permission:read');
      await get(`/v2/notes/${id}`, deleter).expect(403);
      expect((await del(`/v2/notes/${id}`, deleter).expect(200)).body).toEqual({});
      await t.http().get('/v2/notes').expect(401);
      // note:read-write implies note:read.
      const writer = await t.tokenFor(ws.workspaceId, [SCOPES.noteReadWrite, SCOPES.objectConfigurationRead, SCOPES.recordPermissionRead]);
      const mine = (await post('/v2/notes', note(), writer).expect(200)).body.data.id.note_id;
      await get(`/v2/notes/${mine}`, writer).expect(200);
      await get('/v2/notes?limit=1', writer).expect(200);
      const noNote = await t.tokenFor(ws.workspaceId, [SCOPES.objectConfigurationRead, SCOPES.recordPermissionRead, SCOPES.meetingReadWrite]);
      expect((await get(`/v2/notes/${mine}`, noNote).expect(403)).body.message).toContain('note:read');
    });
  });

  describe('deleting the parent record', () => {
    const outbox = async (workspaceId: string, sinceId: string) =>
      (
        await t.app
          .get(DataSource)
          .query(`SELECT event_type, entity_id, actor, payload FROM event_outbox WHERE workspace_id = $1 AND id > $2::bigint ORDER BY id`, [workspaceId, sinceId])
      ).map((row: { event_type: string; entity_id: Record<string, string>; actor: unknown; payload: unknown }) => ({ type: row.event_type, id: row.entity_id, actor: row.actor, payload: row.payload }));
    const lastEventId = async (): Promise<string> =>
      (await t.app.get(DataSource).query(`SELECT coalesce(max(id), 0)::text AS id FROM event_outbox`))[0].id as string;
    const person = async (email: string) => createRecord('people', { email_addresses: [email] });

    it('deletes the notes of a deleted person and records one note.deleted per note, with the deleting actor', async () => {
      const temp = await person('temp@example.com');
      const keep = await person('keep@example.com');
      const first = (await post('/v2/notes', note({ parent_record_id: temp, title: 'One' })).expect(200)).body.data.id.note_id;
      const second = (await post('/v2/notes', note({ parent_record_id: temp, title: 'Two' })).expect(200)).body.data.id.note_id;
      const other = (await post('/v2/notes', note({ parent_record_id: keep, title: 'Kept' })).expect(200)).body.data.id.note_id;
      // Another token (another actor) than the one that wrote the notes deletes the person.
      const deleter = await t.tokenFor(ws.workspaceId, [SCOPES.recordPermissionReadWrite, SCOPES.objectConfigurationRead]);
      const since = await lastEventId();
      await del(`/v2/objects/people/records/${temp}`, deleter).expect(200);

      const recorded = await outbox(ws.workspaceId, since);
      const recordDeleted = recorded.find((e: { type: string }) => e.type === 'record.deleted');
      expect(recordDeleted?.id).toEqual({ workspace_id: ws.workspaceId, object_id: peopleObjectId, record_id: temp });
      const noteDeleted = recorded.filter((e: { type: string }) => e.type === 'note.deleted');
      expect(noteDeleted).toEqual(
        [first, second].map((noteId) => ({
          type: 'note.deleted',
          id: { workspace_id: ws.workspaceId, note_id: noteId },
          actor: recordDeleted?.actor,
          payload: { parent_object_id: peopleObjectId, parent_record_id: temp },
        })),
      );
      expect(recordDeleted?.actor).toEqual({ type: 'api-token', id: expect.any(String) });
      expect(recordDeleted?.actor).not.toEqual((await events(ws.workspaceId, first))[0].actor);
      await get(`/v2/notes/${first}`).expect(404);
      await get(`/v2/notes/${second}`).expect(404);
      await get(`/v2/notes/${other}`).expect(200);
      const [{ n }] = await t.app.get(DataSource).query(`SELECT count(*)::int AS n FROM notes WHERE workspace_id = $1 AND parent_record_id = $2`, [ws.workspaceId, temp]);
      expect(n).toBe(0);
    });

    it('records no note event when the deleted record has no notes, and deletes company notes too', async () => {
      const bare = await person('bare@example.com');
      let since = await lastEventId();
      await del(`/v2/objects/people/records/${bare}`).expect(200);
      expect((await outbox(ws.workspaceId, since)).map((e: { type: string }) => e.type)).toEqual(['record.deleted']);

      const company = await createRecord('companies', { name: 'Gone Inc' });
      const noteId = (await post('/v2/notes', note({ parent_object: 'companies', parent_record_id: company })).expect(200)).body.data.id.note_id;
      since = await lastEventId();
      await del(`/v2/objects/companies/records/${company}`).expect(200);
      const recorded = await outbox(ws.workspaceId, since);
      expect(recorded.map((e: { type: string }) => e.type).sort()).toEqual(['note.deleted', 'record.deleted']);
      expect(recorded.find((e: { type: string }) => e.type === 'note.deleted')?.id).toEqual({ workspace_id: ws.workspaceId, note_id: noteId });
      await get(`/v2/notes/${noteId}`).expect(404);
    });

    it("a refused delete (unknown record, another workspace's record) deletes no notes and records nothing", async () => {
      const theirs = await createRecord('people', { email_addresses: ['theirs@example.com'] }, other.token);
      const theirNote = (await post('/v2/notes', note({ parent_record_id: theirs }), other.token).expect(200)).body.data.id.note_id;
      const since = await lastEventId();
      await del(`/v2/objects/people/records/${theirs}`).expect(404);
      await del('/v2/objects/people/records/00000000-0000-4000-8000-000000000000').expect(404);
      await get(`/v2/notes/${theirNote}`, other.token).expect(200);
      expect(await outbox(ws.workspaceId, since)).toEqual([]);
      expect(await outbox(other.workspaceId, since)).toEqual([]);
    });
  });

  it('documents every notes operation in OpenAPI with its scopes and errors', async () => {
    const doc = (await t.http().get('/openapi.json').expect(200)).body;
    const expected: Array<[string, string, string[], string[]]> = [
      ['/v2/notes', 'get', ['note:read', 'object_configuration:read', 'record_permission:read'], ['400', '401', '403', '404']],
      ['/v2/notes', 'post', ['note:read-write', 'object_configuration:read', 'record_permission:read'], ['400', '401', '403', '404', '413']],
      ['/v2/notes/{note_id}', 'get', ['note:read', 'object_configuration:read', 'record_permission:read'], ['401', '403', '404']],
      ['/v2/notes/{note_id}', 'patch', ['note:read-write', 'object_configuration:read', 'record_permission:read'], ['400', '401', '403', '404', '413']],
      ['/v2/notes/{note_id}', 'delete', ['note:read-write'], ['401', '403', '404']],
    ];
    for (const [path, method, scopes, statuses] of expected) {
      const operation = doc.paths[path]?.[method];
      expect({ path, method, scopes: operation?.['x-required-scopes'] }).toEqual({ path, method, scopes });
      for (const status of ['200', ...statuses]) expect({ path, method, status, documented: Boolean(operation.responses[status]) }).toEqual({ path, method, status, documented: true });
    }
  });
});
