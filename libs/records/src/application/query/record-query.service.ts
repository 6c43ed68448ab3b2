import { Injectable } from '@nestjs/common';
import { isPlainObject } from '../../domain/codecs';
import { AttributeRepository } from '../../infrastructure/attribute.repository';
import { ObjectRepository } from '../../infrastructure/object.repository';
import { RecordStore } from '../../infrastructure/record.store';
import type { Container } from '../container';
import { RecordReader, type RecordView } from '../record-reader';
import { type AttributeScope, type CompileContext, FilterCompiler } from './filter-compiler';
import { filterError } from './filter-error';
import { SortCompiler } from './sort-compiler';
import { SqlParams } from './sql-params';

export interface RecordQuery {
  readonly filter?: unknown;
  readonly sorts?: unknown;
  readonly limit?: number;
  readonly offset?: number;
}

export const DEFAULT_QUERY_LIMIT = 500;
export const MAX_QUERY_LIMIT = 1000;

/** `POST …/records/query` for every container: filter and sort in SQL, then read the page. */
@Injectable()
export class RecordQueryService {
  constructor(
    private readonly attributes: AttributeRepository,
    private readonly objects: ObjectRepository,
    private readonly store: RecordStore,
    private readonly reader: RecordReader,
  ) {}

  async query(container: Container, query: RecordQuery, workspaceSlug?: string): Promise<RecordView[]> {
    const rows = await this.store.selectPage(container.workspaceId, container.id, await this.compile(container, query), {
      limit: query.limit ?? DEFAULT_QUERY_LIMIT,
      offset: query.offset ?? 0,
    });
    return this.reader.read(container, rows, workspaceSlug);
  }

  /** The WHERE and ORDER BY of a query, with its parameters (exposed for EXPLAIN in benchmarks). */
  async compile(container: Container, query: RecordQuery): Promise<{ where: string; orderBy: string[]; params: unknown[] }> {
    if (query.filter !== undefined && query.filter !== null && !isPlainObject(query.filter)) throw filterError('filter must be an object');
    const params = new SqlParams();
    const scope = await this.scope(container);
    const context: CompileContext = {
      workspaceId: container.workspaceId,
      params,
      scopeOf: async (objectKey) => {
        const object = await this.objects.findBySlugOrId(container.workspaceId, objectKey);
        return object ? this.scope({ kind: 'object', id: object.id, workspaceId: container.workspaceId, slug: object.apiSlug }) : undefined;
      },
    };
    const where = query.filter ? await new FilterCompiler(context).compile(query.filter, scope) : 'TRUE';
    const orderBy = await new SortCompiler(context).compile(query.sorts, scope);
    return { where, orderBy, params: params.values };
  }

  private async scope(container: Container): Promise<AttributeScope> {
    const attributes = await this.attributes.listByContainer(container.workspaceId, container.id, { includeArchived: true });
    const byKey = new Map(attributes.flatMap((a) => [[a.slug, a], [a.id, a]] as const));
    return { container, find: (key) => byKey.get(key) };
  }
}
