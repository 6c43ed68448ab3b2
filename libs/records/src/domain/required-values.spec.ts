import { DomainError } from '@workbase/shared/kernel';
import { attributeFixture } from './attribute.fixture';
import { assertRequiredValues } from './required-values';

const name = attributeFixture({ id: 'name', isRequired: true });
const notes = attributeFixture({ id: 'notes' });

describe('assertRequiredValues', () => {
  it('refuses a create without a value of a required attribute, naming it', () => {
    expect(() => assertRequiredValues([name, notes], new Map([['notes', 1]]), 'create')).toThrow('Required attribute "name" needs a value.');
    expect(() => assertRequiredValues([name], new Map([['name', 0]]), 'create')).toThrow(DomainError);
  });

  it('accepts a create that gives every required attribute a value', () => {
    expect(() => assertRequiredValues([name, notes], new Map([['name', 1]]), 'create')).not.toThrow();
  });

  it('lets an update leave a required attribute alone, but not empty it', () => {
    expect(() => assertRequiredValues([name], new Map([['notes', 1]]), 'update')).not.toThrow();
    expect(() => assertRequiredValues([name], new Map([['name', 0]]), 'update')).toThrow('Required attribute "name" needs a value.');
  });

  it('ignores archived attributes and those the system sets', () => {
    const archived = attributeFixture({ id: 'old', isRequired: true, isArchived: true });
    const system = attributeFixture({ id: 'created_at', slug: 'created_at', isRequired: true, isSystem: true });
    expect(() => assertRequiredValues([archived, system], new Map(), 'create')).not.toThrow();
  });

  it('answers missing_value with the attribute in its details', () => {
    try {
      assertRequiredValues([name], new Map(), 'create');
      throw new Error('expected a refusal');
    } catch (error) {
      expect(error).toMatchObject({ code: 'missing_value', details: { attribute: 'name' } });
    }
  });
});
