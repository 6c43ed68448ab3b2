import { readOffsetInstant } from './instant';

describe('readOffsetInstant', () => {
  it('reads an instant with a zone offset, dropping digits past milliseconds', () => {
    expect((readOffsetInstant('2026-03-01T17:00:00.123456789Z') as Date).toISOString()).toBe('2026-03-01T17:00:00.123Z');
    expect((readOffsetInstant('2026-03-01t17:00+02:00') as Date).toISOString()).toBe('2026-03-01T15:00:00.000Z');
  });

  it('tells a malformed text from an impossible date or time', () => {
    for (const text of ['2026-03-01', '2026-03-01T17:00:00', '2026-03-01 17:00Z', 'soon']) expect(readOffsetInstant(text)).toBe('malformed');
    for (const text of ['2026-02-30T10:00:00Z', '2026-03-01T24:00:00Z', '2026-03-01T10:60:00Z']) expect(readOffsetInstant(text)).toBe('impossible');
  });
});
