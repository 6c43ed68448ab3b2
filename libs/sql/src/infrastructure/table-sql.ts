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
 * container, one column per attribute holding its current value(s).
 *
 * Set-based: each attribute column is a LEFT JOIN to a derived table of that attribute's current
 * values (`workspace_id = $1 AND attribute_id = … AND active_until IS NULL`), one row per record
 * (`DISTINCT ON` the first value by id for single-valued attributes, `array_agg`/`jsonb_agg` in
 * write order for multiselect ones), so PostgreSQL hash-joins whole columns instead of probing
 * the value table once per row and column. Each derived table is unique on `record_id`, so the
 * planner removes the joins of columns the statement does not use (join removal after unused
 * subquery outputs are dropped): only referenced attributes are read.
 *
 * Bound to `$1`, the caller's workspace, in every subquery. `OFFSET 0` keeps the whole relation
 * an optimisation fence: the statement's own conditions are never pushed below it (into the scan
 * of `records` or of a derived table), so they only ever see this workspace's rows (an erroring
 * cast cannot be evaluated on another workspace's value).
 */
export function tableRelationSql(table: SqlTable, params: SqlParams, schema: string): string {
  const q = (name: string) => `${quoteIdent(schema)}.${quoteIdent(name)}`;
  const joins: string[] = [];
  const columns = table.columns.map((column) => `${columnSql(column, params, q, joins)} AS ${quoteIdent(column.name)}`);
  const container = params.add(table.containerId, 'uuid');
  return `SELECT ${columns.join(', ')} FROM ${q('records')} r${joins.map((join) => ` ${join}`).join('')} WHERE r.workspace_id = $1 AND r.container_id = ${container} OFFSET 0`;
}

/** The column's expression over `r`; an attribute column adds its LEFT JOIN to `joins`. */
function columnSql(column: SqlColumn, params: SqlParams, q: (name: string) => string, joins: string[]): string {
  const source = column.source;
  switch (source.kind) {
    case 'record':
      return `r.${source.field}`;
    case 'constant':
      return params.add(source.value, 'text');
    case 'attribute': {
      const alias = `a${joins.length + 1}`;
      const { expression, lookup, indexed } = valueSql(source.attributeType, q);
      // `<column> IS NOT NULL` matches the partial value indexes, so a sparse attribute is read through its index.
      const present = indexed ? ` AND v.${indexed} IS NOT NULL` : '';
      const from = `FROM ${q('record_values')} v${lookup ? ` ${lookup}` : ''} WHERE v.workspace_id = $1 AND v.attribute_id = ${params.add(source.attributeId, 'uuid')} AND v.active_until IS NULL${present}`;
      let derived: string;
      let value = `${alias}.value`;
      if (!source.multi) {
        derived = `SELECT DISTINCT ON (v.record_id) v.record_id, ${expression} AS value ${from} ORDER BY v.record_id, v.id`;
      } else if (column.sqlType === 'jsonb') {
        derived = `SELECT v.record_id, jsonb_agg(${expression} ORDER BY v.id) AS value ${from} GROUP BY v.record_id`;
        value = `COALESCE(${value}, '[]'::jsonb)`;
      } else {
        derived = `SELECT v.record_id, array_agg(${expression} ORDER BY v.id) AS value ${from} GROUP BY v.record_id`;
        value = `COALESCE(${value}, '{}'::${column.sqlType})`;
      }
      joins.push(`LEFT JOIN (${derived}) ${alias} ON ${alias}.record_id = r.id`);
      return value;
    }
  }
}

/**
 * The expression of one stored value (`v`), typed as the column mapping says; the join it needs
 * (select options and statuses: their title, bound to the workspace too); and, where the value is
 * the type's primary column (libs/records value-columns.ts), that column: every current value of
 * the type has it, and the partial index on it holds exactly those values.
 */
function valueSql(attributeType: string, q: (name: string) => string): { expression: string; lookup?: string; indexed?: string } {
  switch (attributeType) {
    case 'number':
    case 'currency':
    case 'rating':
      return { expression: 'v.value_number', indexed: 'value_number' };
    case 'checkbox':
      return { expression: 'v.value_bool', indexed: 'value_bool' };
    case 'date':
      return { expression: 'v.value_date', indexed: 'value_date' };
    case 'timestamp':
      return { expression: 'v.value_timestamp', indexed: 'value_timestamp' };
    case 'record-reference':
      return { expression: 'v.value_ref', indexed: 'value_ref' };
    case 'select':
      return { expression: 'o.title', lookup: `LEFT JOIN ${q('select_options')} o ON o.workspace_id = $1 AND o.id = v.value_ref`, indexed: 'value_ref' };
    case 'status':
      return { expression: 'o.title', lookup: `LEFT JOIN ${q('statuses')} o ON o.workspace_id = $1 AND o.id = v.value_ref`, indexed: 'value_ref' };
    case 'actor-reference':
      return { expression: `jsonb_build_object('type', v.value_ref_type, 'id', v.value_ref)` };
    case 'location':
    case 'interaction':
      return { expression: 'v.value_json' };
    case 'text':
    case 'email-address':
    case 'domain':
    case 'phone-number':
    case 'personal-name':
      return { expression: 'v.value_text', indexed: 'value_text' };
    default:
      return { expression: 'v.value_text' };
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
