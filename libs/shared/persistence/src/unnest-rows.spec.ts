import { unnestRows } from './unnest-rows';

describe('unnestRows', () => {
  it('binds a column that varies as an array and a constant one once, after the parameters already there', () => {
    const at = new Date('2026-11-28T00:00:00Z');
    const params: unknown[] = ['earlier'];
    const sql = unnestRows(
      [
        { type: 'uuid', values: ['w', 'w', 'w'] },
        { type: 'text', values: ['a', 'b', 'c'] },
        { type: 'timestamptz', values: [at, at, at] },
        { type: 'jsonb', values: ['{"x":1}', '{"x":2}', '{"x":3}'] },
        { type: 'jsonb', values: ['{}', '{}', '{}'] },
      ],
      params,
    );
    expect(sql).toBe('SELECT $2::uuid, e.c1, $4::timestamptz, e.c3::jsonb, $6::text::jsonb FROM unnest($3::text[], $5::text[]) WITH ORDINALITY AS e(c1, c3, n) ORDER BY e.n');
    expect(params).toEqual(['earlier', 'w', '{"a","b","c"}', at, '{"{\\"x\\":1}","{\\"x\\":2}","{\\"x\\":3}"}', '{}']);
  });

  it('keeps the first column an array when every column is constant, so unnest still gives every row', () => {
    const params: unknown[] = [];
    const sql = unnestRows([{ type: 'text', values: ['a', 'a'] }, { type: 'int', values: [1, 1] }], params);
    expect(sql).toBe('SELECT e.c0, $2::int FROM unnest($1::text[]) WITH ORDINALITY AS e(c0, n) ORDER BY e.n');
    expect(params).toEqual(['{"a","a"}', 1]);
  });

  it('treats equal Dates that are distinct objects as varying (one clock reading is one object)', () => {
    const params: unknown[] = [];
    unnestRows([{ type: 'text', values: ['a', 'b'] }, { type: 'timestamptz', values: [new Date(0), new Date(0)] }], params);
    expect(params[1]).toBe('{"1970-01-01T00:00:00.000Z","1970-01-01T00:00:00.000Z"}');
  });
});
