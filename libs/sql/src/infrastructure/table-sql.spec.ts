import { buildTable } from '../domain/sql-table';
import { SqlParams, tableRelationSql } from './table-sql';

const WS = '00000000-0000-4000-8000-000000000001';

describe('tableRelationSql', () => {
  const table = buildTable('objects', { id: 'c0', slug: 'deals', title: 'Deals' }, [
    { id: 'a-name', slug: 'name', type: 'text', isMultiselect: false },
    { id: 'a-stage', slug: 'stage', type: 'status', isMultiselect: false },
    { id: 'a-tags', slug: 'tags', type: 'select', isMultiselect: true },
    { id: 'a-owner', slug: 'owner', type: 'actor-reference', isMultiselect: true },
    { id: 'a-where', slug: 'where', type: 'location', isMultiselect: false },
  ]);
  const params = new SqlParams(WS);
  const sql = tableRelationSql(table, params, 'app');

  it('joins one derived table of current values per attribute, each bound to the workspace parameter', () => {
    const derived = sql.match(/LEFT JOIN \(SELECT [^]*?\) a\d+ ON a\d+\.record_id = r\.id/g) ?? [];
    expect(derived).toHaveLength(5);
    for (const part of derived) {
      expect(part).toContain('v.workspace_id = $1 AND v.attribute_id = $');
      expect(part).toContain('v.active_until IS NULL');
      expect(part).not.toContain('r.id AND'); // no per-row correlation
    }
    expect(sql).toContain('LEFT JOIN "app"."statuses" o ON o.workspace_id = $1 AND o.id = v.value_ref');
    expect(sql).toContain('LEFT JOIN "app"."select_options" o ON o.workspace_id = $1 AND o.id = v.value_ref');
  });

  it('keeps the types of the column mapping: first value for single, arrays in write order for multiselect', () => {
    expect(sql).toContain('SELECT DISTINCT ON (v.record_id) v.record_id, v.value_text AS value');
    expect(sql).toContain("COALESCE(a3.value, '{}'::text[]) AS \"tags\"");
    expect(sql).toContain('array_agg(o.title ORDER BY v.id)');
    expect(sql).toContain("COALESCE(a4.value, '[]'::jsonb) AS \"owner\"");
    expect(sql).toContain("jsonb_agg(jsonb_build_object('type', v.value_ref_type, 'id', v.value_ref) ORDER BY v.id)");
    expect(sql).toContain('v.value_json AS value'); // location: no primary-column condition
    expect(sql).not.toMatch(/value_json AS value [^)]*IS NOT NULL/);
  });

  it('filters the records by workspace and container and ends in the OFFSET 0 fence', () => {
    expect(sql).toMatch(/ WHERE r\.workspace_id = \$1 AND r\.container_id = \$\d+::uuid OFFSET 0$/);
    expect(params.values[0]).toBe(WS);
    expect(params.values).toEqual(expect.arrayContaining(['c0', 'a-name', 'a-stage', 'a-tags', 'a-owner', 'a-where']));
  });
});
