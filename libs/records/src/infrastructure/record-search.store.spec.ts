import { escapeLike } from './record-search.store';

describe('escapeLike', () => {
  it('takes LIKE metacharacters literally', () => {
    expect(escapeLike('100%_a\\b')).toBe('100\\%\\_a\\\\b');
    expect(escapeLike('ada')).toBe('ada');
  });
});
