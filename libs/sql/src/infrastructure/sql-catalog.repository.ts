import { Injectable } from '@nestjs/common';
import { TransactionRunner } from '@workbase/shared/persistence';
import { escapeIdentifier, escapeLiteral } from 'pg';
import { buildTable, type CatalogAttribute, type DataSchema, type SqlTable } from '../domain/sql-table';

interface ContainerRow {
  schema: DataSchema;
  id: string;
  slug: string;
  title: string;
  parent_object: string | null;
}

interface AttributeRow {
  id: string;
  api_slug: string;
  type: string;
  is_multiselect: boolean;
}

/**
 * Reads the caller's containers (objects, lists, activities) and their live attributes straight
 * from the record engine's catalog tables, and turns them into SQL tables. Every query is keyed
 * by the workspace id first.
 */
@Injectable()
export class SqlCatalogRepository {
  constructor(private readonly transactions: TransactionRunner) {}

  /** The named tables of one workspace; names not found are simply absent from the result. */
  async tablesNamed(workspaceId: string, wanted: ReadonlyArray<{ schema: DataSchema; name: string }>): Promise<SqlTable[]> {
    if (wanted.length === 0) return [];
    const slugsOf = (schema: DataSchema) => wanted.filter((t) => t.schema === schema).map((t) => t.name);
    return this.load(workspaceId, { objects: slugsOf('objects'), lists: slugsOf('lists'), activities: slugsOf('activities') });
  }

  /** Every table of the workspace in the given schemas, ordered by schema then name. */
  async allTables(workspaceId: string, schemas: readonly DataSchema[]): Promise<SqlTable[]> {
    const all = (schema: DataSchema) => (schemas.includes(schema) ? null : []);
    return this.load(workspaceId, { objects: all('objects'), lists: all('lists'), activities: all('activities') });
  }

  /** `null` for a schema: all its tables; an array: only those slugs. One round trip. */
  private async load(workspaceId: string, slugs: Record<DataSchema, string[] | null>): Promise<SqlTable[]> {
    const rows: CatalogRow[] = await this.transactions.query(CATALOG_SQL('$1', '$2::text[]', '$3::text[]', '$4::text[]', ''), [workspaceId, slugs.objects, slugs.lists, slugs.activities]);
    return tablesFrom(rows);
  }
}

type CatalogRow = ContainerRow & { attributes: AttributeRow[] | null };

/** The catalogue query over the given SQL expressions (parameters or literals); `schema` qualifies the tables (`"s".`) or is empty. */
const CATALOG_SQL = (workspace: string, objects: string, lists: string, activities: string, schema: string) =>
  `WITH containers AS (
     SELECT 'objects' AS schema, o.id, o.api_slug AS slug, o.plural_noun AS title, NULL::text AS parent_object
       FROM ${schema}objects o WHERE o.workspace_id = ${workspace} AND (${objects} IS NULL OR o.api_slug = ANY(${objects}))
     UNION ALL
     SELECT 'lists', l.id, l.api_slug, l.name, p.api_slug
       FROM ${schema}lists l JOIN ${schema}objects p ON p.workspace_id = l.workspace_id AND p.id = l.parent_object_id
      WHERE l.workspace_id = ${workspace} AND (${lists} IS NULL OR l.api_slug = ANY(${lists}))
     UNION ALL
     SELECT 'activities', a.id, a.api_slug, a.plural_noun, NULL
       FROM ${schema}activities a WHERE a.workspace_id = ${workspace} AND (${activities} IS NULL OR a.api_slug = ANY(${activities})))
   SELECT c.*,
          (SELECT json_agg(json_build_object('id', t.id, 'api_slug', t.api_slug, 'type', t.type, 'is_multiselect', t.is_multiselect) ORDER BY t.position, t.api_slug)
             FROM ${schema}attributes t WHERE t.workspace_id = ${workspace} AND t.container_id = c.id AND NOT t.is_archived) AS attributes
     FROM containers c
    ORDER BY 1, 3`;

function tablesFrom(rows: readonly CatalogRow[]): SqlTable[] {
  return rows.map((c) =>
    buildTable(
      c.schema,
      { id: c.id, slug: c.slug, title: c.title, parentObject: c.parent_object },
      (c.attributes ?? []).map((row): CatalogAttribute => ({ id: row.id, slug: row.api_slug, type: row.type, isMultiselect: row.is_multiselect })),
    ),
  );
}

/**
 * The catalogue lookup as one self-contained statement (literals instead of parameters, tables
 * qualified by `schema`), so that the executor can send it in the round trip that opens the
 * statement's transaction: one round trip less per statement, and the tables are read in the same
 * snapshot as their rows. `tables` turns its rows into tables.
 */
export function catalogLookup(workspaceId: string, schema: string, slugs: Record<DataSchema, readonly string[] | null>): { text: string; tables(rows: readonly unknown[]): SqlTable[] } {
  const list = (names: readonly string[] | null) => (names === null ? 'NULL::text[]' : `ARRAY[${names.map((name) => escapeLiteral(name)).join(', ')}]::text[]`);
  return {
    text: CATALOG_SQL(`${escapeLiteral(workspaceId)}::uuid`, list(slugs.objects), list(slugs.lists), list(slugs.activities), `${escapeIdentifier(schema)}.`),
    tables: (rows) => tablesFrom(rows as CatalogRow[]),
  };
}
