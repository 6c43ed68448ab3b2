/**
 * The tables the SQL endpoint serves: one per object (`objects.<slug>`), list (`lists.<slug>`)
 * and activity (`activities.<slug>`) of the caller's workspace, plus a virtual
 * `information_schema.tables` / `information_schema.columns` that list only those.
 */
import { type AttributeType, isAttributeType } from '@workbase/schema';
import { COLUMN_CAST, PRIMARY_COLUMN } from '@workbase/shared/persistence';
import type { FixedSchema } from './fixed-relations';

export const DATA_SCHEMAS = ['objects', 'lists', 'activities'] as const;
export type DataSchema = (typeof DATA_SCHEMAS)[number];

export const INFORMATION_SCHEMA = 'information_schema';
export const INFORMATION_SCHEMA_TABLES = ['tables', 'columns'] as const;
export type InformationSchemaTable = (typeof INFORMATION_SCHEMA_TABLES)[number];

export type TableSchema = DataSchema | typeof INFORMATION_SCHEMA | FixedSchema;

export function isDataSchema(value: string): value is DataSchema {
  return (DATA_SCHEMAS as readonly string[]).includes(value);
}

/** A table named in a statement, before it is looked up. */
export interface TableRef {
  readonly schema: TableSchema;
  readonly name: string;
}

export function tableKey(ref: TableRef): string {
  return `${ref.schema}.${ref.name}`;
}

/** Where a column's values come from. */
export type ColumnSource =
  | { readonly kind: 'record'; readonly field: 'id' | 'created_at' | 'created_by' | 'updated_at' | 'parent_record_id' }
  | { readonly kind: 'constant'; readonly value: string }
  | { readonly kind: 'attribute'; readonly attributeId: string; readonly attributeType: string; readonly multi: boolean };

export interface SqlColumn {
  readonly name: string;
  /** The PostgreSQL type the column has in queries. */
  readonly sqlType: string;
  /** The attribute type behind the column; null for the record's own columns. */
  readonly attributeType: string | null;
  readonly isMultiselect: boolean;
  readonly source: ColumnSource;
}

/** A resolved data table: a container of the workspace and its columns, in order. */
export interface SqlTable {
  readonly schema: DataSchema;
  readonly name: string;
  readonly containerId: string;
  readonly title: string;
  readonly columns: readonly SqlColumn[];
}

/** An attribute of a container as the catalog reads it. */
export interface CatalogAttribute {
  readonly id: string;
  readonly slug: string;
  readonly type: string;
  readonly isMultiselect: boolean;
}

/**
 * The SQL type of an attribute's column (current values). Multiselect attributes are arrays of
 * the single type (`text[]`, `numeric[]`, `uuid[]`, ...), except JSON-shaped ones, which are one
 * `jsonb` array. See the mapping table in libs/sql/README.md.
 */
export function columnTypeFor(attributeType: string, multi: boolean): string {
  const single = singleColumnType(attributeType);
  if (!multi) return single;
  return single === 'jsonb' ? 'jsonb' : `${single}[]`;
}

/** Types shown as JSON rather than their stored primary column: an actor (type and id), a location's or an interaction's parts. */
export const JSON_COLUMN_TYPES: ReadonlySet<AttributeType> = new Set<AttributeType>(['actor-reference', 'location', 'interaction']);
/** Types stored as a reference to a choice and shown by the choice's title. */
export const TITLE_COLUMN_TYPES: ReadonlySet<AttributeType> = new Set<AttributeType>(['select', 'status']);

/** The type of a single value's column: the cast of the type's primary column (libs/shared/persistence value-columns.ts), or what the value is shown as. */
function singleColumnType(attributeType: string): string {
  const type = knownAttributeType(attributeType);
  if (JSON_COLUMN_TYPES.has(type)) return 'jsonb';
  if (TITLE_COLUMN_TYPES.has(type)) return 'text';
  return COLUMN_CAST[PRIMARY_COLUMN[type]];
}

/** An attribute type the catalogue defines; any other is stored data this code cannot show, so an error rather than a guess. */
export function knownAttributeType(attributeType: string): AttributeType {
  if (!isAttributeType(attributeType)) throw new Error(`Attribute type "${attributeType}" is not one of libs/schema ATTRIBUTE_TYPES; the SQL endpoint has no column for it.`);
  return attributeType;
}

/** The record's own columns, first in every table; an attribute with one of these slugs is not repeated. */
function recordColumns(schema: DataSchema, parentObject: string | null): SqlColumn[] {
  const own = (name: string, sqlType: string, field: 'id' | 'created_at' | 'created_by' | 'updated_at' | 'parent_record_id'): SqlColumn => ({
    name,
    sqlType,
    attributeType: null,
    isMultiselect: false,
    source: { kind: 'record', field },
  });
  const columns = [own('record_id', 'uuid', 'id')];
  if (schema === 'lists') {
    columns.push(own('entry_id', 'uuid', 'id'), own('parent_record_id', 'uuid', 'parent_record_id'));
    columns.push({ name: 'parent_object', sqlType: 'text', attributeType: null, isMultiselect: false, source: { kind: 'constant', value: parentObject ?? '' } });
  }
  columns.push(own('created_at', 'timestamptz', 'created_at'), own('created_by', 'jsonb', 'created_by'), own('updated_at', 'timestamptz', 'updated_at'));
  return columns;
}

export function buildTable(
  schema: DataSchema,
  container: { readonly id: string; readonly slug: string; readonly title: string; readonly parentObject?: string | null },
  attributes: readonly CatalogAttribute[],
): SqlTable {
  const columns = recordColumns(schema, container.parentObject ?? null);
  const taken = new Set(columns.map((column) => column.name));
  for (const attribute of attributes) {
    if (taken.has(attribute.slug)) continue;
    taken.add(attribute.slug);
    columns.push({
      name: attribute.slug,
      sqlType: columnTypeFor(attribute.type, attribute.isMultiselect),
      attributeType: attribute.type,
      isMultiselect: attribute.isMultiselect,
      source: { kind: 'attribute', attributeId: attribute.id, attributeType: attribute.type, multi: attribute.isMultiselect },
    });
  }
  return { schema, name: container.slug, containerId: container.id, title: container.title, columns };
}
