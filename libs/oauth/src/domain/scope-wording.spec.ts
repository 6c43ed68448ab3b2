import { ALL_SCOPES } from '@workbase/shared/kernel';
import { describeScopesForConsent } from './scope-wording';

describe('scope wording on the consent page', () => {
  it('says "See …" for read and "See, create, change and delete …" for read-write, collapsing both into one line', () => {
    expect(describeScopesForConsent(['note:read', 'task:read-write', 'webhook:read', 'webhook:read-write'])).toEqual([
      { scopes: ['note:read'], text: 'See notes' },
      { scopes: ['task:read-write'], text: 'See, create, change and delete tasks' },
      { scopes: ['webhook:read', 'webhook:read-write'], text: 'See, create, change and delete webhooks, which send workspace events to other services' },
    ]);
  });

  it('words every scope of the catalogue, in catalogue order, without jargon', () => {
    const lines = describeScopesForConsent(ALL_SCOPES);
    expect(lines).toHaveLength(ALL_SCOPES.length / 2);
    expect(lines.flatMap((line) => line.scopes)).toEqual(ALL_SCOPES);
    for (const line of lines) expect(line.text).not.toMatch(/_|:read/);
  });

  it('is empty for no scopes', () => {
    expect(describeScopesForConsent([])).toEqual([]);
  });
});
