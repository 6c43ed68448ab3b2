import { SCOPES } from '@workbase/shared/kernel';
import { DataSource } from 'typeorm';
import { meetingBody } from '../support/meetings';
import { bearerRequests, expectEachRefused } from '../support/requests';
import { useTestApp, useWorkspace } from '../support/suite';

/**
 * `POST /v2/objects/{object}/records/merge` (issue 32 part 3; attio-2026-surface §3): a new
 * record of the two, the primary's values first, both originals gone, everything that hung on
 * them re-pointed, two `record.merged` events; one transaction, so a refused merge changes nothing.
 */
describe('record merge (e2e)', () => {
  const t = useTestApp();
  const ws = useWorkspace(t, 'merge');
  const other = useWorkspace(t, 'merge-other');
  const { get, post, createRecord } = bearerRequests(() => t, () => ws.token);
  const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> => t.app.get(DataSource).query(text, params);
  const merge = (primary: string, secondary: string, object = 'people', token = ws.token) =>
    post(`/v2/objects/${object}/records/merge`, { data: { primary_record_id: primary, secondary_record_id: secondary } }, token);
  const values = async (object: string, id: string) => (await get(`/v2/objects/${object}/records/${id}`).expect(200)).body.data.values;
  const lastEvent = async () => Number((await sql<{ n: string }>(`SELECT coalesce(max(id), 0) AS n FROM event_outbox`))[0].n);
  /** Everything a merge could change in the workspace. */
  const footprint = async () =>
    (
      await sql(
        `SELECT (SELECT count(*) FROM records WHERE workspace_id = $1) AS records,
                (SELECT count(*) FROM record_values WHERE workspace_id = $1 AND active_until IS NULL) AS current_values,
                (SELECT count(*) FROM unique_values WHERE workspace_id = $1) AS claims,
                (SELECT count(*) FROM event_outbox WHERE workspace_id = $1) AS events`,
        [ws.workspaceId],
      )
    )[0];

  beforeAll(async () => {
    await post('/v2/lists', { data: { name: 'Leads', api_slug: 'leads', parent_object: 'people' } }).expect(200);
  });

  it('makes a new record: primary values win, multi-valued attributes unite, unique values move, originals are gone', async () => {
    const acme = await createRecord('companies', { name: 'Acme' });
    const globex = await createRecord('companies', { name: 'Globex' });
    const primary = await createRecord('people', {
      name: 'Lovelace, Ada',
      email_addresses: ['ada@acme.test', 'shared@acme.test'],
      job_title: 'Analyst',
      company: [{ target_object: 'companies', target_record_id: acme }],
    });
    const secondary = await createRecord('people', {
      name: 'Byron, Augusta',
      email_addresses: ['augusta@acme.test', 'countess@globex.test'],
      description: 'From the import',
      company: [{ target_object: 'companies', target_record_id: globex }],
      phone_numbers: ['+44 20 7946 0958'],
    });
    const since = await lastEvent();

    const res = await merge(primary, secondary).expect(200);
    const newId = res.body.data.new_record_id as string;
    expect(res.body).toEqual({ data: { new_record_id: expect.any(String) } });
    expect([primary, secondary]).not.toContain(newId);

    const merged = await values('people', newId);
    expect(merged.name[0].full_name).toBe('Ada Lovelace');
    expect(merged.job_title[0].value).toBe('Analyst');
    expect(merged.description[0].value).toBe('From the import');
    expect(merged.email_addresses.map((v: { email_address: string }) => v.email_address)).toEqual([
      'ada@acme.test',
      'shared@acme.test',
      'augusta@acme.test',
      'countess@globex.test',
    ]);
    expect(merged.phone_numbers).toHaveLength(1);
    expect(merged.company.map((v: { target_record_id: string }) => v.target_record_id)).toEqual([acme]);

    // The other side of the relationship follows: Acme's team has the new record, Globex's lost the secondary.
    expect((await values('companies', acme)).team.map((v: { target_record_id: string }) => v.target_record_id)).toEqual([newId]);
    expect((await values('companies', globex)).team ?? []).toEqual([]);

    for (const id of [primary, secondary]) {
      expect((await get(`/v2/objects/people/records/${id}`).expect(404)).body).toMatchObject({ status_code: 404, type: 'invalid_request_error', code: 'not_found' });
      await t.http().patch(`/v2/objects/people/records/${id}`).set({ Authorization: `Bearer ${ws.token}` }).send({ data: { values: { job_title: 'x' } } }).expect(404);
    }
    // The originals' unique values are the new record's: another record cannot take them, an assert finds the new record.
    expect((await post('/v2/objects/people/records', { data: { values: { email_addresses: ['countess@globex.test'] } } }).expect(409)).body.code).toBe('uniqueness_conflict');
    const asserted = await t
      .http()
      .put('/v2/objects/people/records?matching_attribute=email_addresses')
      .set({ Authorization: `Bearer ${ws.token}` })
      .send({ data: { values: { email_addresses: ['ada@acme.test'] } } })
      .expect(200);
    expect(asserted.body.data.id.record_id).toBe(newId);

    const events = await sql<{ event_type: string; entity_id: Record<string, string>; actor: { type: string }; payload: Record<string, string> }>(
      `SELECT event_type, entity_id, actor, payload FROM event_outbox WHERE workspace_id = $1 AND id > $2 AND event_type = 'record.merged' ORDER BY id`,
      [ws.workspaceId, since],
    );
    const peopleId = (await get('/v2/objects/people').expect(200)).body.data.id.object_id;
    expect(events.map((e) => [e.entity_id, e.payload, e.actor.type])).toEqual(
      [primary, secondary].map((duplicate) => [
        { workspace_id: ws.workspaceId, object_id: peopleId, record_id: newId },
        { duplicate_record_id: duplicate, duplicate_object_id: peopleId },
        'api-token',
      ]),
    );

    // Not idempotent: the originals are merged away.
    expect((await merge(primary, secondary).expect(404)).body).toMatchObject({ code: 'not_found' });
  });

  it('re-points list entries, notes, comment threads, tasks, meetings and incoming references, keeping their ids', async () => {
    const primary = await createRecord('people', { name: 'Hopper, Grace' });
    const secondary = await createRecord('people', { name: 'Hopper, G.' });
    const entryA = (await post('/v2/lists/leads/entries', { data: { parent_record_id: primary, parent_object: 'people', entry_values: {} } }).expect(200)).body.data.id.entry_id;
    const entryB = (await post('/v2/lists/leads/entries', { data: { parent_record_id: secondary, parent_object: 'people', entry_values: {} } }).expect(200)).body.data.id.entry_id;
    const note = (await post('/v2/notes', { data: { parent_object: 'people', parent_record_id: secondary, title: 'Call', format: 'plaintext', content: 'hi' } }).expect(200)).body
      .data.id.note_id;
    const thread = (await post('/v2/comments', { data: { format: 'plaintext', content: 'ping', record: { object: 'people', record_id: secondary } } }).expect(200)).body.data
      .thread_id;
    const linked = [
      { target_object: 'people', target_record_id: primary },
      { target_object: 'people', target_record_id: secondary },
    ];
    const task = (await post('/v2/tasks', { data: { content: 'Follow up', format: 'plaintext', deadline_at: null, is_completed: false, linked_records: linked, assignees: [] } }).expect(200))
      .body.data.id.task_id;
    const meeting = (await post('/v2/meetings', meetingBody({ linked_records: [{ object: 'people', record_id: secondary }] })).expect(200)).body.data.id.meeting_id;
    const deal = await createRecord('deals', { name: 'Big one', stage: 'Lead', associated_people: [primary, secondary].map((id) => ({ target_object: 'people', target_record_id: id })) });

    const newId = (await merge(primary, secondary).expect(200)).body.data.new_record_id as string;

    const entries = (await get(`/v2/objects/people/records/${newId}/entries`).expect(200)).body.data.map((e: { entry_id: string }) => e.entry_id);
    expect(entries.sort()).toEqual([entryA, entryB].sort());
    expect((await get(`/v2/lists/leads/entries/${entryB}`).expect(200)).body.data.parent_record_id).toBe(newId);
    expect((await get(`/v2/notes/${note}`).expect(200)).body.data.parent_record_id).toBe(newId);
    expect((await get(`/v2/threads/${thread}`).expect(200)).body.data.comments[0].record.record_id).toBe(newId);
    expect((await get(`/v2/tasks/${task}`).expect(200)).body.data.linked_records).toEqual([{ target_object_id: expect.any(String), target_record_id: newId }]);
    expect((await get(`/v2/meetings/${meeting}`).expect(200)).body.data.linked_records).toEqual([expect.objectContaining({ record_id: newId })]);
    // The deal named both originals; it names the new record once, and the new record names the deal.
    expect((await values('deals', deal)).associated_people.map((v: { target_record_id: string }) => v.target_record_id)).toEqual([newId]);
    expect((await values('people', newId)).associated_deals.map((v: { target_record_id: string }) => v.target_record_id)).toEqual([deal]);
  });

  it('a relationship with both sides on one object: no self-reference, no merged-away id, both sides consistent', async () => {
    // people.manager (one) <-> people.reports (many), and a plain self-referencing people.referred_by.
    await post('/v2/objects/people/attributes', {
      data: {
        title: 'Manager', api_slug: 'manager', type: 'record-reference', is_required: false, is_unique: false, is_multiselect: false, config: {},
        relationship: { object: 'people', title: 'Reports', api_slug: 'reports', is_multiselect: true },
      },
    }).expect(200);
    await post('/v2/objects/people/attributes', {
      data: { title: 'Referred by', api_slug: 'referred_by', type: 'record-reference', is_required: false, is_unique: false, is_multiselect: false, config: { record_reference: { allowed_objects: ['people'] } } },
    }).expect(200);
    const person = (id: string) => [{ target_object: 'people', target_record_id: id }];
    const refs = (vals: Record<string, Array<{ target_record_id: string }>> | undefined, slug: string) => (vals?.[slug] ?? []).map((v) => v.target_record_id).sort();

    const boss = await createRecord('people', { name: 'Boss, Big' });
    const scout = await createRecord('people', { name: 'Scout, Talent' });
    // The secondary manages the primary and another report; then each is marked as referred by the other.
    const secondary = await createRecord('people', { name: 'Lead, Team', manager: person(boss), referred_by: person(scout) });
    const primary = await createRecord('people', { name: 'Lead, T.', manager: person(secondary) });
    const report = await createRecord('people', { name: 'Report, Other', manager: person(secondary) });
    await t.http().patch(`/v2/objects/people/records/${primary}`).set({ Authorization: `Bearer ${ws.token}` }).send({ data: { values: { referred_by: person(secondary) } } }).expect(200);
    await t.http().patch(`/v2/objects/people/records/${secondary}`).set({ Authorization: `Bearer ${ws.token}` }).send({ data: { values: { referred_by: person(primary) } } }).expect(200);
    expect(refs(await values('people', secondary), 'reports')).toEqual([primary, report].sort());

    const newId = (await merge(primary, secondary).expect(200)).body.data.new_record_id as string;

    const merged = await values('people', newId);
    // The primary's manager was the secondary (itself, now): dropped, so the secondary's manager fills in.
    expect(refs(merged, 'manager')).toEqual([boss]);
    // The secondary's reports were the primary (itself, now) and another: only the other stays.
    expect(refs(merged, 'reports')).toEqual([report]);
    // Each named the other (the patch replaced the secondary's scout): both dropped, nothing left to fill in.
    expect(refs(merged, 'referred_by')).toEqual([]);
    // The mirrored sides agree: the boss reports the new record (not the secondary), the report is managed by it.
    expect(refs(await values('people', boss), 'reports')).toEqual([newId]);
    expect(refs(await values('people', report), 'manager')).toEqual([newId]);
    // Nothing current in the workspace names either original, and the new record names itself nowhere.
    const dangling = await sql<{ n: string }>(
      `SELECT count(*) AS n FROM record_values WHERE workspace_id = $1 AND active_until IS NULL AND (value_ref = ANY ($2::uuid[]) OR (record_id = $3 AND value_ref = $3))`,
      [ws.workspaceId, [primary, secondary], newId],
    );
    expect(Number(dangling[0].n)).toBe(0);
  });

  it('is one transaction: a merge failing in its last steps (a listener) leaves both originals, their values, links and claims as they were', async () => {
    const primary = await createRecord('people', { name: 'Atom, Ic', email_addresses: ['atomic@acme.test'] });
    const secondary = await createRecord('people', { name: 'Atom, Ik', email_addresses: ['atomik@acme.test'] });
    const deal = await createRecord('deals', { name: 'Linked', stage: 'Lead', associated_people: [{ target_object: 'people', target_record_id: secondary }] });
    await post('/v2/notes', { data: { parent_object: 'people', parent_record_id: secondary, title: 'Kept', format: 'plaintext', content: 'x' } }).expect(200);
    // A real failure inside the merge's transaction: moving the notes (a listener, after the new
    // record, its claims and the re-pointed references were written) raises, as a deadlock would
    // (answered 409 concurrent_write_conflict, the documented outcome of a deadlocked merge).
    await sql(`CREATE FUNCTION merge_test_refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused by the test' USING ERRCODE = '40P01'; END $$`);
    await sql(`CREATE TRIGGER merge_test_refuse BEFORE UPDATE ON notes FOR EACH ROW EXECUTE FUNCTION merge_test_refuse()`);
    const before = await footprint();
    try {
      expect((await merge(primary, secondary).expect(409)).body.code).toBe('concurrent_write_conflict');
    } finally {
      await sql(`DROP TRIGGER merge_test_refuse ON notes`);
      await sql(`DROP FUNCTION merge_test_refuse()`);
    }
    expect(await footprint()).toEqual(before);
    expect((await values('people', secondary)).email_addresses[0].email_address).toBe('atomik@acme.test');
    expect((await values('deals', deal)).associated_people.map((v: { target_record_id: string }) => v.target_record_id)).toEqual([secondary]);
    // And the same merge then succeeds.
    await merge(primary, secondary).expect(200);
  });

  it('refuses a self merge with 400 self_merge and changes nothing', async () => {
    const ada = await createRecord('people', { name: 'Self, Same' });
    const before = await footprint();
    const res = await merge(ada, ada).expect(400);
    expect(res.body).toMatchObject({ status_code: 400, type: 'invalid_request_error', code: 'self_merge' });
    expect(res.body.message).toContain(ada);
    expect(await footprint()).toEqual(before);
  });

  it('answers 404 for an unknown record, a record of another object or workspace, an unknown object; nothing changes', async () => {
    const ada = await createRecord('people', { name: 'Only, One' });
    const company = await createRecord('companies', { name: 'Initech' });
    const foreign = await bearerRequests(() => t, () => other.token).createRecord('people', { name: 'Else, Where' });
    const before = await footprint();
    for (const [primary, secondary] of [
      [ada, '00000000-0000-4000-8000-000000000000'],
      ['00000000-0000-4000-8000-000000000000', ada],
      [ada, company],
      [ada, foreign],
      [foreign, ada],
    ]) {
      expect({ primary, secondary, status: (await merge(primary, secondary)).status }).toEqual({ primary, secondary, status: 404 });
    }
    await merge(company, ada, 'companies').expect(404);
    await merge(ada, company, 'martians').expect(404);
    expect(await footprint()).toEqual(before);
    await get(`/v2/objects/people/records/${ada}`).expect(200);
  });

  it('refuses malformed bodies naming the field, and a token without write scope', async () => {
    const ada = await createRecord('people', { name: 'Body, Bad' });
    await expectEachRefused<object>(
      [
        [{}, 'data'],
        [{ data: null }, 'data'],
        [{ data: { primary_record_id: ada } }, 'secondary_record_id'],
        [{ data: { secondary_record_id: ada } }, 'primary_record_id'],
        [{ data: { primary_record_id: 'not-a-uuid', secondary_record_id: ada } }, 'primary_record_id'],
        [{ data: { primary_record_id: ada, secondary_record_id: 42 } }, 'secondary_record_id'],
      ],
      (body) => post('/v2/objects/people/records/merge', body),
    );
    const readOnly = await t.tokenFor(ws.workspaceId, [SCOPES.recordPermissionRead, SCOPES.objectConfigurationRead]);
    const other = await createRecord('people', { name: 'Body, Good' });
    expect((await merge(ada, other, 'people', readOnly).expect(403)).body.code).toBe('unauthorized');
    await get(`/v2/objects/people/records/${other}`).expect(200);
  });
});

/**
 * The reference limits record merge to 5 requests per second. Counted by the service's rate
 * limiter (per token, as every limit), in a budget of the route's own besides the write limit.
 */
describe('record merge rate limit (e2e)', () => {
  // The write limit is raised so that only the merge route's own limit can answer 429 here.
  const t = useTestApp({ env: { RATE_LIMIT_ENABLED: 'true', RATE_LIMIT_WRITES_PER_SECOND: '1000', RATE_LIMIT_READS_PER_SECOND: '1000' } });
  const ws = useWorkspace(t, 'merge-limit');
  const other = useWorkspace(t, 'merge-limit-other');
  const { get, post, createRecord } = bearerRequests(() => t, () => ws.token);
  const merge = (pair: readonly [string, string], token = ws.token) =>
    post('/v2/objects/people/records/merge', { data: { primary_record_id: pair[0], secondary_record_id: pair[1] } }, token);
  const pairs = async (count: number, token = ws.token) =>
    Promise.all(
      Array.from({ length: count }, async (_, i) => [await createRecord('people', { name: `Pair${i}, A` }, token), await createRecord('people', { name: `Pair${i}, B` }, token)] as const),
    );
  /** Waits for the next one-second window (windows are aligned on the clock), so that a burst lands in one. */
  const atWindowStart = () => new Promise((resolve) => setTimeout(resolve, 1000 - (Date.now() % 1000) + 15));

  it('answers the 6th merge within a second with 429 and Retry-After, merging nothing; another workspace is not affected', async () => {
    const mine = await pairs(6);
    const theirs = await pairs(1, other.token);

    await atWindowStart();
    const [responses, foreign] = await Promise.all([Promise.all(mine.map((pair) => merge(pair))), merge(theirs[0], other.token)]);

    expect(responses.map((res) => res.status).sort()).toEqual([200, 200, 200, 200, 200, 429]);
    expect(foreign.status).toBe(200);
    const refused = responses.findIndex((res) => res.status === 429);
    expect(responses[refused].body).toEqual({ status_code: 429, type: 'rate_limit_error', code: 'rate_limit_exceeded', message: expect.any(String) });
    const retryAfter = responses[refused].headers['retry-after'];
    expect(retryAfter).toMatch(/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
    expect(Date.parse(retryAfter) - Date.now()).toBeLessThan(3000);
    // The refused merge did nothing: both records are still there, and it goes through once the window has passed.
    for (const id of mine[refused]) await get(`/v2/objects/people/records/${id}`).expect(200);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, Date.parse(retryAfter) - Date.now()) + 50));
    await merge(mine[refused]).expect(200);
  });

  it('documents the limit on the operation', async () => {
    const operation = (await t.http().get('/openapi.json').expect(200)).body.paths['/v2/objects/{object}/records/merge'].post;
    expect(operation['x-rate-limit']).toEqual({ requests: 5, per_seconds: 1 });
    expect(operation.responses['429']).toBeDefined();
  });

  it('leaves other writes of the token alone while merges are limited', async () => {
    const mine = await pairs(6);
    await atWindowStart();
    const [merges, created] = await Promise.all([Promise.all(mine.map((pair) => merge(pair))), post('/v2/objects/people/records', { data: { values: { name: 'Still, Writes' } } })]);
    expect(merges.filter((res) => res.status === 429)).toHaveLength(1);
    expect(created.status).toBe(200);
  });
});
