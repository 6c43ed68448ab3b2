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
