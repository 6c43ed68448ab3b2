import { createHash, randomBytes, scryptSync } from 'node:crypto';
import { verifyPassword } from '@workbase/access';
import { ALL_SCOPES, Clock } from '@workbase/shared/kernel';
import { OAuthModule } from '@workbase/oauth';
import { DataSource } from 'typeorm';
import { useTestApp } from '../support/suite';
import type { TestWorkspace } from '../support/test-app';
import { Browser, createOAuthApp, oauth, signIn, useListeningApp } from './oauth-support';
import { ALL_AUDIT_ENTRIES } from '../support/audit';

const REDIRECT = 'http://127.0.0.1:9/callback';
const OTHER_REDIRECT = 'https://app.example.com/oauth/callback';
const PASSWORD = 'correct horse battery';

describe('OAuth 2.0 authorization server', () => {
  const t = useListeningApp();
  let acme: TestWorkspace;
  let globex: TestWorkspace;
  let aliceAcme: string;
  let aliceGlobex: string;
  let bobGlobex: string;
  let client: { clientId: string; clientSecret: string };
  let as: import('oauth4webapi').AuthorizationServer;
  const insecure = { [oauth.allowInsecureRequests]: true };

  beforeAll(async () => {
    acme = await t.createWorkspace('acme');
    globex = await t.createWorkspace('globex');
    aliceAcme = await t.createMember(acme.workspaceId, 'alice@example.test', 'admin', PASSWORD);
    aliceGlobex = await t.createMember(globex.workspaceId, 'Alice@Example.test', 'member', PASSWORD);
    bobGlobex = await t.createMember(globex.workspaceId, 'bob@example.test', 'member', PASSWORD);
    await t.createMember(acme.workspaceId, 'nopassword@example.test', 'member');
    client = await createOAuthApp(t, [REDIRECT, OTHER_REDIRECT]);
    const issuer = new URL(t.issuer);
    as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }));
  });

  const authorizeUrl = (params: Record<string, string | undefined>) => {
    const url = new URL('/oauth/authorize', t.issuer);
    for (const [k, v] of Object.entries({ response_type: 'code', client_id: client.clientId, redirect_uri: REDIRECT, ...params })) {
      if (v !== undefined) url.searchParams.set(k, v);
    }
    return url.toString();
  };

  /** Signs in as `email`, approves for `workspaceId` (default: the first offered) and returns the redirect. */
  async function approve(params: Record<string, string | undefined> = {}, email = 'bob@example.test', workspaceId?: string): Promise<URL> {
    const browser = new Browser(t.issuer);
    const consent = await signIn(browser, authorizeUrl(params), email, PASSWORD);
    const fields = consent.form('/oauth/consent');
    const done = await browser.post('/oauth/consent', { ...fields, workspace_id: workspaceId ?? consent.workspaceChoices()[0], decision: 'approve' });
    expect(done.status).toBe(302);
    return new URL(done.location!);
  }

  const tokenRequest = (body: Record<string, string>, auth: 'basic' | 'post' | 'none' = 'basic', secret = client.clientSecret) => {
    const request = t.http().post('/oauth/token').type('form');
    if (auth === 'basic') request.set('Authorization', `Basic ${Buffer.from(`${client.clientId}:${secret}`).toString('base64')}`);
    return request.send(auth === 'post' ? { ...body, client_id: client.clientId, client_secret: secret } : body);
  };

  const selfOf = async (token: string) => (await t.http().get('/v2/self').set('Authorization', `Bearer ${token}`).expect(200)).body;

  describe('discovery (RFC 8414)', () => {
    it('publishes the metadata with issuer = BASE_URL, S256 and every endpoint', async () => {
      expect(as).toMatchObject({
        issuer: t.issuer,
        authorization_endpoint: `${t.issuer}/oauth/authorize`,
        token_endpoint: `${t.issuer}/oauth/token`,
        introspection_endpoint: `${t.issuer}/oauth/introspect`,
        revocation_endpoint: `${t.issuer}/oauth/revoke`,
        code_challenge_methods_supported: ['S256'],
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code'],
        token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post'],
      });
      expect(as.scopes_supported).toContain('record_permission:read');
    });
  });

  describe('the whole flow with oauth4webapi over real HTTP', () => {
    it('signs in, consents, exchanges the code with PKCE, introspects and revokes', async () => {
      const oauthClient: import('oauth4webapi').Client = { client_id: client.clientId };
      const clientAuth = oauth.ClientSecretBasic(client.clientSecret);
      const verifier = oauth.generateRandomCodeVerifier();
      const challenge = await oauth.calculatePKCECodeChallenge(verifier);
      const state = oauth.generateRandomState();
      const url = new URL(as.authorization_endpoint!);
      url.searchParams.set('client_id', client.clientId);
      url.searchParams.set('redirect_uri', REDIRECT);
      url.searchParams.set('response_type', 'code');
      url.searchParams.set('scope', 'record_permission:read object_configuration:read');
      url.searchParams.set('code_challenge', challenge);
      url.searchParams.set('code_challenge_method', 'S256');
      url.searchParams.set('state', state);

      const browser = new Browser(t.issuer);
      const signInPage = await browser.get(url.toString());
      expect(signInPage.status).toBe(200);
      expect(signInPage.headers.get('content-type')).toMatch(/^text\/html/);
      expect(signInPage.html).toContain('Sign in to continue to Test App');
      const csrfCookie = signInPage.setCookies.find((c) => c.startsWith('wb_oauth_csrf='))!;
      expect(csrfCookie).toMatch(/HttpOnly/);
      expect(csrfCookie).toMatch(/SameSite=Strict/);
      expect(csrfCookie).not.toMatch(/Secure/);

      const signedIn = await browser.post('/oauth/sign-in', { ...signInPage.form('/oauth/sign-in'), email: 'alice@example.test', password: PASSWORD });
      expect(signedIn.status).toBe(303);
      const sessionCookie = signedIn.setCookies.find((c) => c.startsWith('wb_oauth_session='))!;
      expect(sessionCookie).toMatch(/HttpOnly/);
      expect(sessionCookie).toMatch(/SameSite=Lax/);
      expect(sessionCookie).toMatch(/Path=\/oauth/);

      const consent = await browser.get(signedIn.location!);
      expect(consent.status).toBe(200);
      expect(consent.html).toContain('<strong>Test App</strong> wants to access your workspace');
      // The scopes in plain words, one line each, with the scope names for the technically minded.
      expect(consent.html).toContain('<li>See records: people, companies, deals and your other objects <span class="muted">(<code>record_permission:read</code>)</span></li>');
      expect(consent.html).toContain('<li>See objects and their attributes (the data model)');
      expect(consent.html).not.toContain('create, change and delete');
      // Alice is a member of both workspaces with the same password: she chooses.
      expect(consent.workspaceChoices().sort()).toEqual([acme.workspaceId, globex.workspaceId].sort());
      expect(consent.headers.get('x-frame-options')).toBe('DENY');
      expect(consent.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");

      const approved = await browser.post('/oauth/consent', { ...consent.form('/oauth/consent'), workspace_id: acme.workspaceId, decision: 'approve' });
      expect(approved.status).toBe(302);
      const callback = new URL(approved.location!);
      expect(callback.origin + callback.pathname).toBe(REDIRECT);
      expect(callback.searchParams.get('state')).toBe(state);

      const params = oauth.validateAuthResponse(as, oauthClient, callback, state);
      const tokenResponse = await oauth.authorizationCodeGrantRequest(as, oauthClient, clientAuth, params, REDIRECT, verifier, insecure);
      expect(tokenResponse.headers.get('cache-control')).toBe('no-store');
      const tokens = await oauth.processAuthorizationCodeResponse(as, oauthClient, tokenResponse);
      expect(tokens.token_type).toBe('bearer');
      expect(tokens.scope).toBe('record_permission:read object_configuration:read');

      const self = await selfOf(tokens.access_token);
      expect(self).toMatchObject({
        active: true,
        client_id: client.clientId,
        aud: client.clientId,
        authorized_by_workspace_member_id: aliceAcme,
        workspace_id: acme.workspaceId,
        sub: acme.workspaceId,
        scope: 'record_permission:read object_configuration:read',
        token_type: 'Bearer',
        exp: null,
      });

      const introspected = await oauth.processIntrospectionResponse(
        as,
        oauthClient,
        await oauth.introspectionRequest(as, oauthClient, clientAuth, tokens.access_token, insecure),
      );
      expect(introspected).toEqual(self);

      await oauth.processRevocationResponse(await oauth.revocationRequest(as, oauthClient, clientAuth, tokens.access_token, insecure));
      const after = await oauth.processIntrospectionResponse(as, oauthClient, await oauth.introspectionRequest(as, oauthClient, clientAuth, tokens.access_token, insecure));
      expect(after).toEqual({ active: false });
      expect(await selfOf(tokens.access_token)).toEqual({ active: false });
      await t.http().get('/v2/workspace_members').set('Authorization', `Bearer ${tokens.access_token}`).expect(401);

      // The consent and the revocation are in the workspace's audit log, with who did them and the consent's request id.
      const audited = await t.app.get(DataSource).query(
        `SELECT action, actor, target_kind, target_id, request_id FROM ${ALL_AUDIT_ENTRIES} WHERE workspace_id = $1 AND action LIKE 'oauth.%' ORDER BY entry_no`,
        [acme.workspaceId],
      );
      expect(audited).toEqual([
        expect.objectContaining({ action: 'oauth.consent_granted', target_kind: 'oauth-app', target_id: client.clientId, actor: expect.objectContaining({ type: 'workspace-member', member_id: aliceAcme, app_id: client.clientId }), request_id: approved.headers.get('x-request-id') }),
        expect.objectContaining({ action: 'oauth.token_revoked', target_kind: 'token', target_id: self.token_id ?? expect.any(String), actor: expect.objectContaining({ type: 'app', app_id: client.clientId }) }),
      ]);
    });

    it('exchanges with client_secret_post, and with a JSON body; the scope defaults to the app\'s', async () => {
      const oauthClient = { client_id: client.clientId };
      const callback = await approve({ state: 's1' });
      const params = oauth.validateAuthResponse(as, oauthClient, callback, 's1');
      const tokens = await oauth.processAuthorizationCodeResponse(
        as,
        oauthClient,
        await oauth.authorizationCodeGrantRequest(as, oauthClient, oauth.ClientSecretPost(client.clientSecret), params, REDIRECT, oauth.nopkce, insecure),
      );
      expect(tokens.scope!.split(' ')).toHaveLength(ALL_SCOPES.length);
      expect((await selfOf(tokens.access_token)).authorized_by_workspace_member_id).toBe(bobGlobex);

      const code = (await approve()).searchParams.get('code')!;
      const res = await t
        .http()
        .post('/oauth/token')
        .send({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: client.clientId, client_secret: client.clientSecret })
        .expect(200);
      expect(res.body).toEqual({ access_token: expect.stringMatching(/^wb_/), token_type: 'Bearer', scope: expect.any(String) });
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers.pragma).toBe('no-cache');
    });

    it('lets the redirect_uri be omitted when the app registered one, and then not required at the token endpoint', async () => {
      const single = await createOAuthApp(t, [REDIRECT], 'note:read');
      const browser = new Browser(t.issuer);
      const url = new URL('/oauth/authorize', t.issuer);
      url.search = new URLSearchParams({ response_type: 'code', client_id: single.clientId }).toString();
      const consent = await signIn(browser, url.toString(), 'bob@example.test', PASSWORD);
      const done = await browser.post('/oauth/consent', { ...consent.form('/oauth/consent'), workspace_id: globex.workspaceId, decision: 'approve' });
      const code = new URL(done.location!).searchParams.get('code')!;
      const res = await t.http().post('/oauth/token').auth(single.clientId, single.clientSecret).type('form').send({ grant_type: 'authorization_code', code }).expect(200);
      expect(res.body.scope).toBe('note:read');
    });
  });

  describe('authorization endpoint errors (RFC 6749 §4.1.2.1)', () => {
    const get = (url: string) => new Browser(t.issuer).get(url);

    it('shows an error page, never a redirect, for an unknown or missing client and a wrong redirect URI', async () => {
      for (const url of [
        authorizeUrl({ client_id: '00000000-0000-4000-8000-000000000000' }),
        authorizeUrl({ client_id: 'not-a-uuid' }),
        authorizeUrl({ client_id: undefined }),
        authorizeUrl({ redirect_uri: 'http://127.0.0.1:9/other' }),
        authorizeUrl({ redirect_uri: `${REDIRECT}/` }),
        authorizeUrl({ redirect_uri: undefined }),
      ]) {
        const page = await get(url);
        expect(page.status).toBe(400);
        expect(page.location).toBeNull();
        expect(page.html).toContain('Authorization error');
      }
    });

    it('escapes what it echoes', async () => {
      const page = await get(authorizeUrl({ redirect_uri: 'https://evil.example/<script>alert(1)</script>' }));
      expect(page.html).not.toContain('<script>');
      expect(page.html).toContain('&#60;script&#62;');
      const evilApp = await createOAuthApp(t, [REDIRECT], 'note:read', '<img src=x onerror=alert(1)> "App"');
      const signInPage = await get(authorizeUrl({ client_id: evilApp.clientId }));
      expect(signInPage.html).not.toContain('<img');
      expect(signInPage.html).toContain('&#60;img src=x onerror=alert(1)&#62; &#34;App&#34;');
    });

    const redirectedError = async (params: Record<string, string | undefined>) => {
      const page = await get(authorizeUrl({ state: 'xyz', ...params }));
      expect(page.status).toBe(302);
      const location = new URL(page.location!);
      expect(location.origin + location.pathname).toBe(REDIRECT);
      expect(location.searchParams.get('state')).toBe('xyz');
      expect(location.searchParams.get('iss')).toBe(t.issuer);
      return location.searchParams;
    };

    it('redirects with invalid_scope for a scope the app may not be granted, or an unknown one', async () => {
      const limited = await createOAuthApp(t, [REDIRECT], 'note:read note:read-write');
      const notAllowed = await redirectedError({ client_id: limited.clientId, scope: 'note:read webhook:read' });
      expect(notAllowed.get('error')).toBe('invalid_scope');
      expect(notAllowed.get('error_description')).toContain('webhook:read');
      expect((await redirectedError({ scope: 'everything' })).get('error')).toBe('invalid_scope');
    });

    it('redirects with unsupported_response_type / invalid_request', async () => {
      expect((await redirectedError({ response_type: 'token' })).get('error')).toBe('unsupported_response_type');
      expect((await redirectedError({ response_type: undefined })).get('error')).toBe('invalid_request');
      expect((await redirectedError({ code_challenge: 'a'.repeat(43), code_challenge_method: 'plain' })).get('error')).toBe('invalid_request');
      expect((await redirectedError({ code_challenge: 'a'.repeat(43), code_challenge_method: undefined })).get('error')).toBe('invalid_request');
      expect((await redirectedError({ code_challenge: 'short', code_challenge_method: 'S256' })).get('error')).toBe('invalid_request');
      expect((await redirectedError({ code_challenge_method: 'S256' })).get('error')).toBe('invalid_request');
      const repeated = await get(`${authorizeUrl({ state: 'xyz' })}&scope=note:read&scope=task:read`);
      expect(new URL(repeated.location!).searchParams.get('error')).toBe('invalid_request');
    });

    it('redirects with access_denied and the state when the member denies', async () => {
      const browser = new Browser(t.issuer);
      const consent = await signIn(browser, authorizeUrl({ state: 'deny-me' }), 'bob@example.test', PASSWORD);
      const denied = await browser.post('/oauth/consent', { ...consent.form('/oauth/consent'), workspace_id: globex.workspaceId, decision: 'deny' });
      expect(denied.status).toBe(302);
      const location = new URL(denied.location!);
      expect(location.searchParams.get('error')).toBe('access_denied');
      expect(location.searchParams.get('state')).toBe('deny-me');
      expect(location.searchParams.has('code')).toBe(false);
    });
  });

  describe('sign-in', () => {
    it('refuses a wrong password, an unknown email and a member without a password, without a session', async () => {
      for (const [email, password] of [
        ['alice@example.test', 'wrong password!'],
        ['nobody@example.test', PASSWORD],
        ['nopassword@example.test', PASSWORD],
        ['not an email', PASSWORD],
      ]) {
        const browser = new Browser(t.issuer);
        const page = await browser.get(authorizeUrl({}));
        const res = await browser.post('/oauth/sign-in', { ...page.form('/oauth/sign-in'), email, password });
        expect(res.status).toBe(401);
        expect(res.html).toContain('Incorrect email or password.');
        expect(browser.cookies.has('wb_oauth_session')).toBe(false);
      }
    });

    it('refuses a sign-in form without the CSRF token, with a wrong one, or from another origin', async () => {
      const browser = new Browser(t.issuer);
      const page = await browser.get(authorizeUrl({}));
      const fields = page.form('/oauth/sign-in');
      const attempts = [
        browser.post('/oauth/sign-in', { ...fields, csrf_token: undefined, email: 'bob@example.test', password: PASSWORD }),
        browser.post('/oauth/sign-in', { ...fields, csrf_token: 'x'.repeat(43), email: 'bob@example.test', password: PASSWORD }),
        browser.post('/oauth/sign-in', { ...fields, email: 'bob@example.test', password: PASSWORD }, { origin: 'https://evil.example' }),
        new Browser(t.issuer).post('/oauth/sign-in', { ...fields, email: 'bob@example.test', password: PASSWORD }),
      ];
      for (const res of await Promise.all(attempts)) {
        expect(res.status).toBe(403);
        expect(res.html).toContain('CSRF');
        expect(res.location).toBeNull();
      }
      expect(browser.cookies.has('wb_oauth_session')).toBe(false);
    });

    it('locks an email out after 10 failed sign-ins, even with the right password afterwards', async () => {
      await t.createMember(globex.workspaceId, 'locked@example.test', 'member', PASSWORD);
      const browser = new Browser(t.issuer);
      const fields = (await browser.get(authorizeUrl({}))).form('/oauth/sign-in');
      for (let attempt = 0; attempt < 10; attempt++) {
        expect((await browser.post('/oauth/sign-in', { ...fields, email: 'locked@example.test', password: `wrong password ${attempt}` })).status).toBe(401);
      }
      const right = await browser.post('/oauth/sign-in', { ...fields, email: 'Locked@Example.test', password: PASSWORD });
      expect(right.status).toBe(429);
      expect(right.headers.get('retry-after')).toBe('900');
      expect(right.html).toContain('Too many failed sign-ins');
      expect(browser.cookies.has('wb_oauth_session')).toBe(false);
      // Other emails are not affected.
      expect((await browser.post('/oauth/sign-in', { ...fields, email: 'bob@example.test', password: PASSWORD })).status).toBe(303);
    });

    it('locks a client address out after 30 failed sign-ins over any emails (password spraying)', async () => {
      const sprayer = { 'x-forwarded-for': '203.0.113.9' };
      const browser = new Browser(t.issuer);
      const fields = (await browser.get(authorizeUrl({}), sprayer)).form('/oauth/sign-in');
      for (let attempt = 0; attempt < 30; attempt++) {
        const res = await browser.post('/oauth/sign-in', { ...fields, email: `not an email ${attempt}`, password: PASSWORD }, sprayer);
        expect(res.status).toBe(401);
      }
      const locked = await browser.post('/oauth/sign-in', { ...fields, email: 'bob@example.test', password: PASSWORD }, sprayer);
      expect(locked.status).toBe(429);
      expect(browser.cookies.has('wb_oauth_session')).toBe(false);
      // Bob from his own address is not affected.
      expect((await browser.post('/oauth/sign-in', { ...fields, email: 'bob@example.test', password: PASSWORD }, { 'x-forwarded-for': '198.51.100.4' })).status).toBe(303);
    });

    it('lifts a lock once 15 minutes have passed since the first failure, and a success clears the email\'s failures', async () => {
      await t.createMember(globex.workspaceId, 'window@example.test', 'member', PASSWORD);
      const client = { 'x-forwarded-for': '192.0.2.78' };
      const browser = new Browser(t.issuer);
      const fields = (await browser.get(authorizeUrl({}), client)).form('/oauth/sign-in');
      const attempt = (password: string) => browser.post('/oauth/sign-in', { ...fields, email: 'window@example.test', password }, client);
      for (let n = 0; n < 10; n++) expect((await attempt(`wrong password ${n}`)).status).toBe(401);
      expect((await attempt(PASSWORD)).status).toBe(429);

      const db = t.app.get(DataSource);
      const emailHash = createHash('sha256').update('oauth-sign-in:email:window@example.test').digest();
      // Age the window to just inside 15 minutes: still locked; just past it: open again.
      await db.query(`UPDATE oauth_sign_in_failures SET window_start = now() - interval '14 minutes 50 seconds' WHERE kind = 'email' AND key_hash = $1`, [emailHash]);
      expect((await attempt(PASSWORD)).status).toBe(429);
      await db.query(`UPDATE oauth_sign_in_failures SET window_start = now() - interval '15 minutes 1 second' WHERE kind = 'email' AND key_hash = $1`, [emailHash]);
      // A failure after the window starts a new one at 1.
      expect((await attempt('wrong password again')).status).toBe(401);
      const failures = async () => (await db.query(`SELECT failures FROM oauth_sign_in_failures WHERE kind = 'email' AND key_hash = $1`, [emailHash]))[0]?.failures;
      expect(await failures()).toBe(1);
      expect((await attempt(PASSWORD)).status).toBe(303);
      expect(await failures()).toBeUndefined();
    });

    it('rehashes a password stored with an older scrypt cost on sign-in, and the password still works', async () => {
      const db = t.app.get(DataSource);
      const memberId = await t.createMember(globex.workspaceId, 'old-hash@example.test', 'member', PASSWORD);
      const storedHash = async (): Promise<string> =>
        (await db.query(`SELECT password_hash FROM workspace_members WHERE workspace_id = $1 AND id = $2`, [globex.workspaceId, memberId]))[0].password_hash;
      const updatedAt = async (): Promise<string> =>
        (await db.query(`SELECT updated_at::text FROM workspace_members WHERE workspace_id = $1 AND id = $2`, [globex.workspaceId, memberId]))[0].updated_at;
      // The format older releases stored: scrypt$N$r$p$salt$key, then with p=1.
      const salt = randomBytes(16);
      const key = scryptSync(PASSWORD, salt, 32, { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
      const oldHash = `scrypt$32768$8$1$${salt.toString('base64url')}$${key.toString('base64url')}`;
      await db.query(`UPDATE workspace_members SET password_hash = $3 WHERE workspace_id = $1 AND id = $2`, [globex.workspaceId, memberId, oldHash]);
      const before = await updatedAt();

      // A wrong password changes nothing.
      const client = { 'x-forwarded-for': '192.0.2.79' };
      const browser = new Browser(t.issuer);
      const fields = (await browser.get(authorizeUrl({}), client)).form('/oauth/sign-in');
      expect((await browser.post('/oauth/sign-in', { ...fields, email: 'old-hash@example.test', password: 'wrong password!' }, client)).status).toBe(401);
      expect(await storedHash()).toBe(oldHash);

      await signIn(new Browser(t.issuer), authorizeUrl({}), 'old-hash@example.test', PASSWORD);
      const upgraded = await storedHash();
      expect(upgraded).toMatch(/^scrypt\$32768\$8\$3\$[\w-]{22}\$[\w-]{43}$/);
      expect(await verifyPassword(PASSWORD, upgraded)).toBe(true);
      expect(await updatedAt()).toBe(before);
      // Signing in again works, and a current hash is left as it is.
      await signIn(new Browser(t.issuer), authorizeUrl({}), 'old-hash@example.test', PASSWORD);
      expect(await storedHash()).toBe(upgraded);
    });

    it('ends the session after 8 hours: the authorize endpoint asks to sign in again and a consent post goes back to it', async () => {
      const browser = new Browser(t.issuer);
      const consent = await signIn(browser, authorizeUrl({ state: 'later' }), 'bob@example.test', PASSWORD);
      const clock = t.app.select(OAuthModule).get(Clock);
      const spy = jest.spyOn(clock, 'now').mockReturnValue(new Date(Date.now() + 8 * 60 * 60 * 1000 + 1000));
      try {
        const page = await browser.get(authorizeUrl({ state: 'later' }));
        expect(page.status).toBe(200);
        expect(page.html).toContain('action="/oauth/sign-in"');
        const late = await browser.post('/oauth/consent', { ...consent.form('/oauth/consent'), workspace_id: globex.workspaceId, decision: 'approve' });
        expect(late.status).toBe(303);
        expect(late.location).toMatch(/^\/oauth\/authorize\?/);
      } finally {
        spy.mockRestore();
      }
    });
  });

  describe('consent', () => {
    it('refuses a consent form without the CSRF token or with a wrong one, and issues no code', async () => {
      const browser = new Browser(t.issuer);
      const consent = await signIn(browser, authorizeUrl({}), 'bob@example.test', PASSWORD);
      const fields = consent.form('/oauth/consent');
      for (const csrf of [undefined, 'x'.repeat(43), fields.csrf_token.slice(1)]) {
        const res = await browser.post('/oauth/consent', { ...fields, csrf_token: csrf, workspace_id: globex.workspaceId, decision: 'approve' });
        expect(res.status).toBe(403);
        expect(res.location).toBeNull();
      }
      const crossSite = await browser.post('/oauth/consent', { ...fields, workspace_id: globex.workspaceId, decision: 'approve' }, { origin: 'https://evil.example' });
      expect(crossSite.status).toBe(403);
      // Another browser's CSRF token does not fit this session.
      const other = new Browser(t.issuer);
      const otherConsent = await signIn(other, authorizeUrl({}), 'bob@example.test', PASSWORD);
      const mixed = await browser.post('/oauth/consent', { ...fields, csrf_token: otherConsent.form('/oauth/consent').csrf_token, workspace_id: globex.workspaceId, decision: 'approve' });
      expect(mixed.status).toBe(403);
    });

    it('sends a consent without a session back to sign-in', async () => {
      const browser = new Browser(t.issuer);
      const consent = await signIn(browser, authorizeUrl({}), 'bob@example.test', PASSWORD);
      const res = await new Browser(t.issuer).post('/oauth/consent', { ...consent.form('/oauth/consent'), workspace_id: globex.workspaceId, decision: 'approve' });
      expect(res.status).toBe(303);
      expect(res.location).toMatch(/^\/oauth\/authorize\?/);
    });

    it("keeps a member of another workspace out: only their own workspace is offered, a forged choice is refused", async () => {
      const browser = new Browser(t.issuer);
      const consent = await signIn(browser, authorizeUrl({}), 'bob@example.test', PASSWORD);
      expect(consent.workspaceChoices()).toEqual([globex.workspaceId]);
      expect(consent.html).toContain(`Workspace ${globex.slug}`);
      expect(consent.html).not.toContain(`Workspace ${acme.slug}`);
      const forged = await browser.post('/oauth/consent', { ...consent.form('/oauth/consent'), workspace_id: acme.workspaceId, decision: 'approve' });
      expect(forged.status).toBe(403);
      expect(forged.location).toBeNull();
      expect(forged.html).toContain('not signed in as a member of the chosen workspace');

      const code = (await approve({}, 'bob@example.test')).searchParams.get('code')!;
      const token = (await tokenRequest({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT }).expect(200)).body.access_token;
      expect(await selfOf(token)).toMatchObject({ workspace_id: globex.workspaceId, authorized_by_workspace_member_id: bobGlobex });
      // Its token reads globex only.
      const members = await t.http().get('/v2/workspace_members').set('Authorization', `Bearer ${token}`).expect(200);
      expect(members.body.data.map((m: { email_address: string }) => m.email_address)).not.toContain('alice@example.test');
      await t.http().get(`/v2/workspace_members/${aliceAcme}`).set('Authorization', `Bearer ${token}`).expect(404);
    });

    it('signs out and back in as someone else', async () => {
      const browser = new Browser(t.issuer);
      const consent = await signIn(browser, authorizeUrl({}), 'bob@example.test', PASSWORD);
      const out = await browser.post('/oauth/sign-out', consent.form('/oauth/sign-out'));
      expect(out.status).toBe(303);
      expect(browser.cookies.has('wb_oauth_session')).toBe(false);
      const page = await browser.get(out.location!);
      expect(page.html).toContain('action="/oauth/sign-in"');
    });

    it('offers Alice both workspaces and issues the token for the one she picks', async () => {
      const code = (await approve({}, 'alice@example.test', globex.workspaceId)).searchParams.get('code')!;
      const token = (await tokenRequest({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT }).expect(200)).body.access_token;
      expect(await selfOf(token)).toMatchObject({ workspace_id: globex.workspaceId, authorized_by_workspace_member_id: aliceGlobex });
    });
  });

  describe('token endpoint errors (RFC 6749 §5.2)', () => {
    const expectError = (res: { status: number; body: unknown; headers: Record<string, string> }, status: number, error: string) => {
      expect(res.status).toBe(status);
      expect(res.body).toEqual({ error, error_description: expect.any(String) });
      expect(res.headers['cache-control']).toBe('no-store');
    };

    it('401s a wrong secret with a Basic challenge, and with client_secret_post', async () => {
      const code = (await approve()).searchParams.get('code')!;
      const basic = await tokenRequest({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT }, 'basic', 'wbcs_wrong-secret-wrong-secret');
      expectError(basic, 401, 'invalid_client');
      expect(basic.headers['www-authenticate']).toMatch(/^Basic realm=/);
      const post = await tokenRequest({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT }, 'post', 'wbcs_wrong-secret-wrong-secret');
      expectError(post, 401, 'invalid_client');
      expectError(await tokenRequest({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT }, 'none'), 401, 'invalid_client');
      const unknownClient = await t.http().post('/oauth/token').auth('00000000-0000-4000-8000-000000000000', client.clientSecret).type('form').send({ grant_type: 'authorization_code', code });
      expectError(unknownClient, 401, 'invalid_client');
      // The code survived the failed attempts.
      await tokenRequest({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT }).expect(200);
    });

    it('refuses two client authentication methods at once', async () => {
      const res = await t
        .http()
        .post('/oauth/token')
        .auth(client.clientId, client.clientSecret)
        .type('form')
        .send({ grant_type: 'authorization_code', code: 'x', client_secret: client.clientSecret });
      expectError(res, 400, 'invalid_request');
    });

    it('refuses an unknown or missing grant type and a missing code', async () => {
      expectError(await tokenRequest({ grant_type: 'password', username: 'a', password: 'b' }), 400, 'unsupported_grant_type');
      expectError(await tokenRequest({ grant_type: 'client_credentials' }), 400, 'unsupported_grant_type');
      expectError(await tokenRequest({ code: 'x' }), 400, 'invalid_request');
      expectError(await tokenRequest({ grant_type: 'authorization_code' }), 400, 'invalid_request');
      expectError(await t.http().post('/oauth/token').auth(client.clientId, client.clientSecret).type('form').send('grant_type=authorization_code&grant_type=x'), 400, 'invalid_request');
      expectError(await t.http().post('/oauth/token').auth(client.clientId, client.clientSecret).send({ grant_type: 42 }), 400, 'invalid_request');
    });

    it('refuses an unknown code and a code of another client', async () => {
      expectError(await tokenRequest({ grant_type: 'authorization_code', code: 'wbac_not-a-code-not-a-code', redirect_uri: REDIRECT }), 400, 'invalid_grant');
      const other = await createOAuthApp(t, [REDIRECT]);
      const code = (await approve()).searchParams.get('code')!;
      const res = await t.http().post('/oauth/token').auth(other.clientId, other.clientSecret).type('form').send({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT });
      expectError(res, 400, 'invalid_grant');
    });

    it('refuses a redirect_uri that differs from the authorization request, or is missing', async () => {
      const code = (await approve()).searchParams.get('code')!;
      expectError(await tokenRequest({ grant_type: 'authorization_code', code, redirect_uri: OTHER_REDIRECT }), 400, 'invalid_grant');
      expectError(await tokenRequest({ grant_type: 'authorization_code', code }), 400, 'invalid_grant');
      await tokenRequest({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT }).expect(200);
    });

    it('refuses a reused code and revokes the token it issued', async () => {
      const code = (await approve()).searchParams.get('code')!;
      const first = await tokenRequest({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT }).expect(200);
      expect((await selfOf(first.body.access_token)).active).toBe(true);
      const second = await tokenRequest({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT });
      expectError(second, 400, 'invalid_grant');
      expect(second.body.error_description).toMatch(/already used/);
      expect(await selfOf(first.body.access_token)).toEqual({ active: false });
    });

    it('gives one token when the same code is exchanged concurrently', async () => {
      const code = (await approve()).searchParams.get('code')!;
      const results = await Promise.all([1, 2, 3].map(() => tokenRequest({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT })));
      expect(results.filter((r) => r.status === 200)).toHaveLength(1);
      expect(results.filter((r) => r.status === 400 && r.body.error === 'invalid_grant')).toHaveLength(2);
    });

    it('refuses an expired code (10 minutes)', async () => {
      const code = (await approve()).searchParams.get('code')!;
      const clock = t.app.select(OAuthModule).get(Clock);
      const spy = jest.spyOn(clock, 'now').mockReturnValue(new Date(Date.now() + 10 * 60 * 1000 + 1000));
      try {
        const res = await tokenRequest({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT });
        expectError(res, 400, 'invalid_grant');
        expect(res.body.error_description).toMatch(/expired/);
      } finally {
        spy.mockRestore();
      }
      const fresh = (await approve()).searchParams.get('code')!;
      const nineMinutes = jest.spyOn(clock, 'now').mockReturnValue(new Date(Date.now() + 9 * 60 * 1000));
      try {
        await tokenRequest({ grant_type: 'authorization_code', code: fresh, redirect_uri: REDIRECT }).expect(200);
      } finally {
        nineMinutes.mockRestore();
      }
    });

    it('forgets codes a day after they expired and ended sessions, as new ones are made', async () => {
      const db = t.app.get(DataSource);
      const clock = t.app.select(OAuthModule).get(Clock);
      const twoDaysAgo = jest.spyOn(clock, 'now').mockReturnValue(new Date(Date.now() - 2 * 24 * 60 * 60 * 1000));
      let oldCode: string;
      try {
        oldCode = (await approve()).searchParams.get('code')!;
      } finally {
        twoDaysAgo.mockRestore();
      }
      const hashOf = (value: string) => createHash('sha256').update(value).digest();
      const rows = async () => (await db.query(`SELECT count(*)::int AS n FROM oauth_authorization_codes WHERE code_hash = $1`, [hashOf(oldCode)]))[0].n;
      expect(await rows()).toBe(1);
      const ended = async () => (await db.query(`SELECT count(*)::int AS n FROM oauth_sessions WHERE expires_at < now()`))[0].n;
      expect(await ended()).toBeGreaterThan(0);

      const fresh = (await approve()).searchParams.get('code')!;
      expect(await rows()).toBe(0);
      expect(await ended()).toBe(0);
      expectError(await tokenRequest({ grant_type: 'authorization_code', code: oldCode, redirect_uri: REDIRECT }), 400, 'invalid_grant');
      await tokenRequest({ grant_type: 'authorization_code', code: fresh, redirect_uri: REDIRECT }).expect(200);
    });

    it('refuses a missing or wrong PKCE verifier, and a verifier for a code without challenge', async () => {
      const verifier = oauth.generateRandomCodeVerifier();
      const challenge = await oauth.calculatePKCECodeChallenge(verifier);
      const code = (await approve({ code_challenge: challenge, code_challenge_method: 'S256' })).searchParams.get('code')!;
      const missing = await tokenRequest({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT });
      expectError(missing, 400, 'invalid_grant');
      expect(missing.body.error_description).toMatch(/code_verifier is required/);
      expectError(await tokenRequest({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: oauth.generateRandomCodeVerifier() }), 400, 'invalid_grant');
      expectError(await tokenRequest({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: 'short' }), 400, 'invalid_grant');
      await tokenRequest({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier }).expect(200);

      const plain = (await approve()).searchParams.get('code')!;
      expectError(await tokenRequest({ grant_type: 'authorization_code', code: plain, redirect_uri: REDIRECT, code_verifier: verifier }), 400, 'invalid_grant');
    });

    it('refuses the code when the member was suspended after approving', async () => {
      const carol = await t.createMember(globex.workspaceId, 'carol@example.test', 'member', PASSWORD);
      const code = (await approve({}, 'carol@example.test')).searchParams.get('code')!;
      await t.app.get(DataSource).query(`UPDATE workspace_members SET state = 'suspended' WHERE id = $1`, [carol]);
      expectError(await tokenRequest({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT }), 400, 'invalid_grant');
    });
  });

  describe('introspection (RFC 7662) and revocation (RFC 7009)', () => {
    let appToken: string;
    beforeAll(async () => {
      const code = (await approve()).searchParams.get('code')!;
      appToken = (await tokenRequest({ grant_type: 'authorization_code', code, redirect_uri: REDIRECT }).expect(200)).body.access_token;
    });

    it('needs an authenticated caller', async () => {
      const none = await t.http().post('/oauth/introspect').type('form').send({ token: appToken });
      expect(none.status).toBe(401);
      expect(none.body.error).toBe('invalid_client');
      const badBearer = await t.http().post('/oauth/introspect').set('Authorization', 'Bearer wb_nope-nope-nope-nope').type('form').send({ token: appToken });
      expect(badBearer.status).toBe(401);
      expect(badBearer.body.error).toBe('invalid_token');
      const badSecret = await t.http().post('/oauth/introspect').auth(client.clientId, 'wbcs_wrong-wrong-wrong-wrong').type('form').send({ token: appToken });
      expect(badSecret.status).toBe(401);
      expect(badSecret.body.error).toBe('invalid_client');
      expect(badSecret.headers['www-authenticate']).toMatch(/^Basic /);
      expect(badBearer.headers['www-authenticate']).toMatch(/^Bearer .*error="invalid_token"/);
      const badRevoke = await t.http().post('/oauth/revoke').auth(client.clientId, 'wbcs_wrong-wrong-wrong-wrong').type('form').send({ token: appToken });
      expect(badRevoke.status).toBe(401);
      expect(badRevoke.headers['www-authenticate']).toMatch(/^Basic /);
      expect((await selfOf(appToken)).active).toBe(true);
      const noToken = await t.http().post('/oauth/introspect').auth(client.clientId, client.clientSecret).type('form').send({});
      expect(noToken.status).toBe(400);
      expect(noToken.body.error).toBe('invalid_request');
    });

    it('answers the /v2/self fields to the client, and active:false for garbage or foreign tokens', async () => {
      const res = await t.http().post('/oauth/introspect').auth(client.clientId, client.clientSecret).type('form').send({ token: appToken }).expect(200);
      expect(res.body).toEqual(await selfOf(appToken));
      expect(res.headers['cache-control']).toBe('no-store');
      for (const token of ['garbage', 'wb_unknown-token-unknown-token', acme.token]) {
        const inactive = await t.http().post('/oauth/introspect').auth(client.clientId, client.clientSecret).type('form').send({ token }).expect(200);
        expect(inactive.body).toEqual({ active: false });
      }
      const post = await t.http().post('/oauth/introspect').send({ token: appToken, client_id: client.clientId, client_secret: client.clientSecret }).expect(200);
      expect(post.body.active).toBe(true);
    });

    it('lets a bearer token introspect tokens of its own workspace, and itself without a token parameter', async () => {
      const own = await t.http().post('/oauth/introspect').set('Authorization', `Bearer ${globex.token}`).type('form').send({ token: appToken }).expect(200);
      expect(own.body.active).toBe(true);
      const foreign = await t.http().post('/oauth/introspect').set('Authorization', `Bearer ${acme.token}`).type('form').send({ token: appToken }).expect(200);
      expect(foreign.body).toEqual({ active: false });
      const itself = await t.http().post('/oauth/introspect').set('Authorization', `Bearer ${acme.token}`).expect(200);
      expect(itself.body).toMatchObject({ active: true, workspace_id: acme.workspaceId });
    });

    it('revokes: 200 for unknown tokens, refuses another client, needs client authentication', async () => {
      await t.http().post('/oauth/revoke').auth(client.clientId, client.clientSecret).type('form').send({ token: 'wb_unknown-token-unknown-token' }).expect(200);
      await t.http().post('/oauth/revoke').auth(client.clientId, client.clientSecret).type('form').send({ token: 'x' }).expect(200);
      const noAuth = await t.http().post('/oauth/revoke').type('form').send({ token: appToken });
      expect(noAuth.status).toBe(401);
      expect(noAuth.body.error).toBe('invalid_client');
      const noToken = await t.http().post('/oauth/revoke').auth(client.clientId, client.clientSecret).type('form').send({});
      expect(noToken.body.error).toBe('invalid_request');
      const other = await createOAuthApp(t, [REDIRECT]);
      const foreign = await t.http().post('/oauth/revoke').auth(other.clientId, other.clientSecret).type('form').send({ token: appToken });
      expect(foreign.status).toBe(400);
      expect(foreign.body.error).toBe('unauthorized_client');
      expect((await selfOf(appToken)).active).toBe(true);
      // A workspace API token is no app's to revoke.
      const api = await t.http().post('/oauth/revoke').auth(client.clientId, client.clientSecret).type('form').send({ token: acme.token });
      expect(api.status).toBe(400);
      await t.http().post('/oauth/revoke').auth(client.clientId, client.clientSecret).type('form').send({ token: appToken, token_type_hint: 'access_token' }).expect(200);
      expect(await selfOf(appToken)).toEqual({ active: false });
    });
  });

  describe('OpenAPI', () => {
    it('documents every OAuth route as public, tagged, with its error schema', async () => {
      const doc = (await t.http().get('/openapi.json').expect(200)).body;
      for (const [path, method] of [
        ['/oauth/authorize', 'get'],
        ['/oauth/sign-in', 'post'],
        ['/oauth/consent', 'post'],
        ['/oauth/token', 'post'],
        ['/oauth/introspect', 'post'],
        ['/oauth/revoke', 'post'],
        ['/.well-known/oauth-authorization-server', 'get'],
      ]) {
        expect(doc.paths[path]?.[method]?.tags).toEqual(['OAuth']);
      }
      expect(doc.paths['/oauth/token'].post.responses['401'].content['application/json'].schema.$ref).toMatch(/OAuthErrorResponse/);
      expect(Object.keys(doc.paths['/oauth/token'].post.requestBody.content)).toEqual(['application/x-www-form-urlencoded', 'application/json']);
      expect(doc.components.securitySchemes.oauth2.flows.authorizationCode).toMatchObject({
        authorizationUrl: `${t.issuer}/oauth/authorize`,
        tokenUrl: `${t.issuer}/oauth/token`,
      });
    });

    it('lets an app register the Swagger UI redirect, which /docs serves', async () => {
      const docsApp = await createOAuthApp(t, [`${t.issuer}/docs/oauth2-redirect.html`]);
      expect(docsApp.clientId).toBeTruthy();
      const redirectPage = await t.http().get('/docs/oauth2-redirect.html').expect(200);
      expect(redirectPage.text).toContain('oauth2');
    });
  });
});

describe('OAuth behind https', () => {
  const t = useTestApp({ env: { BASE_URL: 'https://workbase.example.com' } });

  it('marks the cookies Secure', async () => {
    const ws = await t.createWorkspace('secure');
    await t.createMember(ws.workspaceId, 'dana@example.test', 'member', PASSWORD);
    const app = await createOAuthApp(t, ['https://client.example.com/cb']);
    const query = new URLSearchParams({ response_type: 'code', client_id: app.clientId, redirect_uri: 'https://client.example.com/cb' }).toString();
    const page = await t.http().get(`/oauth/authorize?${query}`).expect(200);
    const csrfCookie = ([] as string[]).concat(page.headers['set-cookie']).find((c) => c.startsWith('wb_oauth_csrf='))!;
    expect(csrfCookie).toMatch(/; Secure/);
    const csrf = /name="csrf_token" value="([^"]+)"/.exec(page.text)![1];
    const signedIn = await t
      .http()
      .post('/oauth/sign-in')
      .set('Cookie', csrfCookie.split(';')[0])
      .type('form')
      .send({ csrf_token: csrf, authorize_query: query, email: 'dana@example.test', password: PASSWORD })
      .expect(303);
    const sessionCookie = ([] as string[]).concat(signedIn.headers['set-cookie']).find((c) => c.startsWith('wb_oauth_session='))!;
    expect(sessionCookie).toMatch(/HttpOnly/);
    expect(sessionCookie).toMatch(/; Secure/);
    expect(sessionCookie).toMatch(/SameSite=Lax/);
  });

  it('registers only safe redirect URIs', async () => {
    const { CreateOAuthAppUseCase } = await import('@workbase/oauth');
    const create = t.app.get(CreateOAuthAppUseCase);
    for (const uri of ['http://client.example.com/cb', 'https://client.example.com/cb#frag', 'not a url', 'javascript:alert(1)', 'https://user:pw@client.example.com/']) {
      await expect(create.execute({ name: 'x', redirectUris: [uri] })).rejects.toThrow(/redirect URI/);
    }
    await expect(create.execute({ name: 'x', redirectUris: [] })).rejects.toThrow(/at least one/);
    await expect(create.execute({ name: ' ', redirectUris: ['https://a.example/cb'] })).rejects.toThrow(/name/);
    await expect(create.execute({ name: 'x', redirectUris: ['https://a.example/cb'], scopes: 'note:read bogus' })).rejects.toThrow(/unknown scope: bogus/);
    for (const uri of ['https://workbase.example.com/docs/oauth2-redirect.html', 'http://localhost:8080/cb', 'http://127.0.0.1/cb', 'com.example.app:/callback']) {
      await expect(create.execute({ name: 'ok', redirectUris: [uri] })).resolves.toMatchObject({ clientId: expect.any(String) });
    }
  });
});
