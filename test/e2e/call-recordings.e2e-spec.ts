import { SCOPES } from '@workbase/shared/kernel';
import { DataSource } from 'typeorm';
import { bearerRequests } from '../support/requests';
import { useTestApp, useWorkspace } from '../support/suite';
import { meetingBody } from '../support/meetings';

/** Call recordings and transcripts under meetings; video URLs under the webhook target policy (private targets refused here). */
describe('call recordings', () => {
  const t = useTestApp({ env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' } });
  const ws = useWorkspace(t, 'calls');
  const other = useWorkspace(t, 'calls-other');
  let meetingId: string;
  let theirMeetingId: string;
  const PUBLIC_VIDEO = 'https://93.184.215.14/calls/42.mp4';

  const { get, post, del } = bearerRequests(() => t, () => ws.token);
  const db = () => t.app.get(DataSource);
  const counts = async () => {
    const [row] = await db().query(
      `SELECT (SELECT count(*) FROM call_recordings) AS recordings, (SELECT count(*) FROM call_transcript_segments) AS segments, (SELECT count(*) FROM event_outbox WHERE event_type = 'call-recording.created') AS events`,
    );
    return [Number(row.recordings), Number(row.segments), Number(row.events)];
  };
  const meeting = async (token: string) =>
    (
      await post('/v2/meetings', meetingBody({ title: 'Pricing call' }), token).expect(200)
    ).body.data.id.meeting_id as string;
  const segment = (i: number, speech = `Segment ${i}`) => ({ speech, start_time: i * 10, end_time: i * 10 + 9.5, speaker: { name: i % 2 ? 'Grace' : 'Ada', email_address: i % 2 ? null : 'ada@example.com' } });
  const recordings = (id = meetingId) => `/v2/meetings/${id}/call_recordings`;

  beforeAll(async () => {
    meetingId = await meeting(ws.token);
    theirMeetingId = await meeting(other.token);
  });

  it('creates a recording with a transcript and a video URL, reads it back and records call-recording.created', async () => {
    const created = (await post(recordings(), { data: { video_url: PUBLIC_VIDEO, transcript: [segment(0, 'Welcome'), segment(1, 'Let us talk pricing')] } }).expect(200)).body.data;
    expect(created).toEqual({
      id: { workspace_id: ws.workspaceId, meeting_id: meetingId, call_recording_id: expect.any(String) },
      status: 'completed',
      web_url: `http://localhost:3000/calls/meetings/${meetingId}/call-recordings/${created.id.call_recording_id}`,
      video_url: PUBLIC_VIDEO,
      created_by_actor: { type: 'api-token', id: expect.any(String) },
      created_at: expect.any(String),
    });
    expect((await get(`${recordings()}/${created.id.call_recording_id}`).expect(200)).body).toEqual({ data: created });
    const transcript = (await get(`${recordings()}/${created.id.call_recording_id}/transcript`).expect(200)).body;
    expect(transcript).toEqual({
      data: {
        id: created.id,
        transcript: [
          { speech: 'Welcome', start_time: 0, end_time: 9.5, speaker: { name: 'Ada', email_address: 'ada@example.com' } },
          { speech: 'Let us talk pricing', start_time: 10, end_time: 19.5, speaker: { name: 'Grace', email_address: null } },
        ],
        raw_transcript: 'Ada: Welcome\nGrace: Let us talk pricing',
        web_url: created.web_url,
      },
      pagination: { next_cursor: null },
    });
    const events = await db().query(`SELECT entity_id FROM event_outbox WHERE event_type = 'call-recording.created' AND entity_id->>'call_recording_id' = $1`, [created.id.call_recording_id]);
    expect(events.map((e: { entity_id: unknown }) => e.entity_id)).toEqual([{ workspace_id: ws.workspaceId, meeting_id: meetingId, call_recording_id: created.id.call_recording_id }]);
  });

  it('pages recordings and transcripts with cursors, and deletes with 204', async () => {
    const fresh = await meeting(ws.token);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await post(recordings(fresh), { data: { transcript: [segment(i)] } }).expect(200)).body.data.id.call_recording_id);
    const first = (await get(`${recordings(fresh)}?limit=2`).expect(200)).body;
    expect(first.data.map((r: { id: { call_recording_id: string } }) => r.id.call_recording_id)).toEqual(ids.slice(0, 2));
    const second = (await get(`${recordings(fresh)}?limit=2&cursor=${first.pagination.next_cursor}`).expect(200)).body;
    expect(second.data.map((r: { id: { call_recording_id: string } }) => r.id.call_recording_id)).toEqual([ids[2]]);
    expect(second.pagination.next_cursor).toBeNull();
    // A cursor of another limit, or tampered with, is a 400 naming cursor.
    expect((await get(`${recordings(fresh)}?limit=3&cursor=${first.pagination.next_cursor}`).expect(400)).body.message).toContain('cursor');
    expect((await get(`${recordings(fresh)}?cursor=${first.pagination.next_cursor}x`).expect(400)).body.message).toContain('cursor');

    const long = (await post(recordings(fresh), { data: { transcript: Array.from({ length: 5 }, (_, i) => segment(i)) } }).expect(200)).body.data.id.call_recording_id;
    const pages: string[][] = [];
    let cursor: string | null = null;
    do {
      const page: { data: { transcript: Array<{ speech: string }> }; pagination: { next_cursor: string | null } } = (
        await get(`${recordings(fresh)}/${long}/transcript?limit=2${cursor ? `&cursor=${cursor}` : ''}`).expect(200)
      ).body;
      pages.push(page.data.transcript.map((s) => s.speech));
      cursor = page.pagination.next_cursor;
    } while (cursor);
    expect(pages).toEqual([['Segment 0', 'Segment 1'], ['Segment 2', 'Segment 3'], ['Segment 4']]);

    const res = await del(`${recordings(fresh)}/${long}`).expect(204);
    expect(res.text).toBe('');
    await get(`${recordings(fresh)}/${long}`).expect(404);
    await get(`${recordings(fresh)}/${long}/transcript`).expect(404);
    await del(`${recordings(fresh)}/${long}`).expect(404);
    expect(Number((await db().query(`SELECT count(*) AS n FROM call_transcript_segments WHERE call_recording_id = $1`, [long]))[0].n)).toBe(0);
  });

  it('makes the transcript queryable through POST /v2/sql: which calls mentioned pricing, in one statement', async () => {
    const quiet = (await post(recordings(), { data: { transcript: [segment(0, 'Nothing about money')] } }).expect(200)).body.data.id.call_recording_id;
    const res = await post('/v2/sql', {
      sql: "SELECT DISTINCT meeting_id, meeting_title, call_recording_id FROM meetings.call_transcripts WHERE speech ILIKE '%pricing%' ORDER BY call_recording_id",
    }).expect(200);
    const rows = res.body.data.rows ?? res.body.data;
    const ids = JSON.stringify(rows);
    expect(ids).toContain(meetingId);
    expect(ids).toContain('Pricing call');
    expect(ids).not.toContain(quiet);
    // Another workspace sees none of it.
    const theirs = await post('/v2/sql', { sql: 'SELECT count(*) AS n FROM meetings.call_transcripts' }, other.token).expect(200);
    expect(JSON.stringify(theirs.body.data)).toMatch(/"n":"?0"?/);
  });

  describe('bad input and tenancy', () => {
    it.each([
      ['nothing to record', {}, 'data'],
      ['a segment without speech', { transcript: [{ start_time: 0, end_time: 1, speaker: { name: 'Ada' } }] }, 'data.transcript.0.speech'],
      ['a string time', { transcript: [{ ...segment(0), start_time: '0' }] }, 'data.transcript.0.start_time'],
      ['an end before the start', { transcript: [segment(0), { ...segment(1), end_time: 1 }] }, 'data.transcript[1].end_time'],
      ['a negative time', { transcript: [{ ...segment(0), start_time: -1 }] }, 'data.transcript[0].start_time'],
      ['a speaker without a name', { transcript: [{ ...segment(0), speaker: {} }] }, 'data.transcript.0.speaker.name'],
      ['a bad speaker email', { transcript: [{ ...segment(0), speaker: { name: 'Ada', email_address: 'nope' } }] }, 'data.transcript.0.speaker.email_address'],
      ['a video URL that is not a URL', { video_url: 'not a url' }, 'data.video_url'],
      ['a video URL of another scheme', { video_url: 'ftp://93.184.215.14/x.mp4' }, 'data.video_url'],
      ['a video URL with credentials', { video_url: 'https://user:pw@93.184.215.14/x.mp4' }, 'data.video_url'],
      ['a private video address', { video_url: 'http://10.0.0.5/x.mp4' }, 'private'],
      ['a loopback video host', { video_url: 'https://localhost/x.mp4' }, 'loopback'],
      ['the cloud metadata address', { video_url: 'http://169.254.169.254/latest/meta-data' }, 'metadata'],
    ])('refuses %s with a 400 naming the field, writing nothing', async (_, data, field) => {
      const before = await counts();
      const res = await post(recordings(), { data }).expect(400);
      expect(res.body).toMatchObject({ status_code: 400, type: 'invalid_request_error' });
      expect(res.body.message).toContain(field);
      expect(await counts()).toEqual(before);
    });

    it("404s another workspace's meetings and recordings on every route", async () => {
      const theirs = (await post(recordings(theirMeetingId), { data: { transcript: [segment(0)] } }, other.token).expect(200)).body.data.id.call_recording_id;
      const before = await counts();
      await post(recordings(theirMeetingId), { data: { transcript: [segment(0)] } }).expect(404);
      await get(recordings(theirMeetingId)).expect(404);
      await get(`${recordings(theirMeetingId)}/${theirs}`).expect(404);
      await get(`${recordings(theirMeetingId)}/${theirs}/transcript`).expect(404);
      await del(`${recordings(theirMeetingId)}/${theirs}`).expect(404);
      // Under one's own meeting, another meeting's recording id is unknown too.
      await get(`${recordings()}/${theirs}`).expect(404);
      await get('/v2/meetings/not-a-uuid/call_recordings').expect(404);
      expect(await counts()).toEqual(before);
      await get(`${recordings(theirMeetingId)}/${theirs}`, other.token).expect(200);
    });

    it('needs call_recording:read to read and call_recording:read-write to write (403 naming the scope)', async () => {
      const readOnly = await t.tokenFor(ws.workspaceId, [SCOPES.meetingRead, SCOPES.callRecordingRead]);
      const none = await t.tokenFor(ws.workspaceId, [SCOPES.meetingRead]);
      await get(recordings(), readOnly).expect(200);
      expect((await post(recordings(), { data: { transcript: [segment(0)] } }, readOnly).expect(403)).body.message).toContain('call_recording:read-write');
      expect((await get(recordings(), none).expect(403)).body.message).toContain('call_recording:read');
      const sqlOnly = await t.tokenFor(ws.workspaceId, [SCOPES.recordPermissionRead, SCOPES.objectConfigurationRead, SCOPES.meetingRead]);
      const denied = await post('/v2/sql', { sql: 'SELECT count(*) FROM meetings.call_transcripts' }, sqlOnly).expect(403);
      expect(denied.body.message).toContain('call_recording:read');
      expect((await post('/v2/sql', { sql: 'SELECT * FROM meetings.call_recordings' }).expect(400)).body.message).toContain('meetings.call_recordings');
    });
  });
});
