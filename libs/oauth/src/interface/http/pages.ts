import type { Response } from 'express';

/** HTML-escapes text for element content and double-quoted attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"'`]/g, (c) => `&#${c.charCodeAt(0)};`);
}

const STYLE = `
  *{box-sizing:border-box}
  body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f4f5f7;color:#1d2330}
  main{max-width:28rem;margin:3rem auto;background:#fff;border:1px solid #dde1e7;border-radius:10px;padding:2rem}
  h1{font-size:1.35rem;margin:0 0 1rem}
  p{margin:.5rem 0}
  label{display:block;font-weight:600;margin:.9rem 0 .25rem}
  input[type=email],input[type=password]{width:100%;padding:.55rem .65rem;border:1px solid #b9c0cb;border-radius:6px;font:inherit}
  fieldset{border:1px solid #dde1e7;border-radius:6px;margin:1rem 0;padding:.5rem .9rem}
  fieldset label{font-weight:400;margin:.3rem 0}
  ul{padding-left:1.2rem}
  .actions{display:flex;gap:.75rem;margin-top:1.5rem}
  button{font:inherit;padding:.55rem 1.2rem;border-radius:6px;border:1px solid #2b59c3;background:#2b59c3;color:#fff;cursor:pointer}
  button.secondary{background:#fff;color:#2b59c3}
  button.link{border:none;background:none;color:#2b59c3;padding:0;text-decoration:underline}
  .error{background:#fdecec;border:1px solid #f3b4b4;color:#8a1f1f;border-radius:6px;padding:.6rem .8rem}
  .muted{color:#5c6573;font-size:.9rem}
  code{word-break:break-all}
`;

/**
 * Writes a self-contained page: inline style only, no scripts, no external assets. The headers
 * forbid framing (clickjacking of the consent form), caching, and referrers to other sites (the URL holds state; same-origin keeps the
 * Origin header on our own form posts, which the CSRF check reads).
 */
export function sendPage(response: Response, status: number, title: string, body: string): void {
  response
    .status(status)
    .set({
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      Pragma: 'no-cache',
      'X-Frame-Options': 'DENY',
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'same-origin',
      'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
    })
    .send(
      `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">` +
        `<title>${escapeHtml(title)} · Workbase</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`,
    );
}

export function errorPage(response: Response, status: number, message: string): void {
  sendPage(
    response,
    status,
    'Authorization error',
    `<h1>Authorization error</h1><p class="error" role="alert">${escapeHtml(message)}</p>` +
      `<p class="muted">Nothing was shared. Go back to the app you came from and try again.</p>`,
  );
}

const hidden = (name: string, value: string) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`;

export function signInPage(
  response: Response,
  input: { status: number; appName: string; authorizeQuery: string; csrfToken: string; email?: string; error?: string },
): void {
  sendPage(
    response,
    input.status,
    'Sign in',
    `<h1>Sign in to continue to ${escapeHtml(input.appName)}</h1>` +
      (input.error ? `<p class="error" role="alert">${escapeHtml(input.error)}</p>` : '') +
      `<form method="post" action="/oauth/sign-in">` +
      hidden('csrf_token', input.csrfToken) +
      hidden('authorize_query', input.authorizeQuery) +
      `<label for="email">Email</label><input id="email" name="email" type="email" autocomplete="username" required value="${escapeHtml(input.email ?? '')}">` +
      `<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>` +
      `<div class="actions"><button type="submit">Sign in</button></div></form>` +
      `<p class="muted">Use the email and password of your workspace membership. Ask a workspace admin if you have no password.</p>`,
  );
}

export interface ConsentWorkspace {
  readonly workspaceId: string;
  readonly name: string;
  readonly slug: string;
}

export function consentPage(
  response: Response,
  input: {
    appName: string;
    redirectOrigin: string;
    email: string;
    workspaces: readonly ConsentWorkspace[];
    scopeDescriptions: ReadonlyArray<{ scopes: readonly string[]; text: string }>;
    authorizeQuery: string;
    csrfToken: string;
  },
): void {
  const [only] = input.workspaces;
  const workspaceChoice =
    input.workspaces.length === 1
      ? `<p>Workspace: <strong>${escapeHtml(only.name)}</strong> <span class="muted">(${escapeHtml(only.slug)})</span></p>` + hidden('workspace_id', only.workspaceId)
      : `<fieldset><legend>Choose the workspace</legend>` +
        input.workspaces
          .map(
            (workspace, index) =>
              `<label><input type="radio" name="workspace_id" value="${escapeHtml(workspace.workspaceId)}"${index === 0 ? ' checked' : ''} required> ` +
              `${escapeHtml(workspace.name)} <span class="muted">(${escapeHtml(workspace.slug)})</span></label>`,
          )
          .join('') +
        `</fieldset>`;
  const scopes = input.scopeDescriptions
    .map((s) => `<li>${escapeHtml(s.text)} <span class="muted">(${s.scopes.map((scope) => `<code>${escapeHtml(scope)}</code>`).join(', ')})</span></li>`)
    .join('');
  sendPage(
    response,
    200,
    `Authorize ${input.appName}`,
    `<h1><strong>${escapeHtml(input.appName)}</strong> wants to access your workspace</h1>` +
      `<p class="muted">Signed in as ${escapeHtml(input.email)}.</p>` +
      `<form method="post" action="/oauth/consent">` +
      hidden('csrf_token', input.csrfToken) +
      hidden('authorize_query', input.authorizeQuery) +
      workspaceChoice +
      `<p>It will be able to:</p><ul>${scopes || '<li>Identify the workspace (no data access)</li>'}</ul>` +
      `<p class="muted">You will be sent back to <code>${escapeHtml(input.redirectOrigin)}</code>.</p>` +
      `<div class="actions"><button type="submit" name="decision" value="approve">Approve</button>` +
      `<button type="submit" name="decision" value="deny" class="secondary">Deny</button></div></form>` +
      `<form method="post" action="/oauth/sign-out">` +
      hidden('csrf_token', input.csrfToken) +
      hidden('authorize_query', input.authorizeQuery) +
      `<p class="muted">Not you? <button type="submit" class="link">Sign in as someone else</button></p></form>`,
  );
}
