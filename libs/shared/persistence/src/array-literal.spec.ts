import { arrayLiteral } from './array-literal';

// The driver's own conversion of a parameter (not in its typings).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { prepareValue } = require('pg/lib/utils') as { prepareValue(value: unknown): unknown };

describe('arrayLiteral', () => {
  it('writes what node-postgres writes for the same array', () => {
    const samples: unknown[][] = [
      [],
      ['a', 'b'],
      ['0b3c1f1e-2a4d-4c39-9a57-51f5e0f0d8a1', null, undefined],
      ['say "hi"', 'back\\slash', '\\"', '', 'NULL', ' spaced ', 'comma,brace}{', 'ünï\u2028'],
      [1, -1.5, 1e21, 0, true, false, 12345678901234567890n],
      ['{"x":"y \\"z\\""}', '[1,2]'],
      [{ key: 'va"lue' }],
    ];
    for (const values of samples) expect(arrayLiteral(values)).toBe(prepareValue(values));
  });

  it('writes a Date as its ISO text (the driver writes the same instant in local time)', () => {
    expect(arrayLiteral([new Date('2026-11-29T01:02:03.456Z'), null])).toBe('{"2026-11-29T01:02:03.456Z",NULL}');
  });
});
