import { rememberLast } from './per-object';

describe('rememberLast', () => {
  it('makes once per run of one object, again for another', () => {
    const made: object[] = [];
    const text = rememberLast((of: { n: number }) => {
      made.push(of);
      return `n=${of.n}`;
    });
    const a = { n: 1 };
    const b = { n: 1 };
    expect([a, a, b, b, a].map(text)).toEqual(['n=1', 'n=1', 'n=1', 'n=1', 'n=1']);
    expect(made).toEqual([a, b, a]);
    expect(made[1]).toBe(b);
  });
});
