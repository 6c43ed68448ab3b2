import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { LimitBodyField, LimitQueryParam, MAX_OFFSET, OffsetBodyField, OffsetPaginationQuery, pageOf, toQueryInteger } from './pagination';

class Query extends OffsetPaginationQuery {
  @LimitQueryParam({ max: 50, default: 10 })
  limit?: number;
}

function check(query: Record<string, unknown>): { value: Query; errors: string[] } {
  const value = plainToInstance(Query, query);
  const errors = validateSync(value, { stopAtFirstError: true }).flatMap((e) => Object.values(e.constraints ?? {}));
  return { value, errors };
}

describe('limit/offset query parameters', () => {
  it('reads plain decimal integers only', () => {
    expect(toQueryInteger({ value: '42' })).toBe(42);
    expect(toQueryInteger({ value: '-1' })).toBe(-1);
    for (const raw of ['1e1', '0x10', ' 5', '5 ', '', '1.5', '+5', '12345678901234567', ['1', '2']]) {
      expect(toQueryInteger({ value: raw })).toBe(raw);
    }
  });

  it('accepts the range and applies the defaults', () => {
    expect(check({}).errors).toEqual([]);
    expect(pageOf(check({}).value, 10)).toEqual({ limit: 10, offset: 0 });
    const { value, errors } = check({ limit: '50', offset: String(MAX_OFFSET) });
    expect(errors).toEqual([]);
    expect(pageOf(value, 10)).toEqual({ limit: 50, offset: MAX_OFFSET });
  });

  it('refuses out-of-range and non-integer values, type first', () => {
    expect(check({ limit: '0' }).errors).toEqual(['limit must not be less than 1']);
    expect(check({ limit: '51' }).errors).toEqual(['limit must not be greater than 50']);
    expect(check({ limit: '1e1' }).errors).toEqual(['limit must be an integer number']);
    expect(check({ offset: '-1' }).errors).toEqual(['offset must not be less than 0']);
    expect(check({ offset: String(MAX_OFFSET + 1) }).errors).toEqual([`offset must not be greater than ${MAX_OFFSET}`]);
    expect(check({ offset: '100000000000000000000' }).errors).toEqual(['offset must be an integer number']);
    expect(check({ offset: '' }).errors).toEqual(['offset must be an integer number']);
  });
});

describe('limit/offset body fields', () => {
  class Body {
    @LimitBodyField({ max: 1000, default: 500 })
    limit?: number;

    @OffsetBodyField()
    offset?: number;
  }
  const errors = (body: Record<string, unknown>) => validateSync(plainToInstance(Body, body), { stopAtFirstError: true }).flatMap((e) => Object.values(e.constraints ?? {}));

  it('takes JSON integers in range only, with the query parameters’ messages', () => {
    expect(errors({ limit: 1000, offset: MAX_OFFSET })).toEqual([]);
    expect(errors({ limit: '10' })).toEqual(['limit must be an integer number']);
    expect(errors({ limit: 1001 })).toEqual(['limit must not be greater than 1000']);
    expect(errors({ offset: 2.5 })).toEqual(['offset must be an integer number']);
    expect(errors({ offset: MAX_OFFSET + 1 })).toEqual([`offset must not be greater than ${MAX_OFFSET}`]);
  });
});
