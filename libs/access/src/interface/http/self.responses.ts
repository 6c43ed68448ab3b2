import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class SelfResponse {
  @ApiProperty({ example: true }) active!: boolean;
  @ApiPropertyOptional({ example: 'record_permission:read object_configuration:read' }) scope?: string;
  @ApiPropertyOptional({ description: 'OAuth app id; a workspace API token is its own client' }) client_id?: string;
  @ApiPropertyOptional({ example: 'Bearer' }) token_type?: string;
  @ApiPropertyOptional({ type: Number, nullable: true, description: 'Expiry, seconds since the epoch; null when the token does not expire' }) exp?: number | null;
  @ApiPropertyOptional({ description: 'Issue time, seconds since the epoch' }) iat?: number;
  @ApiPropertyOptional({ description: 'The workspace id' }) sub?: string;
  @ApiPropertyOptional({ description: 'Equals client_id' }) aud?: string;
  @ApiPropertyOptional({ example: 'https://api.example.com', description: 'The issuer: BASE_URL, as the OAuth metadata `issuer`' }) iss?: string;
  @ApiPropertyOptional({
    description:
      'The member who granted the token (OAuth). For a workspace API token (a service token of the workspace, CLI `token:create`), which no member granted, the workspace\'s longest-standing active admin (else its first member) at the time of the call: the reference API types this field as a member id. The token does not depend on that member.',
  })
  authorized_by_workspace_member_id?: string;
  @ApiPropertyOptional() workspace_id?: string;
  @ApiPropertyOptional() workspace_name?: string;
  @ApiPropertyOptional() workspace_slug?: string;
  @ApiPropertyOptional({ type: String, nullable: true }) workspace_logo_url?: string | null;
}
