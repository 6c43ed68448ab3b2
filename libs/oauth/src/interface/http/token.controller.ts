import { Body, Controller, Headers, HttpCode, Post, Res } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiBasicAuth,
  ApiBearerAuth,
  ApiBody,
  ApiConsumes,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { type Introspection } from '@workbase/access';
import { AccessTokenVerifier, Public } from '@workbase/shared/http';
import type { Response } from 'express';
import { type AuthenticatedClient, ClientAuthenticator } from '../../application/client-authenticator';
import { ExchangeCodeUseCase, type TokenResponseBody } from '../../application/exchange-code.use-case';
import { type IntrospectionCaller, TokenEndpointsService } from '../../application/token-endpoints.service';
import { OAuthError } from '../../domain/oauth.errors';
import { TokenOperationRequest, TokenRequest } from './token.requests';
import { IntrospectionResponse, OAuthErrorResponse, TokenResponse } from './token.responses';

type FormBody = Record<string, unknown> | undefined;

/**
 * The back-channel endpoints: token (RFC 6749 §4.1.3), introspection (RFC 7662) and revocation
 * (RFC 7009). Bodies are `application/x-www-form-urlencoded` or JSON; errors are RFC 6749 §5.2.
 */
@ApiTags('OAuth')
@Controller('oauth')
@Public()
export class TokenController {
  constructor(
    private readonly clients: ClientAuthenticator,
    private readonly exchange: ExchangeCodeUseCase,
    private readonly endpoints: TokenEndpointsService,
    private readonly verifier: AccessTokenVerifier,
  ) {}

  @Post('token')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Token endpoint: exchange an authorization code',
    description:
      'Client authentication by `client_secret_basic` (HTTP Basic, credentials form-urlencoded first) or `client_secret_post`. ' +
      'Codes are single-use and live 10 minutes; reusing one revokes the token it issued. Responses carry `Cache-Control: no-store`.',
  })
  @ApiConsumes('application/x-www-form-urlencoded', 'application/json')
  @ApiBody({ type: TokenRequest })
  @ApiBasicAuth('basic')
  @ApiOkResponse({ type: TokenResponse })
  @ApiBadRequestResponse({ type: OAuthErrorResponse, description: '`invalid_request`, `invalid_grant`, `unsupported_grant_type`, `invalid_scope`' })
  @ApiUnauthorizedResponse({ type: OAuthErrorResponse, description: '`invalid_client`; with `WWW-Authenticate: Basic` when Basic was used' })
  async token(@Headers('authorization') authorization: string | undefined, @Body() body: FormBody, @Res({ passthrough: true }) res: Response): Promise<TokenResponseBody> {
    noStore(res);
    const client = await this.authenticateClient(authorization, body, res);
    const grantType = param(body, 'grant_type');
    if (!grantType) throw new OAuthError('invalid_request', 'grant_type is required.');
    if (grantType !== 'authorization_code') throw new OAuthError('unsupported_grant_type', `grant_type "${grantType}" is not supported; use "authorization_code".`);
    return this.exchange.execute({
      app: client.app,
      code: param(body, 'code'),
      redirectUri: param(body, 'redirect_uri'),
      codeVerifier: param(body, 'code_verifier'),
    });
  }

  @Post('introspect')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Token introspection (RFC 7662)',
    description:
      'The caller authenticates as a client (Basic or post), which sees only tokens issued to it, or with a bearer token, which sees ' +
      'tokens of its own workspace (and, without a `token` parameter, itself, as the reference API does). Returns the fields of ' +
      '`GET /v2/self`; `{"active": false}` for an unknown, expired, revoked or foreign token.',
  })
  @ApiConsumes('application/x-www-form-urlencoded', 'application/json')
  @ApiBody({ type: TokenOperationRequest })
  @ApiBasicAuth('basic')
  @ApiBearerAuth('bearer')
  @ApiOkResponse({ type: IntrospectionResponse })
  @ApiBadRequestResponse({ type: OAuthErrorResponse, description: '`invalid_request`: no token' })
  @ApiUnauthorizedResponse({ type: OAuthErrorResponse, description: '`invalid_client` or `invalid_token`: the caller is not authenticated' })
  async introspect(@Headers('authorization') authorization: string | undefined, @Body() body: FormBody, @Res({ passthrough: true }) res: Response): Promise<Introspection> {
    noStore(res);
    let caller: IntrospectionCaller;
    let token = param(body, 'token');
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
    if (bearer) {
      const auth = await this.verifier.verify(bearer);
      if (!auth) {
        res.setHeader('WWW-Authenticate', 'Bearer realm="Workbase", error="invalid_token"');
        throw new OAuthError('invalid_token', 'The bearer token of the caller is invalid, expired or revoked.');
      }
      caller = { kind: 'token', workspaceId: auth.workspaceId };
      token ??= bearer;
    } else {
      caller = { kind: 'client', clientId: (await this.authenticateClient(authorization, body, res)).app.clientId };
    }
    if (!token) throw new OAuthError('invalid_request', 'token is required.');
    return this.endpoints.introspect(caller, token);
  }

  @Post('revoke')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Token revocation (RFC 7009)',
    description: 'The client revokes a token issued to it. Unknown, expired or already revoked tokens are answered 200 as well.',
  })
  @ApiConsumes('application/x-www-form-urlencoded', 'application/json')
  @ApiBody({ type: TokenOperationRequest })
  @ApiBasicAuth('basic')
  @ApiOkResponse({ description: 'Revoked, or nothing to revoke (empty body)' })
  @ApiBadRequestResponse({ type: OAuthErrorResponse, description: '`invalid_request`: no token; `unauthorized_client`: the token belongs to another client' })
  @ApiUnauthorizedResponse({ type: OAuthErrorResponse, description: '`invalid_client`' })
  async revoke(@Headers('authorization') authorization: string | undefined, @Body() body: FormBody, @Res({ passthrough: true }) res: Response): Promise<void> {
    noStore(res);
    const client = await this.authenticateClient(authorization, body, res);
    const token = param(body, 'token');
    if (!token) throw new OAuthError('invalid_request', 'token is required.');
    await this.endpoints.revoke(client.app.clientId, token);
  }

  private async authenticateClient(authorization: string | undefined, body: FormBody, res: Response): Promise<AuthenticatedClient> {
    try {
      return await this.clients.authenticate({
        authorization: /^Basic\b/i.test(authorization?.trim() ?? '') ? authorization : undefined,
        bodyClientId: param(body, 'client_id'),
        bodyClientSecret: param(body, 'client_secret'),
      });
    } catch (error) {
      // RFC 6749 §5.2: a client that tried the Authorization header is challenged in the same scheme.
      const triedBasic = /^Basic\b/i.test(authorization?.trim() ?? '');
      const triedNothing = !authorization && param(body, 'client_secret') === undefined;
      if (error instanceof OAuthError && error.oauthError === 'invalid_client' && (triedBasic || triedNothing)) {
        res.setHeader('WWW-Authenticate', 'Basic realm="Workbase OAuth"');
      }
      throw error;
    }
  }
}

function noStore(res: Response): void {
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Pragma', 'no-cache');
}

/**
 * One parameter of a form or JSON body. Empty means omitted (RFC 6749 §3.1); a repeated or
 * non-string value is `invalid_request`.
 */
function param(body: FormBody, name: string): string | undefined {
  const value = body && typeof body === 'object' ? body[name] : undefined;
  if (value === undefined || value === null || value === '') return undefined;
  if (Array.isArray(value)) throw new OAuthError('invalid_request', `The parameter ${name} is repeated.`);
  if (typeof value !== 'string') throw new OAuthError('invalid_request', `The parameter ${name} must be a string.`);
  return value;
}
