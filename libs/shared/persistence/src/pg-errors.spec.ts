import { isPgError, PG_ERROR_CODES, pgError, violatedUniqueConstraint } from './pg-errors';

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
