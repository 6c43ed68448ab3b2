import { attributeFixture } from './attribute.fixture';
import { defaultInputs } from './default-values';

const now = new Date('2026-03-01T09:00:00.000Z');

describe('defaultInputs', () => {
  it('gives an attribute the write leaves out its static default', () => {
    const stage = attributeFixture({ id: 'stage', type: 'select', defaultValue: { type: 'static', template: ['Lead'] } });
    expect(defaultInputs([stage], new Set(), null, now)).toEqual([{ attribute: stage, input: ['Lead'] }]);
  });

  it('never overrides what the write gives, nor fills an archived attribute', () => {
    const stage = attributeFixture({ id: 'stage', defaultValue: { type: 'static', template: ['Lead'] } });
    const archived = attributeFixture({ id: 'old', isArchived: true, defaultValue: { type: 'static', template: ['x'] } });
    expect(defaultInputs([stage, archived], new Set(['stage']), null, now)).toEqual([]);
  });

  it('makes current-user the writing member, and nothing for a token without one', () => {
    const owner = attributeFixture({ id: 'owner', type: 'actor-reference', defaultValue: { type: 'dynamic', template: 'current-user' } });
    expect(defaultInputs([owner], new Set(), 'member-1', now)).toEqual([
      { attribute: owner, input: { referenced_actor_type: 'workspace-member', referenced_actor_id: 'member-1' } },
    ]);
    expect(defaultInputs([owner], new Set(), null, now)).toEqual([]);
  });

  it('makes a dynamic date or timestamp default the moment of the write, and ignores it on other types', () => {
    const seen = attributeFixture({ id: 'seen', type: 'timestamp', defaultValue: { type: 'dynamic', template: 'now' } });
    const label = attributeFixture({ id: 'label', type: 'text', defaultValue: { type: 'dynamic', template: 'now' } });
    expect(defaultInputs([seen, label], new Set(), null, now)).toEqual([{ attribute: seen, input: '2026-03-01T09:00:00.000Z' }]);
  });
});
