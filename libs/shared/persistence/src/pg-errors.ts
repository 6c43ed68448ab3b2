/**
 * The one classifier of PostgreSQL errors. Code that reacts to a database refusal asks here by
 * kind instead of comparing SQLSTATE strings; it reads the error as `pg` throws it and as TypeORM
 * wraps it (`QueryFailedError.driverError`).
 */
export const PG_ERROR_CODES = {
  uniqueViolation: '23505',
  foreignKeyViolation: '23503',
  notNullViolation: '23502',
  checkViolation: '23514',
  serializationFailure: '40001',
  deadlock: '40P01',
  lockNotAvailable: '55P03',
  queryCanceled: '57014',
  readOnlyTransaction: '25006',
  invalidParameterValue: '22023',
  characterNotInRepertoire: '22021',
  untranslatableCharacter: '22P05',
  invalidPassword: '28P01',
  duplicateDatabase: '42P04',
  /** A prepared statement this session does not have: behind a transaction-mode pooler, another server connection prepared it. */
  missingPreparedStatement: '26000',
  duplicatePreparedStatement: '42P05',
  adminShutdown: '57P01',
  crashShutdown: '57P02',
  cannotConnectNow: '57P03',
  tooManyConnections: '53300',
} as const;

export type PgErrorKind = keyof typeof PG_ERROR_CODES;

const KIND_BY_CODE = new Map<string, PgErrorKind>(Object.entries(PG_ERROR_CODES).map(([kind, code]) => [code, kind as PgErrorKind]));

/** What a PostgreSQL error says, read once. */
export interface PgError {
  /** The SQLSTATE. */
  readonly code: string;
  /** The known kind of the SQLSTATE, or `other`. */
  readonly kind: PgErrorKind | 'other';
  /** Class 40 (transaction rollback: deadlock, serialization failure): nothing was written, a retry may succeed. */
  readonly isTransactionRollback: boolean;
  /** Class 22 (data exception): a value the statement carried was refused. */
  readonly isDataException: boolean;
  /** The constraint named by an integrity violation (class 23), else null. */
  readonly constraint: string | null;
  readonly message: string;
  readonly hint: string | null;
}

// Five digits or capitals with at least one digit: no Node.js errno code (EPERM, EPIPE) passes.
const SQLSTATE = /^(?=.*\d)[0-9A-Z]{5}$/;

/** The PostgreSQL error inside `error` (a `pg` error or TypeORM's wrapper), or null for anything else. */
export function pgError(error: unknown): PgError | null {
  if (typeof error !== 'object' || error === null) return null;
  const driver = (error as { driverError?: unknown }).driverError;
  const source = (typeof driver === 'object' && driver !== null ? driver : error) as { code?: unknown; constraint?: unknown; message?: unknown; hint?: unknown };
  if (typeof source.code !== 'string' || !SQLSTATE.test(source.code)) return null;
  const code = source.code;
  return {
    code,
    kind: KIND_BY_CODE.get(code) ?? 'other',
    isTransactionRollback: code.startsWith('40'),
    isDataException: code.startsWith('22'),
    constraint: typeof source.constraint === 'string' ? source.constraint : null,
    message: typeof source.message === 'string' ? source.message : '',
    hint: typeof source.hint === 'string' && source.hint !== '' ? source.hint : null,
  };
}

/** True when `error` is a PostgreSQL error of this kind. */
export function isPgError(error: unknown, kind: PgErrorKind): boolean {
  return pgError(error)?.kind === kind;
}

/** The constraint a unique violation names, or null for any other error. */
export function violatedUniqueConstraint(error: unknown): string | null {
  const found = pgError(error);
  return found?.kind === 'uniqueViolation' ? found.constraint : null;
}

/** Why the database could not serve a statement, when it is the database's state and not the statement's fault. */
export interface DatabaseAway {
  /** What happened, for the log line and the message. */
  readonly cause: string;
  /**
   * The connection the statement ran on is dead (lost, or ended by the server): the same
   * statement on a fresh connection may succeed at once, and whatever was in flight on it has
   * an unknown outcome if it was a COMMIT.
   */
  readonly connectionLost: boolean;
}

/** Class 08, connection exception: the server or the pooler in front of it broke the connection. */
const CONNECTION_EXCEPTION_CLASS = '08';
/** Socket errors from Node.js when the server (or the proxy or pooler in front of it) is gone or unreachable. */
const SOCKET_ERRNOS = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNABORTED', 'EAI_AGAIN', 'ENOTFOUND']);
/** What `pg` and `pg-pool` say, without a code, when a connection ends under them or cannot be had in time. */
const LOST_CONNECTION_MESSAGES = [/^Connection terminated/, /not queryable/, /^Client was closed/];
const POOL_TIMEOUT_MESSAGE = /^timeout exceeded when trying to connect/;
/**
 * TypeORM's refusal to use a query runner whose connection already ended. It follows a connection
 * lost under a transaction (TypeORM releases the runner on the connection's `error` event), so it
 * is the same cause seen a statement later.
 */
const RELEASED_RUNNER_ERRORS = new Set(['QueryRunnerProviderAlreadyReleasedError', 'QueryRunnerAlreadyReleasedError']);

/**
 * The database is away rather than refusing the statement: a lost connection, a server shutting
 * down, restarting or still recovering (57P01/57P02/57P03), a server that became read-only under
 * a write (25006: the process still reaches a demoted primary after a failover), no connection
 * slot (53300) or no pooled connection in time. Null for anything else. A caller answers these
 * with "retry later" (503), never as a fault of the request or of the service.
 */
export function databaseAway(error: unknown): DatabaseAway | null {
  if (typeof error !== 'object' || error === null) return null;
  const failure = pgError(error);
  if (failure) {
    if (failure.code.startsWith(CONNECTION_EXCEPTION_CLASS)) return { cause: `connection exception ${failure.code}: ${failure.message}`, connectionLost: true };
    switch (failure.kind) {
      case 'adminShutdown':
      case 'crashShutdown':
        return { cause: `the server ended the connection (${failure.code}: ${failure.message})`, connectionLost: true };
      case 'cannotConnectNow':
        return { cause: `the server is starting or recovering (${failure.code}: ${failure.message})`, connectionLost: false };
      case 'readOnlyTransaction':
        return { cause: `the server is read-only, as a demoted primary or a standby is (${failure.code})`, connectionLost: false };
      case 'tooManyConnections':
        return { cause: `no connection slot is free (${failure.code}: ${failure.message})`, connectionLost: false };
      default:
        return null;
    }
  }
  const driver = (error as { driverError?: unknown }).driverError;
  const source = (typeof driver === 'object' && driver !== null ? driver : error) as { code?: unknown; message?: unknown; name?: unknown };
  const message = typeof source.message === 'string' ? source.message : '';
  if (typeof source.code === 'string' && SOCKET_ERRNOS.has(source.code)) return { cause: `the connection failed (${source.code}${message ? `: ${message}` : ''})`, connectionLost: true };
  if (LOST_CONNECTION_MESSAGES.some((pattern) => pattern.test(message))) return { cause: `the connection was lost (${message})`, connectionLost: true };
  if (POOL_TIMEOUT_MESSAGE.test(message)) return { cause: 'no pooled connection could be had in time', connectionLost: false };
  const name = (error as { name?: unknown }).name;
  if (typeof name === 'string' && RELEASED_RUNNER_ERRORS.has(name)) return { cause: 'the connection was lost under the transaction', connectionLost: true };
  return null;
}

/**
 * The database could not serve the request: the HTTP layer answers 503 `database_unavailable`
 * with Retry-After. `mayHaveApplied`: the connection was lost while a COMMIT was in flight, so
 * the write may or may not have been applied, and the client must look before sending it again.
 */
export class DatabaseUnavailableError extends Error {
  readonly connectionLost: boolean;
  readonly mayHaveApplied: boolean;

  /** `connectionLost`: the connection it ran on is dead, so the same read on a fresh one may succeed at once. */
  constructor(
    readonly reason: string,
    { connectionLost = false, mayHaveApplied = false }: { connectionLost?: boolean; mayHaveApplied?: boolean } = {},
  ) {
    super(
      mayHaveApplied
        ? 'The database connection was lost while this write was being committed: it may have been applied. Check before sending it again.'
        : 'The database is unavailable right now; nothing was written. Retry shortly.',
    );
    this.name = 'DatabaseUnavailableError';
    this.connectionLost = connectionLost;
    this.mayHaveApplied = mayHaveApplied;
  }

  /** The same failure seen from anywhere: translated already, or raw and classified here. Null when the database is not away. */
  static from(error: unknown): DatabaseUnavailableError | null {
    if (error instanceof DatabaseUnavailableError) return error;
    const away = databaseAway(error);
    return away ? new DatabaseUnavailableError(away.cause, { connectionLost: away.connectionLost }) : null;
  }
}

/**
 * True when `error` (raw, or as TransactionRunner translated it) says the connection a statement
 * ran on is dead: a read may then run once more, on a fresh connection.
 */
export function connectionLost(error: unknown): boolean {
  return DatabaseUnavailableError.from(error)?.connectionLost ?? false;
}
