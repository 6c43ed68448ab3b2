import { CursorCodec } from '@workbase/shared/http';
import { EVENT_TYPES, SCOPES } from '@workbase/shared/kernel';
import { DataSource } from 'typeorm';
import { bearerRequests, expectEachRefused } from '../support/requests';
import { useTestApp, useWorkspace } from '../support/suite';
import { type FeedEvent, feedReader, holdHorizon } from './events.helpers';

describe('change feed (GET /v2/events)', () => {
  const t = useTestApp();
  const ws = useWorkspace(t, 'feed');
  const other = useWorkspace(t, 'feed-other');
  const { get, post, patch, createRecord, objectId } = bearerRequests(() => t, () => ws.token);
  const db = () => t.app.get(DataSource);
  const dbNow = async () => new Date((await db().query(`SELECT clock_timestamp() AS now`))[0].now as string);

  let peopleId: string;
  let personId: string;
  let noteId: string;
  let taskId: string;

  beforeAll(async () => {
    peopleId = await objectId('people');
    personId = await createRecord('people', { name: 'Lovelace, Ada' });
    await patch(`/v2/objects/people/records/${personId}`, { data: { values: { job_title: 'Analyst' } } }).expect(200);
    noteId = (await post('/v2/notes', { data: { parent_object: 'people', parent_record_id: personId, title: 'Intro', format: 'plaintext', content: 'Hello' } }).expect(200)).body.data.id.note_id;
    taskId = (await post('/v2/tasks', { data: { content: 'Call back', format: 'plaintext', deadline_at: null, is_completed: false, linked_records: [], assignees: [] } }).expect(200)).body.data.id.task_id;
    await createRecord('people', { name: 'Other, Eve' }, other.token);
  });

  const mine = (events: readonly FeedEvent[]) => events.filter((e) => e.id.record_id === personId || e.id.note_id === noteId || e.id.task_id === taskId);
  const hasAll = (events: readonly FeedEvent[]) => mine(events).length >= 4;

  it('answers the workspace\'s events oldest first in the webhook wire shape, with event_id and occurred_at, exactly as the outbox holds them', async () => {
    const reader = feedReader(() => t, () => ws.token, { limit: 1000 });
    const events = await reader.until(hasAll);
    expect(mine(events).map((e) => e.event_type)).toEqual(['record.created', 'record.updated', 'note.created', 'task.created']);
    const created = events.find((e) => e.event_type === 'record.created' && e.id.record_id === personId)!;
    expect(Object.keys(created)).toEqual(['event_type', 'id', 'actor', 'event_id', 'occurred_at']);
    expect(created.id).toEqual({ workspace_id: ws.workspaceId, object_id: peopleId, record_id: personId });
    expect(Object.keys(created.id)).toEqual(['workspace_id', 'object_id', 'record_id']);
    expect(created.actor).toEqual({ type: 'api-token', id: expect.any(String) });
    const note = events.find((e) => e.event_type === 'note.created')!;
    expect(note).toMatchObject({ id: { workspace_id: ws.workspaceId, note_id: noteId }, parent_object_id: peopleId, parent_record_id: personId });

    // The same events, in the same order, as the outbox's commit order (tx_id, id) holds them.
    const stored = await db().query(`SELECT e.id::text, e.event_type, e.occurred_at FROM event_outbox e WHERE e.workspace_id = $1 ORDER BY e.tx_id, e.id`, [ws.workspaceId]);
    expect(events.map((e) => [e.event_id, e.event_type, e.occurred_at])).toEqual(stored.map((row: { id: string; event_type: string; occurred_at: Date }) => [row.id, row.event_type, row.occurred_at.toISOString()]));
    expect(events.every((e) => e.id.workspace_id === ws.workspaceId)).toBe(true);
  });

  it('never answers a null next_cursor: an empty page means caught up, and the same cursor then brings what commits later', async () => {
    const reader = feedReader(() => t, () => ws.token);
    await reader.until(hasAll);
    const caughtUp = reader.cursor!;
    const empty = await get(`/v2/events?cursor=${encodeURIComponent(caughtUp)}`).expect(200);
    expect(empty.body).toEqual({ data: [], pagination: { next_cursor: expect.any(String) } });
    const again = await get(`/v2/events?cursor=${encodeURIComponent(empty.body.pagination.next_cursor)}`).expect(200);
    expect(again.body.data).toEqual([]);

    const later = await createRecord('people', { name: 'Later, One' });
    const fresh = await reader.until((events) => events.some((e) => e.id.record_id === later));
    expect(fresh.filter((e) => e.id.record_id === later).map((e) => e.event_type)).toEqual(['record.created']);
    expect(new Set(fresh.map((e) => e.event_id)).size).toBe(fresh.length);
  });

  it('pages by limit (1 to 1000, default 100) without repeating or skipping an event', async () => {
    const all = await feedReader(() => t, () => ws.token, { limit: 1000 }).until(hasAll);
    const paged = feedReader(() => t, () => ws.token, { limit: 1 });
    await paged.until((events) => events.length >= all.length);
    expect(paged.events.slice(0, all.length).map((e) => e.event_id)).toEqual(all.map((e) => e.event_id));

    for (let i = 0; i < 3; i++) await createRecord('people', { name: `Bulk${i}, X` });
    const res = await get('/v2/events').expect(200);
    expect(res.body.data.length).toBeLessThanOrEqual(100);
    const two = await get('/v2/events?limit=2').expect(200);
    expect(two.body.data).toHaveLength(2);
    await get('/v2/events?limit=1000').expect(200);
    await expectEachRefused(
      [['0', 'limit'], ['1001', 'limit'], ['ten', 'limit'], ['1.5', 'limit'], ['-1', 'limit']],
      (limit) => get(`/v2/events?limit=${limit}`),
    );
  });

  it('filters by event_type, repeatable, and refuses unknown types naming event_type', async () => {
    const one = await feedReader(() => t, () => ws.token, { event_type: 'task.created' }).until((events) => events.length > 0);
    expect(one.map((e) => [e.event_type, e.id.task_id])).toEqual([['task.created', taskId]]);
    const two = await feedReader(() => t, () => ws.token, { event_type: ['note.created', 'record.updated'], limit: 1 }).until((events) => events.length >= 2);
    expect(two.map((e) => e.event_type).sort()).toEqual(['note.created', 'record.updated']);
    await expectEachRefused(
      [['record.archived', 'event_type'], ['', 'event_type'], ['RECORD.CREATED', 'event_type']],
      (type) => get(`/v2/events?event_type=${encodeURIComponent(type)}`),
    );
    const tooMany = EVENT_TYPES.flatMap((type) => [type, type]).map((type) => `event_type=${type}`).join('&');
    await expectEachRefused([[tooMany, 'event_type']], (query) => get(`/v2/events?${query}`));
  });

  it('binds a cursor to its workspace and event types, and refuses malformed, tampered or foreign cursors with a 400 naming cursor', async () => {
    const reader = feedReader(() => t, () => ws.token, { event_type: 'record.created' });
    await reader.until((events) => events.length > 0);
    const cursor = reader.cursor!;
    const [body, signature] = cursor.split('.');
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body, 'base64url').toString()), p: { tx: '0', id: '0' } })).toString('base64url');
    // Signed with the service's key, for the same query, but by another endpoint.
    const meetingsCursor = t.app.get(CursorCodec, { strict: false }).encode('meetings', { workspace: ws.workspaceId, event_type: ['record.created'] }, { tx: '0', id: '0' });
    await expectEachRefused(
      [
        ['not-a-cursor', 'cursor'],
        [`${body}.${signature.slice(0, -2)}AA`, 'cursor'],
        [`${forged}.${signature}`, 'cursor'],
        [`${body}x.${signature}`, 'cursor'],
        [meetingsCursor, 'cursor'],
      ],
      (bad) => get(`/v2/events?event_type=record.created&cursor=${encodeURIComponent(bad)}`),
    );
    // The same cursor with other event types, or in another workspace.
    await expectEachRefused([[cursor, 'cursor']], (c) => get(`/v2/events?event_type=task.created&cursor=${encodeURIComponent(c)}`));
    await expectEachRefused([[cursor, 'cursor']], (c) => get(`/v2/events?cursor=${encodeURIComponent(c)}`));
    await expectEachRefused([[cursor, 'cursor']], (c) => get(`/v2/events?event_type=record.created&cursor=${encodeURIComponent(c)}`, other.token));
    await expectEachRefused([['', 'cursor']], (c) => get(`/v2/events?cursor=${c}`));
    await expectEachRefused([[cursor, 'since']], (c) => get(`/v2/events?event_type=record.created&since=2026-01-01T00:00:00Z&cursor=${encodeURIComponent(c)}`));
  });

  it('shows each workspace only its own events', async () => {
    const theirs = await feedReader(() => t, () => other.token).until((events) => events.some((e) => e.event_type === 'record.created'));
    expect(theirs.every((e) => e.id.workspace_id === other.workspaceId)).toBe(true);
    const ours = await feedReader(() => t, () => ws.token, { limit: 1000 }).until(hasAll);
    expect(ours.every((e) => e.id.workspace_id === ws.workspaceId)).toBe(true);
    const theirIds = new Set(theirs.map((e) => e.event_id));
    expect(ours.filter((e) => theirIds.has(e.event_id))).toEqual([]);
  });

  it('holds an event back while an older transaction anywhere on the database runs, and shows it, in order, once that one ends', async () => {
    const reader = feedReader(() => t, () => ws.token, { event_type: 'record.created' });
    await reader.until((events) => events.some((e) => e.id.record_id === personId));
    // An older transaction holds the horizon: it has an id (it wrote) and stays open.
    const horizon = await holdHorizon(t.database.url);
    try {
      const behind = await createRecord('people', { name: 'Behind, Horizon' });
      // Committed, acknowledged, and not yet readable: a reader that saw it now could later miss
      // an event of the older transaction at a position before it.
      for (let i = 0; i < 5; i++) {
        expect((await reader.catchUp()).filter((e) => e.id.record_id === behind)).toEqual([]);
        await new Promise((resolve) => setTimeout(resolve, 40));
      }
      await horizon.release();
      // Then readable (within ~100 ms here; other suites' transactions on the cluster may add to it).
      const events = await reader.until((read) => read.some((e) => e.id.record_id === behind));
      expect(events.filter((e) => e.id.record_id === behind)).toHaveLength(1);
    } finally {
      await horizon.release();
    }
  });

  describe('since', () => {
    it('starts at the first event that occurred at or after the instant, and an instant in the future waits for what comes', async () => {
      await feedReader(() => t, () => ws.token).until(hasAll);
      const before = await createRecord('people', { name: 'Before, Since' });
      // The database's clock has microseconds and a Date only milliseconds: the instant is the next
      // millisecond, so an event in the same millisecond as `before` is not taken for one after it.
      const since = new Date((await dbNow()).getTime() + 1);
      await new Promise((resolve) => setTimeout(resolve, 5));
      const after = await createRecord('people', { name: 'After, Since' });
      const reader = feedReader(() => t, () => ws.token, { since: since.toISOString() });
      const events = await reader.until((read) => read.some((e) => e.id.record_id === after));
      expect(events.some((e) => e.id.record_id === before)).toBe(false);
      expect(events[0].id.record_id).toBe(after);
      expect(events.every((e) => new Date(e.occurred_at) >= since)).toBe(true);

      const future = new Date(Date.now() + 3600_000).toISOString();
      const waiting = await get(`/v2/events?since=${future}`).expect(200);
      expect(waiting.body.data).toEqual([]);
      const next = await createRecord('people', { name: 'Next, Since' });
      let seen: FeedEvent[] = [];
      const deadline = Date.now() + 30_000;
      let cursor = waiting.body.pagination.next_cursor as string;
      while (!seen.some((e) => e.id.record_id === next) && Date.now() < deadline) {
        const res = await get(`/v2/events?cursor=${encodeURIComponent(cursor)}`).expect(200);
        seen = seen.concat(res.body.data);
        cursor = res.body.pagination.next_cursor;
        if (res.body.data.length === 0) await new Promise((resolve) => setTimeout(resolve, 25));
      }
      expect(seen.map((e) => e.id.record_id)).toEqual([next]);
    });

    it('waits, behind an older open transaction, for the first event at or after the instant, and never starts before it', async () => {
      await feedReader(() => t, () => ws.token).until(hasAll);
      // Held before `before` is written: neither it nor `after` is behind the horizon when the
      // reader asks for `since`, so the server cannot yet tell where `since` begins.
      const horizon = await holdHorizon(t.database.url);
      try {
        const before = await createRecord('people', { name: 'Before, Held' });
        const since = new Date((await dbNow()).getTime() + 1);
        await new Promise((resolve) => setTimeout(resolve, 5));
        const after = await createRecord('people', { name: 'After, Held' });
        const reader = feedReader(() => t, () => ws.token, { since: since.toISOString() });
        const ofType = feedReader(() => t, () => ws.token, { since: since.toISOString(), event_type: 'record.created' });
        expect(await reader.catchUp()).toEqual([]);
        expect(await ofType.catchUp()).toEqual([]);
        // The pending instant travels in the signed cursor; once found, the cursor is a plain position.
        const position = (cursor: string) => t.app.get(CursorCodec, { strict: false }).decode('events', { workspace: ws.workspaceId, event_type: undefined }, cursor);
        expect(position(reader.cursor!).since).toBe(since.toISOString());
        await horizon.release();
        const events = await reader.until((read) => read.some((e) => e.id.record_id === after));
        expect(events.some((e) => e.id.record_id === before)).toBe(false);
        expect(events[0].id.record_id).toBe(after);
        expect(position(reader.cursor!)).not.toHaveProperty('since');
        const typed = await ofType.until((read) => read.some((e) => e.id.record_id === after));
        expect(typed.map((e) => e.id.record_id)).toEqual([after]);
      } finally {
        await horizon.release();
      }
    });

    it('accepts RFC 3339 with an offset or lowercase t/z, and refuses anything else naming since', async () => {
      for (const since of ['2026-01-01T00:00:00Z', '2026-01-01t00:00:00z', '2026-01-01T01:00:00+01:00', '2026-01-01T00:00:00.123456Z']) {
        await get(`/v2/events?since=${encodeURIComponent(since)}`).expect(200);
      }
      await expectEachRefused(
        [['yesterday', 'since'], ['2026-01-01', 'since'], ['2026-02-30T00:00:00Z', 'since'], ['2026-01-01T00:00:00', 'since'], ['', 'since']],
        (since) => get(`/v2/events?since=${encodeURIComponent(since)}`),
      );
    });
  });

  describe('scopes', () => {
    it('shows a token only the events of the areas it may read', async () => {
      const notesOnly = await t.tokenFor(ws.workspaceId, [SCOPES.noteRead]);
      const reader = feedReader(() => t, () => notesOnly);
      const notes = await reader.until((events) => events.some((e) => e.id.note_id === noteId));
      expect(new Set(notes.map((e) => e.event_type))).toEqual(new Set(['note.created']));
      // A short filtered page moves the cursor past the events it walked (the task's, created after the note), not only to the last note.
      const position = JSON.parse(Buffer.from(reader.cursor!.split('.')[0], 'base64url').toString()).p as { tx: string; id: string };
      const [task] = await db().query(`SELECT tx_id::text AS tx, id::text AS id FROM event_outbox WHERE entity_id->>'task_id' = $1`, [taskId]);
      expect(BigInt(position.tx) > BigInt(task.tx) || (position.tx === task.tx && BigInt(position.id) >= BigInt(task.id))).toBe(true);

      const recordsAndTasks = await t.tokenFor(ws.workspaceId, [SCOPES.recordPermissionRead, SCOPES.taskReadWrite]);
      const both = await feedReader(() => t, () => recordsAndTasks, { limit: 1000 }).until((events) => events.some((e) => e.id.task_id === taskId));
      expect(both.length).toBeGreaterThan(0);
      expect(both.every((e) => e.event_type.startsWith('record.') || e.event_type.startsWith('task.'))).toBe(true);
      expect(both.some((e) => e.event_type === 'record.created')).toBe(true);
    });

    it('refuses a token with no read scope of any area (403), and an event_type the token may not read (403 naming the scope)', async () => {
      const webhooksOnly = await t.tokenFor(ws.workspaceId, [SCOPES.webhookReadWrite]);
      const denied = await get('/v2/events', webhooksOnly).expect(403);
      expect(denied.body).toMatchObject({ status_code: 403, type: 'auth_error', code: 'unauthorized' });
      expect(denied.body.message).toContain('one of the scopes');

      const tasksOnly = await t.tokenFor(ws.workspaceId, [SCOPES.taskRead]);
      const refused = await get('/v2/events?event_type=task.created&event_type=record.created', tasksOnly).expect(403);
      expect(refused.body.message).toContain('record.created');
      expect(refused.body.message).toContain('record_permission:read');
      await get('/v2/events?event_type=task.created', tasksOnly).expect(200);
      await t.http().get('/v2/events').expect(401);
    });
  });

  it('reads a page as a range scan of the per-workspace commit-order index', async () => {
    await db().query('ANALYZE event_outbox');
    const plan = (await db().query(
      `EXPLAIN (FORMAT JSON) SELECT e.id FROM event_outbox e
       WHERE (e.workspace_id, e.tx_id, e.id) > ($1::uuid, '0'::xid8, 0::bigint) AND (e.workspace_id, e.tx_id, e.id) < ($1::uuid, pg_snapshot_xmin(pg_current_snapshot()), 0)
       ORDER BY e.workspace_id, e.tx_id, e.id LIMIT 1000`,
      [ws.workspaceId],
    ))[0]['QUERY PLAN'];
    const text = JSON.stringify(plan);
    // With few rows the planner may prefer a bitmap; force the choice it makes on a large table.
    expect(text.includes('event_outbox_workspace_commit_order') || text.includes('Seq Scan')).toBe(true);
    await db().transaction(async (manager) => {
      await manager.query('SET LOCAL enable_seqscan = off');
      await manager.query('SET LOCAL enable_bitmapscan = off');
      const forced = JSON.stringify((await manager.query(
        `EXPLAIN (FORMAT JSON) SELECT e.id FROM event_outbox e
         WHERE (e.workspace_id, e.tx_id, e.id) > ($1::uuid, '0'::xid8, 0::bigint) AND (e.workspace_id, e.tx_id, e.id) < ($1::uuid, pg_snapshot_xmin(pg_current_snapshot()), 0)
         ORDER BY e.workspace_id, e.tx_id, e.id LIMIT 1000`,
        [ws.workspaceId],
      ))[0]['QUERY PLAN']);
      expect(forced).toContain('"Index Name":"event_outbox_workspace_commit_order"');
      // A range of the index (the cursor's position is its lower bound), not a filter over the workspace's events.
      expect(forced).toMatch(/"Index Cond":"\(\(ROW\(workspace_id, tx_id, id\) > ROW\(/);
      // Ordered by the index: no sort step above the scan.
      expect(forced).not.toContain('"Node Type":"Sort"');
    });
  });
});
