/**
 * Which redirect URIs an app may register (RFC 6749 §3.1.2, RFC 8252, OAuth 2.1): absolute, no
 * fragment, and either https, http on a loopback host or on the service's own origin (so that
 * `${BASE_URL}/docs/oauth2-redirect.html` works on a plain-http install), or a private-use scheme
 * of a native app (reverse domain name, e.g. `com.example.app:/callback`). Matching at the
 * authorize and token endpoints is by exact string comparison.
 */
export function redirectUriProblem(uri: string, serviceOrigin: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(uri);
  } catch {
    return `redirect URI "${uri}" is not an absolute URL`;
  }
  if (uri.length > 2000) return 'redirect URI is longer than 2000 characters';
  if (parsed.hash || uri.includes('#')) return `redirect URI "${uri}" must not contain a fragment`;
  if (parsed.username || parsed.password) return `redirect URI "${uri}" must not contain credentials`;
  const scheme = parsed.protocol.slice(0, -1);
  if (scheme === 'https') return null;
  if (scheme === 'http') {
    if (isLoopback(parsed.hostname) || parsed.origin === serviceOrigin) return null;
    return `redirect URI "${uri}" uses http on a host other than loopback or this service; use https`;
  }
  if (/^[a-z][a-z0-9+-]*(\.[a-z0-9+-]+)+$/.test(scheme)) return null;
  return `redirect URI "${uri}" has an unsupported scheme "${scheme}"; use https, loopback http, or a reverse-domain private-use scheme`;
}

function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '[::1]' || /^127(\.\d{1,3}){3}$/.test(hostname);
}

/** Appends the response parameters to a redirect URI, keeping any query it already has. */
export function withQuery(redirectUri: string, params: Record<string, string | undefined>): string {
  const url = new URL(redirectUri);
  for (const [name, value] of Object.entries(params)) if (value !== undefined) url.searchParams.append(name, value);
  return url.toString();
}
