import { Controller, Get, Header, Inject } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { APP_CONFIG, type AppConfig } from '@workbase/shared/config';
import { Public } from '@workbase/shared/http';
import { ALL_SCOPES } from '@workbase/shared/kernel';
import { CODE_CHALLENGE_METHODS } from '../../domain/pkce';
import { AuthorizationServerMetadataResponse } from './token.responses';

const CLIENT_AUTH_METHODS = ['client_secret_basic', 'client_secret_post'];

@ApiTags('OAuth')
@Controller('.well-known')
export class MetadataController {
  constructor(@Inject(APP_CONFIG) private readonly config: AppConfig) {}

  @Get('oauth-authorization-server')
  @Public()
  @Header('Cache-Control', 'public, max-age=300')
  @ApiOperation({ summary: 'Authorization server metadata (RFC 8414)', description: 'The issuer is BASE_URL; clients discover every endpoint from here.' })
  @ApiOkResponse({ type: AuthorizationServerMetadataResponse })
  metadata(): AuthorizationServerMetadataResponse {
    const issuer = this.config.baseUrl;
    return {
      issuer,
      authorization_endpoint: `${issuer}/oauth/authorize`,
      token_endpoint: `${issuer}/oauth/token`,
      introspection_endpoint: `${issuer}/oauth/introspect`,
      revocation_endpoint: `${issuer}/oauth/revoke`,
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: ['authorization_code'],
      token_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS,
      introspection_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS,
      revocation_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS,
      code_challenge_methods_supported: [...CODE_CHALLENGE_METHODS],
      scopes_supported: [...ALL_SCOPES],
      authorization_response_iss_parameter_supported: true,
      service_documentation: `${issuer}/docs`,
    };
  }
}
