import { randomBytes, timingSafeEqual } from 'node:crypto';
import { Body, Controller, Get, Inject, Post, Req, Res } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiExcludeEndpoint, ApiFoundResponse, ApiOkResponse, ApiOperation, ApiProduces, ApiQuery, ApiResponse, ApiTags } from '@nestjs/swagger';
import { APP_CONFIG, type AppConfig } from '@workbase/shared/config';
import { Public } from '@workbase/shared/http';
import type { Request, Response } from 'express';
import { type AuthorizationRequest, type AuthorizationRequestCheck, AuthorizationRequestValidator } from '../../application/authorization-request';
import { GrantAuthorizationUseCase } from '../../application/grant-authorization.use-case';
import { SESSION_LIFETIME_SECONDS, SIGN_IN_LOCK_SECONDS, SignInService } from '../../application/sign-in.service';
import { withQuery } from '../../domain/redirect-uri';
import { describeScopesForConsent } from '../../domain/scope-wording';
import { clearCookie, readCookie, SESSION_COOKIE, setCookie, SIGN_IN_CSRF_COOKIE } from './cookies';
import { ConsentForm, SignInForm } from './authorize.requests';
import { consentPage, errorPage, signInPage } from './pages';

const CONSENT_PURPOSE = 'consent';

/**
 * The browser side of the authorization-code flow: the authorize endpoint, member sign-in and the
 * consent decision. Every page is server-rendered HTML; every form carries a CSRF token (the
 * sign-in form a double-submit cookie, the consent and sign-out forms an HMAC of the session).
 */
@ApiTags('OAuth')
@Controller('oauth')
@Public()
export class AuthorizeController {
  constructor(
    private readonly validator: AuthorizationRequestValidator,
    private readonly signIn: SignInService,
    private readonly grant: GrantAuthorizationUseCase,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('authorize')
  @ApiOperation({
    summary: 'Authorization endpoint (RFC 6749 §4.1.1, PKCE RFC 7636)',
    description:
      'Opened in the browser. Shows the sign-in page when no member is signed in, then the consent page naming the app, ' +
      'the workspace (a choice when the member belongs to several) and the scopes. Approving redirects to ' +
      '`redirect_uri?code=…&state=…&iss=…`; denying to `redirect_uri?error=access_denied&state=…`. An unknown client or an ' +
      'unregistered redirect URI is shown as an error page (never redirected); other errors are redirected with `error`.',
  })
  @ApiQuery({ name: 'response_type', required: true, enum: ['code'] })
  @ApiQuery({ name: 'client_id', required: true, description: 'The app id from `app:create`' })
  @ApiQuery({ name: 'redirect_uri', required: false, description: 'One of the app\'s registered URIs, exactly; optional when it registered only one' })
  @ApiQuery({ name: 'state', required: false, description: 'Echoed back; use it against CSRF' })
  @ApiQuery({ name: 'scope', required: false, description: 'Space-separated; default: every scope the app may be granted' })
  @ApiQuery({ name: 'code_challenge', required: false, description: 'BASE64URL(SHA256(code_verifier))' })
  @ApiQuery({ name: 'code_challenge_method', required: false, enum: ['S256'] })
  @ApiProduces('text/html')
  @ApiOkResponse({ description: 'The sign-in page, or the consent page (HTML)' })
  @ApiFoundResponse({ description: 'Redirect to the client with `error` (invalid_request, unsupported_response_type, invalid_scope)' })
  @ApiResponse({ status: 400, description: 'Error page (HTML): unknown client_id, or a redirect_uri not registered for the app' })
  async authorize(@Req() req: Request, @Res() res: Response): Promise<void> {
    const check = await this.validator.check(queryOf(req));
    const request = this.settle(check, res);
    if (request) await this.showSignInOrConsent(req, res, request);
  }

  @Post('sign-in')
  @ApiOperation({ summary: 'Member sign-in (form of the sign-in page)', description: 'On success sets the session cookie and redirects (303) back to the authorization request.' })
  @ApiConsumes('application/x-www-form-urlencoded')
  @ApiBody({ type: SignInForm })
  @ApiProduces('text/html')
  @ApiResponse({ status: 303, description: 'Signed in; back to /oauth/authorize' })
  @ApiResponse({ status: 401, description: 'The sign-in page again: wrong email or password' })
  @ApiResponse({ status: 429, description: 'The sign-in page again: 10 failures for the email, or 30 from the client address, in 15 minutes' })
  @ApiResponse({ status: 403, description: 'Error page: CSRF token missing or wrong' })
  @ApiResponse({ status: 400, description: 'Error page (HTML): `authorize_query` missing, or naming an unknown client or an unregistered redirect URI' })
  @ApiFoundResponse({ description: 'Back to the client with `error`: `authorize_query` is otherwise invalid (as at /oauth/authorize)' })
  async signInForm(@Req() req: Request, @Res() res: Response, @Body() body: Record<string, unknown>): Promise<void> {
    const form = formFields(body, ['csrf_token', 'authorize_query', 'email', 'password']);
    const cookieToken = readCookie(req, SIGN_IN_CSRF_COOKIE);
    if (!form.csrf_token || !cookieToken || !sameString(form.csrf_token, cookieToken) || !this.sameOrigin(req)) {
      return errorPage(res, 403, 'The sign-in form expired or did not come from this site (CSRF check failed). Start again from the app.');
    }
    const request = this.settle(await this.validator.check(form.authorize_query ?? ''), res);
    if (!request) return;
    const session = await this.signIn.signIn(form.email ?? '', form.password ?? '', req.ip ?? 'unknown');
    if (session.kind !== 'signed-in') {
      const locked = session.kind === 'locked';
      if (locked) res.setHeader('Retry-After', String(SIGN_IN_LOCK_SECONDS));
      return signInPage(res, {
        status: locked ? 429 : 401,
        appName: request.app.name,
        authorizeQuery: request.query,
        csrfToken: cookieToken,
        email: form.email,
        error: locked ? 'Too many failed sign-ins. Wait 15 minutes, then try again.' : 'Incorrect email or password.',
      });
    }
    await this.signIn.signOut(readCookie(req, SESSION_COOKIE));
    setCookie(res, SESSION_COOKIE, session.sessionId, { secure: this.secure, sameSite: 'Lax', maxAgeSeconds: SESSION_LIFETIME_SECONDS });
    res.redirect(303, `/oauth/authorize?${request.query}`);
  }

  @Post('consent')
  @ApiOperation({ summary: 'Consent decision (form of the consent page)', description: '`decision=approve` or `deny` for the workspace chosen.' })
  @ApiConsumes('application/x-www-form-urlencoded')
  @ApiBody({ type: ConsentForm })
  @ApiProduces('text/html')
  @ApiFoundResponse({ description: 'Back to the client: `code` and `state` on approval, `error=access_denied` on denial' })
  @ApiResponse({ status: 303, description: 'No live session: back to /oauth/authorize to sign in' })
  @ApiResponse({ status: 400, description: 'Error page: bad request or unknown client / redirect URI' })
  @ApiResponse({ status: 403, description: 'Error page: CSRF check failed, or the member does not belong to the chosen workspace' })
  async consent(@Req() req: Request, @Res() res: Response, @Body() body: Record<string, unknown>): Promise<void> {
    const form = formFields(body, ['csrf_token', 'authorize_query', 'workspace_id', 'decision']);
    const request = this.settle(await this.validator.check(form.authorize_query ?? ''), res);
    if (!request) return;
    const sessionId = readCookie(req, SESSION_COOKIE);
    const memberships = await this.signIn.memberships(sessionId);
    if (!sessionId || memberships.length === 0) return res.redirect(303, `/oauth/authorize?${request.query}`);
    if (!form.csrf_token || !sameString(form.csrf_token, this.signIn.csrfTokenFor(sessionId, CONSENT_PURPOSE)) || !this.sameOrigin(req)) {
      return errorPage(res, 403, 'The consent form expired or did not come from this site (CSRF check failed). Start again from the app.');
    }
    const state = request.state;
    const iss = this.config.baseUrl;
    if (form.decision === 'deny') {
      return res.redirect(302, withQuery(request.redirectUri, { error: 'access_denied', error_description: 'The member denied the request.', state, iss }));
    }
    if (form.decision !== 'approve') return errorPage(res, 400, 'The decision must be approve or deny.');
    const membership = memberships.find((m) => m.workspaceId === form.workspace_id);
    if (!membership) return errorPage(res, 403, 'You are not signed in as a member of the chosen workspace.');
    const { code } = await this.grant.execute(request, membership);
    res.redirect(302, withQuery(request.redirectUri, { code, state, iss }));
  }

  @Post('sign-out')
  @ApiExcludeEndpoint()
  async signOutForm(@Req() req: Request, @Res() res: Response, @Body() body: Record<string, unknown>): Promise<void> {
    const form = formFields(body, ['csrf_token', 'authorize_query']);
    const sessionId = readCookie(req, SESSION_COOKIE);
    if (sessionId && form.csrf_token && sameString(form.csrf_token, this.signIn.csrfTokenFor(sessionId, 'consent'))) {
      await this.signIn.signOut(sessionId);
      clearCookie(res, SESSION_COOKIE, this.secure);
    }
    const request = this.settle(await this.validator.check(form.authorize_query ?? ''), res);
    if (request) res.redirect(303, `/oauth/authorize?${request.query}`);
  }

  private async showSignInOrConsent(req: Request, res: Response, request: AuthorizationRequest): Promise<void> {
    const sessionId = readCookie(req, SESSION_COOKIE);
    const memberships = await this.signIn.memberships(sessionId);
    if (!sessionId || memberships.length === 0) {
      let csrf = readCookie(req, SIGN_IN_CSRF_COOKIE);
      if (!csrf || !/^[A-Za-z0-9_-]{43}$/.test(csrf)) {
        csrf = randomBytes(32).toString('base64url');
        setCookie(res, SIGN_IN_CSRF_COOKIE, csrf, { secure: this.secure, sameSite: 'Strict' });
      }
      return signInPage(res, { status: 200, appName: request.app.name, authorizeQuery: request.query, csrfToken: csrf });
    }
    consentPage(res, {
      appName: request.app.name,
      redirectOrigin: redirectDisplay(request.redirectUri),
      email: memberships[0].email,
      workspaces: memberships.map((m) => ({ workspaceId: m.workspaceId, name: m.workspaceName, slug: m.workspaceSlug })),
      scopeDescriptions: describeScopesForConsent(request.scopes),
      authorizeQuery: request.query,
      csrfToken: this.signIn.csrfTokenFor(sessionId, CONSENT_PURPOSE),
    });
  }

  /** Answers an invalid request (error page or redirect with `error`); returns the request when valid. */
  private settle(check: AuthorizationRequestCheck, res: Response): AuthorizationRequest | null {
    if (check.kind === 'valid') return check.request;
    if (check.kind === 'error-page') {
      errorPage(res, 400, check.message);
      return null;
    }
    res.redirect(302, withQuery(check.redirectUri, { error: check.error, error_description: check.description, state: check.state, iss: this.config.baseUrl }));
    return null;
  }

  /** A browser's form post names its origin; when it does, it must be this service's. */
  private sameOrigin(req: Request): boolean {
    const origin = req.headers.origin;
    if (origin === undefined || origin === 'null') return origin === undefined;
    return origin === new URL(this.config.baseUrl).origin || origin === `${req.protocol}://${req.get('host')}`;
  }

  private get secure(): boolean {
    return this.config.baseUrl.startsWith('https:');
  }
}

function queryOf(req: Request): string {
  const url = req.originalUrl;
  const mark = url.indexOf('?');
  return mark < 0 ? '' : url.slice(mark + 1);
}

/** String fields of a urlencoded form; repeated or non-string fields count as absent. */
function formFields<K extends string>(body: Record<string, unknown> | undefined, names: readonly K[]): Partial<Record<K, string>> {
  const fields: Partial<Record<K, string>> = {};
  for (const name of names) {
    const value = body?.[name];
    if (typeof value === 'string') fields[name] = value;
  }
  return fields;
}

function sameString(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

function redirectDisplay(uri: string): string {
  const url = new URL(uri);
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : `${url.protocol}//`;
}
