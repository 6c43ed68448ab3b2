import type { ExecutionContext } from '@nestjs/common';
import { writeCost } from './rate-limit.guard';

const request = (method: string, path: string, body?: unknown) =>
  ({ switchToHttp: () => ({ getRequest: () => ({ method, path, body }) }) }) as unknown as ExecutionContext;
const operations = (n: number) => ({ operations: Array.from({ length: n }, () => ({})) });

describe('writeCost', () => {
  it('counts a batch as one write per started 100 operations', () => {
    for (const [n, cost] of [[0, 1], [1, 1], [100, 1], [101, 2], [250, 3], [1000, 10]]) {
      expect([n, writeCost(request('POST', '/v2/objects/people/records/batch', operations(n)))]).toEqual([n, cost]);
    }
    expect(writeCost(request('POST', '/v2/lists/deals/entries/batch', operations(301)))).toBe(4);
  });

  it('caps a batch over the maximum at the maximum (it is refused as a 400 anyway)', () => {
    expect(writeCost(request('POST', '/v2/objects/people/records/batch', operations(5000)))).toBe(10);
  });

  it('counts every other write as one', () => {
    expect(writeCost(request('POST', '/v2/objects/people/records', operations(500)))).toBe(1);
    expect(writeCost(request('PUT', '/v2/objects/people/records/batch', operations(500)))).toBe(1);
    expect(writeCost(request('POST', '/v2/objects/people/records/batch', { operations: 'many' }))).toBe(1);
    expect(writeCost(request('POST', '/v2/objects/people/records/batch'))).toBe(1);
  });
});
