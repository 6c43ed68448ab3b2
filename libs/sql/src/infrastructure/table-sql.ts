import { quoteIdent } from '../domain/statement-analyzer';
import type { SqlColumn, SqlTable } from '../domain/sql-table';

/** Bound parameters of the generated SQL; `$1` is always the caller's workspace id. */
export class SqlParams {
  readonly values: unknown[];

  constructor(workspaceId: string) {
    this.values = [workspaceId];
  }

  add(value: unknown, cast: string): string {
    this.values.push(value);
    return `$${this.values.length}::${cast}`;
  }
}

/**
 * The relation a data table stands for: one row per record (entry, activity record) of the
 * container, one column per attribute holding its current value(s). Bound to `$1`, the caller's
 * workspace, in every subquery. `OFFSET 0` keeps it an optimisation fence: the statement's own
 * conditions are never pushed below it, so they only ever see this workspace's rows (an erroring
 * cast cannot be evaluated on another workspace's value), while columns the statement does not
 * use are still dropped by the planner and cost nothing.
 */
export function tableRelationSql(table: SqlTable, params: SqlParams, schema: string): string {
  const q = (name: string) => `${quoteIdent(schema)}.${quoteIdent(name)}`;
  const columns = table.columns.map((column) => `${columnSql(column, params, q)} AS ${quoteIdent(column.name)}`);
  return `SELECT ${columns.join(', ')} FROM ${q('records')} r WHERE r.workspace_id = $1 AND r.container_id = ${params.add(table.containerId, 'uuid')} OFFSET 0`;
}

function columnSql(column: SqlColumn, params: SqlParams, q: (name: string) => string): string {
  const source = column.source;
  switch (source.kind) {
    case 'record':
      return `r.${source.field}`;
    case 'constant':
      return params.add(source.value, 'text');
    case 'attribute': {
      const values = `FROM ${q('record_values')} v WHERE v.workspace_id = $1 AND v.record_id = r.id AND v.attribute_id = ${params.add(source.attributeId, 'uuid')} AND v.active_until IS NULL`;
      const value = valueSql(source.attributeType, q);
      if (column.sqlType === 'jsonb' && source.multi) return `COALESCE((SELECT jsonb_agg(${value} ORDER BY v.id) ${values}), '[]'::jsonb)`;
      if (source.multi) return `ARRAY(SELECT ${value} ${values} ORDER BY v.id)`;
      return `(SELECT ${value} ${values} ORDER BY v.id LIMIT 1)`;
    }
  }
}

/** The expression of one stored value (`v`), typed as the column mapping says. */
function valueSql(attributeType: string, q: (name: string) => string): string {
  switch (attributeType) {
    case 'number':
    case 'currency':
    case 'rating':
      return 'v.value_number';
    case 'checkbox':
      return 'v.value_bool';
    case 'date':
      return 'v.value_date';
    case 'timestamp':
      return 'v.value_timestamp';
    case 'record-reference':
      return 'v.value_ref';
    case 'select':
      return `(SELECT o.title FROM ${q('select_options')} o WHERE o.workspace_id = $1 AND o.id = v.value_ref)`;
    case 'status':
      return `(SELECT s.title FROM ${q('statuses')} s WHERE s.workspace_id = $1 AND s.id = v.value_ref)`;
    case 'actor-reference':
      return `jsonb_build_object('type', v.value_ref_type, 'id', v.value_ref)`;
    case 'location':
    case 'interaction':
      return 'v.value_json';
    default:
      return 'v.value_text';
  }
}

/** `information_schema.tables` / `.columns` over the caller's readable tables, from one JSON parameter. */
export function informationSchemaSql(name: 'tables' | 'columns', tables: readonly SqlTable[], params: SqlParams): string {
  if (name === 'tables') {
    const rows = tables.map((t) => ({ table_schema: t.schema, table_name: t.name, table_type: 'BASE TABLE', title: t.title }));
    return `SELECT * FROM jsonb_to_recordset(${params.add(JSON.stringify(rows), 'jsonb')}) AS x(table_schema text, table_name text, table_type text, title text) OFFSET 0`;
  }
  const rows = tables.flatMap((t) =>
    t.columns.map((c, index) => ({
      table_schema: t.schema,
      table_name: t.name,
      column_name: c.name,
      ordinal_position: index + 1,
      data_type: c.sqlType,
      attribute_type: c.attributeType,
      is_multiselect: c.isMultiselect,
      is_nullable: c.source.kind === 'attribute' ? 'YES' : 'NO',
    })),
  );
  return `SELECT * FROM jsonb_to_recordset(${params.add(JSON.stringify(rows), 'jsonb')}) AS x(table_schema text, table_name text, column_name text, ordinal_position integer, data_type text, attribute_type text, is_multiselect boolean, is_nullable text) OFFSET 0`;
}
