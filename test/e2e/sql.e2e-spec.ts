import { SCOPES } from '@workbase/shared/kernel';
import { Client } from 'pg';
import { startTestApp, type TestApp, type TestWorkspace } from '../support/test-app';

type Row = Record<string, unknown>;

/** POST /v2/sql: answers agree with the records API, joins, types, lists, introspection, scopes, bad bodies. */
describe('SQL endpoint', () => {
  let t: TestApp;
  let ws: TestWorkspace;
  const people: Record<string, string> = {};
  const company: Record<string, string> = {};

  const as = (token: string) => ({ Authorization: `Bearer ${token}` });
  const post = (path: string, body: object, token = ws.token) => t.http().post(path).set(as(token)).send(body);
  const sql = (query: string, token = ws.token) => post('/v2/sql', { sql: query }, token);
  const rows = async (query: string): Promise<Row[]> => {
    const res = await sql(query);
    if (res.status !== 200) throw new Error(`${res.status} ${JSON.stringify(res.body)} for ${query}`);
    return res.body.data.rows;
  };
  const at = (day: number, hour = 10) => `2026-03-${String(day).padStart(2, '0')}T${String(hour).padStart(2, '0')}:00:00Z`;

  beforeAll(async () => {
    t = await startTestApp();
    ws = await t.createWorkspace('sql-main');
    await post('/v2/activities', { data: { api_slug: 'acme_calls', singular_noun: 'Call', plural_noun: 'Calls', extends: 'calls' } }).expect(200);
    const attr = (api_slug: string, type: string, extra: object = {}) =>
      post('/v2/activities/acme_calls/attributes', { data: { title: api_slug, api_slug, type, is_required: false, is_unique: false, is_multiselect: false, config: {}, ...extra } }).expect(200);
    await attr('tags', 'select', { is_multiselect: true });
    for (const title of ['hot', 'cold']) await post('/v2/activities/acme_calls/attributes/tags/options', { data: { title } }).expect(200);
    await attr('amount', 'currency', { config: { currency: { default_currency_code: 'EUR', display_type: 'symbol' } } });
    await attr('done', 'checkbox');
    for (const [name, domain] of [['Acme', 'acme.test'], ['Globex', 'globex.test']]) {
      company[name] = (await post('/v2/objects/companies/records', { data: { values: { name, domains: [domain] } } }).expect(200)).body.data.id.record_id;
    }
    for (const [name, email, org] of [['Ada Lovelace', 'ada@acme.test', 'Acme'], ['Brian Kernighan', 'bwk@globex.test', 'Globex'], ['Grace Hopper', 'grace@acme.test', 'Acme']]) {
      people[name] = (await post('/v2/objects/people/records', { data: { values: { name, email_addresses: [email], company: { target_object: 'companies', target_record_id: company[org] } } } }).expect(200)).body.data.id.record_id;
    }
    const calls: Array<[number, string, number, string[], string[]]> = [
      [1, 'Inbound', 30, ['Ada Lovelace'], ['hot']],
      [1, 'Outbound', 95, ['Ada Lovelace', 'Grace Hopper'], ['hot', 'cold']],
      [2, 'Outbound', 120, ['Brian Kernighan'], []],
      [3, 'Inbound', 45, ['Grace Hopper'], ['cold']],
      [3, 'Outbound', 300, ['Ada Lovelace'], ['hot']],
      [4, 'Outbound', 10, [], []],
      [5, 'Inbound', 61, ['Brian Kernighan', 'Ada Lovelace'], ['hot']],
    ];
    for (const [index, [day, direction, duration, who, tags]] of calls.entries()) {
      const values = { timestamp: at(day, 9 + index), direction, duration, participants: who.map((name) => ({ target_object: 'people', target_record_id: people[name] })), tags, amount: `${index}.25`, done: index % 2 === 0 };
      await post('/v2/activities/acme_calls/records', { data: { values } }).expect(200);
    }
    // A record with no direction and no duration: NULLs in SQL, absent in the API's values.
    await post('/v2/activities/acme_calls/records', { data: { values: { timestamp: at(6) } } }).expect(200);
  });
  afterAll(() => t.close());

  /** Every record of the activity through the records API. */
  async function apiRecords(filter: object = {}): Promise<Array<{ values: Record<string, Row[]> }>> {
    return (await post('/v2/activities/acme_calls/records/query', { filter, limit: 1000 }).expect(200)).body.data;
  }

  describe('answers agree with the records API', () => {
    it('counts, with and without a filter', async () => {
      expect(await rows('SELECT count(*) AS n FROM activities.acme_calls')).toEqual([{ n: (await apiRecords()).length }]);
      const long = (await apiRecords({ duration: { $gt: 60 } })).length;
      expect(long).toBe(4);
      expect(await rows('SELECT count(*) AS n FROM activities.acme_calls WHERE duration > 60')).toEqual([{ n: long }]);
      const inbound = (await apiRecords({ direction: 'Inbound' })).length;
      expect(await rows("SELECT count(*) AS n FROM activities.acme_calls WHERE direction = 'Inbound'")).toEqual([{ n: inbound }]);
    });

    it('conditions applied inside the relation (pushdown) give the same rows as the same conditions above it', async () => {
      // `(cond) IS TRUE` is never pushed down (only bare comparisons are), so each pair runs both ways.
      const shapes: Array<[string, string, number]> = [
        ['duration > 60', 'c.duration > 60', 4],
        ['duration BETWEEN 30 AND 95', 'c.duration >= 30 AND c.duration <= 95', 4],
        ["direction IN ('Inbound', 'Nope')", "c.direction = 'Inbound' OR c.direction = 'Nope'", 3],
        ['direction IS NULL', 'c.direction IS NULL', 1],
        ['duration IS NOT NULL', 'c.duration IS NOT NULL', 7],
        ["timestamp >= '2026-03-03' AND timestamp < '2026-03-05T00:00:00Z'::timestamptz", "c.timestamp >= '2026-03-03T00:00:00Z'::timestamptz AND c.timestamp < '2026-03-05T00:00:00Z'::timestamptz", 3],
        ["'2026-03-03' <= timestamp", "c.timestamp >= '2026-03-03T00:00:00Z'::timestamptz", 5],
        ['amount <> 1.25', 'c.amount <> 1.25', 6],
        ["direction > 'J'", "c.direction > 'J'", 4],
        ["created_at < '2000-01-01'", "c.created_at < '2000-01-01T00:00:00Z'::timestamptz", 0],
      ];
      for (const [pushed, above, count] of shapes) {
        const viaPushdown = await rows(`SELECT record_id, duration, direction FROM activities.acme_calls WHERE ${pushed} ORDER BY record_id`);
        const viaFence = await rows(`SELECT c.record_id, c.duration, c.direction FROM activities.acme_calls c WHERE (${above}) IS TRUE ORDER BY c.record_id`);
        expect({ pushed, rows: viaPushdown }).toEqual({ pushed, rows: viaFence });
        expect({ pushed, count: viaFence.length }).toEqual({ pushed, count });
      }
      const ids = (await rows('SELECT record_id FROM activities.acme_calls ORDER BY record_id')).map((row) => row.record_id as string);
      expect(await rows(`SELECT record_id FROM activities.acme_calls WHERE record_id = '${ids[2]}'`)).toEqual([{ record_id: ids[2] }]);
      expect(await rows(`SELECT count(*) AS n FROM activities.acme_calls WHERE record_id IN ('${ids[0]}', '${ids[1]}', '00000000-0000-4000-8000-000000000000')`)).toEqual([{ n: 2 }]);
      // The preserved side of an outer join filtered early, the nullable side left alone.
      const left = await rows("SELECT c.duration, p.name FROM activities.acme_calls c LEFT JOIN people p ON p.record_id = ANY (c.participants) AND p.name = 'Nobody' WHERE c.duration > 100 ORDER BY c.duration");
      expect(left).toEqual([{ duration: '120', name: null }, { duration: '300', name: null }]);
      // A bad constant fails the statement, as it would without pushdown.
      const bad = await sql("SELECT count(*) FROM activities.acme_calls WHERE duration > 'lots'").expect(400);
      expect(bad.body.message).toMatch(/invalid input syntax for type numeric: "lots"/);
    });

    it('a small LIMIT, and statements reading only some columns, answer like the full relation', async () => {
      const all = await rows('SELECT * FROM activities.acme_calls ORDER BY record_id');
      const some = await rows('SELECT record_id, tags, participants, amount FROM activities.acme_calls ORDER BY record_id');
      expect(some).toEqual(all.map((row) => ({ record_id: row.record_id, tags: row.tags, participants: row.participants, amount: row.amount })));
      const limited = await rows('SELECT * FROM activities.acme_calls LIMIT 3');
      expect(limited).toHaveLength(3);
      for (const row of limited) expect(all).toContainEqual(row);
      expect(await rows('SELECT count(*) AS n FROM activities.acme_calls')).toEqual([{ n: all.length }]);
    });

    it('group-bys: per direction count and total duration, as computed from the API records', async () => {
      const expected = new Map<string | null, { n: number; total: number }>();
      for (const record of await apiRecords()) {
        const direction = ((record.values.direction[0]?.option as { title?: string } | undefined)?.title ?? null) as string | null;
        const duration = (record.values.duration[0]?.value as number | undefined) ?? 0;
        const entry = expected.get(direction) ?? { n: 0, total: 0 };
        expected.set(direction, { n: entry.n + 1, total: entry.total + duration });
      }
      const got = await rows('SELECT direction, count(*) AS n, coalesce(sum(duration), 0) AS total FROM activities.acme_calls GROUP BY direction ORDER BY direction NULLS LAST');
      expect(got).toEqual(
        [...expected.entries()]
          .sort(([a], [b]) => (a === null ? 1 : b === null ? -1 : a.localeCompare(b)))
          .map(([direction, { n, total }]) => ({ direction, n, total: String(total) })),
      );
      expect(got.map((r) => r.direction)).toEqual(['Inbound', 'Outbound', null]);
    });

    it('per day, with date functions and HAVING', async () => {
      expect(await rows("SELECT date_trunc('day', timestamp)::date AS day, count(*) AS n FROM activities.acme_calls GROUP BY 1 HAVING count(*) > 1 ORDER BY 1")).toEqual([
        { day: '2026-03-01', n: 2 },
        { day: '2026-03-03', n: 2 },
      ]);
    });
  });

  describe('joins with objects', () => {
    it('calls per participant: activity ⋈ objects.people over the participants array', async () => {
      const got = await rows(
        'SELECT p.name, count(*) AS calls, sum(c.duration) AS seconds FROM activities.acme_calls c JOIN objects.people p ON p.record_id = ANY (c.participants) GROUP BY p.name ORDER BY calls DESC, p.name',
      );
      expect(got).toEqual([
        { name: 'Ada Lovelace', calls: 4, seconds: '486' },
        { name: 'Brian Kernighan', calls: 2, seconds: '181' },
        { name: 'Grace Hopper', calls: 2, seconds: '140' },
      ]);
    });

    it('two hops (call → person → company), unqualified people (objects is the default schema), CTEs and window functions', async () => {
      const got = await rows(
        `WITH per_company AS (
           SELECT co.name AS company, count(DISTINCT c.record_id) AS calls
             FROM activities.acme_calls c
             CROSS JOIN LATERAL unnest(c.participants) AS who(id)
             JOIN people p ON p.record_id = who.id
             JOIN companies co ON co.record_id = p.company
            GROUP BY co.name)
         SELECT company, calls, rank() OVER (ORDER BY calls DESC) AS place FROM per_company ORDER BY place, company`,
      );
      expect(got).toEqual([
        { company: 'Acme', calls: 5, place: 1 },
        { company: 'Globex', calls: 2, place: 2 },
      ]);
    });

    it('EXISTS and IN subqueries over another table', async () => {
      const got = await rows(
        `SELECT name FROM people p WHERE EXISTS (SELECT 1 FROM activities.acme_calls c WHERE p.record_id = ANY (c.participants) AND c.direction = 'Inbound')
          AND p.record_id NOT IN (SELECT unnest(participants) FROM activities.acme_calls WHERE duration = 300) ORDER BY name`,
      );
      expect(got).toEqual([{ name: 'Brian Kernighan' }, { name: 'Grace Hopper' }]);
    });
  });

  describe('columns and types', () => {
    it('exposes record_id, created_at, created_by and typed attribute columns, and reports the result types', async () => {
      const res = await sql("SELECT * FROM activities.acme_calls WHERE duration = 95").expect(200);
      const api = (await apiRecords({ duration: 95 }))[0] as unknown as { id: { record_id: string }; created_at: string; created_by: Row };
      expect(res.body.data.rows).toHaveLength(1);
      const row = res.body.data.rows[0];
      expect(row).toMatchObject({
        record_id: api.id.record_id,
        created_at: api.created_at.replace(/\d{3}Z$/, '000Z'),
        created_by: api.created_by,
        timestamp: '2026-03-01T10:00:00.000000000Z',
        direction: 'Outbound',
        duration: '95',
        amount: '1.25',
        done: false,
        phone_number: null,
        linked_records: [],
      });
      expect([...row.participants].sort()).toEqual([people['Ada Lovelace'], people['Grace Hopper']].sort());
      expect([...row.tags].sort()).toEqual(['cold', 'hot']);
      const types = Object.fromEntries(res.body.data.columns.map((c: { name: string; type: string }) => [c.name, c.type]));
      expect(types).toMatchObject({
        record_id: 'uuid', created_at: 'timestamptz', created_by: 'jsonb', timestamp: 'timestamptz', direction: 'text', duration: 'numeric',
        participants: 'uuid[]', tags: 'text[]', amount: 'numeric', done: 'boolean',
      });
      expect(res.body.data.truncated).toBe(false);
      expect(res.body.data.columns.map((c: { name: string }) => c.name).slice(0, 3)).toEqual(['record_id', 'created_at', 'created_by']);
    });

    it('returns values as JSON: bigint and int as numbers, numeric as exact strings, jsonb as objects, repeated names suffixed', async () => {
      expect(await rows("SELECT 1 AS a, 2::bigint AS a, 9007199254740993::bigint AS big, 1.50::numeric AS n, 0.1::float8 AS f, '{\"k\":[1]}'::jsonb AS j, ARRAY[1,2] AS arr, NULL AS z, true AS b")).toEqual([
        { a: 1, a_2: 2, big: '9007199254740993', n: '1.5', f: 0.1, j: { k: [1] }, arr: [1, 2], z: null, b: true },
      ]);
      expect(await rows("SELECT '2026-01-02'::date AS d, '2026-01-02T03:04:05.678Z'::timestamptz AS ts, interval '1 day' AS i")).toEqual([
        { d: '2026-01-02', ts: '2026-01-02T03:04:05.678000000Z', i: '1 day' },
      ]);
    });

    it('keeps ORDER BY, LIMIT and OFFSET of the statement', async () => {
      expect((await rows('SELECT x FROM generate_series(1, 50) AS x ORDER BY x DESC LIMIT 3 OFFSET 1')).map((r) => r.x)).toEqual([49, 48, 47]);
      expect((await rows('SELECT duration FROM activities.acme_calls WHERE duration IS NOT NULL ORDER BY duration')).map((r) => r.duration)).toEqual(['10', '30', '45', '61', '95', '120', '300']);
    });

    it('caps results at 10,000 rows and says so', async () => {
      const res = await sql('SELECT x FROM generate_series(1, 10005) AS x').expect(200);
      expect(res.body.data.rows).toHaveLength(10_000);
      expect(res.body.data.truncated).toBe(true);
      expect(res.body.data.rows[9_999]).toEqual({ x: 10_000 });
      expect((await sql('SELECT x FROM generate_series(1, 10000) AS x').expect(200)).body.data.truncated).toBe(false);
    });

    it('sees current values only: an overwritten value is not counted', async () => {
      const id = (await post('/v2/activities/acme_calls/records', { data: { values: { timestamp: at(20), duration: 7 } } }).expect(200)).body.data.id.record_id;
      await t.http().patch(`/v2/activities/acme_calls/records/${id}`).set(as(ws.token)).send({ data: { values: { duration: 8 } } }).expect(200);
      expect(await rows(`SELECT duration FROM activities.acme_calls WHERE record_id = '${id}'`)).toEqual([{ duration: '8' }]);
      await t.http().delete(`/v2/activities/acme_calls/records/${id}`).set(as(ws.token)).expect(200);
      expect(await rows(`SELECT count(*) AS n FROM activities.acme_calls WHERE record_id = '${id}'`)).toEqual([{ n: 0 }]);
    });
  });

  describe('lists', () => {
    it('serves list entries with their parent record and entry attributes', async () => {
      await post('/v2/lists', { data: { name: 'Pipeline', api_slug: 'pipeline', parent_object: 'companies' } }).expect(200);
      await post('/v2/lists/pipeline/attributes', { data: { title: 'Stage', api_slug: 'stage', type: 'status', is_required: false, is_unique: false, is_multiselect: false, config: {} } }).expect(200);
      await post('/v2/lists/pipeline/attributes/stage/statuses', { data: { title: 'Won' } }).expect(200);
      const entry = (await post('/v2/lists/pipeline/entries', { data: { parent_record_id: company.Acme, parent_object: 'companies', entry_values: { stage: 'Won' } } }).expect(200)).body.data.id.entry_id;
      expect(await rows('SELECT e.record_id, entry_id, parent_record_id, parent_object, stage, co.name FROM lists.pipeline e JOIN companies co ON co.record_id = e.parent_record_id')).toEqual([
        { record_id: entry, entry_id: entry, parent_record_id: company.Acme, parent_object: 'companies', stage: 'Won', name: 'Acme' },
      ]);
    });
  });

  describe('introspection', () => {
    it('GET /v2/sql/schema lists the tables and typed columns, and the limits', async () => {
      const res = await t.http().get('/v2/sql/schema').set(as(ws.token)).expect(200);
      const tables = res.body.data.tables as Array<{ schema: string; name: string; columns: Array<{ name: string; data_type: string; attribute_type: string | null; is_multiselect: boolean }> }>;
      expect(tables.map((x) => `${x.schema}.${x.name}`)).toEqual(expect.arrayContaining(['objects.people', 'objects.companies', 'activities.acme_calls', 'activities.phone_calls', 'lists.pipeline']));
      const calls = tables.find((x) => x.name === 'acme_calls')!;
      expect(calls.columns.find((c) => c.name === 'tags')).toEqual({ name: 'tags', data_type: 'text[]', attribute_type: 'select', is_multiselect: true });
      expect(calls.columns.find((c) => c.name === 'created_by')).toEqual({ name: 'created_by', data_type: 'jsonb', attribute_type: null, is_multiselect: false });
      expect(res.body.data.limits).toEqual({ statement_timeout_ms: 30_000, max_rows: 10_000 });
    });

    it('information_schema.tables and .columns through the endpoint', async () => {
      const tables = await rows("SELECT table_schema, table_name FROM information_schema.tables WHERE table_schema <> 'objects' ORDER BY 1, 2");
      expect(tables).toEqual([
        { table_schema: 'activities', table_name: 'acme_calls' },
        { table_schema: 'activities', table_name: 'phone_calls' },
        { table_schema: 'lists', table_name: 'pipeline' },
      ]);
      expect(await rows("SELECT column_name, data_type, ordinal_position FROM information_schema.columns WHERE table_schema = 'activities' AND table_name = 'acme_calls' AND column_name IN ('record_id', 'amount')")).toEqual([
        { column_name: 'record_id', data_type: 'uuid', ordinal_position: 1 },
        { column_name: 'amount', data_type: 'numeric', ordinal_position: expect.any(Number) },
      ]);
    });

    it('lists only the schemas the token may read', async () => {
      const objectsOnly = await t.tokenFor(ws.workspaceId, [SCOPES.recordPermissionRead, SCOPES.objectConfigurationRead]);
      const schemas = (await t.http().get('/v2/sql/schema').set(as(objectsOnly)).expect(200)).body.data.tables.map((x: { schema: string }) => x.schema);
      expect(new Set(schemas)).toEqual(new Set(['objects']));
      const res = await sql('SELECT DISTINCT table_schema FROM information_schema.tables', objectsOnly).expect(200);
      expect(res.body.data.rows).toEqual([{ table_schema: 'objects' }]);
    });
  });

  describe('scopes', () => {
    it('needs record_permission:read and object_configuration:read', async () => {
      for (const scopes of [[SCOPES.recordPermissionRead], [SCOPES.objectConfigurationRead], [SCOPES.activityRecordRead, SCOPES.activityConfigurationRead]]) {
        const token = await t.tokenFor(ws.workspaceId, scopes);
        const res = await sql('SELECT 1', token).expect(403);
        expect(res.body).toMatchObject({ status_code: 403, type: 'auth_error' });
        await t.http().get('/v2/sql/schema').set(as(token)).expect(403);
      }
      const readWrite = await t.tokenFor(ws.workspaceId, [SCOPES.recordPermissionReadWrite, SCOPES.objectConfigurationReadWrite]);
      const answer = await sql('SELECT count(*) AS n FROM people', readWrite).expect(200);
      expect(answer.body.data.rows).toEqual([{ n: 3 }]);
      // On the application's database (no SQL_DATABASE_URL) there is no replica to be behind.
      expect(answer.headers['x-replica-lag-ms']).toBeUndefined();
    });

    it('activity tables need activity_record:read and activity_configuration:read; list tables list_entry:read and list_configuration:read', async () => {
      const base = [SCOPES.recordPermissionRead, SCOPES.objectConfigurationRead];
      const objectsOnly = await t.tokenFor(ws.workspaceId, base);
      const denied = await sql('SELECT count(*) FROM activities.acme_calls', objectsOnly).expect(403);
      expect(denied.body.message).toContain('activities.acme_calls');
      expect(denied.body.message).toContain('activity_record:read');
      // Also for a table that does not exist: no existence oracle without the scope.
      await sql('SELECT count(*) FROM activities.nope', objectsOnly).expect(403);
      const noConfig = await t.tokenFor(ws.workspaceId, [...base, SCOPES.activityRecordRead]);
      expect((await sql('SELECT 1 FROM people p, LATERAL (SELECT * FROM activities.acme_calls) c', noConfig).expect(403)).body.message).toContain('activity_configuration:read');
      const activities = await t.tokenFor(ws.workspaceId, [...base, SCOPES.activityRecordRead, SCOPES.activityConfigurationRead]);
      await sql('SELECT count(*) FROM activities.acme_calls', activities).expect(200);
      expect((await sql('SELECT * FROM lists.pipeline', activities).expect(403)).body.message).toContain('list_entry:read');
      const lists = await t.tokenFor(ws.workspaceId, [...base, SCOPES.listEntryRead, SCOPES.listConfigurationRead]);
      await sql('SELECT * FROM lists.pipeline', lists).expect(200);
    });
  });

  describe('bad bodies and unknown tables', () => {
    it('400 naming the field', async () => {
      for (const body of [{}, { sql: 42 }, { sql: '' }, { sql: null }, { query: 'SELECT 1' }, { sql: ['SELECT 1'] }]) {
        const res = await post('/v2/sql', body).expect(400);
        expect(res.body).toMatchObject({ status_code: 400, type: 'invalid_request_error' });
        expect(res.body.message).toContain('sql');
      }
      await t.http().post('/v2/sql').set(as(ws.token)).set('Content-Type', 'application/json').send('{"sql": ').expect(400);
    });

    it('unknown tables and columns are 400 filter_error naming them', async () => {
      const table = await sql('SELECT * FROM activities.no_such_activity').expect(400);
      expect(table.body).toMatchObject({ code: 'filter_error', message: 'Table "activities.no_such_activity" does not exist.' });
      const column = await sql('SELECT no_such_column FROM activities.acme_calls').expect(400);
      expect(column.body.code).toBe('filter_error');
      expect(column.body.message).toContain('no_such_column');
      expect(column.body.message).not.toMatch(/_wb_|record_values|public\./);
      const syntax = await sql('SELEC 1').expect(400);
      expect(syntax.body.message).toMatch(/not valid SQL.*SELEC/);
      const division = await sql('SELECT 1 / 0').expect(400);
      expect(division.body.message).toContain('division by zero');
    });
  });

  it('sends a statement in one round trip on the endpoint\'s connection, prepared once per connection; a failing one adds only its ROLLBACK', async () => {
    await rows('SELECT count(*) AS n FROM activities.acme_calls'); // the catalogue and the grant are cached now
    const sent: string[] = [];
    const original = Client.prototype.query;
    const query = jest.spyOn(Client.prototype, 'query').mockImplementation(function (this: Client, ...args: unknown[]) {
      const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text: string }).text;
      if ((this as unknown as { connectionParameters: { application_name?: string } }).connectionParameters.application_name === 'workbase-sql') sent.push(text);
      return (original as (...a: unknown[]) => unknown).apply(this, args);
    } as never);
    try {
      const inbound = "SELECT count(*) AS n FROM activities.acme_calls WHERE direction = 'Inbound'";
      const answer = await rows(inbound);
      expect(answer).toHaveLength(1);
      expect(sent).toHaveLength(1);
      expect(sent[0]).toMatch(/^BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY;[^]*pg_try_advisory_xact_lock[^]*;\nPREPARE (wb_[0-9a-f]{8}_\d+) AS [^]*'Inbound'::text[^]*;\nEXECUTE \1;\nROLLBACK$/);
      // Sent again until every connection of the endpoint's pool has met it: later ones only execute it, with the same answer.
      const executed: string[] = [];
      for (let i = 0; i < 12; i++) {
        sent.length = 0;
        expect(await rows(inbound)).toEqual(answer);
        expect(sent).toHaveLength(1);
        if (!sent[0].includes('PREPARE')) executed.push(sent[0]);
      }
      expect(executed.length).toBeGreaterThan(0);
      for (const message of executed) expect(message).toMatch(/;\nEXECUTE wb_[0-9a-f]{8}_\d+;\nROLLBACK$/);

      sent.length = 0;
      await sql('SELECT 1 / 0').expect(400);
      expect(sent).toHaveLength(2);
      expect(sent[1]).toBe('ROLLBACK; DEALLOCATE ALL');
      // The connection forgot what it had prepared, and prepares again.
      sent.length = 0;
      for (let i = 0; i < 8; i++) expect(await rows(inbound)).toEqual(answer);

      // A connection keeps at most 64: sent one after another (so on the pool's most recently freed
      // connection), the 65th distinct statement deallocates the least recently run one.
      sent.length = 0;
      for (let i = 1; i <= 70; i++) expect(await rows(`SELECT ${i} AS n`)).toEqual([{ n: i }]);
      const evictions = sent.filter((message) => /;\nDEALLOCATE wb_[0-9a-f]{8}_\d+;\nPREPARE /.test(message));
      expect(evictions.length).toBeGreaterThan(0);
      expect(await rows('SELECT 1 AS n')).toEqual([{ n: 1 }]);

      // A long statement runs in the message itself, never kept.
      sent.length = 0;
      const long = 'x'.repeat(40_000);
      expect(await rows(`SELECT length('${long}') AS n`)).toEqual([{ n: 40_000 }]);
      expect(sent).toHaveLength(1);
      expect(sent[0]).not.toMatch(/PREPARE|EXECUTE/);
    } finally {
      query.mockRestore();
    }
  });

  // Last in the file: the endpoint stops preparing for the rest of the process's life.
  it('answers a statement whose connection lost what it prepared (a transaction-mode pooler), and prepares nothing from then on', async () => {
    const inbound = "SELECT count(*) AS n FROM activities.acme_calls WHERE direction = 'Outbound'";
    const answer = await rows(inbound);
    const sent: string[] = [];
    let swapped = 0;
    const original = Client.prototype.query as (...a: unknown[]) => unknown;
    const query = jest.spyOn(Client.prototype, 'query').mockImplementation(function (this: Client, ...args: unknown[]) {
      const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text: string }).text;
      if ((this as unknown as { connectionParameters: { application_name?: string } }).connectionParameters.application_name !== 'workbase-sql') return original.apply(this, args);
      sent.push(text);
      // As a pooler handing this client another server connection: what it prepared is not there.
      if (/\nEXECUTE wb_/.test(text) && !text.includes('PREPARE')) {
        swapped++;
        return (original.call(this, 'DEALLOCATE ALL') as Promise<unknown>).then(() => original.apply(this, args));
      }
      return original.apply(this, args);
    } as never);
    try {
      for (let i = 0; i < 12; i++) expect(await rows(inbound)).toEqual(answer);
      expect(swapped).toBe(1);
      const afterwards = sent.slice(sent.findIndex((text) => /\nEXECUTE wb_/.test(text) && !text.includes('PREPARE')) + 1);
      expect(afterwards.filter((text) => /PREPARE|EXECUTE/.test(text) && text !== 'ROLLBACK; DEALLOCATE ALL')).toEqual([]);
      expect(await sql('SELECT 1 / 0').expect(400).then((r) => r.body.message as string)).toContain('division by zero');
    } finally {
      query.mockRestore();
    }
  });
});
