import { SCOPES } from '@workbase/shared/kernel';
import { DataSource } from 'typeorm';
import { bearerRequests, expectEachRefused } from '../support/requests';
import { useTestApp, useWorkspace } from '../support/suite';
import type { TestWorkspace } from '../support/test-app';
import { meetingBody } from '../support/meetings';

describe('meetings', () => {
  const t = useTestApp();
  const ws = useWorkspace(t, 'meetings');
  const other = useWorkspace(t, 'meetings-other');

  const { get, post, createRecord } = bearerRequests(() => t, () => ws.token);

  const timed = (overrides: Record<string, unknown> = {}) =>
    meetingBody({
      description: 'Status of the week',
      start: { datetime: '2026-03-02T15:00:00Z', timezone: 'Europe/London' },
      end: { datetime: '2026-03-02T16:00:00Z', timezone: 'Europe/London' },
      participants: [{ email_address: 'organizer@example.com', is_organizer: true, status: 'accepted', name: 'Olga Organizer' }],
      ...overrides,
    });

  async function createPerson(email: string, token = ws.token): Promise<string> {
    const res = await post('/v2/objects/people/records', { data: { values: { email_addresses: [email] } } }, token).expect(200);
    return res.body.data.id.record_id;
  }

  describe('create and get', () => {
    it('creates a timed meeting, links participants to people by email, and reads it back', async () => {
      const personId = await createPerson('ada@example.com');
      const company = await post('/v2/objects/companies/records', { data: { values: { name: 'Analytical Engines' } } }).expect(200);
      const companyId = company.body.data.id.record_id;
      const res = await post(
        '/v2/meetings',
        timed({
          participants: [
            { email_address: 'organizer@example.com', is_organizer: 'true', status: 'accepted', name: 'Olga Organizer' },
            { email_address: 'ADA@Example.com', is_organizer: 'false', status: 'tentative' },
            { email_address: null, name: 'Room 4', is_organizer: false, status: 'pending' },
          ],
          linked_records: [{ object: 'companies', record_id: companyId }],
        }),
      ).expect(200);
      const meeting = res.body.data;
      expect(meeting).toEqual({
        id: { workspace_id: ws.workspaceId, meeting_id: expect.any(String) },
        title: 'Weekly sync',
        description: 'Status of the week',
        is_all_day: false,
        start: { datetime: '2026-03-02T15:00:00.000Z', timezone: 'Europe/London' },
        end: { datetime: '2026-03-02T16:00:00.000Z', timezone: 'Europe/London' },
        participants: [
          { status: 'accepted', is_organizer: true, email_address: 'organizer@example.com', name: 'Olga Organizer' },
          { status: 'tentative', is_organizer: false, email_address: 'ADA@Example.com', name: null },
          { status: 'pending', is_organizer: false, email_address: null, name: 'Room 4' },
        ],
        linked_records: [
          { object_slug: 'companies', object_id: expect.any(String), record_id: companyId },
          { object_slug: 'people', object_id: expect.any(String), record_id: personId },
          { object_slug: 'people', object_id: expect.any(String), record_id: expect.any(String) },
        ],
        external_ref: null,
        created_at: expect.any(String),
        created_by_actor: { type: 'api-token', id: expect.any(String) },
      });
      const fetched = await get(`/v2/meetings/${meeting.id.meeting_id}`).expect(200);
      expect(fetched.body).toEqual({ data: meeting });
      // The organizer's address had no person: one was created (meetings-participants.e2e-spec.ts covers it).
      const [{ n }] = await t.app
        .get(DataSource)
        .query(`SELECT count(*)::int AS n FROM records r JOIN objects o ON o.workspace_id = r.workspace_id AND o.id = r.container_id WHERE r.workspace_id = $1 AND o.api_slug = 'people'`, [ws.workspaceId]);
      expect(n).toBe(2);
    });

    it('always creates a new meeting: the same data twice gives two meetings', async () => {
      const body = timed({ title: 'Twice', start: { datetime: '2026-03-09T10:00:00+01:00', timezone: null }, end: { datetime: '2026-03-09T11:00:00+01:00', timezone: null } });
      const first = (await post('/v2/meetings', body).expect(200)).body.data;
      const second = (await post('/v2/meetings', body).expect(200)).body.data;
      expect(first.id.meeting_id).not.toBe(second.id.meeting_id);
      expect(first.start).toEqual({ datetime: '2026-03-09T09:00:00.000Z', timezone: null });
      const listed = await get('/v2/meetings?ends_from=2026-03-09T00:00:00Z&starts_before=2026-03-10T00:00:00Z').expect(200);
      expect(listed.body.data.filter((m: { title: string }) => m.title === 'Twice')).toHaveLength(2);
    });

    it('creates an all-day meeting with date bounds (end exclusive), read back with dates only', async () => {
      const res = await post('/v2/meetings', timed({ title: 'Offsite', is_all_day: true, start: { date: '2026-05-10' }, end: { date: '2026-05-12' } })).expect(200);
      expect(res.body.data).toMatchObject({ is_all_day: true, start: { date: '2026-05-10' }, end: { date: '2026-05-12' } });
      expect(res.body.data.start).toEqual({ date: '2026-05-10' });
      expect(res.body.data.end).toEqual({ date: '2026-05-12' });
      const fetched = (await get(`/v2/meetings/${res.body.data.id.meeting_id}`).expect(200)).body.data;
      expect(fetched).toEqual(res.body.data);
      // A timed meeting keeps instants and zones, never a date.
      const timedOne = (await post('/v2/meetings', timed()).expect(200)).body.data;
      expect(timedOne.is_all_day).toBe(false);
      expect(Object.keys(timedOne.start).sort()).toEqual(['datetime', 'timezone']);
      expect(Object.keys(timedOne.end).sort()).toEqual(['datetime', 'timezone']);
      // The two forms do not mix, whichever way round.
      expect((await post('/v2/meetings', timed({ is_all_day: true, start: { datetime: '2026-05-10T00:00:00Z' }, end: { date: '2026-05-11' } })).expect(400)).body.message).toContain('data.start');
      expect((await post('/v2/meetings', timed({ is_all_day: false, start: { date: '2026-05-10' } })).expect(400)).body.message).toContain('data.start');
    });

    it('takes record ids in any letter case and refuses NUL characters (400, not 500)', async () => {
      const company = await createRecord('companies', { name: 'Upper Case Ltd' });
      const created = (await post('/v2/meetings', timed({ participants: [], linked_records: [{ object: 'companies', record_id: company.toUpperCase() }] })).expect(200)).body.data;
      expect(created.linked_records).toEqual([{ object_slug: 'companies', object_id: expect.any(String), record_id: company }]);
      const listed = await get(`/v2/meetings?limit=200&linked_object=companies&linked_record_id=${company.toUpperCase()}`).expect(200);
      expect(listed.body.data.map((m: { id: { meeting_id: string } }) => m.id.meeting_id)).toEqual([created.id.meeting_id]);
      expect((await get(`/v2/meetings/${created.id.meeting_id.toUpperCase()}`).expect(200)).body.data.id.meeting_id).toBe(created.id.meeting_id);
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ title: 'Nul\u0000' }, 'data.title'],
        [{ description: 'Nul\u0000' }, 'data.description'],
        [{ participants: [{ email_address: 'a\u0000@example.com', is_organizer: true, status: 'accepted' }] }, 'data.participants[0].email_address'],
        [{ participants: [{ name: 'N\u0000', is_organizer: true, status: 'accepted' }] }, 'data.participants.0.name'],
        [{ linked_records: [{ object: 'compa\u0000nies', record_id: company }] }, 'data.linked_records.0.object'],
      ];
      await expectEachRefused(cases, (overrides) => post('/v2/meetings', timed(overrides)));
    });

    it("404s an unknown meeting, a non-UUID id and another workspace's meeting", async () => {
      const mine = (await post('/v2/meetings', timed()).expect(200)).body.data.id.meeting_id;
      const theirs = (await post('/v2/meetings', timed(), other.token).expect(200)).body.data.id.meeting_id;
      expect((await get(`/v2/meetings/${theirs}`).expect(404)).body).toMatchObject({ status_code: 404, type: 'invalid_request_error', code: 'not_found' });
      await get(`/v2/meetings/${mine}`, other.token).expect(404);
      await get('/v2/meetings/8f5a3c5e-0000-4000-8000-000000000000').expect(404);
      await get('/v2/meetings/not-a-uuid').expect(404);
      const listed = await get('/v2/meetings?limit=200', other.token).expect(200);
      expect(listed.body.data.map((m: { id: { meeting_id: string } }) => m.id.meeting_id)).not.toContain(mine);
    });

    it('refuses bad inputs with a 400 naming the field', async () => {
      const cases: Array<[Record<string, unknown>, string]> = [
        [{ title: undefined }, 'data.title'],
        [{ title: 42 }, 'data.title'],
        [{ is_all_day: 'yes' }, 'data.is_all_day'],
        [{ start: undefined }, 'data.start'],
        [{ start: { datetime: 'tomorrow', timezone: null } }, 'data.start.datetime'],
        [{ start: { datetime: '2026-03-02T15:00:00', timezone: null } }, 'data.start.datetime'],
        [{ start: { datetime: '2026-02-30T15:00:00Z', timezone: null } }, 'data.start.datetime'],
        [{ start: { datetime: '2026-03-02T15:00:00Z', timezone: 'Mars/Olympus' } }, 'data.start.timezone'],
        [{ end: { datetime: '2026-03-02T14:00:00Z', timezone: null } }, 'data.end.datetime'],
        [{ is_all_day: true }, 'data.start'],
        [{ is_all_day: true, start: { date: '2026-05-10' }, end: { date: '2026-05-10' } }, 'data.end.date'],
        [{ is_all_day: true, start: { date: '2026-13-01' }, end: { date: '2026-05-10' } }, 'data.start.date'],
        [{ participants: undefined }, 'data.participants'],
        [{ participants: [{ email_address: 'x@example.com', is_organizer: 'yes', status: 'accepted' }] }, 'data.participants.0.is_organizer'],
        [{ participants: [{ email_address: 'x@example.com', is_organizer: true, status: 'maybe' }] }, 'data.participants.0.status'],
        [{ participants: [{ email_address: 'not-an-email', is_organizer: true, status: 'accepted' }] }, 'data.participants[0].email_address'],
        [
          { participants: [{ email_address: 'x@example.com', is_organizer: true, status: 'accepted' }, { email_address: 'X@example.com', is_organizer: false, status: 'accepted' }] },
          'data.participants[1].email_address',
        ],
        [{ linked_records: [{ object: 'companies', record_id: 'nope' }] }, 'data.linked_records.0.record_id'],
        [{ unknown_field: 1 }, 'data.unknown_field'],
      ];
      await expectEachRefused(cases, (overrides) => post('/v2/meetings', timed(overrides)));
      await post('/v2/meetings', {}).expect(400);
    });

    it('refuses linked records that do not exist in this workspace (400 value_not_found)', async () => {
      const theirPerson = await createPerson('someone@other.example', other.token);
      const res = await post('/v2/meetings', timed({ linked_records: [{ object: 'people', record_id: theirPerson }] })).expect(400);
      expect(res.body).toMatchObject({ code: 'value_not_found' });
      expect(res.body.message).toContain('data.linked_records[0].record_id');
      const unknownObject = await post('/v2/meetings', timed({ linked_records: [{ object: 'spaceships', record_id: theirPerson }] })).expect(400);
      expect(unknownObject.body.message).toContain('data.linked_records[0].object');
    });
  });

  describe('scopes', () => {
    it('needs meeting:read + record_permission:read to read and meeting:read-write to create', async () => {
      const readOnly = await t.tokenFor(ws.workspaceId, [SCOPES.meetingRead, SCOPES.recordPermissionRead]);
      const noRecord = await t.tokenFor(ws.workspaceId, [SCOPES.meetingReadWrite]);
      const noMeeting = await t.tokenFor(ws.workspaceId, [SCOPES.recordPermissionRead, SCOPES.noteReadWrite]);
      await get('/v2/meetings', readOnly).expect(200);
      const created = (await post('/v2/meetings', timed()).expect(200)).body.data.id.meeting_id;
      await get(`/v2/meetings/${created}`, readOnly).expect(200);
      const denied = await post('/v2/meetings', timed(), readOnly).expect(403);
      expect(denied.body).toMatchObject({ status_code: 403, type: 'auth_error' });
      expect(denied.body.message).toContain('meeting:read-write');
      expect((await get('/v2/meetings', noRecord).expect(403)).body.message).toContain('record_permission:read');
      await get(`/v2/meetings/${created}`, noMeeting).expect(403);
      await post('/v2/meetings', timed(), noRecord).expect(403);
      await t.http().get('/v2/meetings').expect(401);
      // meeting:read-write implies meeting:read.
      const writer = await t.tokenFor(ws.workspaceId, [SCOPES.meetingReadWrite, SCOPES.recordPermissionRead]);
      const mine = (await post('/v2/meetings', timed(), writer).expect(200)).body.data.id.meeting_id;
      await get(`/v2/meetings/${mine}`, writer).expect(200);
      await get('/v2/meetings?limit=1', writer).expect(200);
      expect((await get('/v2/meetings', noMeeting).expect(403)).body.message).toContain('meeting:read');
    });
  });

  describe('list filters', () => {
    let f: TestWorkspace;
    const titles = (res: { body: { data: Array<{ title: string }> } }) => res.body.data.map((m) => m.title);
    const list = (query: string) => get(`/v2/meetings?${query}`, f.token);
    let personId: string;
    let dealLike: string;

    beforeAll(async () => {
      f = await t.createWorkspace('meetings-filters');
      personId = await createPerson('pat@example.com', f.token);
      dealLike = await createRecord('companies', { name: 'Initech' }, f.token);
      const mk = (title: string, start: string, end: string, extra: Record<string, unknown> = {}) =>
        post('/v2/meetings', timed({ title, start: { datetime: start, timezone: null }, end: { datetime: end, timezone: null }, participants: [], ...extra }), f.token).expect(200);
      await mk('A', '2026-06-01T09:00:00Z', '2026-06-01T10:00:00Z', { participants: [{ email_address: 'Pat@Example.com', is_organizer: true, status: 'accepted' }] });
      await mk('B', '2026-06-01T10:00:00Z', '2026-06-01T11:00:00Z', { linked_records: [{ object: 'companies', record_id: dealLike }] });
      await mk('C', '2026-06-01T11:00:00Z', '2026-06-01T12:00:00Z', { participants: [{ email_address: 'quinn@example.com', is_organizer: false, status: 'declined' }] });
      await mk('D', '2026-06-02T09:00:00Z', '2026-06-02T10:00:00Z');
      await post('/v2/meetings', timed({ title: 'AllDay', is_all_day: true, start: { date: '2026-06-03' }, end: { date: '2026-06-04' }, participants: [] }), f.token).expect(200);
    });

    it('sorts by start ascending by default and descending on request', async () => {
      expect(titles(await list('')).join('')).toBe('ABCDAllDay');
      expect(titles(await list('sort=start_asc')).join('')).toBe('ABCDAllDay');
      expect(titles(await list('sort=start_desc')).join('')).toBe('AllDayDCBA');
    });

    it('filters by time frame: ends_from inclusive, starts_before exclusive', async () => {
      expect(titles(await list('ends_from=2026-06-01T11:00:00Z'))).toEqual(['B', 'C', 'D', 'AllDay']);
      expect(titles(await list('ends_from=2026-06-01T11:00:00.001Z'))).toEqual(['C', 'D', 'AllDay']);
      expect(titles(await list('starts_before=2026-06-01T11:00:00Z'))).toEqual(['A', 'B']);
      expect(titles(await list('ends_from=2026-06-01T10:00:00Z&starts_before=2026-06-02T09:00:00Z'))).toEqual(['A', 'B', 'C']);
    });

    it('places all-day meetings in the given timezone', async () => {
      // 2026-06-03 starts at 2026-06-02T10:00Z in UTC+14 and at 2026-06-03T10:00Z in UTC-10.
      expect(titles(await list('starts_before=2026-06-02T12:00:00Z'))).not.toContain('AllDay');
      expect(titles(await list('starts_before=2026-06-02T12:00:00Z&timezone=Pacific/Kiritimati'))).toContain('AllDay');
      expect(titles(await list('ends_from=2026-06-04T05:00:00Z'))).toEqual([]);
      expect(titles(await list('ends_from=2026-06-04T05:00:00Z&timezone=Pacific/Honolulu'))).toEqual(['AllDay']);
      // In UTC+14 the all-day meeting starts at 2026-06-02T10:00Z: still after D (09:00Z).
      expect(titles(await list('timezone=Pacific/Kiritimati')).join('')).toBe('ABCDAllDay');
      expect(titles(await list('timezone=Pacific/Kiritimati&ends_from=2026-06-02T09:30:00Z')).join('')).toBe('DAllDay');
    });

    it('filters by participants (any of them, case-insensitive) and by linked record, ORed', async () => {
      expect(titles(await list('participants=pat@example.com'))).toEqual(['A']);
      expect(titles(await list('participants=PAT@example.com,quinn@example.com'))).toEqual(['A', 'C']);
      expect(titles(await list(`linked_object=companies&linked_record_id=${dealLike}`))).toEqual(['B']);
      // Participants are linked to their person, so the person's meetings are found by linked record too.
      expect(titles(await list(`linked_object=people&linked_record_id=${personId}`))).toEqual(['A']);
      expect(titles(await list(`participants=quinn@example.com&linked_object=companies&linked_record_id=${dealLike}`))).toEqual(['B', 'C']);
      expect(titles(await list('participants=nobody@example.com'))).toEqual([]);
    });

    it('refuses bad list parameters with a 400 naming them', async () => {
      const cases: Array<[string, string]> = [
        ['limit=0', 'limit'],
        ['limit=201', 'limit'],
        ['limit=abc', 'limit'],
        ['sort=start', 'sort'],
        ['ends_from=yesterday', 'ends_from'],
        ['starts_before=2026-06-01', 'starts_before'],
        ['timezone=Mars/Olympus', 'timezone'],
        // Known to the runtime's ICU but dropped from the tz database PostgreSQL uses.
        ['timezone=US/Pacific-New', 'timezone'],
        ['timezone=Canada/East-Saskatchewan', 'timezone'],
        ['participants=not-an-email', 'participants'],
        ['participants=,', 'participants'],
        ['linked_object=companies', 'linked_record_id'],
        [`linked_record_id=${dealLike}`, 'linked_object'],
        ['linked_object=companies&linked_record_id=nope', 'linked_record_id'],
        ['cursor=', 'cursor'],
        ['bogus=1', 'bogus'],
        ['limit=1e1', 'limit'],
        ['limit=', 'limit'],
        ['limit=10&limit=20', 'limit'],
        ['offset=10', 'offset'],
        ['sort=start_asc&sort=start_desc', 'sort'],
        ['timezone=%00', 'timezone'],
        ['participants=a%00@example.com', 'participants'],
        [`linked_object=compa%00nies&linked_record_id=${dealLike}`, 'linked_object'],
      ];
      await expectEachRefused(cases, list);
      await list(`linked_object=spaceships&linked_record_id=${dealLike}`).expect(404);
      await list('limit=1').expect(200);
      await list('limit=200').expect(200);
    });
  });

  describe('cursor pagination', () => {
    let c: TestWorkspace;
    const base = Date.parse('2027-01-01T00:00:00Z');
    const hour = 3600_000;

    async function createMany(token: string, starts: number[], title: string): Promise<string[]> {
      const ids: string[] = [];
      for (let i = 0; i < starts.length; i += 10) {
        const batch = await Promise.all(
          starts.slice(i, i + 10).map((start) =>
            post(
              '/v2/meetings',
              timed({ title, participants: [], start: { datetime: new Date(start).toISOString(), timezone: null }, end: { datetime: new Date(start + hour).toISOString(), timezone: null } }),
              token,
            ).expect(200),
          ),
        );
        ids.push(...batch.map((res) => res.body.data.id.meeting_id as string));
      }
      return ids;
    }

    beforeAll(async () => {
      c = await t.createWorkspace('meetings-cursor');
      // 1,000 meetings over 100 distinct start times: ten share each start, so ties are broken by id.
      await createMany(c.token, Array.from({ length: 1000 }, (_, i) => base + (i % 100) * hour), 'seed');
    }, 180_000);

    it('walks 1,000 meetings with inserts between pages: every meeting exactly once, in (start, id) order', async () => {
      const seen: string[] = [];
      const order: Array<[string, string]> = [];
      const insertedLater: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const res: { body: { data: Array<{ id: { meeting_id: string }; start: { datetime: string } }>; pagination: { next_cursor: string | null } } } = await get(
          `/v2/meetings?limit=37${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
          c.token,
        ).expect(200);
        pages++;
        for (const m of res.body.data) {
          seen.push(m.id.meeting_id);
          order.push([m.start.datetime, m.id.meeting_id]);
        }
        cursor = res.body.pagination.next_cursor;
        const last = res.body.data.at(-1);
        if (cursor && last) {
          // Before the cursor (never shown), at the same start as the last row, and well after it.
          const lastStart = Date.parse(last.start.datetime);
          insertedLater.push(...(await createMany(c.token, [lastStart - hour, lastStart, base + 200 * hour + pages * hour], 'inserted')));
        }
      } while (cursor);
      const seenOnce = new Set(seen);
      expect(seen.length).toBe(seenOnce.size);
      const insertedSet = new Set(insertedLater);
      expect(seen.filter((id) => !insertedSet.has(id))).toHaveLength(1000);
      for (let i = 1; i < order.length; i++) {
        const [prevStart, prevId] = order[i - 1];
        const [start, id] = order[i];
        expect(prevStart < start || (prevStart === start && prevId < id)).toBe(true);
      }
      // Every meeting inserted after the walk's position (the late ones) was reached.
      const late = insertedLater.filter((_, i) => i % 3 === 2);
      for (const id of late) expect(seenOnce.has(id)).toBe(true);
      expect(pages).toBeGreaterThan(27);
    }, 240_000);

    it('walks backwards with start_desc and ends with next_cursor null', async () => {
      const all = new Set<string>();
      let cursor: string | null = null;
      let previous: string | null = null;
      do {
        const res: { body: { data: Array<{ id: { meeting_id: string }; start: { datetime: string } }>; pagination: { next_cursor: string | null } } } = await get(
          `/v2/meetings?limit=200&sort=start_desc${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
          c.token,
        ).expect(200);
        for (const m of res.body.data) {
          expect(all.has(m.id.meeting_id)).toBe(false);
          all.add(m.id.meeting_id);
          if (previous) expect(m.start.datetime <= previous).toBe(true);
          previous = m.start.datetime;
        }
        cursor = res.body.pagination.next_cursor;
      } while (cursor);
      expect(all.size).toBeGreaterThan(1000);
    });

    it('binds a cursor to its query: another limit, filter or workspace is a 400; tampering is a 400', async () => {
      const first = await get('/v2/meetings?limit=10', c.token).expect(200);
      const cursor: string = first.body.pagination.next_cursor;
      expect(typeof cursor).toBe('string');
      await get(`/v2/meetings?limit=10&cursor=${encodeURIComponent(cursor)}`, c.token).expect(200);
      const otherLimit = await get(`/v2/meetings?limit=11&cursor=${encodeURIComponent(cursor)}`, c.token).expect(400);
      expect(otherLimit.body).toMatchObject({ status_code: 400, type: 'invalid_request_error', code: 'validation_type' });
      expect(otherLimit.body.message).toMatch(/cursor.*different query/);
      expect((await get(`/v2/meetings?cursor=${encodeURIComponent(cursor)}`, c.token).expect(400)).body.message).toContain('different query');
      expect((await get(`/v2/meetings?limit=10&sort=start_desc&cursor=${encodeURIComponent(cursor)}`, c.token).expect(400)).body.message).toContain('different query');
      expect((await get(`/v2/meetings?limit=10&timezone=Europe/Paris&cursor=${encodeURIComponent(cursor)}`, c.token).expect(400)).body.message).toContain('different query');
      expect((await get(`/v2/meetings?limit=10&cursor=${encodeURIComponent(cursor)}`, ws.token).expect(400)).body.message).toContain('different query');
      // The default limit is the same query as limit=50.
      const defaulted = (await get('/v2/meetings', c.token).expect(200)).body.pagination.next_cursor;
      await get(`/v2/meetings?limit=50&cursor=${encodeURIComponent(defaulted)}`, c.token).expect(200);

      // Every filter is part of the query a cursor is bound to.
      const window = 'ends_from=2027-01-01T00:00:00Z&starts_before=2027-01-05T00:00:00Z';
      const filtered: string = (await get(`/v2/meetings?limit=5&${window}`, c.token).expect(200)).body.pagination.next_cursor;
      expect(typeof filtered).toBe('string');
      await get(`/v2/meetings?limit=5&${window}&cursor=${encodeURIComponent(filtered)}`, c.token).expect(200);
      for (const changed of [
        'limit=5&ends_from=2027-01-01T00:00:01Z&starts_before=2027-01-05T00:00:00Z',
        'limit=5&ends_from=2027-01-01T00:00:00Z&starts_before=2027-01-06T00:00:00Z',
        'limit=5&ends_from=2027-01-01T00:00:00Z',
        `limit=5&${window}&participants=x@example.com`,
        `limit=5&${window}&linked_object=people&linked_record_id=8f5a3c5e-0000-4000-8000-000000000000`,
        `limit=6&${window}`,
      ]) {
        const res = await get(`/v2/meetings?${changed}&cursor=${encodeURIComponent(filtered)}`, c.token);
        expect({ changed, status: res.status }).toEqual({ changed, status: 400 });
        expect(res.body.message).toMatch(/^cursor: .*different query/);
      }
      // The same filters written differently are the same query: another offset for the same instant, participants reordered or in another case.
      await get(`/v2/meetings?limit=5&ends_from=2027-01-01T01:00:00%2B01:00&starts_before=2027-01-05T00:00:00Z&cursor=${encodeURIComponent(filtered)}`, c.token).expect(200);
      const pair = [{ email_address: 'a@example.com', is_organizer: true, status: 'accepted' }, { email_address: 'b@example.com', is_organizer: false, status: 'accepted' }];
      const at = { start: { datetime: '2030-01-01T00:00:00Z', timezone: null }, end: { datetime: '2030-01-01T01:00:00Z', timezone: null } };
      const both = [(await post('/v2/meetings', timed({ ...at, participants: pair }), c.token).expect(200)).body.data.id.meeting_id, (await post('/v2/meetings', timed({ ...at, participants: pair }), c.token).expect(200)).body.data.id.meeting_id];
      const firstOfPair = await get('/v2/meetings?limit=1&participants=a@example.com,b@example.com', c.token).expect(200);
      const rest = await get(`/v2/meetings?limit=1&participants=B@Example.com,%20a@example.com&cursor=${encodeURIComponent(firstOfPair.body.pagination.next_cursor)}`, c.token).expect(200);
      expect([...firstOfPair.body.data, ...rest.body.data].map((m: { id: { meeting_id: string } }) => m.id.meeting_id).sort()).toEqual([...both].sort());
      expect(rest.body.pagination.next_cursor).toBeNull();

      const [body, signature] = cursor.split('.');
      const decoded = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
      const forgedBody = Buffer.from(JSON.stringify({ ...decoded, p: { ...decoded.p, start: '1970-01-01T00:00:00.000000Z' } })).toString('base64url');
      for (const bad of [`${forgedBody}.${signature}`, `${body}.${signature.slice(0, -2)}xx`, 'garbage', `${body}`, `${signature}.${body}`]) {
        const res = await get(`/v2/meetings?limit=10&cursor=${encodeURIComponent(bad)}`, c.token).expect(400);
        expect(res.body.message).toMatch(/^cursor: /);
      }
    });

    it('walks all-day and timed meetings together under fixed-offset zones, both directions, with a time window: the pages are the exact sorted list', async () => {
      const z = await t.createWorkspace('meetings-zones');
      const day = 24 * hour;
      const origin = Date.parse('2028-02-01T00:00:00Z');
      const bodies: Array<Record<string, unknown>> = [];
      // Timed meetings every 5.5 hours for ten days, and all-day meetings of one to three days on every day, some on the same day.
      for (let i = 0; i < 44; i++) {
        const start = origin + i * 5.5 * hour;
        bodies.push({ title: `t${i}`, start: { datetime: new Date(start).toISOString(), timezone: null }, end: { datetime: new Date(start + hour).toISOString(), timezone: null } });
      }
      const date = (ms: number) => new Date(ms).toISOString().slice(0, 10);
      for (let i = 0; i < 24; i++) {
        const first = origin + Math.floor(i / 2) * day - day;
        bodies.push({ title: `d${i}`, is_all_day: true, start: { date: date(first) }, end: { date: date(first + (1 + (i % 3)) * day) } });
      }
      const created: Array<{ id: string; allDay: boolean; start: string; end: string }> = [];
      for (let i = 0; i < bodies.length; i += 10) {
        const batch = await Promise.all(bodies.slice(i, i + 10).map((b) => post('/v2/meetings', timed({ participants: [], ...b }), z.token).expect(200)));
        for (const res of batch) {
          const m = res.body.data;
          created.push({ id: m.id.meeting_id, allDay: m.is_all_day, start: m.start.date ?? m.start.datetime, end: m.end.date ?? m.end.datetime });
        }
      }
      // Independent model: an all-day date is midnight in the zone; fixed offsets only, so no DST to model.
      const zones: Array<[string, number]> = [
        ['UTC', 0],
        ['Pacific/Kiritimati', 14],
        ['Asia/Kolkata', 5.5],
        ['Pacific/Pago_Pago', -11],
        ['Etc/GMT+12', -12],
      ];
      const endsFrom = '2028-02-03T06:00:00Z';
      const startsBefore = '2028-02-08T20:00:00Z';
      for (const [zone, offsetHours] of zones) {
        const place = (value: string, allDay: boolean) => (allDay ? Date.parse(`${value}T00:00:00Z`) - offsetHours * hour : Date.parse(value));
        for (const sort of ['start_asc', 'start_desc'] as const) {
          for (const windowed of [false, true]) {
            const expected = created
              .filter((m) => !windowed || (place(m.end, m.allDay) >= Date.parse(endsFrom) && place(m.start, m.allDay) < Date.parse(startsBefore)))
              .map((m) => ({ id: m.id, at: place(m.start, m.allDay) }))
              .sort((a, b) => (a.at !== b.at ? a.at - b.at : a.id < b.id ? -1 : 1));
            if (sort === 'start_desc') expected.reverse();
            const query = `limit=7&sort=${sort}&timezone=${encodeURIComponent(zone)}${windowed ? `&ends_from=${endsFrom}&starts_before=${startsBefore}` : ''}`;
            const walked: string[] = [];
            let cursor: string | null = null;
            do {
              const res: { body: { data: Array<{ id: { meeting_id: string } }>; pagination: { next_cursor: string | null } } } = await get(
                `/v2/meetings?${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
                z.token,
              ).expect(200);
              expect(res.body.data.length).toBeLessThanOrEqual(7);
              walked.push(...res.body.data.map((m) => m.id.meeting_id));
              cursor = res.body.pagination.next_cursor;
            } while (cursor);
            expect({ zone, sort, windowed, ids: walked }).toEqual({ zone, sort, windowed, ids: expected.map((m) => m.id) });
          }
        }
      }
    }, 120_000);

    it('returns next_cursor null on a short last page and on an empty list', async () => {
      const empty = await t.createWorkspace('meetings-empty');
      expect((await get('/v2/meetings', empty.token).expect(200)).body).toEqual({ data: [], pagination: { next_cursor: null } });
      const filtered = await get('/v2/meetings?limit=200&starts_before=2027-01-01T01:00:00Z&ends_from=2027-01-01T00:00:00Z', c.token).expect(200);
      expect(filtered.body.pagination.next_cursor).toBeNull();
      expect(filtered.body.data.length).toBeGreaterThanOrEqual(10);
    });
  });

  it('documents every meetings operation in OpenAPI with its scopes and errors', async () => {
    const doc = (await t.http().get('/openapi.json').expect(200)).body;
    const expected: Array<[string, string, string[], string[]]> = [
      ['/v2/meetings', 'get', ['meeting:read', 'record_permission:read'], ['400', '401', '403', '404']],
      ['/v2/meetings', 'post', ['meeting:read-write', 'record_permission:read'], ['400', '401', '403']],
      ['/v2/meetings/{meeting_id}', 'get', ['meeting:read', 'record_permission:read'], ['401', '403', '404']],
    ];
    for (const [path, method, scopes, statuses] of expected) {
      const operation = doc.paths[path]?.[method];
      expect({ path, method, scopes: operation?.['x-required-scopes'] }).toEqual({ path, method, scopes });
      for (const status of ['200', ...statuses]) expect({ path, method, status, documented: Boolean(operation.responses[status]) }).toEqual({ path, method, status, documented: true });
    }
    const limit = doc.paths['/v2/meetings'].get.parameters.find((p: { name: string }) => p.name === 'limit');
    expect(limit.schema).toMatchObject({ type: 'integer', minimum: 1, maximum: 200, default: 50 });
    expect(doc.paths['/v2/meetings'].get.parameters.map((p: { name: string }) => p.name).sort()).toEqual(
      ['cursor', 'ends_from', 'limit', 'linked_object', 'linked_record_id', 'participants', 'sort', 'starts_before', 'timezone'],
    );
  });
});
