import { BadRequestException, NotFoundException } from '@nestjs/common';
import { ConflictError, NotFoundError } from '@workbase/shared/kernel';
import { toProblem } from './problem';

const databaseError = (code: string, message = 'database says no') => Object.assign(new Error('query failed'), { driverError: { code, message } });

describe('toProblem', () => {
  it('keeps a DomainError as it is', () => {
    expect(toProblem(new NotFoundError('Person not found'))).toMatchObject({ status: 404, code: 'not_found', message: 'Person not found', unexpected: false });
    expect(toProblem(new ConflictError('slug_conflict', 'taken'))).toMatchObject({ status: 409, code: 'slug_conflict', unexpected: false });
  });

  it('answers an unknown route as not_found, naming it', () => {
    expect(toProblem(new NotFoundException('Cannot GET /v2/nope'))).toMatchObject({ status: 404, code: 'not_found', message: 'No route for GET /v2/nope' });
  });

  it('sees through Nest to body-parser failures', () => {
    const parse = Object.assign(new SyntaxError('Unexpected end of JSON input'), { status: 400, expose: true, type: 'entity.parse.failed' });
    expect(toProblem(new BadRequestException(parse.message, { cause: parse }))).toMatchObject({ status: 400, message: expect.stringMatching(/^The request body is not valid JSON/) });
  });

  it('turns a PostgreSQL data exception (class 22) into a 400 flagged as a missed validation', () => {
    expect(toProblem(databaseError('22021'))).toMatchObject({ status: 400, code: 'validation_type', details: { missedValidation: '22021' }, unexpected: false });
    expect(toProblem(databaseError('22003', 'integer out of range'))).toMatchObject({ status: 400, message: expect.stringContaining('integer out of range') });
  });

  it('turns a deadlock or serialization failure (class 40) into a 409 the caller may retry', () => {
    for (const code of ['40P01', '40001']) {
      expect(toProblem(databaseError(code))).toMatchObject({ status: 409, code: 'concurrent_write_conflict', unexpected: false });
    }
  });

  it('answers anything else with a 500 that says nothing of it', () => {
    for (const error of [new Error('secret detail'), databaseError('23505'), databaseError('XX000'), 'a string', undefined]) {
      expect(toProblem(error)).toEqual({ status: 500, code: 'internal_error', message: 'An unexpected error occurred.', details: {}, unexpected: true });
    }
  });
});
