import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@workbase/shared/config';
import type { PoolClient, QueryResult } from 'pg';
import { DataSource } from 'typeorm';
import { SqlStatementError } from '../domain/sql-errors';
import { resultTypes, TYPE_NAMES } from './result-types';

export interface SqlResultColumn {
  readonly name: string;
  readonly type: string;
}

export interface SqlResult {
  readonly columns: SqlResultColumn[];
  readonly rows: Array<Record<string, unknown>>;
  readonly truncated: boolean;
}

/** SQLSTATE classes whose messages describe the statement itself and are safe to show. */
const STATEMENT_ERROR_CLASSES = ['21', '22', '23', '25', '2B', '2F', '38', '39', '3D', '3F', '40', '42', '53', '54', '55'];

/**
 * Runs a generated statement: in a READ ONLY transaction on its own pooled connection, with a
 * transaction-local statement timeout, `search_path` reduced to `pg_catalog` (so no name can
 * resolve to the application's tables), UTC timestamps, and at most `maxRows + 1` rows fetched.
 * The transaction is always rolled back.
 */
@Injectable()
export class SqlExecutor {
  private schema: Promise<string> | null = null;
  private readonly typeNames = new Map<number, string>(Object.entries(TYPE_NAMES).map(([oid, name]) => [Number(oid), name]));

  constructor(
    private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  get maxRows(): number {
    return this.config.sql.maxRows;
  }

  get statementTimeoutMs(): number {
    return this.config.sql.statementTimeoutMs;
  }

  /** The schema holding the record engine's tables; generated SQL names it explicitly. */
  appSchema(): Promise<string> {
    this.schema ??= this.dataSource.query('SELECT current_schema() AS schema').then((rows: Array<{ schema: string }>) => rows[0].schema);
    return this.schema;
  }

  /**
   * `relations` is the `WITH` list of generated relations, `statement` the verified user query.
   * `names` translates generated relation names back in database error messages.
   */
  async run(relations: readonly string[], statement: string, params: unknown[], names: ReadonlyMap<string, string>): Promise<SqlResult> {
    const text = `${relations.length > 0 ? `WITH ${relations.join(',\n')}\n` : ''}SELECT * FROM (\n${statement}\n) AS _wb_q WHERE $1::uuid IS NOT NULL LIMIT ${this.maxRows + 1}`;
    const runner = this.dataSource.createQueryRunner();
    const client = (await runner.connect()) as PoolClient;
    let result: QueryResult<unknown[]>;
    try {
      // One round trip: the timeout is an integer from the validated config, safe to inline.
      await client.query(
        `BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY;
         SELECT set_config('statement_timeout', '${Math.trunc(this.statementTimeoutMs)}', true), set_config('search_path', 'pg_catalog, pg_temp', true),
                set_config('TimeZone', 'UTC', true), set_config('DateStyle', 'ISO, YMD', true), set_config('IntervalStyle', 'postgres', true)`,
      );
      try {
        result = await client.query({ text, values: params, rowMode: 'array', types: resultTypes });
      } finally {
        await client.query('ROLLBACK');
      }
      await this.learnTypeNames(client, result.fields.map((f) => f.dataTypeID));
    } catch (error) {
      throw this.translate(error, names);
    } finally {
      await runner.release();
    }
    const columns = uniqueNames(result.fields.map((f) => f.name)).map((name, i) => ({ name, type: this.typeNames.get(result.fields[i].dataTypeID) ?? 'unknown' }));
    const truncated = result.rows.length > this.maxRows;
    const rows = (truncated ? result.rows.slice(0, this.maxRows) : result.rows).map((row) => {
      const object: Record<string, unknown> = {};
      columns.forEach((column, i) => (object[column.name] = row[i]));
      return object;
    });
    return { columns, rows, truncated };
  }

  private async learnTypeNames(client: PoolClient, oids: number[]): Promise<void> {
    const unknown = [...new Set(oids.filter((oid) => !this.typeNames.has(oid)))];
    if (unknown.length === 0) return;
    const found = await client.query<{ oid: number; name: string }>('SELECT oid::int AS oid, format_type(oid, NULL) AS name FROM pg_catalog.pg_type WHERE oid = ANY($1::oid[])', [unknown]);
    for (const row of found.rows) this.typeNames.set(row.oid, row.name);
  }

  private translate(error: unknown, names: ReadonlyMap<string, string>): unknown {
    const pgError = error as { code?: unknown; message?: unknown; hint?: unknown };
    if (typeof pgError.code !== 'string' || typeof pgError.message !== 'string') return error;
    const rename = (text: string) => text.replace(/_wb_[tc]\d+/g, (name) => names.get(name) ?? name).replace(/\b_wb_q\b/g, 'query');
    if (pgError.code === '57014') {
      return new SqlStatementError(`The query was cancelled: it ran longer than the statement timeout of ${this.statementTimeoutMs} ms.`, { sqlstate: pgError.code });
    }
    if (pgError.code === '25006') return new SqlStatementError('Queries are read-only.', { sqlstate: pgError.code });
    if (!STATEMENT_ERROR_CLASSES.includes(pgError.code.slice(0, 2))) return error;
    const hint = typeof pgError.hint === 'string' && pgError.hint ? ` (${rename(pgError.hint)})` : '';
    return new SqlStatementError(`The query failed: ${rename(pgError.message)}${hint}`, { sqlstate: pgError.code });
  }
}

/** Keeps the first of each name; later duplicates become `name_2`, `name_3`, ... */
function uniqueNames(names: string[]): string[] {
  const seen = new Set<string>();
  return names.map((name) => {
    let candidate = name;
    for (let n = 2; seen.has(candidate); n++) candidate = `${name}_${n}`;
    seen.add(candidate);
    return candidate;
  });
}
