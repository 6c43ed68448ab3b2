import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import type { TestApp } from '../support/test-app';
import { createOAuthApp, oauth, startListeningApp } from './oauth-support';

/**
 * A real browser through the OAuth pages: Debian's chromium driven by playwright-core. It fails,
 * never skips, when chromium is missing (`apt-get install -y chromium`).
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const PASSWORD = 'browser password 1';
/** Set OAUTH_BROWSER_SCREENSHOTS=<dir> to keep screenshots of the pages. */
const SCREENSHOTS = process.env.OAUTH_BROWSER_SCREENSHOTS;

describe('OAuth in a headless Chromium', () => {
  let t: TestApp & { issuer: string };
  let context: BrowserContext;
  let userDataDir: string;
  let callbackServer: Server;
  let callbackUrl: string;
  let workspaceId: string;
  let memberId: string;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM}: run "apt-get update && apt-get install -y chromium"`);
    t = await startListeningApp();
    const ws = await t.createWorkspace('browser');
    workspaceId = ws.workspaceId;
    memberId = await t.createMember(ws.workspaceId, 'erin@example.test', 'member', PASSWORD);
    // The client's callback: a loopback page that just shows what it received.
    callbackServer = createServer((req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end(`callback ${req.url}`));
    await new Promise<void>((resolve) => callbackServer.listen(0, '127.0.0.1', resolve));
    callbackUrl = `http://127.0.0.1:${(callbackServer.address() as { port: number }).port}/callback`;
    userDataDir = mkdtempSync(path.join(tmpdir(), 'workbase-chromium-'));
    context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
  });

  afterAll(async () => {
    await context?.close();
    if (userDataDir) rmSync(userDataDir, { recursive: true, force: true });
    await new Promise((resolve) => (callbackServer ? callbackServer.close(resolve) : resolve(undefined)));
    await t?.close();
  });

  async function shot(page: Page, name: string): Promise<void> {
    if (SCREENSHOTS) writeFileSync(path.join(SCREENSHOTS, `${name}.png`), await page.screenshot({ fullPage: true }));
  }

  it('signs in, approves, and lands on the redirect URI with a code that exchanges for a token', async () => {
    const app = await createOAuthApp(t, [callbackUrl], 'record_permission:read object_configuration:read', 'Browser App');
    const verifier = oauth.generateRandomCodeVerifier();
    const url = new URL('/oauth/authorize', t.issuer);
    url.search = new URLSearchParams({
      response_type: 'code',
      client_id: app.clientId,
      redirect_uri: callbackUrl,
      state: 'browser-state',
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    }).toString();

    const page = await context.newPage();
    await page.goto(url.toString());
    await expectText(page, 'h1', 'Sign in to continue to Browser App');
    await shot(page, '1-sign-in');
    await page.fill('#email', 'erin@example.test');
    await page.fill('#password', PASSWORD);
    await Promise.all([page.waitForNavigation(), page.click('button[type=submit]')]);

    await expectText(page, 'h1', 'Browser App wants to access your workspace');
    const body = await page.textContent('body');
    expect(body).toContain('See records: people, companies, deals and your other objects');
    expect(body).toContain('Workspace browser');
    await shot(page, '2-consent');
    await Promise.all([page.waitForURL((u) => u.toString().startsWith(callbackUrl)), page.click('button[value=approve]')]);

    const landed = new URL(page.url());
    expect(landed.searchParams.get('state')).toBe('browser-state');
    expect(landed.searchParams.get('code')).toMatch(/^wbac_/);
    expect(await page.textContent('body')).toContain('callback /callback?code=');

    const res = await t
      .http()
      .post('/oauth/token')
      .auth(app.clientId, app.clientSecret)
      .type('form')
      .send({ grant_type: 'authorization_code', code: landed.searchParams.get('code'), redirect_uri: callbackUrl, code_verifier: verifier })
      .expect(200);
    const self = await t.http().get('/v2/self').set('Authorization', `Bearer ${res.body.access_token}`).expect(200);
    expect(self.body).toMatchObject({ active: true, workspace_id: workspaceId, authorized_by_workspace_member_id: memberId, client_id: app.clientId });
    await page.close();
  });

  it('authorizes Swagger UI at /docs through the OAuth2 authorization-code flow', async () => {
    const app = await createOAuthApp(t, [`${t.issuer}/docs/oauth2-redirect.html`], undefined, 'Swagger UI');
    // A fresh page, but the browser is still signed in from the previous test: sign out first.
    await context.clearCookies();
    const page = await context.newPage();
    await page.goto(`${t.issuer}/docs`);
    await page.waitForSelector('.swagger-ui .auth-wrapper .authorize');
    await shot(page, '3-docs');
    await page.click('.swagger-ui .auth-wrapper .authorize');
    await page.fill('#client_id_authorizationCode', app.clientId);
    await page.fill('#client_secret_authorizationCode', app.clientSecret);
    // Swagger UI styles its scope checkboxes with a label; click the label.
    await page.click('label[for^="user_management:read-authorizationCode-checkbox"]');
    // The scheme's box, found by its heading (its client_id input is replaced by "******" once authorized).
    const oauth2 = page.locator('.auth-container', { hasText: 'oauth2 (OAuth2, authorizationCode' });
    expect(await oauth2.count()).toBe(1);
    expect(await oauth2.textContent()).toContain('authorizationCode with PKCE');
    await shot(page, '4-docs-authorize-dialog');
    const tokenRequests: string[] = [];
    page.on('request', (request) => {
      if (request.url() === `${t.issuer}/oauth/token`) tokenRequests.push(request.postData() ?? '');
    });
    const [popup] = await Promise.all([page.waitForEvent('popup'), oauth2.locator('button.authorize').click()]);

    await popup.waitForSelector('#email');
    // Swagger UI sends a PKCE challenge (initOAuth.usePkceWithAuthorizationCodeGrant).
    const authorizeRequest = new URL(popup.url());
    expect(authorizeRequest.pathname).toBe('/oauth/authorize');
    expect(authorizeRequest.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorizeRequest.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(authorizeRequest.searchParams.get('redirect_uri')).toBe(`${t.issuer}/docs/oauth2-redirect.html`);
    await popup.fill('#email', 'erin@example.test');
    await popup.fill('#password', PASSWORD);
    await Promise.all([popup.waitForURL(/\/oauth\/authorize\?/), popup.click('button[type=submit]')]);
    expect(await popup.textContent('body')).toContain('See workspace members and teams');
    await Promise.all([popup.waitForEvent('close'), popup.click('button[value=approve]')]);

    // Swagger UI exchanged the code and now offers to log out of the scheme.
    await oauth2.getByRole('button', { name: 'Remove authorization' }).waitFor();
    expect(await oauth2.textContent()).toContain('Authorized');
    // It exchanged the code with the verifier.
    expect(tokenRequests).toHaveLength(1);
    expect(new URLSearchParams(tokenRequests[0]).get('code_verifier')).toMatch(/^[A-Za-z0-9._~-]{43,128}$/);
    await shot(page, '5-docs-authorized');
    await page.locator('.modal-ux button.close-modal').click();

    // The token Swagger UI obtained works: try GET /v2/workspace_members from the page.
    const operation = page.locator('.opblock-get', { has: page.locator('.opblock-summary-path[data-path="/v2/workspace_members"]') });
    expect(await operation.count()).toBe(1);
    await operation.locator('.opblock-summary').click();
    await operation.locator('.try-out__btn').click();
    const [response] = await Promise.all([
      page.waitForResponse((r) => new URL(r.url()).pathname === '/v2/workspace_members' && r.request().method() === 'GET'),
      operation.locator('.execute').click(),
    ]);
    expect(response.status()).toBe(200);
    expect(await response.request().headerValue('authorization')).toMatch(/^Bearer wb_/);
    await operation.locator('.live-responses-table tbody .response-col_status').first().waitFor();
    expect((await operation.locator('.live-responses-table tbody .response-col_status').first().textContent())?.trim()).toBe('200');
    await page.close();
  });
});

async function expectText(page: Page, selector: string, text: string): Promise<void> {
  await page.waitForSelector(selector);
  expect((await page.textContent(selector))?.replace(/\s+/g, ' ').trim()).toBe(text);
}
