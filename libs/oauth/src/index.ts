export { OAuthModule } from './oauth.module';
export { CreateOAuthAppUseCase, type CreateOAuthAppCommand, type CreatedOAuthApp } from './application/create-oauth-app.use-case';
export { ListOAuthAppsQuery, type OAuthAppSummary } from './application/list-oauth-apps.query';
export { AUTHORIZATION_CODE_LIFETIME_SECONDS } from './application/grant-authorization.use-case';
export { SESSION_LIFETIME_SECONDS } from './application/sign-in.service';
