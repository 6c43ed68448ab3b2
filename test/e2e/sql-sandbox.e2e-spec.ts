import { DataSource } from 'typeorm';
import { startTestApp, type TestApp, type TestWorkspace } from '../support/test-app';

/**
 * The sandbox: statements that must fail safely with a clear 4xx, statements that run but must
 * not see past the caller's workspace, and a statement that outlives the (lowered) timeout.
 * Workspace "victim" holds secrets; none of them may appear in any answer to "attacker".
 */
describe('SQL sandbox', () => {
  let t: TestApp;
  let attacker: TestWorkspace;
  let victim: TestWorkspace;
  const SECRET = 'TOPSECRET-victim';

  const as = (token: string) => ({ Authorization: `Bearer ${token}` });
  const sql = (query: string, token = attacker.token) => t.http().post('/v2/sql').set(as(token)).send({ sql: query });
  /** Secrets and internals found in an answer (a name the statement itself spelled, echoed back, is not a leak). */
  const leaks = (text: string, statement = '') =>
    [SECRET, victim.workspaceId, 'secret_calls', 'record_values', '_wb_', 'pg_authid'].filter((needle) => text.includes(needle) && !statement.includes(needle));

  beforeAll(async () => {
    t = await startTestApp({ env: { SQL_STATEMENT_TIMEOUT_MS: '1500' } });
    attacker = await t.createWorkspace('sql-attacker');
    victim = await t.createWorkspace('sql-victim');
    const post = (path: string, body: object, token: string) => t.http().post(path).set(as(token)).send(body);
    await post('/v2/activities', { data: { api_slug: 'secret_calls', singular_noun: 'Secret', plural_noun: 'Secrets', extends: 'calls' } }, victim.token).expect(200);
    await post('/v2/activities/secret_calls/attributes', { data: { title: 'Note', api_slug: 'note', type: 'text', is_required: false, is_unique: false, is_multiselect: false, config: {} } }, victim.token).expect(200);
    await post('/v2/activities/secret_calls/records', { data: { values: { timestamp: '2026-01-01T00:00:00Z', note: SECRET } } }, victim.token).expect(200);
    await post('/v2/objects/people/records', { data: { values: { name: `${SECRET} person`, job_title: SECRET } } }, victim.token).expect(200);
    await post('/v2/activities/phone_calls/records', { data: { values: { timestamp: '2026-01-01T00:00:00Z', duration: 7 } } }, victim.token).expect(200);
    await post('/v2/objects/people/records', { data: { values: { name: 'Alice Attacker', job_title: 'not a number' } } }, attacker.token).expect(200);
  });
  afterAll(() => t.close());

  const mustFail: Array<[string, string]> = [
    // writes and DDL
    ['INSERT', "INSERT INTO objects.people (name) VALUES ('x')"],
    ['UPDATE', "UPDATE people SET name = 'x'"],
    ['DELETE', 'DELETE FROM people'],
    ['MERGE', 'MERGE INTO people p USING companies c ON true WHEN MATCHED THEN DELETE'],
    ['TRUNCATE', 'TRUNCATE records'],
    ['DROP', 'DROP TABLE records'],
    ['CREATE TABLE AS', 'CREATE TABLE stolen AS SELECT * FROM people'],
    ['ALTER', 'ALTER TABLE records ADD COLUMN x int'],
    ['GRANT', 'GRANT ALL ON records TO PUBLIC'],
    ['data-modifying CTE', 'WITH d AS (DELETE FROM people RETURNING *) SELECT * FROM d'],
    ['SELECT INTO', 'SELECT * INTO stolen FROM people'],
    ['FOR UPDATE', 'SELECT * FROM people FOR UPDATE'],
    ['FOR SHARE in a subquery', 'SELECT * FROM (SELECT * FROM people FOR SHARE) s'],
    // several statements, transaction and session control
    ['two statements', 'SELECT 1; SELECT 2'],
    ['stacked DELETE', 'SELECT 1; DELETE FROM people'],
    ['COMMIT then write', "COMMIT; INSERT INTO records VALUES (1)"],
    ['SET', 'SET search_path TO public'],
    ['SET ROLE', 'SET ROLE postgres'],
    ['set_config', "SELECT set_config('search_path', 'public', false)"],
    ['current_setting', "SELECT current_setting('data_directory')"],
    ['COPY to file', "COPY records TO '/tmp/x'"],
    ['COPY program', "COPY (SELECT 1) TO PROGRAM 'id'"],
    ['DO block', "DO $$ BEGIN PERFORM 1; END $$"],
    ['EXPLAIN ANALYZE', 'EXPLAIN ANALYZE SELECT * FROM people'],
    ['PREPARE', 'PREPARE p AS SELECT 1'],
    ['LISTEN', 'LISTEN x'],
    // catalogs and other schemas
    ['pg_catalog table', 'SELECT * FROM pg_catalog.pg_class'],
    ['unqualified catalog table', 'SELECT * FROM pg_roles'],
    ['pg_authid', 'SELECT rolpassword FROM pg_authid'],
    ['real information_schema', 'SELECT * FROM information_schema.role_table_grants'],
    ['information_schema.schemata', 'SELECT * FROM information_schema.schemata'],
    ['public.records', 'SELECT * FROM public.records'],
    ['public.record_values', 'SELECT * FROM public.record_values'],
    ['app table unqualified', 'SELECT * FROM access_tokens'],
    ['database-qualified', 'SELECT * FROM workbase.objects.people'],
    ['another workspace\'s activity', 'SELECT * FROM activities.secret_calls'],
    ['another workspace\'s slug in a subquery', 'SELECT (SELECT count(*) FROM activities.secret_calls)'],
    ['CTE scope escape (later sibling)', 'WITH a AS (SELECT * FROM pg_class), pg_class AS (SELECT 1) SELECT * FROM a'],
    ['pg_temp', 'SELECT * FROM pg_temp.t'],
    // functions, casts and keywords
    ['pg_sleep', 'SELECT pg_sleep(10)'],
    ['pg_sleep in ORDER BY', 'SELECT 1 ORDER BY pg_sleep(10)'],
    ['pg_sleep in a window', 'SELECT count(*) OVER (ORDER BY pg_sleep(1)) FROM people'],
    ['pg_sleep in HAVING', 'SELECT count(*) FROM people HAVING pg_sleep(1) IS NULL'],
    ['dblink', "SELECT * FROM dblink('dbname=postgres', 'SELECT 1') AS t(a int)"],
    ['pg_read_file', "SELECT pg_read_file('/etc/passwd')"],
    ['pg_catalog-qualified forbidden', "SELECT pg_catalog.pg_read_file('postgresql.conf')"],
    ['lo_import', "SELECT lo_import('/etc/passwd')"],
    ['query_to_xml', "SELECT query_to_xml('SELECT * FROM records', true, true, '')"],
    ['advisory lock', 'SELECT pg_advisory_lock(1)'],
    ['txid', 'SELECT txid_current()'],
    ['nextval', "SELECT nextval('x')"],
    ['version', 'SELECT version()'],
    ['regclass cast', "SELECT 'records'::regclass"],
    ['oid cast', 'SELECT 1259::oid'],
    ['regclass via CAST in WHERE', "SELECT 1 FROM people WHERE CAST('pg_class' AS regclass) IS NOT NULL"],
    ['to_regclass', "SELECT to_regclass('public.records')"],
    ['current_user', 'SELECT current_user'],
    ['current_schema', 'SELECT current_schema'],
    ['parameter', 'SELECT $1'],
    ['function in a schema', "SELECT public.lower('x')"],
    ['operator in a schema', 'SELECT 1 OPERATOR(public.+) 1'],
    ['column definition list', "SELECT * FROM json_to_record('{}') AS x(a int)"],
    ['TABLESAMPLE', 'SELECT * FROM people TABLESAMPLE BERNOULLI (50)'],
    // obfuscation
    ['comment hiding a second statement', 'SELECT 1 /* harmless */; DROP TABLE records -- ;'],
    ['nested comment', 'SELECT 1 /* a /* b */ ; DROP TABLE records */; DELETE FROM people'],
    ['unicode-escaped function name', 'SELECT U&"pg\\005fsleep"(10)'],
    ['unicode-escaped schema', 'SELECT * FROM U&"pg\\005fcatalog".pg_class'],
    ['quoted catalog name', 'SELECT * FROM "pg_catalog"."pg_roles"'],
    ['dollar-quoted statement', 'SELECT $$x$$; DROP TABLE records'],
    ['string-escaped', "SELECT E'\\x27; DROP TABLE records; --'; DELETE FROM people"],
    ['very long input', `SELECT ${'1 + '.repeat(40_000)}1`],
    ['deep nesting', `SELECT ${'('.repeat(5_000)}1${')'.repeat(5_000)}`],
    ['deep subqueries', `SELECT ${'(SELECT '.repeat(120)}1${')'.repeat(120)}`],
    ['NUL byte', 'SELECT 1\u0000; DROP TABLE records'],
    ['not SQL', 'hello world'],
    // aimed at the pushdown: side channels and foreign operators in a pushable position
    ['pg_sleep as a constant', 'SELECT * FROM people WHERE name = pg_sleep(1)::text'],
    ['current_setting as a constant', "SELECT * FROM people WHERE job_title = current_setting('data_directory')"],
    ['set_config as a constant', "SELECT * FROM people WHERE job_title = set_config('search_path', 'public', true)"],
    ['operator from a schema', "SELECT * FROM people WHERE name OPERATOR(public.=) 'x'"],
    ['regclass constant', "SELECT * FROM people WHERE record_id = 'records'::regclass::text::uuid"],
    ['parameter as a constant', 'SELECT * FROM people WHERE record_id = $1'],
    ['catalog subquery in IN', 'SELECT * FROM people WHERE name IN (SELECT rolname FROM pg_roles)'],
    ['lo_import as a constant', "SELECT * FROM people WHERE name = lo_import('/etc/passwd')::text"],
  ];

  it(`refuses ${mustFail.length} hostile statements with a clear 4xx and no leak`, async () => {
    expect(mustFail.length).toBeGreaterThanOrEqual(40);
    const unexpected: string[] = [];
    for (const [label, statement] of mustFail) {
      const res = await sql(statement);
      const body = JSON.stringify(res.body);
      const fine = res.status >= 400 && res.status < 500 && typeof res.body.message === 'string' && res.body.message.length > 0 && leaks(body, statement).length === 0;
      if (!fine) unexpected.push(`${label}: ${res.status} ${body.slice(0, 300)}`);
    }
    expect(unexpected).toEqual([]);
  });

  it('names what it refuses', async () => {
    const message = async (statement: string) => (await sql(statement).expect(400)).body.message as string;
    expect(await message('SELECT pg_sleep(1)')).toContain('"pg_sleep" is not allowed');
    expect(await message('SELECT * FROM pg_catalog.pg_class')).toContain('Schema "pg_catalog" is not available');
    expect(await message('DELETE FROM people')).toContain('Only SELECT statements are allowed; this is a DELETE statement');
    expect(await message('SELECT 1; SELECT 2')).toContain('single statement');
    expect(await message("SELECT 'x'::regclass")).toContain('Type "regclass"');
    expect(await message('SELECT * FROM activities.secret_calls')).toBe('Table "activities.secret_calls" does not exist.');
    expect((await sql('SELECT * FROM activities.secret_calls').expect(400)).body).toMatchObject({ status_code: 400, type: 'invalid_request_error', code: 'filter_error' });
  });

  it('statements that run see the caller\'s workspace only', async () => {
    // One after the other: a workspace runs at most SQL_WORKSPACE_CONCURRENCY statements at once.
    const answers = [];
    for (const statement of [
      'SELECT count(*) AS n FROM people',
      'SELECT * FROM people',
      'SELECT * FROM activities.phone_calls',
      'SELECT * FROM information_schema.tables',
      'SELECT * FROM information_schema.columns',
      "SELECT * FROM people p FULL JOIN activities.phone_calls c ON true",
      'WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 5) SELECT * FROM r, people',
      'TABLE people',
      'SELECT row_to_json(p) FROM people p',
      'SELECT jsonb_agg(c) FROM activities.phone_calls c',
    ]) {
      answers.push(await sql(statement));
    }
    for (const res of answers) {
      expect(res.status).toBe(200);
      expect(leaks(JSON.stringify(res.body))).toEqual([]);
    }
    expect(answers[0].body.data.rows).toEqual([{ n: 1 }]);
    expect(answers[2].body.data.rows).toEqual([]);
    expect(answers[1].body.data.rows.map((r: { name: string }) => r.name)).toEqual(['Alice Attacker']);
  });

  it('an erroring condition is never evaluated on another workspace\'s rows', async () => {
    // If the condition were pushed below the workspace filter, the cast would fail on the victim's value first.
    for (const statement of ['SELECT * FROM people WHERE job_title::int > 0', 'SELECT * FROM people WHERE (name || job_title)::numeric > 0', 'SELECT count(*) FROM people p JOIN people q ON q.name::int = 1']) {
      const res = await sql(statement).expect(400);
      expect(res.body.message).toMatch(/invalid input syntax/);
      expect(leaks(res.body.message)).toEqual([]);
    }
  });

  it('pushdown: no condition of the statement ever runs on, or reports, another workspace\'s row', async () => {
    // The victim has a phone call of duration 7 and a person whose job title is the secret; the attacker a call of 5.
    await t.http().post('/v2/activities/phone_calls/records').set(as(attacker.token)).send({ data: { values: { timestamp: '2026-01-01T00:00:00Z', duration: 5 } } }).expect(200);
    const zero = [
      // Division by zero on the victim's row, behind a pushable condition that selects exactly that row.
      'SELECT count(*) AS n FROM activities.phone_calls WHERE duration = 7 AND 1 / (duration - 7) > 0',
      'SELECT count(*) AS n FROM activities.phone_calls WHERE duration IN (7, 8) AND 1 / (duration - 7) > 0',
      'SELECT count(*) AS n FROM activities.phone_calls WHERE duration BETWEEN 6 AND 8 AND duration / (duration - 7) IS NOT NULL',
      'SELECT count(*) AS n FROM activities.phone_calls WHERE duration > 0 AND 1 / (duration - 7) > 0',
      // A failing cast would quote the victim's value in its message.
      `SELECT count(*) AS n FROM people WHERE job_title = '${SECRET}' AND job_title::int > 0`,
      `SELECT count(*) AS n FROM people WHERE name IN ('${SECRET} person', 'x') AND name::numeric > 0`,
      `SELECT count(*) AS n FROM people WHERE job_title >= '${SECRET}' AND job_title <= '${SECRET}' AND job_title::int > 0`,
      // A collation or an expression on the column: not pushed, and still harmless.
      `SELECT count(*) AS n FROM people WHERE job_title = '${SECRET}' COLLATE "C" AND job_title::int > 0`,
      `SELECT count(*) AS n FROM people WHERE lower(job_title) = lower('${SECRET}') AND job_title::int > 0`,
      // An expensive function on the victim's rows would be a timing channel.
      `SELECT count(*) AS n FROM people WHERE job_title = '${SECRET}' AND length(lpad(job_title, 50000000)) > 0`,
      // The nullable side of an outer join, and a second occurrence of a table.
      `SELECT count(*) AS n FROM people a LEFT JOIN people b ON b.job_title = '${SECRET}' WHERE b.job_title::int > 0`,
      `SELECT count(*) AS n FROM people a JOIN people b ON true WHERE b.job_title = '${SECRET}' AND (a.name || b.job_title)::int > 0`,
    ];
    for (const statement of zero) {
      const res = await sql(statement);
      expect({ statement, status: res.status, body: res.body.data?.rows }).toEqual({ statement, status: 200, body: [{ n: 0 }] });
    }
    // An erroring condition reports the caller's own value only.
    const own = await sql('SELECT count(*) AS n FROM people WHERE job_title IS NOT NULL AND job_title::int > 0').expect(400);
    expect(own.body.message).toContain('"not a number"');
    expect(leaks(own.body.message)).toEqual([]);
    // Bad or erroring constants fail the statement before any row is read, naming no row.
    for (const [statement, message] of [
      ["SELECT * FROM people WHERE record_id = 'not-a-uuid'", /invalid input syntax for type uuid: "not-a-uuid"/],
      ['SELECT * FROM activities.phone_calls WHERE duration > 1 / 0', /division by zero/],
      ['SELECT * FROM activities.phone_calls WHERE duration IN (7, 1 / 0)', /division by zero/],
      ["SELECT * FROM activities.phone_calls WHERE timestamp > 'yesterday-ish'", /invalid input syntax for type timestamp with time zone/],
    ] as Array<[string, RegExp]>) {
      const res = await sql(statement).expect(400);
      expect(res.body.message).toMatch(message);
      expect(leaks(res.body.message, statement)).toEqual([]);
    }
    // Constants are written into the generated SQL as literals (one simple-protocol message): quotes,
    // backslashes, dollar quotes and statement ends in them are matched as text, and end nothing.
    const tricky = `it's a "quote" \\ back\\slash $wb$ $$; ROLLBACK; SELECT 1; --`;
    await t.http().post('/v2/activities/phone_calls/attributes').set(as(attacker.token))
      .send({ data: { title: 'Memo', api_slug: 'memo', type: 'text', is_required: false, is_unique: false, is_multiselect: false, config: {} } }).expect(200);
    await t.http().post('/v2/activities/phone_calls/records').set(as(attacker.token)).send({ data: { values: { timestamp: '2026-01-02T00:00:00Z', duration: 6, memo: tricky } } }).expect(200);
    const quoted = `'${tricky.replace(/'/g, "''")}'`;
    for (const [statement, n] of [
      [`SELECT count(*) AS n FROM activities.phone_calls WHERE memo = ${quoted}`, 1],
      [`SELECT count(*) AS n FROM activities.phone_calls WHERE memo IN (${quoted}, 'x"}', '{', '\\')`, 1],
      [`SELECT count(*) AS n FROM activities.phone_calls WHERE memo >= ${quoted} AND memo <= ${quoted}`, 1],
      [`SELECT count(*) AS n FROM activities.phone_calls WHERE memo IN ('x"}', '{', '\\', '$wb$')`, 0],
    ] as Array<[string, number]>) {
      expect({ statement, rows: (await sql(statement).expect(200)).body.data.rows }).toEqual({ statement, rows: [{ n }] });
    }
    // Table names reach the catalogue lookup as bound parameters.
    for (const name of ["peo'ple", "x'); DROP TABLE records; --", 'back\\slash\'', "$$'$$"]) {
      const quotedName = `"${name.replace(/"/g, '""')}"`;
      const res = await sql(`SELECT * FROM activities.${quotedName}`).expect(400);
      expect(res.body.message).toBe(`Table "activities.${name}" does not exist.`);
    }
    // And the pushed filters find the caller's own rows.
    expect((await sql('SELECT count(*) AS n FROM activities.phone_calls WHERE duration = 5').expect(200)).body.data.rows).toEqual([{ n: 1 }]);
    expect((await sql('SELECT count(*) AS n FROM activities.phone_calls WHERE duration IN (5, 6)').expect(200)).body.data.rows).toEqual([{ n: 2 }]);
  });

  it('stops a statement at the statement timeout with a 400, and the connection is fine afterwards', async () => {
    const started = Date.now();
    const res = await sql('SELECT count(*) FROM generate_series(1, 100000) a CROSS JOIN generate_series(1, 100000) b').expect(400);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(res.body).toMatchObject({ code: 'filter_error', message: expect.stringContaining('statement timeout of 1500 ms') });
    const recursive = await sql('WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r) SELECT count(*) FROM r').expect(400);
    expect(recursive.body.message).toContain('statement timeout');
    // The pool is healthy: many queries after the cancellations succeed, with the normal search_path.
    for (let i = 0; i < 25; i++) expect((await sql('SELECT count(*) AS n FROM people').expect(200)).body.data.rows).toEqual([{ n: 1 }]);
    const settings = await t.app.get(DataSource).query('SHOW search_path');
    expect(settings[0].search_path).not.toBe('pg_catalog, pg_temp');
  });

  it('nothing was changed by the hostile statements', async () => {
    const db = t.app.get(DataSource);
    const [{ n }] = await db.query("SELECT count(*)::int AS n FROM information_schema.tables WHERE table_name IN ('records', 'record_values', 'access_tokens', 'stolen')");
    expect(n).toBeGreaterThanOrEqual(2);
    expect((await db.query("SELECT count(*)::int AS n FROM information_schema.tables WHERE table_name = 'stolen'"))[0].n).toBe(0);
    const victimPeople = await t.http().post('/v2/objects/people/records/query').set(as(victim.token)).send({}).expect(200);
    expect(victimPeople.body.data).toHaveLength(1);
    const attackerPeople = await t.http().post('/v2/objects/people/records/query').set(as(attacker.token)).send({}).expect(200);
    expect(attackerPeople.body.data).toHaveLength(1);
  });
});
