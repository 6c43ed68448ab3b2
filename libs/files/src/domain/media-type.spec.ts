import { essenceOf, keptMediaType, MAX_MEDIA_TYPE_LENGTH } from './media-type';

describe('keptMediaType', () => {
  it('keeps a media type as sent, parameters and case included, without the surrounding whitespace', () => {
    expect(keptMediaType('text/plain; charset=utf-8')).toBe('text/plain; charset=utf-8');
    expect(keptMediaType(' Text/CSV;charset="ISO-8859-1" ;header=present\t')).toBe('Text/CSV;charset="ISO-8859-1" ;header=present');
    expect(keptMediaType('application/vnd.api+json')).toBe('application/vnd.api+json');
    expect(keptMediaType('text/plain;')).toBe('text/plain;');
    expect(keptMediaType('text/plain; name="a \\"quoted\\" name"')).toBe('text/plain; name="a \\"quoted\\" name"');
  });

  it('takes an empty type as text/plain (RFC 7578)', () => {
    expect(keptMediaType('')).toBe('text/plain');
    expect(keptMediaType('  ')).toBe('text/plain');
  });

  it('refuses what is not a media type, or could break a header', () => {
    for (const bad of [
      'text',
      'text/',
      '/plain',
      'text/plain; charset',
      'text/plain; charset=utf 8',
      'text/plain; a="unterminated',
      'text/plain\r\nSet-Cookie: x=1',
      'text/plain; a="b\r\nc"',
      'text/plain; a="\u0000"',
      'text/plain; a=b\u000b',
      'text/plain; name="é"',
      'text/html Set-Cookie: x=1',
      `text/plain; x=${'a'.repeat(MAX_MEDIA_TYPE_LENGTH)}`,
    ]) {
      expect([bad, keptMediaType(bad)]).toEqual([bad, null]);
    }
  });
});

describe('essenceOf', () => {
  it('is the lower-cased type/subtype', () => {
    expect(essenceOf('Text/Plain ; charset=UTF-8')).toBe('text/plain');
    expect(essenceOf('application/pdf')).toBe('application/pdf');
  });
});
