import type { Request, Response } from 'express';

export const SESSION_COOKIE = 'wb_oauth_session';
export const SIGN_IN_CSRF_COOKIE = 'wb_oauth_csrf';
/** Both cookies are sent only to the OAuth pages. */
const COOKIE_PATH = '/oauth';

export function readCookie(request: Request, name: string): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) {
      const value = part.slice(eq + 1).trim();
      try {
        return decodeURIComponent(value);
      } catch {
        return undefined;
      }
    }
  }
  return undefined;
}

export interface CookieOptions {
  /** Secure when BASE_URL is https. */
  readonly secure: boolean;
  /** Lax for the session (it must reach /oauth/authorize when the app sends the browser there), Strict otherwise. */
  readonly sameSite: 'Lax' | 'Strict';
  readonly maxAgeSeconds?: number;
}

/** HttpOnly cookie on /oauth; values are base64url, so no encoding is needed. */
export function setCookie(response: Response, name: string, value: string, options: CookieOptions): void {
  const parts = [`${name}=${value}`, `Path=${COOKIE_PATH}`, 'HttpOnly', `SameSite=${options.sameSite}`];
  if (options.secure) parts.push('Secure');
  if (options.maxAgeSeconds !== undefined) parts.push(`Max-Age=${options.maxAgeSeconds}`);
  response.append('Set-Cookie', parts.join('; '));
}

export function clearCookie(response: Response, name: string, secure: boolean): void {
  setCookie(response, name, '', { secure, sameSite: 'Lax', maxAgeSeconds: 0 });
}
