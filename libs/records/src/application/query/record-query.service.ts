import { Injectable } from '@nestjs/common';
import { ValidationError } from '@workbase/shared/kernel';
import { type Attribute, isPlainObject, AttributeDirectory, type Container, ObjectDirectory, ViewDirectory } from '@workbase/schema';
import { type QueryBranch, RecordRepository } from '../../infrastructure/record.repository';
import { RecordReader, type RecordView } from '../record-reader';
import { type AttributeScope, type CompileContext, FilterCompiler } from './filter-compiler';
import { filterError } from './filter-error';
import { type SortBranch, SortCompiler } from './sort-compiler';
import { SqlParams } from './sql-params';

export interface RecordQuery {
  readonly filter?: unknown;
  readonly sorts?: unknown;
  readonly limit?: number;
  readonly offset?: number;
  /** A saved view of the container whose filter the query applies (not its sorts); not with `filter`. */
  readonly filterViewId?: string;
}

export const DEFAULT_QUERY_LIMIT = 500;
export const MAX_QUERY_LIMIT = 1000;

/**
 * A compiled query: one branch, or two run in order (records holding the leading sort value,
 * read in index order; then records without it).
 */
export interface CompiledQuery {
  readonly branches: readonly QueryBranch[];
}

/** `POST …/records/query` for every container: filter and sort in SQL, then read the page. */
@Injectable()
export class RecordQueryService {
  constructor(
    private readonly attributes: AttributeDirectory,
    private readonly objects: ObjectDirectory,
    private readonly store: RecordRepository,
    private readonly reader: RecordReader,
    private readonly views: ViewDirectory,
  ) {}

  /** `attributes`: the container's (archived included), when the caller read them with the container. */
  async query(container: Container, query: RecordQuery, workspaceSlug?: string, attributes?: readonly Attribute[]): Promise<RecordView[]> {
    const compiled = await this.compile(container, await this.withViewFilter(container, query), attributes);
    const rows = await this.store.selectPages(container.workspaceId, container.id, compiled.branches, {
      limit: query.limit ?? DEFAULT_QUERY_LIMIT,
      offset: query.offset ?? 0,
    });
    return this.reader.read(container, rows, workspaceSlug, attributes);
  }

  /** The query with its view's filter in place of `filterViewId` (the reference applies the filter only: sorts, limit and offset stay the request's). */
  private async withViewFilter(container: Container, query: RecordQuery): Promise<RecordQuery> {
    if (query.filterViewId === undefined) return query;
    if (query.filter !== undefined && query.filter !== null) {
      throw new ValidationError('filter_view_id: give either filter or filter_view_id, not both.', { field: 'filter_view_id' });
    }
    return { ...query, filter: (await this.views.filterFor(container, query.filterViewId)) ?? undefined };
  }

  /** The branches of a query with their parameters (exposed for EXPLAIN in benchmarks). */
  async compile(container: Container, query: RecordQuery, attributes?: readonly Attribute[]): Promise<CompiledQuery> {
    if (query.filter !== undefined && query.filter !== null && !isPlainObject(query.filter)) throw filterError('filter must be an object');
    const scope = await this.scope(container, attributes);
    const scopes = new Map<string, AttributeScope | undefined>();
    const contextWith = (params: SqlParams): CompileContext => ({
      workspaceId: container.workspaceId,
      params,
      scopeOf: async (objectKey) => {
        if (!scopes.has(objectKey)) {
          const object = await this.objects.find(container.workspaceId, objectKey);
          scopes.set(objectKey, object ? await this.scope({ kind: 'object', id: object.id, workspaceId: container.workspaceId, slug: object.apiSlug }) : undefined);
        }
        return scopes.get(objectKey);
      },
    });

    const branch = async (kind: SortBranch): Promise<QueryBranch> => {
      const params = new SqlParams();
      const context = contextWith(params);
      const sort = await new SortCompiler(context).compile(query.sorts, scope, kind);
      const inline = kind === 'with-lead' ? lead : null;
      const filter = query.filter ? await new FilterCompiler(context, inline && { attributeId: inline.attribute.id, alias: inline.alias }).compileQuery(query.filter, scope) : 'TRUE';
      return { joins: sort.joins, where: sort.where ? `${sort.where} AND ${filter}` : filter, orderBy: sort.orderBy, params: params.values };
    };
    const lead = new SortCompiler(contextWith(new SqlParams())).lead(query.sorts, scope);
    // With an indexed leading sort: records holding its value in index order, then the others.
    return { branches: lead ? [await branch('with-lead'), await branch('without-lead')] : [await branch('all')] };
  }

  private async scope(container: Container, known?: readonly Attribute[]): Promise<AttributeScope> {
    const attributes = known ?? (await this.attributes.ofContainer(container.workspaceId, container.id, { includeArchived: true }));
    const byKey = new Map(attributes.flatMap((a) => [[a.slug, a], [a.id, a]] as const));
    return { container, find: (key) => byKey.get(key) };
  }
}
