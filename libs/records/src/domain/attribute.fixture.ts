import type { Attribute } from '@workbase/schema';

/** An attribute for the value rules' specs: a live, writable, optional text attribute unless `overrides` say otherwise. */
export function attributeFixture(overrides: Partial<Attribute> & Pick<Attribute, 'id'>): Attribute {
  return {
    workspaceId: 'ws-a',
    containerId: 'object-1',
    containerKind: 'object',
    slug: overrides.id,
    title: overrides.id,
    description: null,
    type: 'text',
    isSystem: false,
    isWritable: true,
    isRequired: false,
    isUnique: false,
    isMultiselect: false,
    isArchived: false,
    isInherited: false,
    defaultValue: null,
    config: {},
    relationshipAttributeId: null,
    position: 0,
    createdAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}
