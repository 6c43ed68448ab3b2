import { DataSource } from 'typeorm';
import { bearerRequests } from '../support/requests';
import { useTestApp, useWorkspace } from '../support/suite';

/**
 * `updated_at` (issue 30 part 1): a read-only system attribute of every object, list and activity,
 * the time of the transaction that last changed a value of the record (its creation included),
 * filterable and sortable like `created_at`. A write that changes nothing, or fails, leaves it.
 */
describe('updated_at on records, entries and activity records (e2e)', () => {
  const t = useTestApp();
  const ws = useWorkspace(t, 'updated-at');
  const { get, post, patch, put } = bearerRequests(() => t, () => ws.token);
  const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> => t.app.get(DataSource).query(text, params);

  type Values = Record<string, Array<{ value?: unknown }>>;
  const updatedAt = (values: Values) => values.updated_at[0].value as string;
  const person = async (id: string) => (await get(`/v2/objects/people/records/${id}`).expect(200)).body.data as { created_at: string; values: Values };
  /** Waits until the database clock has passed `instant`, so that the next transaction's time is later. */
  const clockPast = async (instant: string) => {
    for (;;) {
      const [{ passed }] = await sql<{ passed: boolean }>(`SELECT clock_timestamp() > $1::timestamptz AS passed`, [instant]);
      if (passed) return;
    }
  };

  it('is a read-only system timestamp of objects, custom objects, lists and activities', async () => {
    const attribute = (await get('/v2/objects/people/attributes/updated_at').expect(200)).body.data;
    expect(attribute).toMatchObject({ api_slug: 'updated_at', type: 'timestamp', is_system_attribute: true, is_writable: false });
    await post('/v2/objects', { data: { api_slug: 'gadgets', singular_noun: 'Gadget', plural_noun: 'Gadgets' } }).expect(200);
    expect((await get('/v2/objects/gadgets/attributes/updated_at').expect(200)).body.data).toMatchObject({ type: 'timestamp', is_system_attribute: true, is_writable: false });
    await post('/v2/lists', { data: { name: 'Deals', api_slug: 'deals', parent_object: 'companies' } }).expect(200);
    expect((await get('/v2/lists/deals/attributes/updated_at').expect(200)).body.data).toMatchObject({ type: 'timestamp', is_system_attribute: true, is_writable: false });
    await post('/v2/activities', { data: { api_slug: 'visits', singular_noun: 'Visit', plural_noun: 'Visits', extends: 'calls' } }).expect(200);
    expect((await get('/v2/activities/visits/attributes/updated_at').expect(200)).body.data).toMatchObject({ type: 'timestamp', is_system_attribute: true, is_writable: false });
  });

  it('is the creation time on create, moves on a change, and stays on a no-op or a failed write', async () => {
    const created = (await post('/v2/objects/people/records', { data: { values: { job_title: 'Engineer' } } }).expect(200)).body.data;
    const id = created.id.record_id as string;
    expect(updatedAt(created.values)).toBe(created.created_at);
    expect(created.values.updated_at[0]).toMatchObject({ active_until: null, attribute_type: 'timestamp' });
    expect(updatedAt((await person(id)).values)).toBe(created.created_at);

    await clockPast(created.created_at);
    const changed = (await patch(`/v2/objects/people/records/${id}`, { data: { values: { job_title: 'Founder' } } }).expect(200)).body.data;
    const afterChange = updatedAt(changed.values);
    expect(afterChange > created.created_at).toBe(true);
    expect(changed.created_at).toBe(created.created_at);
    const [{ updated_at }] = await sql<{ updated_at: string }>(
      `SELECT to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"000Z"') AS updated_at FROM records WHERE workspace_id = $1 AND id = $2`,
      [ws.workspaceId, id],
    );
    expect(updated_at).toBe(afterChange);

    await clockPast(afterChange);
    // The same value again changes nothing, so the record was not updated.
    await patch(`/v2/objects/people/records/${id}`, { data: { values: { job_title: 'Founder' } } }).expect(200);
    expect(updatedAt((await person(id)).values)).toBe(afterChange);
    // A refused write (one good value beside a bad one) changes nothing either.
    await patch(`/v2/objects/people/records/${id}`, { data: { values: { job_title: 'CTO', email_addresses: ['not an email'] } } }).expect(400);
    const unchanged = await person(id);
    expect(updatedAt(unchanged.values)).toBe(afterChange);
    expect(unchanged.values.job_title[0].value).toBe('Founder');
  });

  it('is refused when written, on create, update and assert alike', async () => {
    const id = (await post('/v2/objects/people/records', { data: { values: {} } }).expect(200)).body.data.id.record_id as string;
    const before = updatedAt((await person(id)).values);
    for (const send of [
      () => post('/v2/objects/people/records', { data: { values: { updated_at: '2030-01-01T00:00:00Z' } } }),
      () => patch(`/v2/objects/people/records/${id}`, { data: { values: { updated_at: '2030-01-01T00:00:00Z' } } }),
      () => put(`/v2/objects/people/records/${id}`, { data: { values: { updated_at: '2030-01-01T00:00:00Z' } } }),
      () => put('/v2/objects/people/records?matching_attribute=email_addresses', { data: { values: { email_addresses: ['a@x.test'], updated_at: '2030-01-01T00:00:00Z' } } }),
    ]) {
      const res = await send();
      expect([res.status, res.body.type, res.body.message]).toEqual([400, 'invalid_request_error', expect.stringContaining('updated_at')]);
    }
    expect(updatedAt((await person(id)).values)).toBe(before);
    const people = (await post('/v2/objects/people/records/query', { filter: { email_addresses: 'a@x.test' } }).expect(200)).body.data;
    expect(people).toEqual([]);
  });

  it('moves on the other side of a mirrored relationship, which changed too', async () => {
    const company = (await post('/v2/objects/companies/records', { data: { values: { name: 'Acme' } } }).expect(200)).body.data;
    const companyId = company.id.record_id as string;
    await clockPast(company.created_at);
    const employee = (await post('/v2/objects/people/records', { data: { values: { company: [{ target_object: 'companies', target_record_id: companyId }] } } }).expect(200)).body.data;
    const after = (await get(`/v2/objects/companies/records/${companyId}`).expect(200)).body.data;
    expect(after.values.team.map((v: { target_record_id: string }) => v.target_record_id)).toEqual([employee.id.record_id]);
    expect(updatedAt(after.values)).toBe(employee.created_at);
  });

  it('filters ($gte, $lt, $eq) and sorts (asc, desc) records by it', async () => {
    await post('/v2/objects', { data: { api_slug: 'tickets', singular_noun: 'Ticket', plural_noun: 'Tickets' } }).expect(200);
    await post('/v2/objects/tickets/attributes', { data: { title: 'Name', api_slug: 'name', type: 'text', is_required: false, is_unique: false, is_multiselect: false, config: {} } }).expect(200);
    const ids: string[] = [];
    let last = '';
    for (const name of ['a', 'b', 'c']) {
      if (last) await clockPast(last);
      const created = (await post('/v2/objects/tickets/records', { data: { values: { name } } }).expect(200)).body.data;
      ids.push(created.id.record_id);
      last = created.created_at;
    }
    // Touch the first one last: it becomes the most recently updated.
    await clockPast(last);
    const touched = (await patch(`/v2/objects/tickets/records/${ids[0]}`, { data: { values: { name: 'a2' } } }).expect(200)).body.data;
    const touchedAt = updatedAt(touched.values);
    const query = async (body: Record<string, unknown>) =>
      ((await post('/v2/objects/tickets/records/query', body).expect(200)).body.data as Array<{ id: { record_id: string } }>).map((r) => r.id.record_id);

    expect(await query({ sorts: [{ attribute: 'updated_at', direction: 'asc' }] })).toEqual([ids[1], ids[2], ids[0]]);
    expect(await query({ sorts: [{ attribute: 'updated_at', direction: 'desc' }] })).toEqual([ids[0], ids[2], ids[1]]);
    expect(await query({ filter: { updated_at: { $gte: touchedAt } } })).toEqual([ids[0]]);
    expect(await query({ filter: { updated_at: { $lt: touchedAt } }, sorts: [{ attribute: 'updated_at', direction: 'asc' }] })).toEqual([ids[1], ids[2]]);
    expect(await query({ filter: { updated_at: touchedAt } })).toEqual([ids[0]]);
    expect(await query({ filter: { updated_at: { $gt: touchedAt } } })).toEqual([]);

    for (const [filter, field] of [
      [{ updated_at: { $gte: 'yesterday' } }, 'updated_at'],
      [{ updated_at: { $contains: '2026' } }, 'updated_at'],
    ] as const) {
      const res = await post('/v2/objects/tickets/records/query', { filter });
      expect([res.status, res.body.message]).toEqual([400, expect.stringContaining(field)]);
    }
  });

  it('is on list entries (entry_values) and activity records, and moves when they change', async () => {
    await post('/v2/lists', { data: { name: 'Leads', api_slug: 'leads', parent_object: 'companies' } }).expect(200);
    await post('/v2/lists/leads/attributes', { data: { title: 'Score', api_slug: 'score', type: 'number', is_required: false, is_unique: false, is_multiselect: false, config: {} } }).expect(200);
    const companyId = (await post('/v2/objects/companies/records', { data: { values: { name: 'Lead Co' } } }).expect(200)).body.data.id.record_id;
    const entry = (await post('/v2/lists/leads/entries', { data: { parent_record_id: companyId, parent_object: 'companies', entry_values: { score: 1 } } }).expect(200)).body.data;
    expect(updatedAt(entry.entry_values)).toBe(entry.created_at);
    await clockPast(entry.created_at);
    const patched = (await patch(`/v2/lists/leads/entries/${entry.id.entry_id}`, { data: { entry_values: { score: 2 } } }).expect(200)).body.data;
    expect(updatedAt(patched.entry_values) > entry.created_at).toBe(true);
    const entries = (await post('/v2/lists/leads/entries/query', { filter: { updated_at: { $gt: entry.created_at } } }).expect(200)).body.data;
    expect(entries.map((e: { id: { entry_id: string } }) => e.id.entry_id)).toEqual([entry.id.entry_id]);
    await patch(`/v2/lists/leads/entries/${entry.id.entry_id}`, { data: { entry_values: { updated_at: '2030-01-01T00:00:00Z' } } }).expect(400);

    const visits = '/v2/activities/visits/records';
    const visit = (await post(visits, { data: { values: { timestamp: '2026-02-01T10:00:00Z' } } }).expect(200)).body.data;
    expect(updatedAt(visit.values)).toBe(visit.created_at);
    await clockPast(visit.created_at);
    const moved = (await patch(`${visits}/${visit.id.record_id}`, { data: { values: { timestamp: '2026-02-02T10:00:00Z' } } }).expect(200)).body.data;
    expect(updatedAt(moved.values) > visit.created_at).toBe(true);
    const found = (await post(`${visits}/query`, { sorts: [{ attribute: 'updated_at', direction: 'desc' }] }).expect(200)).body.data;
    expect(found[0].id.record_id).toBe(visit.id.record_id);
  });
});
