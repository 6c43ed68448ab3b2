import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { ValidationError } from '@workbase/shared/kernel';
import { findNul, NoNulCharacters, RejectNulPipe } from './reject-nul.pipe';

describe('RejectNulPipe', () => {
  it('names the first field holding U+0000 in a body, keys included', () => {
    expect(findNul({ data: { values: { a: 'ok', b: ['x', 'y\u0000'] } } }, '')).toBe('data.values.b[1]');
    expect(findNul({ filter: { 'na\u0000me': 'x' } }, '')).toBe('filter.na\\u0000me');
    expect(findNul({ a: 'x\u0000', b: 'y\u0000' }, '')).toBe('a');
    expect(findNul({ a: [1, null, true, { b: 'fine' }] }, '')).toBeNull();
  });

  it('answers a ValidationError naming the parameter, under its display name when given', () => {
    const pipe = new RejectNulPipe({ identifier: 'activity' });
    expect(() => pipe.transform('a\u0000', { type: 'param', data: 'identifier' })).toThrow(new ValidationError('activity must not contain the NUL character (U+0000).'));
    expect(() => new RejectNulPipe().transform('a\u0000', { type: 'query', data: 'matching_attribute' })).toThrow('matching_attribute must not contain');
    expect(() => new RejectNulPipe().transform({ data: { title: 'a\u0000' } }, { type: 'body' })).toThrow('data.title must not contain');
    expect(new RejectNulPipe().transform('a\u0000', { type: 'custom' })).toBe('a\u0000');
  });
});

describe('NoNulCharacters', () => {
  class Dto {
    @NoNulCharacters()
    title?: unknown;
  }
  const errors = (title: unknown) => validateSync(plainToInstance(Dto, { title })).flatMap((e) => Object.values(e.constraints ?? {}));

  it('refuses a string with U+0000 and lets anything else through to its own checks', () => {
    expect(errors('a\u0000b')).toEqual(['title must not contain NUL (U+0000) characters']);
    expect(errors('ab')).toEqual([]);
    expect(errors(5)).toEqual([]);
  });
});
