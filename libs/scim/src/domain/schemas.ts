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

const flag = (name: string, description: string, extra: Partial<AttributeDefinition> = {}): AttributeDefinition => ({
  name,
  type: 'boolean',
  multiValued: false,
  description,
  required: false,
  mutability: 'readWrite',
  returned: 'default',
  ...extra,
});

const complex = (name: string, description: string, subAttributes: AttributeDefinition[], extra: Partial<AttributeDefinition> = {}): AttributeDefinition => ({
  name,
  type: 'complex',
  multiValued: false,
  description,
  required: false,
  mutability: 'readWrite',
  returned: 'default',
  subAttributes,
  ...extra,
});

/** A multi-valued attribute of RFC 7643 §2.4's usual shape: value, display, type, primary. */
const plural = (name: string, description: string, canonicalTypes: readonly string[], extraSubs: AttributeDefinition[] = []): AttributeDefinition =>
  complex(
    name,
    description,
    [
      text('value', `The ${name} value.`),
      text('display', 'A human-readable name.'),
      text('type', 'A label of its function.', canonicalTypes.length > 0 ? { canonicalValues: canonicalTypes } : {}),
      flag('primary', 'The preferred value; true at most once.'),
      ...extraSubs,
    ],
    { multiValued: true },
  );

/**
 * RFC 7643 §4.1 User, as stored: every attribute here round-trips exactly as last written; the
 * workspace itself reads userName, name.givenName/familyName, the email (from `emails`, see the
 * README), active and appRole.
 */
export const USER_SCHEMA: SchemaDefinition = {
  id: SCIM_URN.user,
  name: 'User',
  description: 'Workspace member (or pending invite)',
  attributes: [
    text('userName', 'Any string; unique in the workspace, compared case-insensitively.', { required: true, uniqueness: 'server' }),
    complex("name", "The user's name.", [
      text('formatted', 'The full name.'),
      text('familyName', 'Last name; the member\'s last_name.'),
      text('givenName', 'First name; the member\'s first_name.'),
      text('middleName', 'Middle name.'),
      text('honorificPrefix', 'Honorific prefix.'),
      text('honorificSuffix', 'Honorific suffix.'),
    ]),
    text('displayName', 'The name shown for the user.'),
    text('nickName', 'Casual name.'),
    { ...text('profileUrl', 'A URI of the user\'s profile.'), type: 'reference', referenceTypes: ['external'] },
    text('title', 'Job title.'),
    text('userType', 'The relationship to the organisation.'),
    text('preferredLanguage', 'Preferred written or spoken language, e.g. en-US.'),
    text('locale', 'Locale, e.g. en-US.'),
    text('timezone', 'Time zone, e.g. America/Los_Angeles.'),
    flag('active', 'Whether the user has access to the workspace (true for an active member or a pending invite).'),
    plural('emails', "Email addresses, stored as sent. The member's email is the primary one, else the first of type work, else the first (or the userName when it is an address).", ['work', 'home', 'other']),
    plural('phoneNumbers', 'Phone numbers, stored as sent.', ['work', 'home', 'mobile', 'fax', 'pager', 'other']),
    plural('ims', 'Instant messaging addresses.', []),
    plural('photos', 'Photo URLs.', ['photo', 'thumbnail']),
    complex(
      'addresses',
      'Physical mailing addresses.',
      [
        text('formatted', 'The full address.'),
        text('streetAddress', 'Street.'),
        text('locality', 'City.'),
        text('region', 'State or region.'),
        text('postalCode', 'Postal code.'),
        text('country', 'Country (ISO 3166-1 alpha-2).'),
        text('type', 'work, home or other.', { canonicalValues: ['work', 'home', 'other'] }),
        flag('primary', 'The preferred address.'),
      ],
      { multiValued: true },
    ),
    plural('entitlements', 'Entitlements.', []),
    plural('roles', 'Roles: as sent (stored, not interpreted: the workspace role is appRole); without any, the access level as one primary role of type access_level.', []),
    plural('x509Certificates', 'Certificates.', []),
    complex(
      'groups',
      'The teams the user is in; read-only here (change them through /Groups). Not returned on Users.',
      [text('value', 'The group id.', { mutability: 'readOnly' }), text('display', 'The group name.', { mutability: 'readOnly' })],
      { multiValued: true, mutability: 'readOnly' },
    ),
    text('appRole', "The user's access level in the workspace.", { canonicalValues: ['admin', 'member'] }),
    text('externalId', "The identity provider's identifier for the user.", { caseExact: true }),
  ],
};

/** RFC 7643 §4.3, stored and returned exactly as written. */
export const ENTERPRISE_USER_SCHEMA: SchemaDefinition = {
  id: SCIM_URN.enterpriseUser,
  name: 'EnterpriseUser',
  description: 'Enterprise User extension',
  attributes: [
    text('employeeNumber', 'Employee number.'),
    text('costCenter', 'Cost center.'),
    text('organization', 'Organization.'),
    text('division', 'Division.'),
    text('department', 'Department.'),
    complex('manager', "The user's manager (a string value is read as the manager's id).", [
      text('value', "The manager's id.", { caseExact: true }),
      { ...text('$ref', "The manager's URI."), type: 'reference', referenceTypes: ['User'] },
      text('displayName', "The manager's name.", { mutability: 'readOnly' }),
    ]),
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

export const SCHEMAS: readonly SchemaDefinition[] = [USER_SCHEMA, ENTERPRISE_USER_SCHEMA, GROUP_SCHEMA];

/** Attribute definitions by lower-cased name: a Map, never a plain object indexed by what a client sent. */
export function attributeIndex(attributes: readonly AttributeDefinition[]): ReadonlyMap<string, AttributeDefinition> {
  return new Map(attributes.map((attribute) => [attribute.name.toLowerCase(), attribute]));
}
