import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { SCIM_URN } from '../../domain/urns';
import { ScimName, ScimUserProfile } from './scim.responses';

/*
 * The request bodies of POST and PUT as RFC 7643 requires them: only `schemas` and `userName`
 * (users) or `displayName` (groups). Read-only attributes (`id`, `meta`, `groups`) may be sent and
 * are ignored, so they are not listed. Parsed by hand (SCIM's case-insensitive names and string
 * booleans), so these classes document and do not validate.
 */

class ScimMultiValueInput {
  @ApiProperty() value!: string;
  @ApiPropertyOptional({ oneOf: [{ type: 'boolean' }, { type: 'string', enum: ['True', 'False', 'true', 'false'] }] }) primary?: boolean | string;
  @ApiPropertyOptional({ example: 'work' }) type?: string;
  @ApiPropertyOptional() display?: string;
}

export class ScimUserRequest extends ScimUserProfile {
  @ApiProperty({ example: [SCIM_URN.user], description: 'Must include the core User URN' }) schemas!: string[];
  @ApiProperty({ description: 'Any string; unique case-insensitively', example: 'ada@example.com' }) userName!: string;
  @ApiPropertyOptional({ description: "The identity provider's id for the user" }) externalId?: string;
  @ApiPropertyOptional({ type: ScimName }) name?: ScimName;
  @ApiPropertyOptional({ type: [ScimMultiValueInput], description: 'The primary, else the first work, else the first is the member\'s email; without any, userName must be an email' }) emails?: ScimMultiValueInput[];
  @ApiPropertyOptional({ type: [ScimMultiValueInput] }) phoneNumbers?: ScimMultiValueInput[];
  @ApiPropertyOptional({ oneOf: [{ type: 'boolean' }, { type: 'string', enum: ['True', 'False', 'true', 'false'] }], description: 'Default true; false creates a suspended member or a deprovisioned invite' })
  active?: boolean | string;
  @ApiPropertyOptional({ enum: ['admin', 'member'] }) appRole?: string;
  @ApiPropertyOptional({ name: SCIM_URN.enterpriseUser, type: 'object', additionalProperties: true, description: 'The enterprise extension, stored as sent' })
  [SCIM_URN.enterpriseUser]?: Record<string, unknown>;
}

class ScimMemberInput {
  @ApiProperty({ description: 'A user id (membership or invite id)' }) value!: string;
  @ApiPropertyOptional() display?: string;
  @ApiPropertyOptional({ example: 'User' }) type?: string;
}

export class ScimGroupRequest {
  @ApiProperty({ example: [SCIM_URN.group], description: 'Must include the core Group URN' }) schemas!: string[];
  @ApiProperty({ description: 'Non-empty; unique in the workspace', example: 'Engineering' }) displayName!: string;
  @ApiPropertyOptional() externalId?: string;
  @ApiPropertyOptional({ type: [ScimMemberInput] }) members?: ScimMemberInput[];
}
