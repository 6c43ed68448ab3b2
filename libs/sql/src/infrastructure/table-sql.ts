import { quoteIdent } from '../domain/statement-analyzer';
import type { ColumnFilter, FilterConstant } from '../domain/statement-analyzer';
import { knownAttributeType, type SqlColumn, type SqlTable } from '../domain/sql-table';
import { PRIMARY_COLUMN } from '@workbase/shared/persistence';
import { escapeLiteral } from 'pg';

/**
 * The values of the generated SQL, written into it as quoted literals with a cast, not bound as
 * parameters: the executor sends a statement's whole exchange (transaction, settings, slot,
 * statement, rollback) as one simple-protocol message, which carries no parameters. The meaning
 * is the same: PostgreSQL converts a quoted literal cast to a type with that type's input function
 * while it parses the statement, as it converts a bound parameter when the statement is bound:
 * before any row is read, so a bad value fails the statement and involves no row.
 */
export class SqlLiterals {
  /** The caller's workspace id, the value every generated relation is bound to. */
  readonly workspace: string;

  constructor(workspaceId: string) {
    this.workspace = this.add(workspaceId, 'uuid');
  }

  /** `value` as a literal of type `cast`; an array becomes an array literal of type `cast` (e.g. `numeric[]`). */
  add(value: string | readonly string[], cast: string): string {
    const text = typeof value === 'string' ? value : `{${value.map((element) => `"${element.replace(/[\\"]/g, '\\$&')}"`).join(',')}}`;
    return `${escapeLiteral(text)}::${cast}`;
  }
}

export interface RelationOptions {
  /** Names the statement may read; null: every column (the analysis could not tell). */
  readonly columns?: ReadonlySet<string> | null;
  /** Conditions of the statement on this occurrence's columns, applied inside the relation where safe. */
  readonly filters?: readonly ColumnFilter[];
}

/**
 * The relation a data table stands for: one row per record (entry, activity record) of the
 * container, one column per attribute holding its current value(s); only the columns the
 * statement can read (`options.columns`, a conservative superset) are generated.
 *
 * A single-valued attribute is a plain LEFT JOIN of its current value row
 * (`workspace_id = <workspace> AND record_id = r.id AND attribute_id = … AND active_until IS NULL`), so the
 * planner is free to hash-join whole columns for a scan or probe `record_values_by_record` for a
 * few rows (a small LIMIT). It relies on at most one current value per single-valued attribute,
 * which the record engine keeps under row locks (README: Performance). A multiselect attribute
 * is a correlated aggregate in write order, computed only for the rows the relation emits.
 *
 * Bound to the caller's workspace (`literals.workspace`) in every join and subquery. `OFFSET 0` keeps the whole
 * relation an optimisation fence: the statement's own expressions are never pushed below it, so
 * they only ever see this workspace's rows. The one exception is ours: `options.filters` are
 * rebuilt here from a column and constants into a built-in comparison with bound parameters
 * (`pushdownSql`), which cannot fail or have an effect on any row (README: Pushdown).
 */
export function tableRelationSql(table: SqlTable, literals: SqlLiterals, schema: string, options: RelationOptions = {}): string {
  const q = (name: string) => `${quoteIdent(schema)}.${quoteIdent(name)}`;
  const wanted = options.columns ?? null;
  const joins: string[] = [];
  const expressions = new Map<string, { column: SqlColumn; expression: string }>();
  const columns: string[] = [];
  // Columns a pushed condition other than IS NULL compares: only rows with a value can match it.
  const compared = new Set((options.filters ?? []).filter((filter) => filter.op !== 'is null' && table.columns.some((column) => column.name === filter.column && pushable(column, filter))).map((filter) => filter.column));
  for (const column of table.columns) {
    // The record's own columns cost nothing (they are the records row): always there.
    if (wanted && column.source.kind === 'attribute' && !wanted.has(column.name)) continue;
    const expression = columnSql(column, literals, q, joins, compared.has(column.name));
    expressions.set(column.name, { column, expression });
    columns.push(`${expression} AS ${quoteIdent(column.name)}`);
  }
  const container = literals.add(table.containerId, 'uuid');
  const conditions = [`r.workspace_id = ${literals.workspace}`, `r.container_id = ${container}`];
  for (const filter of options.filters ?? []) {
    const target = expressions.get(filter.column);
    const condition = target ? pushdownSql(target.column, target.expression, filter, literals) : null;
    if (condition) conditions.push(condition);
  }
  return `SELECT ${columns.join(', ')} FROM ${q('records')} r${joins.map((join) => ` ${join}`).join('')} WHERE ${conditions.join(' AND ')} OFFSET 0`;
}

/**
 * The SQL types a pushed comparison can have, and the casts a constant may carry to keep the same
 * meaning. Their comparison operators cannot fail on any two values: LEAKPROOF in PostgreSQL's
 * catalogue for text, timestamptz, date and uuid; numeric's are not flagged but have no error
 * path (libs/sql/README.md, Pushdown).
 */
const PUSHABLE_TYPES: Readonly<Record<string, { kinds: ReadonlyArray<FilterConstant['kind']>; casts: readonly string[] }>> = {
  numeric: { kinds: ['number', 'string'], casts: ['numeric'] },
  text: { kinds: ['string'], casts: ['text'] },
  timestamptz: { kinds: ['string'], casts: ['timestamptz'] },
  date: { kinds: ['string'], casts: ['date'] },
  uuid: { kinds: ['string'], casts: ['uuid'] },
};

/**
 * A condition of the statement rebuilt for the inside of the relation, or null when it does not
 * qualify: `<the column's own expression> <built-in comparison of its type> '<constant>'::<its type>`
 * (`= ANY('{…}'::type[])` for IN, `IS [NOT] NULL`), on a single-valued column of a type whose
 * comparisons cannot fail (numeric, text, timestamptz, date, uuid). The constants are literals
 * of the column's type (SqlLiterals): PostgreSQL converts them while it parses the statement,
 * before any row is read, so a bad constant fails the statement as it would have anyway and
 * involves no row. A constant must be of a kind (number or string literal) and cast (none, or the
 * column's own type) that gives it the same meaning as in the statement.
 */
export function pushdownSql(column: SqlColumn, expression: string, filter: ColumnFilter, literals: SqlLiterals): string | null {
  if (!pushable(column, filter)) return null;
  if (filter.op === 'is null' || filter.op === 'is not null') return `${expression} ${filter.op === 'is null' ? 'IS NULL' : 'IS NOT NULL'}`;
  if (filter.op === 'in') return `${expression} = ANY (${literals.add(filter.values.map((value) => value.text), `${column.sqlType}[]`)})`;
  return `${expression} ${filter.op} ${literals.add(filter.values[0].text, column.sqlType)}`;
}

/** Whether `filter` qualifies for pushdown on `column` (see pushdownSql). */
function pushable(column: SqlColumn, filter: ColumnFilter): boolean {
  if (column.isMultiselect || column.source.kind === 'constant') return false;
  if (filter.op === 'is null' || filter.op === 'is not null') return true;
  const type = PUSHABLE_TYPES[column.sqlType];
  if (!type) return false;
  const fits = (value: FilterConstant) => type.kinds.includes(value.kind) && (value.castTo === undefined || type.casts.includes(value.castTo));
  return filter.values.length > 0 && filter.values.every(fits);
}

/**
 * The column's expression over `r`; a single-valued attribute adds its LEFT JOIN(s) to `joins`.
 * `compared`: a pushed condition compares the column, so only rows with a value can match.
 */
function columnSql(column: SqlColumn, literals: SqlLiterals, q: (name: string) => string, joins: string[], compared: boolean): string {
  const source = column.source;
  switch (source.kind) {
    case 'record':
      return `r.${source.field}`;
    case 'constant':
      return literals.add(source.value, 'text');
    case 'attribute': {
      const attribute = literals.add(source.attributeId, 'uuid');
      if (!source.multi) {
        const n = joins.length + 1;
        const v = `a${n}`;
        const { expression, lookup, indexed } = valueSql(source.attributeType, v, `o${n}`, q, literals.workspace);
        // `<column> IS NOT NULL` matches the partial value indexes, so a sparse attribute is read through its index.
        // Not when a pushed comparison of that very column implies it: PostgreSQL would count the
        // condition twice in its row estimate (at 1M records, a quarter of the matching values:
        // the hash join then grew from 1 to 8 batches), and the comparison matches the index alone.
        const present = indexed && !(compared && expression === `${v}.${indexed}`) ? ` AND ${v}.${indexed} IS NOT NULL` : '';
        // Bound to the record's workspace, which is the caller's: the same rows as the literal, but
        // PostgreSQL then estimates a join on the pair (workspace, record) as the hand-written
        // SQL's, and hashes the records side for a big scan: a filtered count of 500,000 values at
        // 1M records took 940 ms with the literal and 620 ms so (as the hand-written statement).
        joins.push(`LEFT JOIN ${q('record_values')} ${v} ON ${v}.workspace_id = r.workspace_id AND ${v}.record_id = r.id AND ${v}.attribute_id = ${attribute} AND ${v}.active_until IS NULL${present}${lookup ? ` ${lookup}` : ''}`);
        return expression;
      }
      const { expression, lookup, indexed } = valueSql(source.attributeType, 'v', 'o', q, literals.workspace);
      const present = indexed ? ` AND v.${indexed} IS NOT NULL` : '';
      const from = `FROM ${q('record_values')} v${lookup ? ` ${lookup}` : ''} WHERE v.workspace_id = ${literals.workspace} AND v.record_id = r.id AND v.attribute_id = ${attribute} AND v.active_until IS NULL${present}`;
      if (column.sqlType === 'jsonb') return `COALESCE((SELECT jsonb_agg(${expression} ORDER BY v.id) ${from}), '[]'::jsonb)`;
      return `COALESCE((SELECT array_agg(${expression} ORDER BY v.id) ${from}), '{}'::${column.sqlType})`;
    }
  }
}

/**
 * The expression of one stored value (alias `v`), typed as the column mapping says; the join it
 * needs (select options and statuses: their title, alias `o`, bound to the workspace too); and,
 * where the value is the type's primary column (PRIMARY_COLUMN of libs/shared/persistence), that column:
 * every current value of the type has it, and the partial index on it holds exactly those values.
 */
function valueSql(attributeType: string, v: string, o: string, q: (name: string) => string, workspace: string): { expression: string; lookup?: string; indexed?: string } {
  const type = knownAttributeType(attributeType);
  switch (type) {
    case 'select':
      return { expression: `${o}.title`, lookup: `LEFT JOIN ${q('select_options')} ${o} ON ${o}.workspace_id = ${workspace} AND ${o}.id = ${v}.value_ref`, indexed: PRIMARY_COLUMN[type] };
    case 'status':
      return { expression: `${o}.title`, lookup: `LEFT JOIN ${q('statuses')} ${o} ON ${o}.workspace_id = ${workspace} AND ${o}.id = ${v}.value_ref`, indexed: PRIMARY_COLUMN[type] };
    case 'actor-reference':
      // NULL, not {"type": null, "id": null}, when the LEFT JOIN found no value.
      return { expression: `CASE WHEN ${v}.id IS NOT NULL THEN jsonb_build_object('type', ${v}.value_ref_type, 'id', ${v}.value_ref) END` };
    case 'location':
    case 'interaction':
      return { expression: `${v}.value_json` };
    default: {
      const column = PRIMARY_COLUMN[type];
      return { expression: `${v}.${column}`, indexed: column };
    }
  }
}

/** `information_schema.tables` / `.columns` over the caller's readable tables, from one JSON parameter. */
export function informationSchemaSql(name: 'tables' | 'columns', tables: readonly SqlTable[], literals: SqlLiterals): string {
  if (name === 'tables') {
    const rows = tables.map((t) => ({ table_schema: t.schema, table_name: t.name, table_type: 'BASE TABLE', title: t.title }));
    return `SELECT * FROM jsonb_to_recordset(${literals.add(JSON.stringify(rows), 'jsonb')}) AS x(table_schema text, table_name text, table_type text, title text) OFFSET 0`;
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
  return `SELECT * FROM jsonb_to_recordset(${literals.add(JSON.stringify(rows), 'jsonb')}) AS x(table_schema text, table_name text, column_name text, ordinal_position integer, data_type text, attribute_type text, is_multiselect boolean, is_nullable text) OFFSET 0`;
}
