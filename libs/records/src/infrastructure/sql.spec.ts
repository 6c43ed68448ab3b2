import { asJsonb } from './sql';

describe('asJsonb', () => {
  it('orders object keys as jsonb stores them: shorter first, then by UTF-8 bytes, at every depth', () => {
    const value = asJsonb({ b: 1, aa: 2, a: 3, é: 4, z: { yy: 1, x: [{ d: 1, c: 2 }] } });
    expect(JSON.stringify(value)).toBe('{"a":3,"b":1,"z":{"x":[{"c":2,"d":1}],"yy":1},"aa":2,"é":4}');
  });

  it('orders the same keys alike however they came, and keeps scalars and null as they are', () => {
    expect(JSON.stringify(asJsonb({ email_domain: 'x', email_address: 'y' }))).toBe(JSON.stringify(asJsonb({ email_address: 'y', email_domain: 'x' })));
    expect(asJsonb(null)).toBeNull();
    expect(asJsonb('text')).toBe('text');
    expect(asJsonb([1, 'a', null])).toEqual([1, 'a', null]);
  });
});
