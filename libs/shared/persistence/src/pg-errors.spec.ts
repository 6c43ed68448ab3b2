import { connectionLost, databaseAway, DatabaseUnavailableError, isPgError, PG_ERROR_CODES, pgError, violatedUniqueConstraint } from './pg-errors';

// Errors PostgreSQL really raises are classified in test/e2e/pg-errors.e2e-spec.ts; these are the
// things that are not PostgreSQL errors and must not be taken for one.
describe('pgError', () => {
  it('is null for anything that is not a PostgreSQL error', () => {
    const errno = Object.assign(new Error('operation not permitted'), { code: 'EPERM' });
    const nodeError = Object.assign(new Error('bad args'), { code: 'ERR_PARSE_ARGS_UNKNOWN_OPTION' });
    for (const value of [null, undefined, 'oops', 42, new Error('plain'), errno, nodeError, { code: 23505 }, { driverError: null }]) {
      expect(pgError(value)).toBeNull();
      expect(isPgError(value, 'uniqueViolation')).toBe(false);
      expect(violatedUniqueConstraint(value)).toBeNull();
    }
  });

  it('reads the driver error inside a wrapper before the wrapper itself, and an unknown SQLSTATE as other', () => {
    const wrapped = { code: 'WRAP', driverError: { code: '23505', constraint: 'c', message: 'duplicate key' } };
    expect(pgError(wrapped)).toMatchObject({ code: '23505', kind: 'uniqueViolation', constraint: 'c', message: 'duplicate key', hint: null });
    expect(pgError({ code: 'XX000', message: 'internal' })).toMatchObject({ kind: 'other', isTransactionRollback: false, isDataException: false, constraint: null });
  });

  it('knows each SQLSTATE under one kind only', () => {
    const codes = Object.values(PG_ERROR_CODES);
    expect(new Set(codes).size).toBe(codes.length);
    for (const [kind, code] of Object.entries(PG_ERROR_CODES)) expect(pgError({ code })?.kind).toBe(kind);
  });
});

describe('databaseAway', () => {
  const wrapped = (driverError: object) => Object.assign(new Error('query failed'), { driverError });

  it('takes a lost or ended connection for a dead one, which a read may retry on a fresh one', () => {
    for (const error of [
      wrapped({ code: '57P01', message: 'terminating connection due to administrator command' }),
      { code: '57P02', message: 'crash shutdown' },
      { code: '08006', message: 'connection failure' },
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
      wrapped(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' })),
      wrapped(new Error('Connection terminated unexpectedly')),
      new Error('Client has encountered a connection error and is not queryable'),
      Object.assign(new Error('Database connection provided by a query runner was already released'), { name: 'QueryRunnerProviderAlreadyReleasedError' }),
    ]) {
      expect(databaseAway(error)).toMatchObject({ connectionLost: true });
      expect(connectionLost(error)).toBe(true);
    }
  });

  it('takes a server that is starting, read-only or full, and a pool without a free connection, as away but the connection as alive', () => {
    for (const [error, cause] of [
      [{ code: '57P03', message: 'the database system is starting up' }, 'starting or recovering'],
      [wrapped({ code: '25006', message: 'cannot execute INSERT in a read-only transaction' }), 'read-only'],
      [{ code: '53300', message: 'sorry, too many clients already' }, 'no connection slot'],
      [new Error('timeout exceeded when trying to connect'), 'no pooled connection'],
    ] as const) {
      expect(databaseAway(error)).toEqual({ cause: expect.stringContaining(cause), connectionLost: false });
      expect(connectionLost(error)).toBe(false);
    }
  });

  it('is null for a statement the database refused, and for anything that is not about the database', () => {
    for (const error of [{ code: '23505' }, { code: '40001' }, { code: '57014', message: 'canceling statement due to statement timeout' }, new Error('Connection is fine'), Object.assign(new Error('nope'), { code: 'EPERM' }), null, 'text']) {
      expect(databaseAway(error)).toBeNull();
      expect(DatabaseUnavailableError.from(error)).toBeNull();
    }
  });

  it('says a write may have been applied only when it was told so', () => {
    expect(new DatabaseUnavailableError('lost', { connectionLost: true }).message).toContain('nothing was written');
    expect(new DatabaseUnavailableError('lost', { connectionLost: true, mayHaveApplied: true }).message).toContain('may have been applied');
    const translated = new DatabaseUnavailableError('lost', { connectionLost: true });
    expect(DatabaseUnavailableError.from(translated)).toBe(translated);
  });
});
