import { SCOPES } from '@workbase/shared/kernel';
import { TrashRetention } from '@workbase/trash';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { captureStatement } from '../../libs/trash/src/domain/trash-plan';
import { bearer, bearerRequests, expectEachRefused } from '../support/requests';
import { useTestApp, useWorkspace } from '../support/suite';

/**
 * The trash (issue 31 part 1): DELETE of a record, entry, note, task or comment keeps what it
 * removed; `GET /v2/trash` lists it, `POST /v2/trash/{kind}/{id}/restore` brings it back with its
 * ids and what went with it (or 409 when a unique value was taken meanwhile, restoring nothing),
 * `DELETE /v2/trash/{kind}/{id}` and the retention sweep remove it for good.
 */
describe('trash', () => {
  const t = useTestApp({ env: { TRASH_RETENTION_DAYS: '30' } });
  const ws = useWorkspace(t, 'trash');
  const other = useWorkspace(t, 'trash-other');
  const { get, post, del, createRecord } = bearerRequests(() => t, () => ws.token);
  const db = () => t.app.get(DataSource);
  let adaId: string;

  beforeAll(async () => {
    adaId = await t.createMember(ws.workspaceId, 'ada@trash.example');
    await post('/v2/lists', { data: { name: 'Hiring', api_slug: 'hiring', parent_object: 'people' } }).expect(200);
  });

  /** Every row of every table that a trashed item of this kind holds, as the trash reads them. */
  const rowsOf = async (kind: 'records' | 'entries' | 'notes' | 'tasks' | 'comments', id: string) =>
    ((await db().query(captureStatement(kind), [ws.workspaceId, id])) as Array<{ rows: Record<string, unknown[]> }>)[0].rows;
  const eventsSince = async (seq: string) =>
    (
      (await db().query(`SELECT event_type, entity_id, actor FROM event_outbox WHERE workspace_id = $1 AND id > $2 ORDER BY id`, [ws.workspaceId, seq])) as Array<{
        event_type: string;
        entity_id: Record<string, string>;
        actor: { type: string; id: string };
      }>
    ).map((row) => ({ type: row.event_type, id: row.entity_id, actor: row.actor }));
  const lastEvent = async () => String((await db().query(`SELECT coalesce(max(id), 0) AS id FROM event_outbox`))[0].id);
  const trashCount = async (id: string) => Number((await db().query(`SELECT count(*) AS n FROM trash_items WHERE id = $1`, [id]))[0].n);

  /** A person with an entry, a note, a thread on the record and one on the entry, a linked task, a folder with an upload, and a company pointing at them. */
  async function personWithEverything(email: string) {
    const personId = await createRecord('people', { name: 'Lovelace, Ada', email_addresses: [email], job_title: 'Analyst' });
    const entryId = (await post('/v2/lists/hiring/entries', { data: { parent_record_id: personId, parent_object: 'people', entry_values: {} } }).expect(200)).body.data.id.entry_id as string;
    const noteId = (await post('/v2/notes', { data: { parent_object: 'people', parent_record_id: personId, title: 'Intro', format: 'plaintext', content: 'Met at the conference' } }).expect(200)).body.data.id
      .note_id as string;
    const author = { type: 'workspace-member', id: adaId };
    const head = (await post('/v2/comments', { data: { format: 'plaintext', content: 'Call her', author, record: { object: 'people', record_id: personId } } }).expect(200)).body.data;
    const reply = (await post('/v2/comments', { data: { format: 'plaintext', content: 'Done', thread_id: head.thread_id } }).expect(200)).body.data;
    const onEntry = (await post('/v2/comments', { data: { format: 'plaintext', content: 'Strong', author, entry: { list: 'hiring', entry_id: entryId } } }).expect(200)).body.data;
    const taskId = (
      await post('/v2/tasks', {
        data: { content: 'Follow up', format: 'plaintext', deadline_at: null, is_completed: false, linked_records: [{ target_object: 'people', target_record_id: personId }], assignees: [] },
      }).expect(200)
    ).body.data.id.task_id as string;
    const folderId = (await post('/v2/files', { object: 'people', record_id: personId, file_type: 'folder', name: 'CV' }).expect(200)).body.data.id.file_id as string;
    const fileId = (
      await t
        .http()
        .post('/v2/files/upload')
        .set(bearer(ws.token))
        .field('object', 'people')
        .field('record_id', personId)
        .field('parent_folder_id', folderId)
        .attach('file', Buffer.from('the bytes of a CV'), { filename: 'cv.txt', contentType: 'text/plain' })
        .expect(201)
    ).body.data.id.file_id as string;
    const companyId = await createRecord('companies', { name: `Employer of ${email}`, team: [{ target_object: 'people', target_record_id: personId }] });
    return { personId, entryId, noteId, head, reply, onEntry, taskId, folderId, fileId, companyId };
  }

  describe('records', () => {
    it('moves a record and everything on it to the trash, frees its unique values, answers 404 to reads, and lists it with who deleted it', async () => {
      const p = await personWithEverything('ada@lovelace.example');
      const before = await rowsOf('records', p.personId);
      expect(before.records).toHaveLength(2); // the record and its entry
      expect(before.file_chunks.length).toBeGreaterThan(0);
      const seq = await lastEvent();

      await del(`/v2/objects/people/records/${p.personId}`).expect(200);

      // The reference semantics: a deleted record is a 404, and so is what hung off it.
      await get(`/v2/objects/people/records/${p.personId}`).expect(404);
      await get(`/v2/lists/hiring/entries/${p.entryId}`).expect(404);
      await get(`/v2/notes/${p.noteId}`).expect(404);
      await get(`/v2/comments/${p.head.id.comment_id}`).expect(404);
      await get(`/v2/files/${p.fileId}`).expect(404);
      expect((await get(`/v2/tasks/${p.taskId}`).expect(200)).body.data.linked_records).toEqual([]);
      const team = (await get(`/v2/objects/companies/records/${p.companyId}`).expect(200)).body.data.values.team;
      expect(team).toEqual([]);
      const queried = await post('/v2/objects/people/records/query', { filter: { email_addresses: 'ada@lovelace.example' } }).expect(200);
      expect(queried.body.data).toEqual([]);
      // Nor in SQL; and the trash itself is no table SQL can read.
      const sqlIds = async () => (await post('/v2/sql', { sql: 'SELECT record_id FROM people' }).expect(200)).body.data.rows.map((r: { record_id: string }) => r.record_id);
      expect(await sqlIds()).not.toContain(p.personId);
      const sandboxed = await post('/v2/sql', { sql: 'SELECT * FROM public.trash_items' });
      expect(sandboxed.status).toBeGreaterThanOrEqual(400);
      expect(sandboxed.status).toBeLessThan(500);
      // Nothing of it is left in the live tables.
      const after = await rowsOf('records', p.personId);
      expect(Object.values(after).every((rows) => rows.length === 0)).toBe(true);

      // The usual deleted events.
      const deleted = (await eventsSince(seq)).map((e) => e.type);
      expect(deleted).toEqual(expect.arrayContaining(['record.deleted', 'list-entry.deleted', 'note.deleted', 'comment.deleted']));

      const listed = await get('/v2/trash?object=people').expect(200);
      expect(listed.body.data).toContainEqual({
        kind: 'records',
        id: p.personId,
        container_id: (await get('/v2/objects/people').expect(200)).body.data.id.object_id,
        deleted_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        deleted_by: { type: 'api-token', id: expect.any(String) },
        expires_at: expect.any(String),
      });
      const item = listed.body.data.find((i: { id: string }) => i.id === p.personId);
      expect(Date.parse(item.expires_at) - Date.parse(item.deleted_at)).toBe(30 * 86400_000);

      // The unique value is free: another record may take it.
      const taker = await createRecord('people', { email_addresses: ['ada@lovelace.example'] });

      // ...and then the restore is a 409 naming the attribute and the holder, and restores nothing.
      const conflict = await post(`/v2/trash/records/${p.personId}/restore`, {}).expect(409);
      expect(conflict.body).toMatchObject({ status_code: 409, code: 'uniqueness_conflict' });
      expect(conflict.body.message).toContain('email_addresses');
      expect(conflict.body.message).toContain(taker);
      await get(`/v2/objects/people/records/${p.personId}`).expect(404);
      expect(await trashCount(p.personId)).toBe(1);

      // A value claimed by a transaction that commits while the restore waits on it (after the
      // restore's check, before its insert) is the same 409, naming the holder; never a 500.
      const racer = await createRecord('people', { email_addresses: ['racer@lovelace.example'] });
      const [claim] = await db().query(`SELECT attribute_id, value_key FROM unique_values WHERE workspace_id = $1 AND record_id = $2`, [ws.workspaceId, taker]);
      await del(`/v2/objects/people/records/${taker}`).expect(200);
      const holder = new Client({ connectionString: t.database.url });
      await holder.connect();
      try {
        await holder.query('BEGIN');
        await holder.query(`UPDATE unique_values SET value_key = $1 WHERE workspace_id = $2 AND record_id = $3 AND attribute_id = $4`, [claim.value_key, ws.workspaceId, racer, claim.attribute_id]);
        const raced = post(`/v2/trash/records/${p.personId}/restore`, {}).then((res) => res);
        // Commit only once the restore's insert waits on the uncommitted claim.
        const deadline = Date.now() + 20_000;
        while (Number((await db().query(`SELECT count(*) AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%unique_values%'`))[0].n) === 0) {
          if (Date.now() > deadline) throw new Error('the restore never waited on the claim');
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        await holder.query('COMMIT');
        const answer = await raced;
        expect(answer.status).toBe(409);
        expect(answer.body).toMatchObject({ code: 'uniqueness_conflict' });
        expect(answer.body.message).toContain(racer);
      } finally {
        await holder.end();
      }
      expect(await trashCount(p.personId)).toBe(1);
      await del(`/v2/objects/people/records/${racer}`).expect(200);

      // Once the holder is gone (to the trash too), the restore brings back every row as it was.
      const beforeRestore = await lastEvent();
      await post(`/v2/trash/records/${p.personId}/restore`, {}).expect(200).expect({});
      expect(await rowsOf('records', p.personId)).toEqual(before);
      expect(await trashCount(p.personId)).toBe(0);
      const person = (await get(`/v2/objects/people/records/${p.personId}`).expect(200)).body.data;
      expect(person.values.email_addresses[0].email_address).toBe('ada@lovelace.example');
      await get(`/v2/lists/hiring/entries/${p.entryId}`).expect(200);
      await get(`/v2/notes/${p.noteId}`).expect(200);
      await get(`/v2/comments/${p.reply.id.comment_id}`).expect(200);
      await get(`/v2/comments/${p.onEntry.id.comment_id}`).expect(200);
      await get(`/v2/files/${p.fileId}`).expect(200);
      expect(await sqlIds()).toContain(p.personId);
      expect((await get(`/v2/tasks/${p.taskId}`).expect(200)).body.data.linked_records).toEqual([{ target_object_id: expect.any(String), target_record_id: p.personId }]);
      // The reference the delete closed is open again.
      const teamAgain = (await get(`/v2/objects/companies/records/${p.companyId}`).expect(200)).body.data.values.team;
      expect(teamAgain.map((v: { target_record_id: string }) => v.target_record_id)).toEqual([p.personId]);
      // The created events of everything that came back, by the restoring token.
      const restored = await eventsSince(beforeRestore);
      expect(restored.map((e) => e.type).sort()).toEqual(['comment.created', 'comment.created', 'comment.created', 'list-entry.created', 'note.created', 'record.created']);
      expect(restored.find((e) => e.type === 'record.created')?.id).toMatchObject({ workspace_id: ws.workspaceId, record_id: p.personId });
      expect(restored.every((e) => e.actor.type === 'api-token')).toBe(true);
    });

    it('a restored person is linked again from the meeting participants its delete unlinked (ON DELETE SET NULL)', async () => {
      const personId = await createRecord('people', { name: 'Hamilton, Margaret', email_addresses: ['margaret@trash.example'] });
      const meetingBody = (participants: Array<Record<string, unknown>>) => ({
        data: {
          title: 'Review',
          description: '',
          is_all_day: false,
          start: { datetime: '2026-03-02T15:00:00Z', timezone: null },
          end: { datetime: '2026-03-02T16:00:00Z', timezone: null },
          participants: participants.map((p, i) => ({ is_organizer: i === 0, status: 'accepted', ...p })),
        },
      });
      const meeting = (await post('/v2/meetings', meetingBody([{ email_address: 'someone@trash.example', name: 'Host' }, { email_address: 'Margaret@Trash.example', name: 'Margaret' }])).expect(200)).body.data;
      const meetingId = meeting.id.meeting_id as string;
      const links = async () =>
        (await db().query(`SELECT position, person_record_id FROM meeting_participants WHERE workspace_id = $1 AND meeting_id = $2 ORDER BY position`, [ws.workspaceId, meetingId])) as Array<{
          position: number;
          person_record_id: string | null;
        }>;
      const linked = await links();
      expect(linked[1]).toEqual({ position: 1, person_record_id: personId });
      const before = await rowsOf('records', personId);

      await del(`/v2/objects/people/records/${personId}`).expect(200);
      expect((await links())[1].person_record_id).toBeNull();
      await post(`/v2/trash/records/${personId}/restore`, {}).expect(200);
      expect(await links()).toEqual(linked);
      expect(await rowsOf('records', personId)).toEqual(before);
      expect(before.meeting_participants).toHaveLength(1);
      const shown = (await get(`/v2/meetings/${meetingId}`).expect(200)).body.data;
      expect(shown.participants).toEqual(meeting.participants);
      expect(shown.linked_records).toEqual(meeting.linked_records);
      expect(shown.linked_records.map((l: { record_id: string }) => l.record_id)).toContain(personId);
    });

    it('removes a trashed record for good, with its S3-free bytes, and then it cannot be restored', async () => {
      const p = await personWithEverything('gone@lovelace.example');
      await del(`/v2/objects/people/records/${p.personId}`).expect(200);
      await del(`/v2/trash/records/${p.personId}`).expect(200).expect({});
      expect(await trashCount(p.personId)).toBe(0);
      await post(`/v2/trash/records/${p.personId}/restore`, {}).expect(404);
      await del(`/v2/trash/records/${p.personId}`).expect(404);
      expect((await db().query(`SELECT count(*) AS n FROM file_chunks WHERE file_id = $1`, [p.fileId]))[0].n).toBe('0');
    });
  });

  describe('entries, notes, tasks and comments', () => {
    it('trashes and restores an entry with its comments; a restore whose parent record is gone is a 412', async () => {
      const personId = await createRecord('people', { name: 'Hopper, Grace' });
      const entryId = (await post('/v2/lists/hiring/entries', { data: { parent_record_id: personId, parent_object: 'people', entry_values: {} } }).expect(200)).body.data.id.entry_id as string;
      const comment = (await post('/v2/comments', { data: { format: 'plaintext', content: 'Hire', author: { type: 'workspace-member', id: adaId }, entry: { list: 'hiring', entry_id: entryId } } }).expect(200))
        .body.data;
      const before = await rowsOf('entries', entryId);
      await del(`/v2/lists/hiring/entries/${entryId}`).expect(200);
      await get(`/v2/lists/hiring/entries/${entryId}`).expect(404);
      const listed = (await get('/v2/trash?list=hiring').expect(200)).body.data.map((i: { id: string }) => i.id);
      expect(listed).toContain(entryId);
      const seq = await lastEvent();
      await post(`/v2/trash/entries/${entryId}/restore`, {}).expect(200);
      expect(await rowsOf('entries', entryId)).toEqual(before);
      await get(`/v2/comments/${comment.id.comment_id}`).expect(200);
      expect((await eventsSince(seq)).map((e) => [e.type, e.id])).toEqual([
        ['list-entry.created', { workspace_id: ws.workspaceId, list_id: expect.any(String), entry_id: entryId }],
        ['comment.created', { workspace_id: ws.workspaceId, comment_id: comment.id.comment_id }],
      ]);

      // Entry trashed, then its record: the entry cannot come back before the record.
      await del(`/v2/lists/hiring/entries/${entryId}`).expect(200);
      await del(`/v2/objects/people/records/${personId}`).expect(200);
      const refused = await post(`/v2/trash/entries/${entryId}/restore`, {}).expect(412);
      expect(refused.body.message).toContain(personId);
      expect(await trashCount(entryId)).toBe(1);
      await post(`/v2/trash/records/${personId}/restore`, {}).expect(200);
      await post(`/v2/trash/entries/${entryId}/restore`, {}).expect(200);
      await get(`/v2/lists/hiring/entries/${entryId}`).expect(200);
    });

    it('trashes and restores a note, a task with its links and assignees, and comments (a reply alone, a head with its thread)', async () => {
      const personId = await createRecord('people', { name: 'Turing, Alan' });
      const noteId = (await post('/v2/notes', { data: { parent_object: 'people', parent_record_id: personId, title: 'T', format: 'plaintext', content: 'x' } }).expect(200)).body.data.id.note_id;
      const task = (
        await post('/v2/tasks', {
          data: {
            content: 'Call',
            format: 'plaintext',
            deadline_at: null,
            is_completed: false,
            linked_records: [{ target_object: 'people', target_record_id: personId }],
            assignees: [{ referenced_actor_type: 'workspace-member', referenced_actor_id: adaId }],
          },
        }).expect(200)
      ).body.data;
      const taskId = task.id.task_id as string;
      const head = (await post('/v2/comments', { data: { format: 'plaintext', content: 'Head', author: { type: 'workspace-member', id: adaId }, record: { object: 'people', record_id: personId } } }).expect(200)).body
        .data;
      const reply = (await post('/v2/comments', { data: { format: 'plaintext', content: 'Reply', thread_id: head.thread_id } }).expect(200)).body.data;

      for (const [kind, id, path, created] of [
        ['notes', noteId, `/v2/notes/${noteId}`, 'note.created'],
        ['tasks', taskId, `/v2/tasks/${taskId}`, 'task.created'],
        ['comments', reply.id.comment_id, `/v2/comments/${reply.id.comment_id}`, 'comment.created'],
      ] as const) {
        const before = await rowsOf(kind, id);
        const shown = (await get(path).expect(200)).body;
        await del(path).expect(200);
        await get(path).expect(404);
        expect((await get(`/v2/trash?kind=${kind}`).expect(200)).body.data.map((i: { id: string }) => i.id)).toContain(id);
        const seq = await lastEvent();
        await post(`/v2/trash/${kind}/${id}/restore`, {}).expect(200);
        expect({ kind, rows: await rowsOf(kind, id) }).toEqual({ kind, rows: before });
        expect((await get(path).expect(200)).body).toEqual(shown);
        expect((await eventsSince(seq)).map((e) => e.type)).toEqual([created]);
      }

      // Deleting a thread's first comment takes the thread; restoring it brings both comments back.
      await del(`/v2/comments/${head.id.comment_id}`).expect(200);
      await get(`/v2/comments/${reply.id.comment_id}`).expect(404);
      const seq = await lastEvent();
      await post(`/v2/trash/comments/${head.id.comment_id}/restore`, {}).expect(200);
      await get(`/v2/comments/${reply.id.comment_id}`).expect(200);
      expect((await eventsSince(seq)).map((e) => e.type)).toEqual(['comment.created', 'comment.created']);

      // A note whose record is gone waits for the record.
      await del(`/v2/notes/${noteId}`).expect(200);
      await del(`/v2/objects/people/records/${personId}`).expect(200);
      await post(`/v2/trash/notes/${noteId}/restore`, {}).expect(412);
      // A task comes back without its link to a record that is gone.
      await del(`/v2/tasks/${taskId}`).expect(200);
      await post(`/v2/trash/tasks/${taskId}/restore`, {}).expect(200);
      const back = (await get(`/v2/tasks/${taskId}`).expect(200)).body.data;
      expect(back.linked_records).toEqual([]);
      expect(back.assignees).toEqual(task.assignees);
    });
    it('a note or task deleted while an update of it commits is kept as that update left it (the delete locks it before copying it)', async () => {
      const personId = await createRecord('people', { name: 'Hopper, Grace' });
      const noteId = (await post('/v2/notes', { data: { parent_object: 'people', parent_record_id: personId, title: 'Draft', format: 'plaintext', content: 'before' } }).expect(200)).body.data.id.note_id as string;
      const taskId = (
        await post('/v2/tasks', {
          data: { content: 'Ship', format: 'plaintext', deadline_at: null, is_completed: false, linked_records: [{ target_object: 'people', target_record_id: personId }], assignees: [] },
        }).expect(200)
      ).body.data.id.task_id as string;
      // What an update holds until it commits (the update use cases lock the row first, then write it and its links).
      const updates = [
        { kind: 'notes', id: noteId, path: `/v2/notes/${noteId}`, statements: [`UPDATE notes SET title = 'Final', content_plaintext = 'after', content_markdown = 'after' WHERE workspace_id = $1 AND id = $2`] },
        {
          kind: 'tasks',
          id: taskId,
          path: `/v2/tasks/${taskId}`,
          statements: [`UPDATE tasks SET is_completed = true, completed_at = clock_timestamp() WHERE workspace_id = $1 AND id = $2`, `DELETE FROM task_linked_records WHERE workspace_id = $1 AND task_id = $2`],
        },
      ] as const;
      for (const { kind, id, path, statements } of updates) {
        const updater = new Client({ connectionString: t.database.url });
        await updater.connect();
        try {
          await updater.query('BEGIN');
          for (const statement of statements) await updater.query(statement, [ws.workspaceId, id]);
          const deleting = del(path).then((res) => res);
          // Commit the update only once the delete waits on its row.
          const deadline = Date.now() + 20_000;
          const waiting = async () =>
            Number((await db().query(`SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE $1`, [`%FROM ${kind}%`]))[0].n);
          while ((await waiting()) === 0) {
            if (Date.now() > deadline) throw new Error(`the delete of the ${kind} never waited on the update`);
            await new Promise((resolve) => setTimeout(resolve, 20));
          }
          await updater.query('COMMIT');
          expect((await deleting).status).toBe(200);
        } finally {
          await updater.end();
        }
        await get(path).expect(404);
        await post(`/v2/trash/${kind}/${id}/restore`, {}).expect(200);
      }
      const note = (await get(`/v2/notes/${noteId}`).expect(200)).body.data;
      expect({ title: note.title, content: note.content_plaintext }).toEqual({ title: 'Final', content: 'after' });
      const task = (await get(`/v2/tasks/${taskId}`).expect(200)).body.data;
      expect({ completed: task.is_completed, links: task.linked_records }).toEqual({ completed: true, links: [] });
    });
  });

  describe('access and inputs', () => {
    it("answers 404 to another workspace's trash items and lists only the workspace's own", async () => {
      const personId = await createRecord('people', { name: 'Private, Person' });
      await del(`/v2/objects/people/records/${personId}`).expect(200);
      const theirs = bearerRequests(() => t, () => other.token);
      await theirs.post(`/v2/trash/records/${personId}/restore`, {}).expect(404);
      await theirs.del(`/v2/trash/records/${personId}`).expect(404);
      expect((await theirs.get('/v2/trash?object=people').expect(200)).body.data).toEqual([]);
      expect(await trashCount(personId)).toBe(1);
      // The kind is part of the address: a record is not in the trash of notes.
      await post(`/v2/trash/notes/${personId}/restore`, {}).expect(404);
    });

    it("needs the deleted kind's scopes", async () => {
      const personId = await createRecord('people', { name: 'Scoped, Person' });
      await del(`/v2/objects/people/records/${personId}`).expect(200);
      const notesOnly = await t.tokenFor(ws.workspaceId, [SCOPES.noteReadWrite]);
      const readOnly = await t.tokenFor(ws.workspaceId, [SCOPES.recordPermissionRead, SCOPES.objectConfigurationRead]);
      expect((await post(`/v2/trash/records/${personId}/restore`, {}, notesOnly).expect(403)).body.message).toContain('record_permission:read-write');
      await post(`/v2/trash/records/${personId}/restore`, {}, readOnly).expect(403);
      await del(`/v2/trash/records/${personId}`, readOnly).expect(403);
      expect((await get('/v2/trash?object=people', notesOnly).expect(403)).body.message).toContain('record_permission:read');
      await get('/v2/trash?kind=notes', notesOnly).expect(200);
      await get('/v2/trash?object=people', readOnly).expect(200);
      expect(await trashCount(personId)).toBe(1);
    });

    it('refuses bad inputs with a 4xx naming the field', async () => {
      await expectEachRefused(
        [
          ['/v2/trash', 'kind'],
          ['/v2/trash?object=people&kind=notes', 'kind'],
          ['/v2/trash?kind=widgets', 'kind'],
          ['/v2/trash?kind=notes&cursor=garbage', 'cursor'],
          ['/v2/trash?kind=notes&limit=0', 'limit'],
        ] as const,
        (path) => get(path),
      );
      const unknown = await post(`/v2/trash/widgets/${ws.workspaceId}/restore`, {}).expect(400);
      expect(unknown.body.message).toContain('kind');
      expect((await del(`/v2/trash/widgets/${ws.workspaceId}`).expect(400)).body.message).toContain('kind');
      expect((await post('/v2/trash/records/not-a-uuid/restore', {}).expect(404)).body.message).toContain('id');
      await get('/v2/trash?object=martians').expect(404);
    });

    it('pages the trash newest first with a cursor bound to the filter', async () => {
      const ids: string[] = [];
      for (const name of ['Page, One', 'Page, Two', 'Page, Three']) {
        const id = await createRecord('companies', { name });
        await del(`/v2/objects/companies/records/${id}`).expect(200);
        ids.push(id);
      }
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page: { body: { data: Array<{ id: string }>; pagination: { next_cursor: string | null } } } = await get(`/v2/trash?object=companies&limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`).expect(200);
        seen.push(...page.body.data.map((i) => i.id));
        cursor = page.body.pagination.next_cursor;
        if (cursor) await get(`/v2/trash?object=people&limit=2&cursor=${encodeURIComponent(cursor)}`).expect(400);
      } while (cursor);
      expect(seen.filter((id) => ids.includes(id))).toEqual([...ids].reverse());
    });
  });

  describe('retention', () => {
    it('empties items deleted more than TRASH_RETENTION_DAYS ago, and only those', async () => {
      const old = await createRecord('people', { name: 'Old, Item' });
      const young = await createRecord('people', { name: 'Young, Item' });
      await del(`/v2/objects/people/records/${old}`).expect(200);
      await del(`/v2/objects/people/records/${young}`).expect(200);
      await db().query(`UPDATE trash_items SET deleted_at = deleted_at - interval '31 days' WHERE id = $1`, [old]);
      expect(await t.app.get(TrashRetention).sweep()).toBeGreaterThanOrEqual(1);
      expect(await trashCount(old)).toBe(0);
      expect(await trashCount(young)).toBe(1);
      await post(`/v2/trash/records/${old}/restore`, {}).expect(404);
      await post(`/v2/trash/records/${young}/restore`, {}).expect(200);
    });
  });
});
