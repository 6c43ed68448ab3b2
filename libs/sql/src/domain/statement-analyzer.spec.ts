import { parseSync } from 'pgsql-parser';
import { SqlStatementError } from './sql-errors';
import { analyzeStatement, loadSqlParser, MAX_SQL_LENGTH, verifyRendered } from './statement-analyzer';
import { tableKey } from './sql-table';

beforeAll(() => loadSqlParser());

/** Analyses and renders with `_wb_t<n>` for the n-th table, as the service does. */
function rewrite(sql: string): { tables: string[]; text: string } {
  const analyzed = analyzeStatement(sql);
  const names = new Map(analyzed.tables.map((ref, i) => [tableKey(ref), `_wb_t${i + 1}`]));
  return { tables: analyzed.tables.map(tableKey), text: analyzed.render((index) => names.get(tableKey(analyzed.occurrences[index].ref))!) };
}

function refusal(sql: string): string {
  try {
    analyzeStatement(sql);
  } catch (error) {
    expect(error).toBeInstanceOf(SqlStatementError);
    return (error as Error).message;
  }
  throw new Error(`accepted: ${sql}`);
}

/** Every relation the rendered text reads, by walking its parse tree. */
function relations(text: string): string[] {
  const found: string[] = [];
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) {
        if (key === 'RangeVar') {
          const rv = child as { schemaname?: string; relname: string };
          found.push(rv.schemaname ? `${rv.schemaname}.${rv.relname}` : rv.relname);
        }
        walk(child);
      }
    }
  };
  walk(parseSync(text));
  return found;
}

describe('statement analyzer: what it accepts and how it rewrites', () => {
  it('binds schema-qualified and unqualified tables (objects is the default schema) to generated relations', () => {
    const { tables, text } = rewrite('SELECT p.name, count(*) FROM people p JOIN activities.phone_calls c ON p.record_id = ANY(c.participants) JOIN lists.deals_pipeline e ON true GROUP BY 1');
    expect(tables).toEqual(['objects.people', 'activities.phone_calls', 'lists.deals_pipeline']);
    expect(relations(text)).toEqual(['_wb_t1', '_wb_t2', '_wb_t3']);
    expect(text).not.toMatch(/activities\.|objects\.|lists\./);
  });

  it('keeps the table name usable as a qualifier (alias added) and shortens schema.table.column', () => {
    const { text } = rewrite('SELECT objects.people.name, people.job_title FROM objects.people');
    expect(text).toContain('_wb_t1 AS people');
    expect(text).toMatch(/people\.name/);
    expect(text).not.toContain('objects.');
  });

  it('renames CTEs and resolves names with PostgreSQL scoping: a later sibling is not visible, unless RECURSIVE', () => {
    const plain = rewrite('WITH a AS (SELECT * FROM b), b AS (SELECT 1 AS x) SELECT * FROM a, b');
    expect(plain.tables).toEqual(['objects.b']);
    expect(relations(plain.text).sort()).toEqual(['_wb_c1', '_wb_c2', '_wb_t1']);
    const recursive = rewrite('WITH RECURSIVE a AS (SELECT * FROM b), b AS (SELECT 1 AS x) SELECT * FROM a');
    expect(recursive.tables).toEqual([]);
    const shadow = rewrite('WITH people AS (SELECT 1 AS x) SELECT * FROM people, (SELECT * FROM people) s');
    expect(shadow.tables).toEqual([]);
    expect(relations(shadow.text)).toEqual(['_wb_c1', '_wb_c1']);
    const nested = rewrite('SELECT * FROM (WITH t AS (SELECT 1) SELECT * FROM t) x, t');
    expect(nested.tables).toEqual(['objects.t']);
  });

  it('walks every place a table can hide: WHERE/SELECT-list subqueries, LATERAL, set operations, VALUES, TABLE, functions in FROM', () => {
    const { tables } = rewrite(
      `SELECT (SELECT count(*) FROM a), ARRAY(SELECT 1 FROM b) FROM c, LATERAL (SELECT * FROM d WHERE EXISTS (SELECT 1 FROM e)) l,
       unnest(ARRAY(SELECT record_id FROM f)) u
       WHERE c.x IN (SELECT y FROM g) UNION ALL (TABLE h) UNION SELECT * FROM (VALUES (1)) v(x) ORDER BY 1`,
    );
    expect(tables.sort()).toEqual(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map((n) => `objects.${n}`));
  });

  it('accepts aggregates, window functions, FILTER, WITHIN GROUP, casts to plain types, date/string/math/JSON functions', () => {
    const { text } = rewrite(
      `SELECT date_trunc('month', timestamp) m, count(*) FILTER (WHERE duration > 60), percentile_cont(0.5) WITHIN GROUP (ORDER BY duration),
              row_number() OVER (PARTITION BY direction ORDER BY timestamp DESC), extract(year FROM created_at)::int, lower(direction) || 'x',
              round(avg(duration), 2), jsonb_build_object('a', 1) ->> 'a', coalesce(NULL, 1), greatest(1, 2), current_date, now() - interval '1 day',
              CASE WHEN duration BETWEEN 1 AND 2 THEN 'short' END, trim(both ' ' from 'x'), position('a' in 'abc'), substring('abc' from 2)
       FROM activities.phone_calls GROUP BY 1 HAVING count(*) > 1 ORDER BY 1 NULLS LAST LIMIT 10 OFFSET 2`,
    );
    expect(relations(text)).toEqual(['_wb_t1']);
  });

  it('offers information_schema.tables and .columns only', () => {
    expect(rewrite('SELECT * FROM information_schema.columns c JOIN information_schema.tables t USING (table_name)').tables).toEqual([
      'information_schema.columns',
      'information_schema.tables',
    ]);
    expect(refusal('SELECT * FROM information_schema.role_table_grants')).toMatch(/information_schema\.role_table_grants.*not available/);
  });
});

describe('statement analyzer: what it refuses, naming it', () => {
  const cases: Array<[string, RegExp]> = [
    ['INSERT INTO people DEFAULT VALUES', /Only SELECT.*INSERT/],
    ['UPDATE people SET name = 1', /UPDATE/],
    ['DELETE FROM people', /DELETE/],
    ['DROP TABLE records', /DROP/],
    ['CREATE TABLE x (a int)', /CREATE TABLE/],
    ['COPY records TO STDOUT', /COPY/],
    ['SET search_path = public', /SET/],
    ['SELECT 1; SELECT 2', /single statement; found 2/],
    ['SELECT 1; DROP TABLE records', /single statement/],
    ['', /no statement/],
    ['-- only a comment', /no statement/],
    ['SELECT * FROM pg_catalog.pg_class', /Schema "pg_catalog" is not available/],
    ['SELECT * FROM public.records', /Schema "public"/],
    ['SELECT * FROM db.objects.people', /database-qualified/i],
    ['SELECT pg_sleep(1)', /Function "pg_sleep" is not allowed/],
    ['SELECT set_config(\'search_path\', \'public\', true)', /set_config/],
    ['SELECT current_setting(\'search_path\')', /current_setting/],
    ['SELECT * FROM dblink(\'host=x\', \'select 1\')', /dblink/],
    ['SELECT pg_catalog.pg_read_file(\'/etc/passwd\')', /pg_read_file/],
    ['SELECT public.lower(\'x\')', /public\.lower/],
    ['SELECT \'pg_class\'::regclass', /Type "regclass"/],
    ['SELECT 1::oid', /Type "oid"/],
    ['SELECT CAST(\'x\' AS pg_catalog.regproc)', /regproc/],
    ['SELECT current_user', /current_user/],
    ['SELECT session_user', /session_user/],
    ['SELECT * FROM people FOR UPDATE', /row locking/i],
    ['SELECT * INTO t FROM people', /SELECT INTO/],
    ['SELECT $1', /parameters/i],
    ['SELECT * FROM people TABLESAMPLE SYSTEM (10)', /TABLESAMPLE/],
    ['SELECT xmlelement(name a)', /XML/],
    ['SELECT * FROM jsonb_to_record(\'{}\') AS x(a int)', /column definition lists|jsonb_to_record/],
    ['SELECT 1 OPERATOR(public.+) 1', /Operator "public\.\+"/],
    ['SELECT "select"(1)', /Function "select"/],
    ['SELECT U&"pg_\\0073leep"(1)', /Function "pg_sleep"/],
    ['SELECT * FROM U&"\\0070ublic".records', /Schema "public"/],
    ['SELECT /* ; DROP TABLE records */ 1 -- ; DELETE FROM people\n; DELETE FROM people', /single statement|DELETE/],
    ['SELECT 1 FROM', /not valid SQL/],
    ['WITH x AS (DELETE FROM people RETURNING *) SELECT * FROM x', /DELETE/],
    ['EXPLAIN SELECT 1', /EXPLAIN/],
    ['SELECT ' + '('.repeat(150) + '1' + ')'.repeat(150), /nested too deeply/],
    ['SELECT ' + 'ARRAY['.repeat(400) + '1' + ']'.repeat(400), /nested too deeply/],
    ['SELECT ' + Array.from({ length: 200 }, () => 'abs(').join('') + '1' + ')'.repeat(200), /nested too deeply/],
    [`SELECT '${'x'.repeat(MAX_SQL_LENGTH)}'`, /too long/],
    ['SELECT 1\u0000', /NUL/],
    ['WITH RECURSIVE t(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t) CYCLE n SET is_cycle USING path SELECT * FROM t', /CYCLE/],
  ];

  const labelled = cases.map(([sql, message]) => [sql.length > 70 ? `${sql.slice(0, 50)}… (${sql.length} chars)` : sql.replace(/\0/g, '\\0'), sql, message] as const);
  it.each(labelled)('refuses %s', (_label, sql, message) => {
    expect(refusal(sql)).toMatch(message);
  });
});

describe('statement analyzer: the verification pass over the rendered text', () => {
  it('accepts only generated relations, unqualified', () => {
    expect(() => verifyRendered('SELECT * FROM _wb_t1 AS people', new Set(['_wb_t1']))).not.toThrow();
    expect(() => verifyRendered('SELECT * FROM people', new Set(['_wb_t1']))).toThrow(/verification/);
    expect(() => verifyRendered('SELECT * FROM public._wb_t1', new Set(['_wb_t1']))).toThrow(/verification/);
    expect(() => verifyRendered('SELECT * FROM _wb_t2', new Set(['_wb_t1']))).toThrow(/verification/);
    expect(() => verifyRendered('WITH _wb_c1 AS (SELECT 1) SELECT * FROM _wb_c1', new Set())).not.toThrow();
    expect(() => verifyRendered('SELECT pg_sleep(1) FROM _wb_t1', new Set(['_wb_t1']))).toThrow(/pg_sleep/);
  });

  it('render refuses a relation name it did not generate', () => {
    const analyzed = analyzeStatement('SELECT * FROM people');
    expect(() => analyzed.render(() => 'records')).toThrow();
  });
});

describe('statement analyzer: whether a statement writes a JOIN of its own', () => {
  it('sees a JOIN anywhere (FROM, subquery, CTE, LATERAL) and none in plain FROM lists', () => {
    const joins = (sql: string) => analyzeStatement(sql).hasJoins;
    expect(joins('SELECT * FROM people')).toBe(false);
    expect(joins('SELECT count(*) FROM people p, companies c WHERE p.record_id = c.record_id')).toBe(false);
    expect(joins('SELECT * FROM people WHERE record_id IN (SELECT record_id FROM companies)')).toBe(false);
    expect(joins('SELECT * FROM people p JOIN companies c ON true')).toBe(true);
    expect(joins('SELECT * FROM people p LEFT JOIN companies c ON c.record_id = p.record_id')).toBe(true);
    expect(joins('SELECT * FROM people WHERE EXISTS (SELECT 1 FROM companies c CROSS JOIN people q)')).toBe(true);
    expect(joins('WITH x AS (SELECT p.* FROM people p NATURAL JOIN companies) SELECT * FROM x')).toBe(true);
  });
});

describe('statement analyzer: which columns a statement can read', () => {
  const use = (sql: string) => {
    const { columnUse } = analyzeStatement(sql);
    return { all: columnUse.all, names: [...columnUse.names].sort() };
  };

  it('collects every name used in a column reference, wherever it is', () => {
    expect(use('SELECT p.name, count(*) FROM people p JOIN activities.calls c ON c.rep = p.record_id WHERE c.duration > 5 GROUP BY 1 ORDER BY max(c.ts)')).toEqual({
      all: false,
      names: ['c', 'duration', 'name', 'p', 'record_id', 'rep', 'ts'],
    });
    expect(use('SELECT count(*) FROM people').all).toBe(false);
    expect(use('SELECT x FROM (SELECT name AS x FROM people) s').names).toEqual(['name', 'x']);
  });

  it.each([
    ['*', 'SELECT * FROM people'],
    ['t.*', 'SELECT p.* FROM people p'],
    ['* in a subquery', 'SELECT n FROM (SELECT * FROM people) s(n)'],
    ['TABLE', 'TABLE people'],
    ['whole-row reference', 'SELECT row_to_json(p) FROM people p'],
    ['whole-row by table name', 'SELECT to_jsonb(people) FROM people'],
    ['field of a whole row', 'SELECT (p).name FROM people p'],
    ['USING', 'SELECT name FROM people JOIN companies USING (record_id)'],
    ['NATURAL', 'SELECT name FROM people NATURAL JOIN companies'],
    ['alias column list', 'SELECT a FROM people AS p(a, b)'],
  ])('falls back to all columns for %s', (_why, sql) => {
    expect(use(sql).all).toBe(true);
  });
});

describe('statement analyzer: WHERE conditions that may be applied inside a relation', () => {
  const filters = (sql: string) => analyzeStatement(sql).occurrences.map((o) => o.filters.map((f) => `${f.column} ${f.op} ${f.values.map((v) => `${v.kind}:${v.text}${v.castTo ? `::${v.castTo}` : ''}`).join(',')}`.trim()));

  it('takes column-vs-constant comparisons, IN, BETWEEN and IS [NOT] NULL from the top-level AND', () => {
    expect(filters("SELECT 1 FROM activities.calls WHERE duration > 1800 AND 10 >= duration AND direction IN ('Inbound', 'Outbound') AND ts BETWEEN '2026-01-01' AND '2026-02-01'::timestamptz AND rep IS NOT NULL AND note IS NULL AND duration <> 0 AND duration != -1")).toEqual([
      ['duration > number:1800', 'duration <= number:10', 'direction in string:Inbound,string:Outbound', 'ts >= string:2026-01-01', 'ts <= string:2026-02-01::timestamptz', 'rep is not null', 'note is null', 'duration <> number:0', 'duration <> number:-1'],
    ]);
  });

  it('leaves everything else above the fence', () => {
    expect(
      filters(
        "SELECT 1 FROM activities.calls c WHERE c.duration > 1 + 1 OR c.duration < 0 AND 1/(c.duration - 5) > 0 AND c.note::int > 0 AND c.duration > c.other AND lower(c.note) = 'x' AND c.note = 'x' COLLATE \"C\" AND c.duration NOT IN (1) AND c.duration NOT BETWEEN 1 AND 2 AND c.note LIKE 'x%' AND c.duration = NULL AND c.flag = true AND c.duration > (SELECT 1) AND c.duration OPERATOR(pg_catalog.>) 1",
      ),
    ).toEqual([[]]);
  });

  it('only for an occurrence of this SELECT, named by its alias, or alone in the FROM; never the nullable side of an outer join', () => {
    expect(filters('SELECT 1 FROM people p, activities.calls c WHERE p.name = $$a$$ AND c.duration = 1 AND duration = 2')).toEqual([['name = string:a'], ['duration = number:1']]);
    expect(filters('SELECT 1 FROM people p LEFT JOIN activities.calls c ON true WHERE p.name = $$a$$ AND c.duration = 1')).toEqual([['name = string:a'], []]);
    expect(filters('SELECT 1 FROM people p RIGHT JOIN activities.calls c ON true WHERE p.name = $$a$$ AND c.duration = 1')).toEqual([[], ['duration = number:1']]);
    expect(filters('SELECT 1 FROM people p FULL JOIN activities.calls c ON true WHERE p.name = $$a$$ AND c.duration = 1')).toEqual([[], []]);
    expect(filters('SELECT 1 FROM (people p JOIN activities.calls c ON true) AS j WHERE j.name = $$a$$')).toEqual([[], []]);
    // An outer reference from a subquery is not the subquery's table; an unqualified name next to a subquery may be the subquery's.
    expect(filters('SELECT 1 FROM people p WHERE EXISTS (SELECT 1 FROM companies c WHERE p.name = $$a$$)')).toEqual([[], []]);
    expect(filters('SELECT 1 FROM people, (SELECT 1 AS name) s WHERE name = $$a$$')).toEqual([[]]);
    expect(filters('SELECT 1 FROM people WHERE name = $$a$$ UNION ALL SELECT 1 FROM people WHERE name = $$b$$')).toEqual([['name = string:a'], ['name = string:b']]);
    expect(filters('WITH x AS (SELECT * FROM people WHERE name = $$a$$) SELECT * FROM x WHERE name = $$b$$')).toEqual([['name = string:a']]);
    // A table read twice is two occurrences, each with its own conditions.
    expect(filters('SELECT 1 FROM people a JOIN people b ON a.record_id = b.record_id WHERE a.name = $$x$$')).toEqual([['name = string:x'], []]);
  });
});
