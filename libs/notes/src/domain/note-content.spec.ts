import fc from 'fast-check';
import { markdownToPlaintext, NOTE_CONTENT_MAX_BYTES, noteContent, plaintextToMarkdown } from './note-content';

describe('note content', () => {
  it('renders the documented markdown subset as plaintext', () => {
    const markdown = [
      '# Meeting Recap: Q4 Planning',
      '',
      '**Date:** 2023-10-26',
      '## Key __Discussion__ Points',
      '- Reviewed *Q3* performance _metrics_.',
      '* Budget for ==Project Phoenix==.',
      '+ Nested **bold *and italic***',
      '  - indented item',
      '### Action Items',
      '1. Alex to finalize the roadmap.',
      '2. Follow up with [Marketing Team](https://example.com/teams/marketing).',
      '3. Draft budget for ~~Project Chimera~~ (now deferred).',
      'snake_case_name and 2 * 3 * 4 stay; \\*escaped\\* too; #### deeper heading stays',
    ].join('\n');
    expect(markdownToPlaintext(markdown)).toBe(
      [
        'Meeting Recap: Q4 Planning',
        '',
        'Date: 2023-10-26',
        'Key Discussion Points',
        '- Reviewed Q3 performance metrics.',
        '- Budget for Project Phoenix.',
        '- Nested bold and italic',
        '  - indented item',
        'Action Items',
        '1. Alex to finalize the roadmap.',
        '2. Follow up with Marketing Team.',
        '3. Draft budget for Project Chimera (now deferred).',
        'snake_case_name and 2 * 3 * 4 stay; *escaped* too; #### deeper heading stays',
      ].join('\n'),
    );
  });

  it('escapes plaintext so that its markdown renders back to the same text', () => {
    expect(plaintextToMarkdown('# not a heading\n- not a list\n1. not ordered\n**not bold** [not](a link) ==x== ~~y~~ a\\b')).toBe(
      '\\# not a heading\n\\- not a list\n1\\. not ordered\n\\*\\*not bold\\*\\* \\[not\\](a link) \\=\\=x\\=\\= \\~\\~y\\~\\~ a\\\\b',
    );
    const alphabet = fc.constantFrom(...'ab 1.#-+*_~=[]()\\\t\n!é'.split(''));
    fc.assert(
      fc.property(fc.array(alphabet, { maxLength: 40 }).map((chars) => chars.join('')), (text) => {
        expect(markdownToPlaintext(plaintextToMarkdown(text))).toBe(text);
      }),
      { numRuns: 2000 },
    );
    fc.assert(fc.property(fc.string({ unit: 'grapheme', maxLength: 60 }), (text) => {
      const normalised = text.replace(/\r\n?/g, '\n');
      expect(markdownToPlaintext(plaintextToMarkdown(text))).toBe(normalised);
    }));
  });

  it('keeps both forms, normalising newlines, and refuses oversize content with a 413 code', () => {
    expect(noteContent('plaintext', 'a*b\r\nc')).toEqual({ plaintext: 'a*b\nc', markdown: 'a\\*b\nc' });
    expect(noteContent('markdown', '**a**\r\n- b')).toEqual({ markdown: '**a**\n- b', plaintext: 'a\n- b' });
    expect(() => noteContent('plaintext', 'x'.repeat(NOTE_CONTENT_MAX_BYTES + 1))).toThrow(expect.objectContaining({ code: 'payload_too_large' }));
    expect(noteContent('plaintext', 'x'.repeat(NOTE_CONTENT_MAX_BYTES)).plaintext).toHaveLength(NOTE_CONTENT_MAX_BYTES);
  });
});
