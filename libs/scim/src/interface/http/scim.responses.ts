import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { GroupMemberRef } from '../../domain/scim-group';
import { entityTag } from '../../domain/preconditions';
import { documentOf, type ScimUserRecord } from '../../domain/scim-user';
import { SCIM_URN } from '../../domain/urns';
import type { TeamRecord } from '../../infrastructure/scim-group.repository';

class ScimMeta {
  @ApiProperty({ example: 'User' }) resourceType!: string;
  @ApiProperty({ format: 'date-time' }) created!: string;
  @ApiProperty({ format: 'date-time' }) lastModified!: string;
  @ApiProperty({ format: 'uri', example: 'https://workbase.example/scim/v2/Users/2c6e4f1a-5b7d-4e0a-9c3b-8f1d2e3a4b5c' }) location!: string;
  @ApiProperty({ example: 'W/"1763820000000"' }) version!: string;
}

/** A user's name parts, in requests and answers alike. */
export class ScimName {
  @ApiPropertyOptional() givenName?: string;
  @ApiPropertyOptional() familyName?: string;
  @ApiPropertyOptional() formatted?: string;
  @ApiPropertyOptional() middleName?: string;
  @ApiPropertyOptional() honorificPrefix?: string;
  @ApiPropertyOptional() honorificSuffix?: string;
}

class ScimEmail {
  @ApiProperty() value!: string;
  @ApiPropertyOptional({ example: true }) primary?: boolean;
  @ApiPropertyOptional({ example: 'work' }) type?: string;
  @ApiPropertyOptional() display?: string;
}

class ScimRole {
  @ApiProperty({ example: 'admin' }) value!: string;
  @ApiPropertyOptional({ example: 'access_level' }) type?: string;
  @ApiPropertyOptional() display?: string;
  @ApiPropertyOptional() primary?: boolean;
}

/** The free-text profile attributes of a user, stored and returned as sent (in requests and answers alike). */
export class ScimUserProfile {
  @ApiPropertyOptional() displayName?: string;
  @ApiPropertyOptional() nickName?: string;
  @ApiPropertyOptional() title?: string;
  @ApiPropertyOptional() preferredLanguage?: string;
  @ApiPropertyOptional() locale?: string;
  @ApiPropertyOptional() timezone?: string;
}

export class ScimUserResource extends ScimUserProfile {
  @ApiProperty({ example: [SCIM_URN.user] }) schemas!: string[];
  @ApiProperty({ description: 'Workspace membership id or invite id', format: 'uuid' }) id!: string;
  @ApiPropertyOptional({ description: "The identity provider's id for the user" }) externalId?: string;
  @ApiPropertyOptional({ description: 'Any string; unique case-insensitively. Returned by default; left out when `excludedAttributes` names it or `attributes` does not', example: 'Test_User_1f0c' }) userName?: string;
  @ApiPropertyOptional({ type: ScimName, description: 'Returned by default; left out when `excludedAttributes` names it or `attributes` does not' }) name?: ScimName;
  @ApiPropertyOptional({ type: [ScimEmail], description: 'Phone numbers as sent (value, type, primary, display)' }) phoneNumbers?: ScimEmail[];
  @ApiPropertyOptional({
    type: [ScimEmail],
    description:
      "As sent. The member's email is the primary entry, else the first of type work, else the first; a user with none shows its email as one primary work address. " +
      'Returned by default; left out when `excludedAttributes` names it or `attributes` does not',
  })
  emails?: ScimEmail[];
  @ApiPropertyOptional({ description: 'True for an active member or a pending invite. Returned by default; left out when `excludedAttributes` names it or `attributes` does not' }) active?: boolean;
  @ApiPropertyOptional({ enum: ['admin', 'member'], description: 'Absent for a suspended or deprovisioned member' }) appRole?: string;
  @ApiPropertyOptional({
    type: [ScimRole],
    description:
      'Always an array: the roles the identity provider sent, as sent; without any, the member\'s access level as one primary role (`{"value": "admin", "type": "access_level", "primary": true}`), and none for a suspended or deprovisioned member. ' +
      'Returned by default; left out when `excludedAttributes` names it or `attributes` does not',
  })
  roles?: ScimRole[];
  @ApiPropertyOptional({
    name: SCIM_URN.enterpriseUser,
    description: 'The enterprise extension as sent: employeeNumber, costCenter, organization, division, department, manager { value, $ref }',
    type: 'object',
    additionalProperties: true,
  })
  [SCIM_URN.enterpriseUser]?: Record<string, unknown>;
  @ApiPropertyOptional({ type: ScimMeta, description: 'Returned by default; left out when `excludedAttributes` names it or `attributes` does not' }) meta?: ScimMeta;
}

class ScimMember {
  @ApiProperty({ description: 'Membership id or invite id' }) value!: string;
  @ApiProperty({ name: '$ref', format: 'uri' }) $ref!: string;
  @ApiProperty({ example: 'User' }) type!: string;
  @ApiPropertyOptional({ description: "The member's userName" }) display?: string;
}

export class ScimGroupResource {
  @ApiProperty({ example: [SCIM_URN.group] }) schemas!: string[];
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiPropertyOptional() externalId?: string;
  @ApiPropertyOptional({ example: 'Engineering', description: 'Returned by default; left out when `excludedAttributes` names it or `attributes` does not' }) displayName?: string;
  @ApiPropertyOptional({ type: [ScimMember], description: 'Returned by default; left out when `excludedAttributes` names it or `attributes` does not' }) members?: ScimMember[];
  @ApiPropertyOptional({ type: ScimMeta, description: 'Returned by default; left out when `excludedAttributes` names it or `attributes` does not' }) meta?: ScimMeta;
}

export class ScimListResponse {
  @ApiProperty({ example: [SCIM_URN.listResponse] }) schemas!: string[];
  @ApiProperty({ type: 'integer' }) totalResults!: number;
  @ApiProperty({ type: 'integer', description: '1-based index of the first result' }) startIndex!: number;
  @ApiProperty({ type: 'integer' }) itemsPerPage!: number;
  @ApiProperty({ type: 'array', items: { type: 'object' } }) Resources!: unknown[];
}

export class ScimErrorResponse {
  @ApiProperty({ example: [SCIM_URN.error] }) schemas!: string[];
  @ApiProperty({ example: '400', description: 'The HTTP status, as a string' }) status!: string;
  @ApiPropertyOptional({ enum: ['invalidFilter', 'invalidSyntax', 'invalidPath', 'noTarget', 'invalidValue', 'mutability', 'uniqueness', 'tooMany'] })
  scimType?: string;
  @ApiProperty() detail!: string;
}

class ScimPatchOperation {
  @ApiProperty({ enum: ['add', 'replace', 'remove'], description: 'Case-insensitive (Entra sends Add, Replace, Remove)' }) op!: string;
  @ApiPropertyOptional({ example: 'name.givenName' }) path?: string;
  @ApiPropertyOptional({ description: 'Any JSON; an object of attributes when path is omitted' }) value?: unknown;
}

export class ScimPatchRequest {
  @ApiProperty({ example: [SCIM_URN.patchOp] }) schemas!: string[];
  @ApiProperty({ type: [ScimPatchOperation] }) Operations!: ScimPatchOperation[];
}

export class ScimSearchRequest {
  @ApiProperty({ example: [SCIM_URN.searchRequest] }) schemas!: string[];
  @ApiPropertyOptional({ example: 'userName eq "ada@example.com"' }) filter?: string;
  @ApiPropertyOptional({ type: 'integer' }) startIndex?: number;
  @ApiPropertyOptional({ type: 'integer' }) count?: number;
  @ApiPropertyOptional({ type: [String] }) attributes?: string[];
  @ApiPropertyOptional({ type: [String] }) excludedAttributes?: string[];
}

/**
 * A user as stored, every attribute exactly as last written. A user made outside SCIM (CLI, first
 * start) has no `emails` of its own: its email is shown as the one primary work address.
 */
export function toScimUser(user: ScimUserRecord, baseUrl: string): ScimUserResource & { meta: ScimMeta } {
  const { userName, active, appRole, externalId, name, [SCIM_URN.enterpriseUser]: enterprise, ...attributes } = documentOf(user);
  const hasAccess = !(user.kind === 'member' && user.state !== 'active');
  return {
    schemas: enterprise ? [SCIM_URN.user, SCIM_URN.enterpriseUser] : [SCIM_URN.user],
    id: user.id,
    ...(typeof externalId === 'string' ? { externalId } : {}),
    userName,
    name: (name ?? {}) as ScimName,
    ...attributes,
    emails: (attributes.emails as ScimEmail[] | undefined) ?? [{ value: user.email, primary: true, type: 'work' }],
    active,
    // The reference API leaves appRole out for a member who has lost access (suspended or deprovisioned).
    ...(hasAccess ? { appRole } : {}),
    roles: Array.isArray(attributes.roles) ? attributes.roles : hasAccess ? [{ value: appRole, type: 'access_level', primary: true }] : [],
    ...(enterprise ? { [SCIM_URN.enterpriseUser]: enterprise } : {}),
    meta: {
      resourceType: 'User',
      created: user.createdAt.toISOString(),
      lastModified: user.updatedAt.toISOString(),
      location: `${baseUrl}/scim/v2/Users/${user.id}`,
      version: entityTag(user.version),
    },
  } as ScimUserResource & { meta: ScimMeta };
}

export function toScimGroup(team: TeamRecord, members: readonly GroupMemberRef[] | null, baseUrl: string): ScimGroupResource & { meta: ScimMeta } {
  return {
    schemas: [SCIM_URN.group],
    id: team.id,
    ...(team.externalId !== null ? { externalId: team.externalId } : {}),
    displayName: team.displayName,
    ...(members
      ? {
          members: members.map((m) => ({
            value: m.value,
            $ref: `${baseUrl}/scim/v2/Users/${m.value}`,
            type: 'User',
            ...(m.display !== null ? { display: m.display } : {}),
          })),
        }
      : {}),
    meta: {
      resourceType: 'Group',
      created: team.createdAt.toISOString(),
      lastModified: team.updatedAt.toISOString(),
      location: `${baseUrl}/scim/v2/Groups/${team.id}`,
      version: entityTag(team.version),
    },
  };
}

export function toListResponse(resources: readonly unknown[], totalResults: number, startIndex: number): ScimListResponse {
  return { schemas: [SCIM_URN.listResponse], totalResults, startIndex, itemsPerPage: resources.length, Resources: [...resources] };
}
