import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { OAUTH_ERROR_CODES } from '../../domain/oauth.errors';

export class TokenResponse {
  @ApiProperty({ example: 'wb_3q2+7w…' }) access_token!: string;
  @ApiProperty({ enum: ['Bearer'] }) token_type!: 'Bearer';
  @ApiProperty({ example: 'record_permission:read object_configuration:read', description: 'The scopes granted, space-separated' }) scope!: string;
}

/** RFC 6749 §5.2 error body, used by every JSON endpoint under /oauth. */
export class OAuthErrorResponse {
  @ApiProperty({ enum: OAUTH_ERROR_CODES })
  error!: string;
  @ApiPropertyOptional() error_description?: string;
}

export class IntrospectionResponse {
  @ApiProperty({ example: true }) active!: boolean;
  @ApiPropertyOptional({ example: 'record_permission:read object_configuration:read' }) scope?: string;
  @ApiPropertyOptional({ description: 'The app the token was issued to; a workspace API token is its own client' }) client_id?: string;
  @ApiPropertyOptional({ example: 'Bearer' }) token_type?: string;
  @ApiPropertyOptional({ type: Number, nullable: true, description: 'Expiry, seconds since the epoch; null when it does not expire' }) exp?: number | null;
  @ApiPropertyOptional({ description: 'Issue time, seconds since the epoch' }) iat?: number;
  @ApiPropertyOptional({ description: 'The workspace id' }) sub?: string;
  @ApiPropertyOptional({ description: 'Equals client_id' }) aud?: string;
  @ApiPropertyOptional({ description: 'The issuer: BASE_URL, as the metadata `issuer`' }) iss?: string;
  @ApiPropertyOptional() authorized_by_workspace_member_id?: string;
  @ApiPropertyOptional() workspace_id?: string;
  @ApiPropertyOptional() workspace_name?: string;
  @ApiPropertyOptional() workspace_slug?: string;
  @ApiPropertyOptional({ type: String, nullable: true }) workspace_logo_url?: string | null;
}

export class AuthorizationServerMetadataResponse {
  @ApiProperty({ description: 'BASE_URL' }) issuer!: string;
  @ApiProperty() authorization_endpoint!: string;
  @ApiProperty() token_endpoint!: string;
  @ApiProperty() introspection_endpoint!: string;
  @ApiProperty() revocation_endpoint!: string;
  @ApiProperty({ type: [String] }) response_types_supported!: string[];
  @ApiProperty({ type: [String] }) response_modes_supported!: string[];
  @ApiProperty({ type: [String] }) grant_types_supported!: string[];
  @ApiProperty({ type: [String] }) token_endpoint_auth_methods_supported!: string[];
  @ApiProperty({ type: [String] }) introspection_endpoint_auth_methods_supported!: string[];
  @ApiProperty({ type: [String] }) revocation_endpoint_auth_methods_supported!: string[];
  @ApiProperty({ type: [String] }) code_challenge_methods_supported!: string[];
  @ApiProperty({ type: [String] }) scopes_supported!: string[];
  @ApiProperty() authorization_response_iss_parameter_supported!: boolean;
  @ApiProperty() service_documentation!: string;
}
