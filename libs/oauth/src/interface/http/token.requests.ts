import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/**
 * OpenAPI description of the token request. The body is read by hand, not by the validation
 * pipe: RFC 6749 wants unknown parameters ignored and errors in its own `{error}` shape.
 */
export class TokenRequest {
  @ApiProperty({ enum: ['authorization_code'] }) grant_type!: string;
  @ApiProperty({ description: 'The code from the authorization response' }) code!: string;
  @ApiPropertyOptional({ description: 'Required when the authorization request sent one; must be identical' }) redirect_uri?: string;
  @ApiPropertyOptional({ description: 'PKCE verifier; required when the authorization request sent a code_challenge' }) code_verifier?: string;
  @ApiPropertyOptional({ description: 'client_secret_post (or with Basic, the same id as there)' }) client_id?: string;
  @ApiPropertyOptional({ description: 'client_secret_post; otherwise use HTTP Basic (client_secret_basic)' }) client_secret?: string;
}

export class TokenOperationRequest {
  @ApiProperty({ description: 'The access token' }) token!: string;
  @ApiPropertyOptional({ enum: ['access_token'], description: 'Accepted and ignored: there is one kind of token' }) token_type_hint?: string;
  @ApiPropertyOptional({ description: 'client_secret_post' }) client_id?: string;
  @ApiPropertyOptional({ description: 'client_secret_post' }) client_secret?: string;
}
