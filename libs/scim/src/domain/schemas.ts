import { SCIM_URN } from './urns';

/** An attribute definition as /Schemas publishes it (RFC 7643 §7); no nulls, camelCase values. */
export interface AttributeDefinition {
  readonly name: string;
  readonly type: 'string' | 'boolean' | 'complex' | 'reference' | 'dateTime';
  readonly multiValued: boolean;
  readonly description: string;
  readonly required: boolean;
  readonly caseExact?: boolean;
  readonly mutability: 'readWrite' | 'readOnly' | 'immutable';
  readonly returned: 'default' | 'always';
  readonly uniqueness?: 'none' | 'server';
  readonly canonicalValues?: readonly string[];
  readonly referenceTypes?: readonly string[];
  readonly subAttributes?: readonly AttributeDefinition[];
}

export interface SchemaDefinition {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly attributes: readonly AttributeDefinition[];
}

const text = (name: string, description: string, extra: Partial<AttributeDefinition> = {}): AttributeDefinition => ({
  name,
  type: 'string',
  multiValued: false,
  description,
  required: false,
  caseExact: false,
  mutability: 'readWrite',
  returned: 'default',
  uniqueness: 'none',
  ...extra,
});

export const USER_SCHEMA: SchemaDefinition = {
  id: SCIM_URN.user,
  name: 'User',
  description: 'Workspace member (or pending invite)',
  attributes: [
    text('userName', "The user's primary email address; unique in the workspace, compared case-insensitively.", { required: true, uniqueness: 'server' }),
    {
      name: 'name',
      type: 'complex',
      multiValued: false,
      description: "The user's name.",
      required: false,
      mutability: 'readWrite',
      returned: 'default',
      subAttributes: [text('givenName', 'First name.'), text('familyName', 'Last name.')],
    },
    {
      name: 'emails',
      type: 'complex',
      multiValued: true,
      description: 'Email addresses; always one, the userName, of type work and primary.',
      required: false,
      mutability: 'readOnly',
      returned: 'default',
      subAttributes: [
        text('value', 'The email address.', { mutability: 'readOnly' }),
        text('type', 'The kind of address.', { mutability: 'readOnly', canonicalValues: ['work'] }),
        { name: 'primary', type: 'boolean', multiValued: false, description: 'Whether this is the primary address.', required: false, mutability: 'readOnly', returned: 'default' },
      ],
    },
    {
      name: 'active',
      type: 'boolean',
      multiValued: false,
      description: 'Whether the user has access to the workspace (true for an active member or a pending invite).',
      required: false,
      mutability: 'readWrite',
      returned: 'default',
    },
    text('appRole', "The user's access level in the workspace.", { canonicalValues: ['admin', 'member'] }),
    text('externalId', "The identity provider's identifier for the user.", { caseExact: true }),
  ],
};

export const GROUP_SCHEMA: SchemaDefinition = {
  id: SCIM_URN.group,
  name: 'Group',
  description: 'Workspace team',
  attributes: [
    text('displayName', 'The team name; non-empty and unique in the workspace, compared case-insensitively.', { required: true, uniqueness: 'server' }),
    {
      name: 'members',
      type: 'complex',
      multiValued: true,
      description: 'The users in the team.',
      required: false,
      mutability: 'readWrite',
      returned: 'default',
      subAttributes: [
        text('value', 'The id of the user (a membership id or an invite id).', { caseExact: true, mutability: 'immutable' }),
        { name: '$ref', type: 'reference', referenceTypes: ['User'], multiValued: false, description: 'The URI of the user.', required: false, caseExact: true, mutability: 'immutable', returned: 'default' },
        text('type', 'The kind of member.', { mutability: 'immutable', canonicalValues: ['User'] }),
        text('display', "The member's userName.", { mutability: 'readOnly' }),
      ],
    },
    text('externalId', "The identity provider's identifier for the group.", { caseExact: true }),
  ],
};

export const SCHEMAS: readonly SchemaDefinition[] = [USER_SCHEMA, GROUP_SCHEMA];
