import { escapeLike, trigramProbes } from './record-search.repository';

describe('escapeLike', () => {
  it('takes LIKE metacharacters literally', () => {
    expect(escapeLike('100%_a\\b')).toBe('100\\%\\_a\\\\b');
    expect(escapeLike('ada')).toBe('ada');
  });
});

describe('trigramProbes', () => {
  it('probes with the longest words, leaving out email domains and last domain labels', () => {
    expect(trigramProbes('shafi.wescoff.4321@example.com')).toEqual(['wescoff', 'shafi', '4321']);
    expect(trigramProbes('grace hopper')).toEqual(['hopper', 'grace']);
    expect(trigramProbes('lovelace')).toEqual(['lovelace']);
    expect(trigramProbes('company-43.com')).toEqual(['company']);
    expect(trigramProbes('example')).toEqual(['example']);
    expect(trigramProbes('example.com')).toEqual(['example']);
    expect(trigramProbes('a-b')).toEqual([]);
    expect(trigramProbes('da')).toEqual([]);
  });
});
