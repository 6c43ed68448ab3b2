import { buildTable } from '../domain/sql-table';
import type { ColumnFilter } from '../domain/statement-analyzer';
import { SqlLiterals, tableRelationSql } from './table-sql';

const WS = '00000000-0000-4000-8000-000000000001';

describe('tableRelationSql', () => {
  const table = buildTable('objects', { id: 'c0', slug: 'deals', title: 'Deals' }, [
    { id: 'a-name', slug: 'name', type: 'text', isMultiselect: false },
    { id: 'a-stage', slug: 'stage', type: 'status', isMultiselect: false },
    { id: 'a-tags', slug: 'tags', type: 'select', isMultiselect: true },
    { id: 'a-owner', slug: 'owner', type: 'actor-reference', isMultiselect: true },
    { id: 'a-where', slug: 'where', type: 'location', isMultiselect: false },
    { id: 'a-amount', slug: 'amount', type: 'currency', isMultiselect: false },
    { id: 'a-emails', slug: 'emails', type: 'email-address', isMultiselect: true },
  ]);
  const generate = (columns: string[] | null, filters: ColumnFilter[] = []) => {
    return tableRelationSql(table, new SqlLiterals(WS), 'app', { columns: columns && new Set(columns), filters });
  };

  const W = `'${WS}'::uuid`;

  it('all columns: a LEFT JOIN of the current value per single-valued attribute, a correlated aggregate per multiselect one, each bound to the workspace', () => {
    const sql = generate(null);
    const joins = sql.match(/LEFT JOIN "app"\."record_values" a\d+ ON [^]*?active_until IS NULL/g) ?? [];
    expect(joins).toHaveLength(4); // name, stage, where, amount
    for (const join of joins) expect(join).toMatch(new RegExp(`ON (a\\d+)\\.workspace_id = r\\.workspace_id AND \\1\\.record_id = r\\.id AND \\1\\.attribute_id = 'a-[a-z]+'::uuid AND \\1\\.active_until IS NULL`));
    expect(sql).toContain(`LEFT JOIN "app"."statuses" o2 ON o2.workspace_id = ${W} AND o2.id = a2.value_ref`);
    expect(sql).toContain(`COALESCE((SELECT array_agg(o.title ORDER BY v.id) FROM "app"."record_values" v LEFT JOIN "app"."select_options" o ON o.workspace_id = ${W} AND o.id = v.value_ref WHERE v.workspace_id = ${W} AND v.record_id = r.id AND v.attribute_id = 'a-tags'::uuid`);
    expect(sql).toContain("COALESCE((SELECT jsonb_agg(CASE WHEN v.id IS NOT NULL THEN jsonb_build_object('type', v.value_ref_type, 'id', v.value_ref) END ORDER BY v.id)");
    expect(sql).toContain("'{}'::text[]) AS \"emails\"");
    expect(sql).toContain('a3.value_json AS "where"'); // location: no primary-column condition
    expect(sql).not.toMatch(/a3\.value_json IS NOT NULL/);
    expect(sql.endsWith(` WHERE r.workspace_id = ${W} AND r.container_id = 'c0'::uuid OFFSET 0`)).toBe(true);
    for (const id of ['a-name', 'a-stage', 'a-tags', 'a-owner', 'a-where', 'a-amount', 'a-emails']) expect(sql).toContain(`'${id}'::uuid`);
  });

  it('only the columns the statement names, plus the record columns', () => {
    const sql = generate(['amount', 'unrelated']);
    expect(sql).toContain('r.id AS "record_id", r.created_at AS "created_at", r.created_by AS "created_by", r.updated_at AS "updated_at", a1.value_number AS "amount"');
    expect(sql).not.toMatch(/"name"|"stage"|"tags"|"owner"|"where"|"emails"/);
    expect(sql).not.toMatch(/'a-(name|stage|tags|owner|where|emails)'/);
  });

  it('pushes comparisons with constants as literals of the column type, and nothing else', () => {
    const n = (text: string) => ({ kind: 'number' as const, text });
    const str = (text: string, castTo?: string) => ({ kind: 'string' as const, text, castTo });
    const sql = generate(['amount', 'name', 'stage', 'tags', 'where'], [
      { column: 'amount', op: '>', values: [n('1800')] },
      { column: 'name', op: 'in', values: [str('a'), str('b')] },
      { column: 'stage', op: 'is null', values: [] },
      { column: 'record_id', op: '=', values: [str('00000000-0000-4000-8000-00000000000a', 'uuid')] },
      { column: 'name', op: '=', values: [n('5')] }, // a number against text: not the statement's meaning
      { column: 'amount', op: '<', values: [str('5', 'float8')] }, // another type's comparison
      { column: 'tags', op: '=', values: [str('x')] }, // multiselect
      { column: 'where', op: '=', values: [str('x')] }, // jsonb
      { column: 'missing', op: '=', values: [str('x')] },
    ]);
    // A pushed comparison of the value column stands for its `IS NOT NULL`; `IS NULL` (of the option title) does not.
    expect(sql).toContain(`a4.attribute_id = 'a-amount'::uuid AND a4.active_until IS NULL WHERE`);
    expect(sql).toContain(`a1.attribute_id = 'a-name'::uuid AND a1.active_until IS NULL LEFT JOIN`);
    expect(sql).toContain(`a2.attribute_id = 'a-stage'::uuid AND a2.active_until IS NULL AND a2.value_ref IS NOT NULL LEFT JOIN "app"."statuses" o2`);
    const where = sql.slice(sql.lastIndexOf(' WHERE r.workspace_id'));
    expect(where).toBe(
      ` WHERE r.workspace_id = ${W} AND r.container_id = 'c0'::uuid AND a4.value_number > '1800'::numeric AND a1.value_text = ANY ('{"a","b"}'::text[]) AND o2.title IS NULL AND r.id = '00000000-0000-4000-8000-00000000000a'::uuid OFFSET 0`,
    );
  });
});

describe('SqlLiterals', () => {
  it('quotes values and array elements so that no quote or backslash ends them early', () => {
    const literals = new SqlLiterals(WS);
    expect(literals.workspace).toBe(`'${WS}'::uuid`);
    expect(literals.add("it's", 'text')).toBe("'it''s'::text");
    expect(literals.add('back\\slash', 'text')).toBe(" E'back\\\\slash'::text");
    expect(literals.add(['a"b', 'c\\d', "e'f", ''], 'text[]')).toBe(` E'{"a\\\\"b","c\\\\\\\\d","e''f",""}'::text[]`);
  });
});
