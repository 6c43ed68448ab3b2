import { Injectable } from '@nestjs/common';
import { CacheInvalidations, ChangeAwareCache, TransactionRunner } from '@workbase/shared/persistence';
import { buildTable, type CatalogAttribute, type DataSchema, type SqlTable, tableKey, type TableRef } from '../domain/sql-table';

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
/** A workspace's tables as one lookup found them, kept until the workspace's schema changes. */
interface CachedTables {
  readonly workspaceId: string;
  readonly tables: SqlTable[];
}

/**
 * Objects, lists, activities, attributes (and the parent objects of lists) are all under the
 * `schema` invalidation topic, so a change committed in any process drops the workspace's entries.
 */
const TABLES_CACHE = { topic: 'schema', workspaceOf: (entry: CachedTables) => entry.workspaceId, ttlMs: 60_000, maxEntries: 10_000 } as const;

/**
 * Reads the caller's containers (objects, lists, activities) and their live attributes straight
 * from the record engine's catalog tables, and turns them into SQL tables. Every query is keyed
 * by the workspace id first. Lookups are kept per process (only complete answers: a table not
 * found is asked again next time, so one created elsewhere is seen at once).
 */
@Injectable()
export class SqlCatalogRepository {
  private readonly cache: ChangeAwareCache<CachedTables>;

  constructor(
    private readonly transactions: TransactionRunner,
    invalidations: CacheInvalidations,
  ) {
    this.cache = new ChangeAwareCache<CachedTables>(invalidations, TABLES_CACHE);
  }

  /** The named tables of one workspace; names not found are simply absent from the result. */
  async tablesNamed(workspaceId: string, wanted: readonly TableRef[]): Promise<SqlTable[]> {
    const keys = [...new Set(wanted.map(tableKey))].sort();
    if (keys.length === 0) return [];
    let found: SqlTable[] = [];
    const cached = await this.cache.get(`${workspaceId}|${keys.join('|')}`, async () => {
      const slugsOf = (schema: DataSchema) => wanted.filter((t) => t.schema === schema).map((t) => t.name);
      found = await this.load(workspaceId, { objects: slugsOf('objects'), lists: slugsOf('lists'), activities: slugsOf('activities') });
      return found.length === keys.length ? { workspaceId, tables: found } : null;
    });
    return cached?.tables ?? found;
  }

  /** Every table of the workspace in the given schemas, ordered by schema then name. */
  async allTables(workspaceId: string, schemas: readonly DataSchema[]): Promise<SqlTable[]> {
    const all = (schema: DataSchema) => (schemas.includes(schema) ? null : []);
    const cached = await this.cache.get(`${workspaceId}|*|${[...schemas].sort().join('|')}`, async () => ({
      workspaceId,
      tables: await this.load(workspaceId, { objects: all('objects'), lists: all('lists'), activities: all('activities') }),
    }));
    return cached!.tables;
  }

  /** `null` for a schema: all its tables; an array: only those slugs. One round trip. */
  private async load(workspaceId: string, slugs: Record<DataSchema, string[] | null>): Promise<SqlTable[]> {
    const rows: CatalogRow[] = await this.transactions.query(CATALOG_SQL, [workspaceId, slugs.objects, slugs.lists, slugs.activities]);
    return tablesFrom(rows);
  }
}

type CatalogRow = ContainerRow & { attributes: AttributeRow[] | null };

/** $1 the workspace; $2, $3, $4 the slugs of objects, lists and activities wanted (NULL: all). */
const CATALOG_SQL = `
  WITH containers AS (
    SELECT 'objects' AS schema, o.id, o.api_slug AS slug, o.plural_noun AS title, NULL::text AS parent_object
      FROM objects o WHERE o.workspace_id = $1 AND ($2::text[] IS NULL OR o.api_slug = ANY($2::text[]))
    UNION ALL
    SELECT 'lists', l.id, l.api_slug, l.name, p.api_slug
      FROM lists l JOIN objects p ON p.workspace_id = l.workspace_id AND p.id = l.parent_object_id
     WHERE l.workspace_id = $1 AND ($3::text[] IS NULL OR l.api_slug = ANY($3::text[]))
    UNION ALL
    SELECT 'activities', a.id, a.api_slug, a.plural_noun, NULL
      FROM activities a WHERE a.workspace_id = $1 AND ($4::text[] IS NULL OR a.api_slug = ANY($4::text[])))
  SELECT c.*,
         (SELECT json_agg(json_build_object('id', t.id, 'api_slug', t.api_slug, 'type', t.type, 'is_multiselect', t.is_multiselect) ORDER BY t.position, t.api_slug)
            FROM attributes t WHERE t.workspace_id = $1 AND t.container_id = c.id AND NOT t.is_archived) AS attributes
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
