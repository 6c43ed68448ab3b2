import { CreateOAuthAppUseCase } from '@workbase/oauth';
import * as oauth from 'oauth4webapi';
import { freePort } from '../support/processes';
import { useForSuite } from '../support/suite';
import { startTestApp, type TestApp } from '../support/test-app';

/** oauth4webapi is ESM-only; jest.config.js lists it among the packages swc turns into CommonJS. */
export { oauth };

/** The app listening on loopback with BASE_URL = its own address, as RFC 8414 discovery requires. */
export async function startListeningApp(env: Record<string, string> = {}): Promise<TestApp & { issuer: string }> {
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const t = await startTestApp({ env: { BASE_URL: issuer, ...env } });
  await t.app.listen(port, '127.0.0.1');
  return Object.assign(t, { issuer });
}

/** `startListeningApp(env)` for the describe block that calls this (see `useForSuite`): started before its tests, closed after. */
export function useListeningApp(env?: Record<string, string>): TestApp & { issuer: string } {
  return useForSuite('the listening app', () => startListeningApp(env), (t) => t.close());
}

export async function createOAuthApp(t: TestApp, redirectUris: string[], scopes?: string, name = 'Test App'): Promise<{ clientId: string; clientSecret: string }> {
  return t.app.get(CreateOAuthAppUseCase).execute({ name, redirectUris, scopes });
}

/** A browser stand-in over real HTTP: keeps cookies, never follows redirects by itself. */
export class Browser {
  readonly cookies = new Map<string, string>();

  constructor(private readonly base: string) {}

  async get(pathOrUrl: string, headers: Record<string, string> = {}): Promise<Page> {
    return this.send(pathOrUrl, { method: 'GET', headers });
  }

  async post(path: string, form: Record<string, string | undefined>, headers: Record<string, string> = {}): Promise<Page> {
    const body = new URLSearchParams(Object.entries(form).filter((e): e is [string, string] => e[1] !== undefined));
    return this.send(path, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: body.toString() });
  }

  private async send(pathOrUrl: string, init: { method: string; headers: Record<string, string>; body?: string }): Promise<Page> {
    const url = new URL(pathOrUrl, this.base);
    const cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const response = await fetch(url, { ...init, redirect: 'manual', headers: { ...init.headers, ...(cookie ? { cookie } : {}) } });
    const setCookies = response.headers.getSetCookie();
    for (const line of setCookies) {
      const [pair, ...attributes] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      if (attributes.some((a) => /^\s*max-age=0\s*$/i.test(a)) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return new Page(response.status, response.headers, await response.text(), setCookies);
  }
}

export class Page {
  constructor(
    readonly status: number,
    readonly headers: Headers,
    readonly html: string,
    readonly setCookies: string[],
  ) {}

  get location(): string | null {
    return this.headers.get('location');
  }

  /** The hidden fields of the form whose action is `action`. */
  form(action: string): Record<string, string> {
    const start = this.html.indexOf(`action="${action}"`);
    if (start < 0) throw new Error(`no form with action ${action} in:\n${this.html}`);
    const end = this.html.indexOf('</form>', start);
    const fields: Record<string, string> = {};
    for (const match of this.html.slice(start, end).matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)) {
      fields[unescape(match[1])] = unescape(match[2]);
    }
    return fields;
  }

  /** The workspace radio buttons (or the single hidden choice) of the consent form. */
  workspaceChoices(): string[] {
    return [...this.html.matchAll(/name="workspace_id" value="([^"]*)"/g)].map((m) => unescape(m[1]));
  }
}

function unescape(value: string): string {
  return value.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code)));
}

/** Signs in on the authorize page and returns the consent page. */
export async function signIn(browser: Browser, authorizeUrl: string, email: string, password: string): Promise<Page> {
  const signInPage = await browser.get(authorizeUrl);
  if (signInPage.status !== 200 || !signInPage.html.includes('action="/oauth/sign-in"')) {
    throw new Error(`expected the sign-in page, got ${signInPage.status}: ${signInPage.html.slice(0, 500)}`);
  }
  const signedIn = await browser.post('/oauth/sign-in', { ...signInPage.form('/oauth/sign-in'), email, password });
  if (signedIn.status !== 303) throw new Error(`sign-in failed with ${signedIn.status}: ${signedIn.html.slice(0, 500)}`);
  return browser.get(signedIn.location!);
}
