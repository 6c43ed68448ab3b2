import { checkCommentContent, COMMENT_CONTENT_MAX_LENGTH, parseCommentCreatedAt } from './comment';

describe('comment rules', () => {
  it('keeps content as written (line breaks normalised), refusing empty and oversized content', () => {
    expect(checkCommentContent('a\r\nb')).toBe('a\nb');
    expect(() => checkCommentContent(' \n ')).toThrow(/^data\.content: must not be empty/);
    expect(() => checkCommentContent('x'.repeat(COMMENT_CONTENT_MAX_LENGTH + 1))).toThrow(/^data\.content: must be at most/);
  });

  it('backdates with an offset only, never into the future or before 1970', () => {
    const now = Date.parse('2026-06-01T00:00:00Z');
    expect(parseCommentCreatedAt('2023-01-01T15:00:00.000000000Z', now).toISOString()).toBe('2023-01-01T15:00:00.000Z');
    expect(() => parseCommentCreatedAt('2026-07-01T00:00:00Z', now)).toThrow(/future/);
    expect(() => parseCommentCreatedAt('1969-12-31T23:59:59Z', now)).toThrow(/1970/);
    expect(() => parseCommentCreatedAt('2023-01-01 15:00', now)).toThrow(/^data\.created_at: /);
    expect(() => parseCommentCreatedAt('2023-02-29T10:00:00Z', now)).toThrow(/not a valid date/);
  });
});
