import { SCOPES } from '@workbase/shared/kernel';
import { DataSource } from 'typeorm';
import { bearerRequests } from '../support/requests';
import { useTestApp, useWorkspace } from '../support/suite';

/** POST /v2/meetings finds or creates the people (and companies) of participants with an email. */
describe('meetings: participants become people', () => {
  const t = useTestApp();
  const ws = useWorkspace(t, 'meeting-people');

  const { get, post, createRecord } = bearerRequests(() => t, () => ws.token);
  const db = () => t.app.get(DataSource);

  type Participant = { email_address?: string | null; name?: string | null; is_organizer?: boolean; status?: string };
  const meeting = (participants: Participant[], extra: Record<string, unknown> = {}) => ({
    data: {
      title: 'Intro',
      description: '',
      is_all_day: false,
      start: { datetime: '2026-03-02T15:00:00Z', timezone: null },
      end: { datetime: '2026-03-02T16:00:00Z', timezone: null },
      participants: participants.map((p, i) => ({ is_organizer: i === 0, status: 'accepted', ...p })),
      ...extra,
    },
  });

  /** Record ids holding a unique value (lower-cased email, or domain) of a standard object's attribute. */
  async function holders(workspaceId: string, object: 'people' | 'companies', attribute: string, key: string): Promise<string[]> {
    const rows: Array<{ record_id: string }> = await db().query(
      `SELECT uv.record_id FROM unique_values uv
         JOIN attributes a ON a.workspace_id = uv.workspace_id AND a.id = uv.attribute_id
         JOIN objects o ON o.workspace_id = a.workspace_id AND o.id = a.container_id
        WHERE uv.workspace_id = $1 AND o.api_slug = $2 AND a.api_slug = $3 AND uv.value_key = $4`,
      [workspaceId, object, attribute, key],
    );
    return rows.map((row) => row.record_id);
  }
  const count = async (workspaceId: string, object: 'people' | 'companies'): Promise<number> =>
    (
      await db().query(`SELECT count(*)::int AS n FROM records r JOIN objects o ON o.workspace_id = r.workspace_id AND o.id = r.container_id WHERE r.workspace_id = $1 AND o.api_slug = $2`, [
        workspaceId,
        object,
      ])
    )[0].n as number;
  const lastEventId = async (): Promise<string> => (await db().query(`SELECT coalesce(max(id), 0)::text AS id FROM event_outbox`))[0].id as string;
  const eventsSince = async (workspaceId: string, since: string): Promise<Array<{ type: string; id: Record<string, string>; actor: unknown }>> =>
    (await db().query(`SELECT event_type, entity_id, actor FROM event_outbox WHERE workspace_id = $1 AND id > $2::bigint ORDER BY id`, [workspaceId, since])).map(
      (row: { event_type: string; entity_id: Record<string, string>; actor: unknown }) => ({ type: row.event_type, id: row.entity_id, actor: row.actor }),
    );
  const values = async (object: string, recordId: string, token = ws.token) => (await get(`/v2/objects/${object}/records/${recordId}`, token).expect(200)).body.data.values;

  it('creates a person for an unknown address, named after the participant, with a company for a business domain, all linked', async () => {
    const since = await lastEventId();
    const res = await post(
      '/v2/meetings',
      meeting([
        { email_address: '  Olga.Petrova@Eng.Acme-Widgets.co.uk ', name: '  Olga   Maria Petrova ' },
        { email_address: null, name: 'Room 4' },
      ]),
    ).expect(200);
    const created = res.body.data;
    const [personId] = await holders(ws.workspaceId, 'people', 'email_addresses', 'olga.petrova@eng.acme-widgets.co.uk');
    expect(personId).toEqual(expect.any(String));
    expect(created.linked_records).toEqual([{ object_slug: 'people', object_id: expect.any(String), record_id: personId }]);
    expect(created.participants[0]).toEqual({ status: 'accepted', is_organizer: true, email_address: 'Olga.Petrova@Eng.Acme-Widgets.co.uk', name: '  Olga   Maria Petrova ' });

    const person = await values('people', personId);
    expect(person.email_addresses).toEqual([expect.objectContaining({ email_address: 'olga.petrova@eng.acme-widgets.co.uk', original_email_address: 'Olga.Petrova@Eng.Acme-Widgets.co.uk' })]);
    expect(person.name).toEqual([expect.objectContaining({ first_name: 'Olga Maria', last_name: 'Petrova', full_name: 'Olga Maria Petrova' })]);
    // The company is found or created by the email's root domain (not the mail host).
    const [companyId] = await holders(ws.workspaceId, 'companies', 'domains', 'acme-widgets.co.uk');
    expect(companyId).toEqual(expect.any(String));
    expect(person.company).toEqual([expect.objectContaining({ target_object: 'companies', target_record_id: companyId })]);
    const company = await values('companies', companyId);
    expect(company.domains).toEqual([expect.objectContaining({ domain: 'acme-widgets.co.uk' })]);
    expect(company.team).toEqual([expect.objectContaining({ target_object: 'people', target_record_id: personId })]);

    // The record engine recorded the creations, with the token's actor (the meeting's creator).
    const recorded = await eventsSince(ws.workspaceId, since);
    const createdIds = recorded.filter((e) => e.type === 'record.created').map((e) => e.id.record_id);
    expect(createdIds.sort()).toEqual([personId, companyId].sort());
    for (const event of recorded) expect(event.actor).toEqual(created.created_by_actor);
    // The person is found through the meeting's linked record filter.
    const listed = await get(`/v2/meetings?linked_object=people&linked_record_id=${personId}`).expect(200);
    expect(listed.body.data.map((m: { id: { meeting_id: string } }) => m.id.meeting_id)).toEqual([created.id.meeting_id]);
  });

  it('reuses an existing person (email in any case) and never writes to them; a second meeting reuses the person it created', async () => {
    const existing = await createRecord('people', { email_addresses: ['ada@lovelace-engines.org'], name: 'Lovelace, Ada' });
    let since = await lastEventId();
    const first = (await post('/v2/meetings', meeting([{ email_address: 'ADA@Lovelace-Engines.ORG', name: 'Someone Else' }])).expect(200)).body.data;
    expect(first.linked_records).toEqual([{ object_slug: 'people', object_id: expect.any(String), record_id: existing }]);
    expect(await eventsSince(ws.workspaceId, since)).toEqual([]);
    expect((await values('people', existing)).name).toEqual([expect.objectContaining({ full_name: 'Ada Lovelace' })]);
    expect(await holders(ws.workspaceId, 'companies', 'domains', 'lovelace-engines.org')).toEqual([]);

    const people = await count(ws.workspaceId, 'people');
    await post('/v2/meetings', meeting([{ email_address: 'grace@hopper-labs.io', name: 'Grace Hopper' }])).expect(200);
    const [grace] = await holders(ws.workspaceId, 'people', 'email_addresses', 'grace@hopper-labs.io');
    since = await lastEventId();
    const again = (await post('/v2/meetings', meeting([{ email_address: 'Grace@Hopper-Labs.io', name: 'Grace Hopper' }])).expect(200)).body.data;
    expect(again.linked_records).toEqual([{ object_slug: 'people', object_id: expect.any(String), record_id: grace }]);
    expect(await eventsSince(ws.workspaceId, since)).toEqual([]);
    expect(await count(ws.workspaceId, 'people')).toBe(people + 1);

    // Another new person at the same business domain joins the same company.
    await post('/v2/meetings', meeting([{ email_address: 'alan@hopper-labs.io' }])).expect(200);
    const [alan] = await holders(ws.workspaceId, 'people', 'email_addresses', 'alan@hopper-labs.io');
    const companies = await holders(ws.workspaceId, 'companies', 'domains', 'hopper-labs.io');
    expect(companies).toHaveLength(1);
    expect((await values('people', alan)).company).toEqual([expect.objectContaining({ target_record_id: companies[0] })]);
    expect((await values('people', grace)).company).toEqual([expect.objectContaining({ target_record_id: companies[0] })]);
    // No name given: the person has none.
    expect((await values('people', alan)).name).toEqual([]);
  });

  it('creates no company for free-mail addresses (gmail, googlemail, gmx.*, outlook, …); reads "Last, First" and single names', async () => {
    const companies = await count(ws.workspaceId, 'companies');
    await post(
      '/v2/meetings',
      meeting([
        { email_address: 'lin@gmail.com', name: 'Chen, Lin' },
        { email_address: 'max@googlemail.com', name: 'Max' },
        { email_address: 'hans@gmx.de', name: '   ' },
        { email_address: 'joe@outlook.com' },
        { email_address: 'amy@mail.yahoo.com' },
      ]),
    ).expect(200);
    expect(await count(ws.workspaceId, 'companies')).toBe(companies);
    const [lin] = await holders(ws.workspaceId, 'people', 'email_addresses', 'lin@gmail.com');
    const [max] = await holders(ws.workspaceId, 'people', 'email_addresses', 'max@googlemail.com');
    const [hans] = await holders(ws.workspaceId, 'people', 'email_addresses', 'hans@gmx.de');
    expect((await values('people', lin)).name).toEqual([expect.objectContaining({ first_name: 'Lin', last_name: 'Chen', full_name: 'Lin Chen' })]);
    expect((await values('people', max)).name).toEqual([expect.objectContaining({ first_name: 'Max', last_name: '', full_name: 'Max' })]);
    expect((await values('people', hans)).name).toEqual([]);
    for (const id of [lin, max, hans]) expect((await values('people', id)).company).toEqual([]);
    expect(await holders(ws.workspaceId, 'people', 'email_addresses', 'joe@outlook.com')).toHaveLength(1);
    expect(await holders(ws.workspaceId, 'people', 'email_addresses', 'amy@mail.yahoo.com')).toHaveLength(1);
  });

  it('a meeting refused later in the body (unknown linked record) creates no people, no companies and no events', async () => {
    const people = await count(ws.workspaceId, 'people');
    const companies = await count(ws.workspaceId, 'companies');
    const since = await lastEventId();
    const res = await post(
      '/v2/meetings',
      meeting([{ email_address: 'ghost@phantom-corp.com', name: 'Ghost' }, { email_address: 'spirit@gmail.com' }], {
        linked_records: [{ object: 'companies', record_id: '00000000-0000-4000-8000-000000000000' }],
      }),
    ).expect(400);
    expect(res.body).toMatchObject({ code: 'value_not_found', message: expect.stringContaining('data.linked_records[0].record_id') });
    expect(await count(ws.workspaceId, 'people')).toBe(people);
    expect(await count(ws.workspaceId, 'companies')).toBe(companies);
    expect(await holders(ws.workspaceId, 'people', 'email_addresses', 'ghost@phantom-corp.com')).toEqual([]);
    expect(await eventsSince(ws.workspaceId, since)).toEqual([]);
  });

  it('parallel meetings with the same new participant create one person and one company', async () => {
    const since = await lastEventId();
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => post('/v2/meetings', meeting([{ email_address: i % 2 ? 'Rosa@Parallel-Works.com' : 'rosa@parallel-works.com', name: 'Rosa Park' }]))),
    );
    expect(results.map((r) => r.status)).toEqual(Array(8).fill(200));
    const rosa = await holders(ws.workspaceId, 'people', 'email_addresses', 'rosa@parallel-works.com');
    expect(rosa).toHaveLength(1);
    expect(await holders(ws.workspaceId, 'companies', 'domains', 'parallel-works.com')).toHaveLength(1);
    for (const r of results) expect(r.body.data.linked_records).toEqual([{ object_slug: 'people', object_id: expect.any(String), record_id: rosa[0] }]);
    const recorded = await eventsSince(ws.workspaceId, since);
    expect(recorded.filter((e) => e.type === 'record.created')).toHaveLength(2);
    const [{ n }] = await db().query(
      `SELECT count(*)::int AS n FROM records r JOIN objects o ON o.workspace_id = r.workspace_id AND o.id = r.container_id WHERE r.workspace_id = $1 AND o.api_slug = 'people' AND r.id = $2`,
      [ws.workspaceId, rosa[0]],
    );
    expect(n).toBe(1);
  });

  it('parallel meetings whose new participants cross companies in opposite orders all succeed (no deadlock)', async () => {
    const bodies = Array.from({ length: 6 }, (_, i) =>
      i % 2
        ? meeting([{ email_address: `a${i}@north-cross.com` }, { email_address: `z${i}@south-cross.com` }, { email_address: 'shared@north-cross.com' }])
        : meeting([{ email_address: `a${i}@south-cross.com` }, { email_address: `z${i}@north-cross.com` }, { email_address: 'shared@south-cross.com' }]),
    );
    const results = await Promise.all(bodies.map((body) => post('/v2/meetings', body)));
    expect(results.map((r) => r.status)).toEqual(Array(6).fill(200));
    expect(await holders(ws.workspaceId, 'companies', 'domains', 'north-cross.com')).toHaveLength(1);
    expect(await holders(ws.workspaceId, 'companies', 'domains', 'south-cross.com')).toHaveLength(1);
    expect(await holders(ws.workspaceId, 'people', 'email_addresses', 'shared@north-cross.com')).toHaveLength(1);
  });

  it('creates people in the meeting creator’s workspace only, with meeting:read-write + record_permission:read', async () => {
    const other = await t.createWorkspace('meeting-people-other');
    const token = await t.tokenFor(other.workspaceId, [SCOPES.meetingReadWrite, SCOPES.recordPermissionRead]);
    await post('/v2/meetings', meeting([{ email_address: 'olga.petrova@eng.acme-widgets.co.uk', name: 'Olga Petrova' }]), token).expect(200);
    const [theirs] = await holders(other.workspaceId, 'people', 'email_addresses', 'olga.petrova@eng.acme-widgets.co.uk');
    const [mine] = await holders(ws.workspaceId, 'people', 'email_addresses', 'olga.petrova@eng.acme-widgets.co.uk');
    expect(theirs).toEqual(expect.any(String));
    expect(theirs).not.toBe(mine);
    expect(await holders(other.workspaceId, 'companies', 'domains', 'acme-widgets.co.uk')).toHaveLength(1);
  });
});
