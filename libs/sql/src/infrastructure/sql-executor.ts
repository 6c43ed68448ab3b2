import { randomBytes } from 'node:crypto';
import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@workbase/shared/config';
import { DatabaseError, Pool, type PoolClient, type QueryResult } from 'pg';
import { DomainError } from '@workbase/shared/kernel';
import { databaseAway, pgError, retireOnFatalError } from '@workbase/shared/persistence';
import { DataSource } from 'typeorm';
import { SqlBusyError, SqlResultTooLargeError, SqlStatementError } from '../domain/sql-errors';
import { resultTypes, TYPE_NAMES } from './result-types';

export interface SqlResultColumn {
  readonly name: string;
  readonly type: string;
}

/** What the executor runs: generated relations and the verified statement, their values written in as literals (SqlLiterals). */
export interface PreparedStatement {
  /** The `WITH` list of generated relations. */
  readonly relations: readonly string[];
  /** The verified user statement. */
  readonly statement: string;
  /** Generated relation names → the statement's names, to translate database messages. */
  readonly names: ReadonlyMap<string, string>;
}

export interface SqlResult {
  readonly columns: SqlResultColumn[];
  readonly rows: Array<Record<string, unknown>>;
  readonly truncated: boolean;
  /**
   * With SQL_DATABASE_URL: how far behind its primary the replica was as the statement started,
   * in milliseconds (0 when it had replayed all it had received; null when it cannot tell). Absent
   * when statements run on the application's database.
   */
  readonly replicaLagMs?: number | null;
}

/**
 * The replica's lag, read in the statement's own transaction: the age of the last transaction it
 * replayed, unless it has replayed everything it received (an idle primary sends nothing, so that
 * age alone would grow without the replica being behind). A server not in recovery (a standby
 * promoted since) is not behind anything.
 */
const REPLICA_LAG_MS = `SELECT CASE WHEN NOT pg_catalog.pg_is_in_recovery() THEN 0
   WHEN pg_catalog.pg_last_wal_receive_lsn() = pg_catalog.pg_last_wal_replay_lsn() THEN 0
   ELSE pg_catalog.round(1000 * EXTRACT(epoch FROM pg_catalog.now() - pg_catalog.pg_last_xact_replay_timestamp())) END::int`;

/** SQLSTATE classes whose messages describe the statement itself and are safe to show. */
const STATEMENT_ERROR_CLASSES = ['21', '22', '23', '25', '2B', '2F', '38', '39', '3D', '3F', '40', '42', '53', '54', '55'];

/** First key of the two-key advisory locks that count a workspace's running statements (the second is the slot). */
const SLOT_LOCK_NAMESPACE = 'workbase.sql-slot:';

/** The SQLSTATE our slot check raises when every slot is taken (a code of our own: no PostgreSQL error has it, and a statement cannot raise one). */
const SLOT_TAKEN = 'WB429';

/** Statements kept prepared per connection of the endpoint's pool (the least recently run goes first). */
const PREPARED_PER_CONNECTION = 64;
/** Longer statements run without being kept (an information_schema listing carries a whole workspace's catalogue as a literal). */
const PREPARED_TEXT_LIMIT = 32_768;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Runs a generated statement: in a READ ONLY transaction on a connection of the endpoint's own
 * pool, with a transaction-local statement timeout, `search_path` reduced to `pg_catalog` (so no
 * name can resolve to the application's tables), UTC timestamps, and at most `maxRows + 1` rows
 * fetched. The transaction is always rolled back.
 *
 * Admission, so that one workspace's slow statements cannot starve anyone (checked in this order):
 * - a workspace runs at most SQL_WORKSPACE_CONCURRENCY statements at once in this process (a
 *   counter: a flood is refused before it takes a connection another workspace could use);
 * - the pool is separate from the application's (SQL_POOL_SIZE connections), so the rest of the
 *   API never waits behind a statement; when all of them are busy the request is a 429 at once
 *   rather than a queue that would hold HTTP requests until a statement timeout;
 * - and at most SQL_WORKSPACE_CONCURRENCY across every process:
 *   a statement must hold one of that many transaction-scoped advisory locks
 *   (`pg_try_advisory_xact_lock(hashtext('workbase.sql-slot:' || workspace), slot)`), taken in
 *   the round trip that opens its transaction and freed by its ROLLBACK, or by PostgreSQL when
 *   the connection or process dies. No free slot: 429.
 * Each statement also runs without parallel workers, so that SQL_POOL_SIZE bounds the backends
 * (and so the cores) the endpoint can keep busy.
 */
@Injectable()
export class SqlExecutor implements OnModuleDestroy {
  private schema: Promise<string> | null = null;
  private readonly typeNames = new Map<number, string>(Object.entries(TYPE_NAMES).map(([oid, name]) => [Number(oid), name]));
  private pool: Pool | null = null;
  private running = 0;
  /** Statements admitted in this process, per workspace (the cheap first check; the advisory slots are the shared one). */
  private readonly runningFor = new Map<string, number>();
  /** Per connection: what it has prepared (the join-order setting and the text → the statement's name), least recently run first. */
  private readonly preparedOn = new WeakMap<PoolClient, Map<string, string>>();
  private preparedCount = 0;
  /**
   * Prefix of this process's statement names: two processes behind one pooler may share a server
   * connection, and must never find each other's statement under their own name.
   */
  private readonly preparedPrefix = `wb_${randomBytes(4).toString('hex')}_`;
  /** False once a connection has lost a statement it prepared: a transaction-mode pooler is in between (see `run`). */
  private keepPrepared = true;
  private readonly logger = new Logger('SqlExecutor');

  constructor(
    private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  get maxRows(): number {
    return this.config.sql.maxRows;
  }

  get maxResultBytes(): number {
    return this.config.sql.maxResultBytes;
  }

  get statementTimeoutMs(): number {
    return this.config.sql.statementTimeoutMs;
  }

  /** The schema holding the record engine's tables; generated SQL names it explicitly. */
  appSchema(): Promise<string> {
    this.schema ??= this.dataSource.query('SELECT current_schema() AS schema').then((rows: Array<{ schema: string }>) => rows[0].schema);
    return this.schema;
  }

  async onModuleDestroy(): Promise<void> {
    const pool = this.pool;
    this.pool = null;
    await pool?.end();
  }

  /** The endpoint's own pool: on the replica of SQL_DATABASE_URL, else on the application's database (same URL, its own connections). */
  private connections(): Pool {
    if (!this.pool) {
      const url = this.config.sql.databaseUrl ?? (this.dataSource.options as { url?: string }).url;
      this.pool = new Pool({
        connectionString: url,
        max: this.config.sql.poolSize,
        idleTimeoutMillis: 30_000,
        connectionTimeoutMillis: 10_000,
        application_name: 'workbase-sql',
        onConnect: retireOnFatalError,
      });
      // An idle client that loses its connection must not crash the process; the pool drops it.
      this.pool.on('error', () => undefined);
    }
    return this.pool;
  }

  /** How long a refused caller should wait: a statement frees its slot within the timeout, usually much sooner. */
  private retryAfterSeconds(): number {
    return Math.max(1, Math.min(5, Math.ceil(this.statementTimeoutMs / 1000)));
  }

  /**
   * Runs `prepared` in one round trip: a single simple-protocol message opens the READ ONLY
   * transaction, applies the settings, takes a workspace slot (or raises SLOT_TAKEN, and
   * PostgreSQL skips the rest of the message), runs the statement and rolls back. Only a failure
   * costs a second round trip, the ROLLBACK of the transaction it left open. The message carries
   * no parameters, so every value is a literal (SqlLiterals) and the statement is one verified
   * SELECT deparsed from its syntax tree: it cannot end the message's statement early.
   *
   * The statement runs as a prepared statement of its connection (`PREPARE` the first time it
   * meets that connection, `EXECUTE` after): it has no parameters, so PostgreSQL plans it once and
   * keeps the plan (re-planning by itself when a table's statistics or definition change), and a
   * statement sent again — a dashboard's — skips planning, most of a small statement's time.
   * Prepared statements outlive the ROLLBACK (they are not transactional); each connection keeps
   * PREPARED_PER_CONNECTION of them, and a failed message forgets them all (`DEALLOCATE ALL`, in
   * the same round trip as its ROLLBACK), since it may have stopped before or after the PREPARE.
   *
   * Behind a pooler in transaction mode, a client connection of the pool meets a different server
   * connection from one transaction to the next, so a statement it prepared may be missing (or,
   * were names shared between processes, be another's). The first time that happens the statement
   * is run again, unprepared, and this process stops preparing: a pooling problem is never the
   * caller's error. Names carry a per-process prefix, so no process ever executes another's.
   *
   * `fixedJoinOrder`: the statement writes no JOIN, so the only explicit joins are the generated
   * relations' own, each a star of LEFT JOINs of value rows on the record's id. Any order of those
   * gives the same rows at every step, yet PostgreSQL searches them all: for `SELECT *` of a table
   * with a handful of attributes, planning took 4.5–9 ms of a 0.5 ms execution. Planning them in
   * the order written (`join_collapse_limit = 1`) still lets it choose each join's method
   * (hash, merge or index probe) and took 1.5–2 ms. A statement with a JOIN of its own keeps the
   * planner's full search, so that its joins are never fixed in the order the user wrote them.
   */
  async run(workspaceId: string, prepared: PreparedStatement, { fixedJoinOrder = false }: { fixedJoinOrder?: boolean } = {}): Promise<SqlResult> {
    if (!UUID.test(workspaceId)) throw new Error('workspace id is not a uuid');
    const { poolSize, workspaceConcurrency } = this.config.sql;
    const busyWorkspace = () =>
      new SqlBusyError(
        `This workspace is already running ${workspaceConcurrency} SQL statement${workspaceConcurrency === 1 ? '' : 's'} at once, its limit; retry when one has finished.`,
        this.retryAfterSeconds(),
      );
    // Checked in this order so that a workspace over its own limit never takes a connection another workspace could use.
    const mine = this.runningFor.get(workspaceId) ?? 0;
    if (mine >= workspaceConcurrency) throw busyWorkspace();
    if (this.running >= poolSize) {
      throw new SqlBusyError(`The SQL endpoint is running its limit of ${poolSize} statements at once; retry shortly.`, this.retryAfterSeconds());
    }
    this.running++;
    this.runningFor.set(workspaceId, mine + 1);
    let client: PoolClient | null = null;
    let result: QueryResult<unknown[]>;
    const onReplica = this.config.sql.databaseUrl !== null;
    let replicaLagMs: number | null = null;
    /** Set while a message that prepares or deallocates is in flight: if it fails, which of those ran is unknown. */
    let changesPrepared = false;
    /**
     * Gives the connection and the admission back. `failed`: the message stopped part-way, so its
     * transaction needs a ROLLBACK, and its connection forgets its prepared statements if the
     * message may have stopped between preparing and recording one.
     */
    const finish = async ({ failed, broken }: { failed: boolean; broken?: Error }): Promise<void> => {
      try {
        if (client && failed && !broken) {
          if (changesPrepared) this.preparedOn.delete(client);
          await client.query(changesPrepared ? 'ROLLBACK; DEALLOCATE ALL' : 'ROLLBACK');
        }
      } catch (error) {
        broken = error as Error;
      } finally {
        client?.release(broken);
        this.running--;
        const left = (this.runningFor.get(workspaceId) ?? 1) - 1;
        if (left > 0) this.runningFor.set(workspaceId, left);
        else this.runningFor.delete(workspaceId);
      }
    };
    try {
      client = await this.connections().connect();
      const statements = this.preparedOn.get(client) ?? new Map<string, string>();
      this.preparedOn.set(client, statements);
      const text = wrappedStatement(prepared, this.maxRows, this.maxResultBytes);
      const kept = this.keepPrepared && text.length <= PREPARED_TEXT_LIMIT;
      const key = `${fixedJoinOrder ? 'fixed' : 'searched'}:${text}`;
      const known = kept ? statements.get(key) : undefined;
      const name = known ?? `${this.preparedPrefix}${++this.preparedCount}`;
      const evicted = kept && known === undefined && statements.size >= PREPARED_PER_CONNECTION ? statements.entries().next().value : undefined;
      changesPrepared = kept && known === undefined;
      // The timeout is an integer from the validated config and the workspace id a checked uuid, both safe to inline.
      const message = [
        'BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY',
        ...(onReplica ? [REPLICA_LAG_MS] : []),
        `SELECT set_config('statement_timeout', '${Math.trunc(this.statementTimeoutMs)}', true), set_config('search_path', 'pg_catalog, pg_temp', true),
                set_config('TimeZone', 'UTC', true), set_config('DateStyle', 'ISO, YMD', true), set_config('IntervalStyle', 'postgres', true),
                set_config('max_parallel_workers_per_gather', '0', true)${fixedJoinOrder ? `, set_config('join_collapse_limit', '1', true)` : ''}`,
        `DO $wb$BEGIN
           IF NOT EXISTS (SELECT FROM pg_catalog.generate_series(1, ${Math.trunc(workspaceConcurrency)}) AS slot
                           WHERE pg_catalog.pg_try_advisory_xact_lock(pg_catalog.hashtext('${SLOT_LOCK_NAMESPACE}${workspaceId.toLowerCase()}'), slot)) THEN
             RAISE EXCEPTION 'no free statement slot' USING ERRCODE = '${SLOT_TAKEN}';
           END IF;
         END$wb$`,
        ...(evicted ? [`DEALLOCATE ${evicted[1]}`] : []),
        ...(changesPrepared ? [`PREPARE ${name} AS ${text}`] : []),
        kept ? `EXECUTE ${name}` : text,
        'ROLLBACK',
      ];
      const results = (await client.query({ text: message.join(';\n'), rowMode: 'array', types: resultTypes })) as unknown as Array<QueryResult<unknown[]>>;
      result = results[message.length - 2];
      if (onReplica) replicaLagMs = (results[1].rows[0]?.[0] as number | null | undefined) ?? null;
      if (evicted) statements.delete(evicted[0]);
      if (kept) {
        statements.delete(key); // re-inserted last: the most recently run
        statements.set(key, name);
      }
      await this.learnTypeNames(client, result.fields.map((f) => f.dataTypeID));
    } catch (error) {
      // A connection-level failure (not an error PostgreSQL reported about the statement) retires the connection.
      const failure = pgError(error);
      const slotTaken = failure?.code === SLOT_TAKEN;
      // No free slot stops the message before it prepares anything.
      if (slotTaken) changesPrepared = false;
      const lostPrepared = this.keepPrepared && (failure?.kind === 'missingPreparedStatement' || failure?.kind === 'duplicatePreparedStatement');
      if (lostPrepared) changesPrepared = true; // forget what this connection's server may hold: DEALLOCATE ALL
      await finish({ failed: true, broken: error instanceof DatabaseError || error instanceof DomainError ? undefined : (error as Error) });
      if (slotTaken) throw busyWorkspace();
      if (lostPrepared) {
        this.keepPrepared = false;
        this.logger.warn(`SQL statements are no longer kept prepared: a connection lost one it had prepared (${failure.message}), so a pooler in transaction mode is in between`);
        return this.run(workspaceId, prepared, { fixedJoinOrder });
      }
      throw this.translate(error, prepared.names);
    }
    // Answered only once the slot is free (the message's ROLLBACK): answering first would let a
    // client sending statements one after another find its earlier ones still holding the
    // workspace's slots and get a 429 it did nothing to earn.
    await finish({ failed: false });
    // The last field is the size guard's (wrappedStatement), no column of the statement.
    const fields = result.fields.slice(0, -1);
    const columns = uniqueNames(fields.map((f) => f.name)).map((name, i) => ({ name, type: this.typeNames.get(fields[i].dataTypeID) ?? 'unknown' }));
    const truncated = result.rows.length > this.maxRows;
    const rows = (truncated ? result.rows.slice(0, this.maxRows) : result.rows).map((row) => {
      const object: Record<string, unknown> = {};
      columns.forEach((column, i) => (object[column.name] = row[i]));
      return object;
    });
    return { columns, rows, truncated, ...(onReplica ? { replicaLagMs } : {}) };
  }

  private async learnTypeNames(client: PoolClient, oids: number[]): Promise<void> {
    const unknown = [...new Set(oids.filter((oid) => !this.typeNames.has(oid)))];
    if (unknown.length === 0) return;
    const found = await client.query<{ oid: number; name: string }>('SELECT oid::int AS oid, format_type(oid, NULL) AS name FROM pg_catalog.pg_type WHERE oid = ANY($1::oid[])', [unknown]);
    for (const row of found.rows) this.typeNames.set(row.oid, row.name);
  }

  private translate(error: unknown, names: ReadonlyMap<string, string>): unknown {
    const failure = pgError(error);
    if (!failure) return error;
    const rename = (text: string) => text.replace(/_wb_[tc]\d+/g, (name) => names.get(name) ?? name).replace(/\b_wb_q\b/g, 'query');
    if (failure.kind === 'queryCanceled') {
      return new SqlStatementError(`The query was cancelled: it ran longer than the statement timeout of ${this.statementTimeoutMs} ms.`, { sqlstate: failure.code });
    }
    if (failure.kind === 'readOnlyTransaction') return new SqlStatementError('Queries are read-only.', { sqlstate: failure.code });
    if (failure.message.includes(`"${RESULT_TOO_LARGE_MARK} `)) return new SqlResultTooLargeError(this.maxResultBytes);
    // The database away (e.g. 53300, no connection slot, in a class otherwise the statement's) is the shared classifier's 503, never the caller's 400.
    if (databaseAway(error)) return error;
    if (!STATEMENT_ERROR_CLASSES.includes(failure.code.slice(0, 2))) return error;
    const hint = failure.hint ? ` (${rename(failure.hint)})` : '';
    return new SqlStatementError(`The query failed: ${rename(failure.message)}${hint}`, { sqlstate: failure.code });
  }
}

/** What the size guard's failure says, to tell it from the statement's own errors (a statement cannot know this process's mark). */
const RESULT_TOO_LARGE_MARK = `wb_result_too_large_${randomBytes(8).toString('hex')}`;

/**
 * The statement as sent: its generated relations, then the statement, fetching one row past
 * `maxRows` to tell a cut-off answer, and a last column (`_wb_guard`, dropped from the answer)
 * that keeps a running sum of the rows' sizes (`pg_column_size` of each whole row, as PostgreSQL
 * holds it) and fails the statement on the row that takes it past `maxResultBytes`. So an answer
 * too large is refused inside the database, before that row is sent: the service never holds more
 * than the bound of it, and a 200 MB value is refused without being sent at all. The failure is a
 * cast of a text that names the mark and the running sum, which PostgreSQL cannot fold into a
 * constant (it depends on the row) and so raises only when the row gets there.
 */
export function wrappedStatement(prepared: PreparedStatement, maxRows: number, maxResultBytes: number): string {
  const bytes = 'pg_catalog.sum(pg_catalog.pg_column_size(_wb_q.*)) OVER (ROWS UNBOUNDED PRECEDING)';
  const guard = `CASE WHEN ${bytes} > ${Math.trunc(maxResultBytes)} THEN pg_catalog.int4(pg_catalog.concat('${RESULT_TOO_LARGE_MARK} ', ${bytes})) END AS _wb_guard`;
  // OFFSET 0 keeps the statement a subquery of its own: pulled up, each of its output expressions
  // would be copied into every use of `_wb_q.*` and computed (or constant-folded) once per copy.
  return `${prepared.relations.length > 0 ? `WITH ${prepared.relations.join(',\n')}\n` : ''}SELECT _wb_q.*, ${guard} FROM (SELECT * FROM (\n${prepared.statement}\n) AS _wb_s OFFSET 0) AS _wb_q LIMIT ${maxRows + 1}`;
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
