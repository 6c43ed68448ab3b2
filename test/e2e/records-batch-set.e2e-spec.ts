import { DataSource } from 'typeorm';
import { bearerRequests } from '../support/requests';
import { useTestApp, useWorkspace } from '../support/suite';

type Item = { index: number; status: number; data?: { id: { record_id: string }; values: Record<string, Array<Record<string, unknown>>> }; error?: { code: string; message: string } };

/**
 * The set-based path of batch creates and asserts (issue 30 part 4): independent items are
 * written together, the order-dependent ones (a key two items share, a key a record holds, a
 * refusal) go one by one in their place. The outcome must be the one of applying every item in
 * order with the single endpoints: same answers, same records, same mirrored links, same events.
 */
describe('batch creates and asserts written set-based (e2e)', () => {
  const t = useTestApp();
  const ws = useWorkspace(t, 'batch-set');
  const twin = useWorkspace(t, 'batch-set-twin');
  const { get, post, put } = bearerRequests(() => t, () => ws.token);
  const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> => t.app.get(DataSource).query(text, params);
  const batch = (operations: unknown, extra: Record<string, unknown> = {}, token = ws.token) => post('/v2/objects/people/records/batch', { operations, ...extra }, token);
  const person = (email: string, name: string, company?: string) => ({
    values: { email_addresses: [email], name, ...(company ? { company: [{ target_object: 'companies', target_record_id: company }] } : {}) },
  });
  const lastEvent = async () => Number((await sql<{ n: string }>(`SELECT coalesce(max(id), 0) AS n FROM event_outbox`))[0].n);
  const eventsSince = async (workspaceId: string, id: number) =>
    sql<{ event_type: string; entity_id: Record<string, string> }>(`SELECT event_type, entity_id FROM event_outbox WHERE workspace_id = $1 AND id > $2 ORDER BY id`, [workspaceId, id]);
  /** Records, value rows, unique claims and events of a workspace: what a write leaves behind. */
  const footprint = async (workspaceId: string) =>
    (await sql<Record<string, string>>(
      `SELECT (SELECT count(*) FROM records WHERE workspace_id = $1) AS records,
              (SELECT count(*) FROM record_values WHERE workspace_id = $1) AS values,
              (SELECT count(*) FROM unique_values WHERE workspace_id = $1) AS claims,
              (SELECT count(*) FROM event_outbox WHERE workspace_id = $1) AS events,
              (SELECT coalesce(sum(version), 0) FROM records WHERE workspace_id = $1) AS versions`,
      [workspaceId],
    ))[0];
  /** A company's team as person emails, in value order, and its version. */
  const team = async (workspaceId: string, company: string) => {
    const [row] = await sql<{ version: string; team: string[] | null }>(
      `SELECT r.version, (SELECT array_agg(e.value_text ORDER BY v.id)
                            FROM record_values v JOIN attributes a ON a.workspace_id = v.workspace_id AND a.id = v.attribute_id AND a.api_slug = 'team'
                            JOIN record_values e ON e.workspace_id = v.workspace_id AND e.record_id = v.value_ref AND e.active_until IS NULL
                            JOIN attributes ea ON ea.workspace_id = e.workspace_id AND ea.id = e.attribute_id AND ea.api_slug = 'email_addresses'
                           WHERE v.workspace_id = r.workspace_id AND v.record_id = r.id AND v.active_until IS NULL) AS team
         FROM records r WHERE r.workspace_id = $1 AND r.id = $2`,
      [workspaceId, company],
    );
    return { version: Number(row.version), team: row.team ?? [] };
  };

  it('answers, writes, links and records events exactly as the same operations sent one by one', async () => {
    const companiesOf = async (token: string) =>
      Promise.all(['Acme', 'Globex'].map(async (name) => (await post('/v2/objects/companies/records', { data: { values: { name } } }, token).expect(200)).body.data.id.record_id as string));
    const [acme, globex] = await companiesOf(ws.token);
    const [twinAcme, twinGlobex] = await companiesOf(twin.token);
    const existing = (token: string, company: string) => post('/v2/objects/people/records', { data: person('old@set.test', 'Old', company) }, token).expect(200);
    await existing(ws.token, acme);
    await existing(twin.token, twinAcme);

    const operations = (a: string, g: string) => [
      { op: 'create', data: person('p1@set.test', 'One', a) },
      { op: 'assert', matching_attribute: 'email_addresses', data: person('p2@set.test', 'Two', g) },
      { op: 'assert', matching_attribute: 'email_addresses', data: person('old@set.test', 'Old Again', g) },
      { op: 'create', data: person('p3@set.test', 'Three') },
      { op: 'assert', matching_attribute: 'email_addresses', data: person('p2@set.test', 'Two Again', a) },
      { op: 'create', data: { values: { email_addresses: ['broken'] } } },
      { op: 'create', data: person('p4@set.test', 'Four', a) },
    ];
    const since = await lastEvent();
    const items: Item[] = (await batch(operations(acme, globex)).expect(200)).body.data;
    const twinSince = await lastEvent();
    const singles: Array<{ status: number; body: { data?: Item['data']; code?: string } }> = [];
    for (const op of operations(twinAcme, twinGlobex)) {
      singles.push(
        op.op === 'create'
          ? await post('/v2/objects/people/records', { data: op.data }, twin.token)
          : await put('/v2/objects/people/records?matching_attribute=email_addresses', { data: op.data }, twin.token),
      );
    }

    // The same statuses and values, item by item.
    expect(items.map((item) => item.status)).toEqual(singles.map((single) => single.status));
    expect(items.map((item) => item.status)).toEqual([200, 200, 200, 200, 200, 400, 200]);
    const shown = (data: Item['data']) => data && { email: data.values.email_addresses[0]?.email_address, name: data.values.name[0]?.full_name, companies: data.values.company.length };
    // An item is answered as the batch left its record; a single answer, as it was then: compare the last write of each record.
    expect(shown(items[6].data)).toEqual(shown(singles[6].body.data));
    expect(shown(items[4].data)).toEqual(shown(singles[4].body.data));
    expect(shown(items[2].data)).toEqual(shown(singles[2].body.data));
    expect(items[4].data!.id.record_id).toBe(items[1].data!.id.record_id);
    // Each answered record is the record a GET answers (the set-based items are answered from their insert).
    for (const item of items.filter((i) => i.status === 200)) {
      expect((await get(`/v2/objects/people/records/${item.data!.id.record_id}`).expect(200)).body.data).toEqual(item.data);
    }

    // The same footprint: records, values, claims, events, versions.
    const [mine, theirs] = [await footprint(ws.workspaceId), await footprint(twin.workspaceId)];
    expect(mine).toEqual(theirs);
    // The same mirrored links on the companies, in the same order, and the same versions.
    expect(await team(ws.workspaceId, acme)).toEqual(await team(twin.workspaceId, twinAcme));
    expect(await team(ws.workspaceId, globex)).toEqual(await team(twin.workspaceId, twinGlobex));
    expect((await team(ws.workspaceId, acme)).team).toEqual(['p1@set.test', 'p2@set.test', 'p4@set.test']);

    // The same events in the same order, naming records by their role.
    const roles = (companies: string[]) => (events: Array<{ event_type: string; entity_id: Record<string, string> }>, people: Map<string, string>) =>
      events.map((e) => [e.event_type, companies.includes(e.entity_id.record_id) ? `company ${companies.indexOf(e.entity_id.record_id)}` : (people.get(e.entity_id.record_id) ?? 'other'), e.entity_id.attribute_id ? 'attribute' : '']);
    const peopleOf = async (workspaceId: string) =>
      new Map(
        (await sql<{ record_id: string; value_text: string }>(
          `SELECT u.record_id, u.value_key AS value_text FROM unique_values u WHERE u.workspace_id = $1`,
          [workspaceId],
        )).map((row) => [row.record_id, row.value_text]),
      );
    const myEvents = roles([acme, globex])(await eventsSince(ws.workspaceId, since), await peopleOf(ws.workspaceId));
    const twinEvents = roles([twinAcme, twinGlobex])(await eventsSince(twin.workspaceId, twinSince), await peopleOf(twin.workspaceId));
    expect(myEvents).toEqual(twinEvents);
    expect(myEvents.filter(([type]) => type === 'record.created')).toHaveLength(4);
  });

  it('writes keys two items share, and keys records hold, one by one in their place', async () => {
    const held = (await post('/v2/objects/people/records', { data: person('held@set.test', 'Held') }).expect(200)).body.data.id.record_id as string;
    const doomed = (await post('/v2/objects/people/records', { data: person('doomed@set.test', 'Doomed') }).expect(200)).body.data.id.record_id as string;
    const items: Item[] = (
      await batch([
        { op: 'create', data: person('dup@set.test', 'Dup 1') },
        { op: 'create', data: person('free-1@set.test', 'Free 1') },
        { op: 'create', data: person('dup@set.test', 'Dup 2') },
        { op: 'create', data: person('held@set.test', 'Not Held') },
        { op: 'delete', record_id: doomed },
        // The deleted record's key is free again for a create after the delete.
        { op: 'create', data: person('doomed@set.test', 'Reborn') },
        { op: 'assert', matching_attribute: 'email_addresses', data: person('held@set.test', 'Held Again') },
        { op: 'create', data: { values: { email_addresses: ['multi-1@set.test', 'multi-2@set.test'], name: 'Multi' } } },
        { op: 'assert', matching_attribute: 'email_addresses', data: person('multi-2@set.test', 'Multi Again') },
        { op: 'create', data: person('free-2@set.test', 'Free 2') },
      ]).expect(200)
    ).body.data;
    expect(items.map((item) => item.status)).toEqual([200, 200, 409, 409, 200, 200, 200, 200, 200, 200]);
    expect(items[2].error!.code).toBe('uniqueness_conflict');
    expect(items[2].error!.message).toContain(items[0].data!.id.record_id);
    expect(items[3].error!.message).toContain(held);
    expect(items[5].data!.id.record_id).not.toBe(doomed);
    expect(items[6].data!.id.record_id).toBe(held);
    expect(items[6].data!.values.name[0].full_name).toBe('Held Again');
    expect(items[8].data!.id.record_id).toBe(items[7].data!.id.record_id);
    expect(items[8].data!.values.email_addresses.map((e) => e.email_address)).toEqual(['multi-1@set.test', 'multi-2@set.test']);
    const claims = await sql<{ value_key: string; record_id: string }>(`SELECT value_key, record_id FROM unique_values WHERE workspace_id = $1 ORDER BY value_key`, [ws.workspaceId]);
    const holder = new Map(claims.map((c) => [c.value_key, c.record_id]));
    expect(holder.get('dup@set.test')).toBe(items[0].data!.id.record_id);
    expect(holder.get('held@set.test')).toBe(held);
    expect(holder.get('doomed@set.test')).toBe(items[5].data!.id.record_id);
    await get(`/v2/objects/people/records/${doomed}`).expect(404);
  });

  it('applies nothing when atomic and a set-based item conflicts: 400 naming the first failing index, links and events untouched', async () => {
    const company = (await post('/v2/objects/companies/records', { data: { values: { name: 'Atomic Co' } } }).expect(200)).body.data.id.record_id as string;
    await post('/v2/objects/people/records', { data: person('atomic-held@set.test', 'Held') }).expect(200);
    const before = await footprint(ws.workspaceId);
    const links = await team(ws.workspaceId, company);
    const res = await batch(
      [
        { op: 'create', data: person('atomic-1@set.test', 'One', company) },
        { op: 'assert', matching_attribute: 'email_addresses', data: person('atomic-2@set.test', 'Two', company) },
        { op: 'create', data: person('atomic-held@set.test', 'Clash', company) },
        { op: 'create', data: { values: { email_addresses: ['broken'] } } },
      ],
      { atomic: true },
    );
    expect([res.status, res.body.type]).toEqual([400, 'invalid_request_error']);
    expect(res.body.message).toContain('operations[2]');
    expect(await footprint(ws.workspaceId)).toEqual(before);
    expect(await team(ws.workspaceId, company)).toEqual(links);

    // Refused items of a non-atomic batch leave nothing either, and each applied one its usual events.
    const since = await lastEvent();
    const items: Item[] = (
      await batch([
        { op: 'create', data: person('partial-1@set.test', 'One', company) },
        { op: 'create', data: { values: { email_addresses: ['partial-2@set.test'], name: 'Two', company: [{ target_object: 'companies', target_record_id: '00000000-0000-4000-8000-000000000000' }] } } },
        { op: 'create', data: person('atomic-held@set.test', 'Clash', company) },
        { op: 'assert', matching_attribute: 'email_addresses', data: person('partial-3@set.test', 'Three', company) },
      ]).expect(200)
    ).body.data;
    expect(items.map((item) => item.status)).toEqual([200, 400, 409, 200]);
    expect(items[1].error!.code).toBe('value_not_found');
    // As the single endpoint answers it.
    const single = await post('/v2/objects/people/records', { data: { values: { company: [{ target_object: 'companies', target_record_id: '00000000-0000-4000-8000-000000000000' }] } } });
    expect([single.status, single.body.code]).toEqual([400, 'value_not_found']);
    const after = await footprint(ws.workspaceId);
    expect(Number(after.records) - Number(before.records)).toBe(2);
    expect(Number(after.claims) - Number(before.claims)).toBe(2);
    const events = (await eventsSince(ws.workspaceId, since)).map((e) => [e.event_type, e.entity_id.record_id]);
    expect(events).toEqual([
      ['record.updated', company],
      ['record.created', items[0].data!.id.record_id],
      ['record.updated', company],
      ['record.created', items[3].data!.id.record_id],
    ]);
    expect(await team(ws.workspaceId, company)).toEqual({ version: links.version + 2, team: ['partial-1@set.test', 'partial-3@set.test'] });
  });

  it('goes one by one when another transaction claims a key between the look-up and the insert', async () => {
    const [{ container_id: people, attribute_id: email }] = await sql<{ container_id: string; attribute_id: string }>(
      `SELECT a.container_id, a.id AS attribute_id FROM attributes a JOIN objects o ON o.workspace_id = a.workspace_id AND o.id = a.container_id
        WHERE a.workspace_id = $1 AND o.api_slug = 'people' AND a.api_slug = 'email_addresses'`,
      [ws.workspaceId],
    );
    const racer = t.app.get(DataSource).createQueryRunner();
    await racer.connect();
    try {
      await racer.startTransaction();
      const [{ id: rival }] = await racer.query(`INSERT INTO records (workspace_id, id, container_id, created_by) VALUES ($1, gen_random_uuid(), $2, '{"type":"system","id":null}') RETURNING id`, [
        ws.workspaceId,
        people,
      ]);
      await racer.query(`INSERT INTO unique_values (workspace_id, attribute_id, value_key, record_id) VALUES ($1, $2, 'race@set.test', $3)`, [ws.workspaceId, email, rival]);
      const pending = batch([
        { op: 'create', data: person('race-free@set.test', 'Free') },
        { op: 'create', data: person('race@set.test', 'Racer') },
      ]).then((res) => res);
      // The batch's insert waits on the uncommitted claim; once it commits, the claim is the rival's.
      await new Promise((resolve) => setTimeout(resolve, 500));
      await racer.commitTransaction();
      const res = await pending;
      expect(res.status).toBe(200);
      expect(res.body.data.map((item: Item) => item.status)).toEqual([200, 409]);
      expect(res.body.data[1].error.message).toContain(rival);
      const holders = await sql<{ value_key: string; record_id: string }>(`SELECT value_key, record_id FROM unique_values WHERE workspace_id = $1 AND value_key LIKE 'race%' ORDER BY value_key`, [ws.workspaceId]);
      expect(holders).toEqual([
        { value_key: 'race-free@set.test', record_id: res.body.data[0].data.id.record_id },
        { value_key: 'race@set.test', record_id: rival },
      ]);
    } finally {
      if (racer.isTransactionActive) await racer.rollbackTransaction();
      await racer.release();
    }
  });

  it('goes one by one when another transaction deletes a linked record between the look-up and the links: its item refused as the single create refuses it, not a 500', async () => {
    const company = async (name: string) => (await post('/v2/objects/companies/records', { data: { values: { name } } }).expect(200)).body.data.id.record_id as string;
    const kept = await company('Kept Co');
    const doomed = await company('Doomed Co');
    const racer = t.app.get(DataSource).createQueryRunner();
    await racer.connect();
    try {
      await racer.startTransaction();
      await racer.query(`DELETE FROM records WHERE workspace_id = $1 AND id = $2`, [ws.workspaceId, doomed]);
      const since = await lastEvent();
      const pending = batch([
        { op: 'create', data: person('kept@gone.test', 'Kept', kept) },
        { op: 'create', data: person('doomed@gone.test', 'Doomed', doomed) },
      ]).then((res) => res);
      // The batch planned with the company still there, and now waits for its lock.
      for (let waited = 0; ; waited += 20) {
        const [{ waiting }] = await sql<{ waiting: number }>(`SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%FOR UPDATE%'`);
        if (waiting > 0) break;
        if (waited > 10_000) throw new Error('the batch never waited for the linked records\' locks');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await racer.commitTransaction();
      const res = await pending;
      expect(res.status).toBe(200);
      expect(res.body.data.map((item: Item) => item.status)).toEqual([200, 400]);
      expect(res.body.data[1].error).toMatchObject({ code: 'value_not_found', message: expect.stringContaining(doomed) });
      const people = await sql<{ value_text: string }>(
        `SELECT v.value_text FROM record_values v JOIN attributes a ON a.workspace_id = v.workspace_id AND a.id = v.attribute_id AND a.api_slug = 'email_addresses'
          WHERE v.workspace_id = $1 AND v.value_text LIKE '%@gone.test'`,
        [ws.workspaceId],
      );
      expect(people).toEqual([{ value_text: 'kept@gone.test' }]);
      expect(await team(ws.workspaceId, kept)).toEqual({ version: 2, team: ['kept@gone.test'] });
      const events = await eventsSince(ws.workspaceId, since);
      expect(events.map((e) => [e.event_type, e.entity_id.record_id])).toEqual([
        ['record.updated', kept],
        ['record.created', res.body.data[0].data.id.record_id],
      ]);
    } finally {
      if (racer.isTransactionActive) await racer.rollbackTransaction();
      await racer.release();
    }
  });

  it('takes a linked id given in capitals as the same link, in lower case, in a batch and one by one', async () => {
    const company = (await post('/v2/objects/companies/records', { data: { values: { name: 'Capitals Co' } } }).expect(200)).body.data.id.record_id as string;
    const values = (email: string) => ({
      email_addresses: [email],
      company: [{ target_object: 'companies', target_record_id: company.toUpperCase() }],
    });
    const since = await lastEvent();
    const single = (await post('/v2/objects/people/records', { data: { values: values('caps-single@set.test') } }).expect(200)).body.data;
    const batched: Item = (await batch([{ op: 'create', data: { values: values('caps-batch@set.test') } }]).expect(200)).body.data[0];
    for (const answer of [single, batched.data!]) {
      expect(answer.values.company.map((v: Record<string, unknown>) => v.target_record_id)).toEqual([company]);
    }
    const events = await eventsSince(ws.workspaceId, since);
    expect(events.filter((e) => e.event_type === 'record.updated').map((e) => e.entity_id.record_id)).toEqual([company, company]);
    expect(await team(ws.workspaceId, company)).toEqual({ version: 3, team: ['caps-single@set.test', 'caps-batch@set.test'] });
  });
});
