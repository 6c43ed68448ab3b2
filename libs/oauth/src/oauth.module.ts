import { Module } from '@nestjs/common';
import { Clock, SystemClock } from '@workbase/shared/kernel';
import { AuthorizationRequestValidator } from './application/authorization-request';
import { ClientAuthenticator } from './application/client-authenticator';
import { CreateOAuthAppUseCase } from './application/create-oauth-app.use-case';
import { ExchangeCodeUseCase } from './application/exchange-code.use-case';
import { GrantAuthorizationUseCase } from './application/grant-authorization.use-case';
import { ListOAuthAppsQuery } from './application/list-oauth-apps.query';
import { SignInService } from './application/sign-in.service';
import { TokenEndpointsService } from './application/token-endpoints.service';
import { AuthorizationCodeRepository } from './infrastructure/authorization-code.repository';
import { OAuthAppRepository } from './infrastructure/oauth-app.repository';
import { SignInFailureStore } from './infrastructure/sign-in-failure.store';
import { SignInSessionRepository } from './infrastructure/sign-in-session.repository';
import { AuthorizeController } from './interface/http/authorize.controller';
import { MetadataController } from './interface/http/metadata.controller';
import { TokenController } from './interface/http/token.controller';

/**
 * The OAuth 2.0 authorization server: apps, member sign-in and consent, codes, and the token,
 * introspection, revocation and metadata endpoints. Tokens themselves belong to the access
 * context; this one issues them through its use cases.
 */
@Module({
  controllers: [AuthorizeController, TokenController, MetadataController],
  providers: [
    { provide: Clock, useClass: SystemClock },
    OAuthAppRepository,
    AuthorizationCodeRepository,
    SignInSessionRepository,
    SignInFailureStore,
    AuthorizationRequestValidator,
    ClientAuthenticator,
    CreateOAuthAppUseCase,
    ListOAuthAppsQuery,
    SignInService,
    GrantAuthorizationUseCase,
    ExchangeCodeUseCase,
    TokenEndpointsService,
  ],
  exports: [CreateOAuthAppUseCase, ListOAuthAppsQuery, Clock],
})
export class OAuthModule {}
