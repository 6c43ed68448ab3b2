import { DataSource } from 'typeorm';
import { useTestApp, useWorkspace } from '../support/suite';
import { meetingBody } from '../support/meetings';

/** `external_ref` on meeting create: accepted, stored and returned, never matched. */
describe('meetings: external_ref', () => {
  const t = useTestApp();
  const ws = useWorkspace(t, 'meetings-ref');

  const post = (body: object) => t.http().post('/v2/meetings').set('Authorization', `Bearer ${ws.token}`).send(body);
  const get = (path: string) => t.http().get(path).set('Authorization', `Bearer ${ws.token}`);
  const meetings = async () => Number((await t.app.get(DataSource).query(`SELECT count(*) AS n FROM meetings WHERE workspace_id = $1`, [ws.workspaceId]))[0].n);
  const meeting = (externalRef?: unknown) =>
    meetingBody({
      start: { datetime: '2026-03-02T15:00:00Z', timezone: 'Europe/London' },
      end: { datetime: '2026-03-02T16:00:00Z', timezone: 'Europe/London' },
      ...(externalRef === undefined ? {} : { external_ref: externalRef }),
    });
  const ref = { ical_uid: '040000008200E00074C5B7101A82E008', provider: 'microsoft', is_recurring: true, original_start_time: '2026-03-02T16:00:00+01:00' };

  it('returns external_ref as given (the instant normalised), on create, get and list', async () => {
    const created = (await post(meeting(ref)).expect(200)).body.data;
    expect(created.external_ref).toEqual({ ...ref, original_start_time: '2026-03-02T15:00:00.000Z' });
    expect((await get(`/v2/meetings/${created.id.meeting_id}`).expect(200)).body.data.external_ref).toEqual(created.external_ref);
    const listed = (await get('/v2/meetings').expect(200)).body.data.find((m: { id: { meeting_id: string } }) => m.id.meeting_id === created.id.meeting_id);
    expect(listed.external_ref).toEqual(created.external_ref);
  });

  it('is null without one, and the minimal form is ical_uid + provider', async () => {
    expect((await post(meeting()).expect(200)).body.data.external_ref).toBeNull();
    expect((await post(meeting(null)).expect(200)).body.data.external_ref).toBeNull();
    expect((await post(meeting({ ical_uid: 'abc@google.com', provider: 'google' })).expect(200)).body.data.external_ref).toEqual({ ical_uid: 'abc@google.com', provider: 'google' });
  });

  it('takes the string form too (the reference schema allows a non-empty string or the object), returned as given', async () => {
    const uid = 'event-7f3a@calendar.example';
    const created = (await post(meeting(uid)).expect(200)).body.data;
    expect(created.external_ref).toBe(uid);
    expect((await get(`/v2/meetings/${created.id.meeting_id}`).expect(200)).body.data.external_ref).toBe(uid);
    expect((await post(meeting('x'.repeat(1000))).expect(200)).body.data.external_ref).toHaveLength(1000);
  });

  it('never matches: the same external_ref twice creates two meetings', async () => {
    const before = await meetings();
    const first = (await post(meeting(ref)).expect(200)).body.data.id.meeting_id;
    const second = (await post(meeting(ref)).expect(200)).body.data.id.meeting_id;
    expect(second).not.toBe(first);
    expect(await meetings()).toBe(before + 2);
  });

  it.each([
    ['no ical_uid', { provider: 'google' }, 'data.external_ref.ical_uid'],
    ['an empty ical_uid', { ical_uid: '', provider: 'google' }, 'data.external_ref.ical_uid'],
    ['no provider', { ical_uid: 'x' }, 'data.external_ref.provider'],
    ['a non-boolean is_recurring', { ical_uid: 'x', provider: 'google', is_recurring: 'yes' }, 'data.external_ref.is_recurring'],
    ['an original_start_time without offset', { ical_uid: 'x', provider: 'google', original_start_time: '2026-03-02T15:00:00' }, 'data.external_ref.original_start_time'],
    ['an unknown field', { ical_uid: 'x', provider: 'google', etag: '1' }, 'data.external_ref.etag'],
    ['an empty string', '', 'data.external_ref'],
    ['a string longer than 1000 characters', 'x'.repeat(1001), 'data.external_ref'],
    ['a string with NUL', 'a\u0000b', 'data.external_ref'],
    ['a number', 5, 'data.external_ref'],
    ['an array', ['abc'], 'data.external_ref'],
  ])('refuses %s with a 400 naming the field, creating nothing', async (_, value, field) => {
    const before = await meetings();
    const res = await post(meeting(value)).expect(400);
    expect(res.body).toMatchObject({ status_code: 400, type: 'invalid_request_error' });
    expect(res.body.message).toContain(field);
    expect(await meetings()).toBe(before);
  });
});
