import { Injectable } from '@nestjs/common';
import { ForbiddenError, grants, SCOPES, type Scope } from '@workbase/shared/kernel';
import { fixedRelation } from '../domain/fixed-relations';
import { SqlStatementError, tableForbidden } from '../domain/sql-errors';
import { analyzeStatement, displayTable, GENERATED_PREFIX, loadSqlParser, quoteIdent } from '../domain/statement-analyzer';
import { type DataSchema, INFORMATION_SCHEMA, isDataSchema, type SqlTable, tableKey, type TableRef } from '../domain/sql-table';
import { SqlCatalogRepository } from '../infrastructure/sql-catalog.repository';
import { type SqlResult, SqlExecutor } from '../infrastructure/sql-executor';
import { informationSchemaSql, SqlLiterals, tableRelationSql } from '../infrastructure/table-sql';

/** Beyond the endpoint's own scopes (record_permission:read, object_configuration:read), what each schema needs. */
export const SCHEMA_SCOPES: Readonly<Record<DataSchema, readonly Scope[]>> = {
  objects: [],
  activities: [SCOPES.activityRecordRead, SCOPES.activityConfigurationRead],
  lists: [SCOPES.listEntryRead, SCOPES.listConfigurationRead],
};

export interface SqlCaller {
  readonly workspaceId: string;
  readonly scopes: ReadonlySet<string>;
  /** A service token or an admin member's: may read admin-only tables (`audit.log`). */
  readonly isAdmin?: boolean;
}

/**
 * POST /v2/sql: analyse the statement, check the caller may read every table it names, bind
 * each table to a relation generated over the caller's workspace, and run it read-only.
 */
@Injectable()
export class SqlQueryService {
  constructor(
    private readonly catalog: SqlCatalogRepository,
    private readonly executor: SqlExecutor,
  ) {}

  async query(caller: SqlCaller, sql: string): Promise<SqlResult> {
    await loadSqlParser();
    const statement = analyzeStatement(sql);
    for (const ref of statement.tables) {
      const fixed = fixedRelation(ref.schema, ref.name);
      if (!isDataSchema(ref.schema) && !fixed) continue;
      const missing = (fixed ? fixed.scopes : SCHEMA_SCOPES[ref.schema as DataSchema]).filter((scope) => !grants(caller.scopes, scope));
      if (missing.length > 0) throw tableForbidden(displayTable(ref), missing);
      if (fixed?.adminOnly && !caller.isAdmin) throw new ForbiddenError(`Table "${displayTable(ref)}" needs a service token or a token of an admin member.`);
    }
    const dataRefs = statement.tables.filter((ref): ref is TableRef & { schema: DataSchema } => isDataSchema(ref.schema));
    const needsInformationSchema = statement.tables.some((ref) => ref.schema === INFORMATION_SCHEMA);
    const [schema, named, readable] = await Promise.all([
      this.executor.appSchema(),
      this.catalog.tablesNamed(caller.workspaceId, dataRefs),
      needsInformationSchema ? this.readableTables(caller) : [],
    ]);
    const byKey = new Map(named.map((table) => [tableKey(table), table]));
    for (const ref of dataRefs) {
      if (!byKey.has(tableKey(ref))) throw new SqlStatementError(`Table "${displayTable(ref)}" does not exist.`);
    }

    const literals = new SqlLiterals(caller.workspaceId);
    const displayNames = new Map<string, string>(statement.cteNames);
    const relations: string[] = [];
    const { columnUse } = statement;
    statement.occurrences.forEach((occurrence, index) => {
      const name = `${GENERATED_PREFIX}t${index + 1}`;
      const { ref } = occurrence;
      displayNames.set(name, displayTable(ref));
      const fixed = fixedRelation(ref.schema, ref.name);
      const body =
        ref.schema === INFORMATION_SCHEMA
          ? informationSchemaSql(ref.name as 'tables' | 'columns', readable, literals)
          : fixed
            ? fixed.sql((table) => `${quoteIdent(schema)}.${quoteIdent(table)}`, literals.workspace)
            : tableRelationSql(byKey.get(tableKey(ref))!, literals, schema, { columns: columnUse.all ? null : columnUse.names, filters: occurrence.filters });
      relations.push(`${quoteIdent(name)} AS NOT MATERIALIZED (${body})`);
    });
    const text = statement.render((index) => `${GENERATED_PREFIX}t${index + 1}`);
    return this.executor.run(caller.workspaceId, { relations, statement: text, names: displayNames }, { fixedJoinOrder: !statement.hasJoins });
  }

  private readableSchemas(caller: SqlCaller): DataSchema[] {
    return (Object.keys(SCHEMA_SCOPES) as DataSchema[]).filter((schema) => SCHEMA_SCOPES[schema].every((scope) => grants(caller.scopes, scope)));
  }

  /** The tables the caller may read: objects always, activities and lists with their scopes. */
  async readableTables(caller: SqlCaller): Promise<SqlTable[]> {
    return this.catalog.allTables(caller.workspaceId, this.readableSchemas(caller));
  }

  get limits(): { statementTimeoutMs: number; maxRows: number } {
    return { statementTimeoutMs: this.executor.statementTimeoutMs, maxRows: this.executor.maxRows };
  }
}
