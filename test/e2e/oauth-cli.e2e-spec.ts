import { createHash } from 'node:crypto';
import { ALL_SCOPES } from '@workbase/shared/kernel';
import { DataSource } from 'typeorm';
import { Browser, signIn, useListeningApp } from './oauth-support';
import { cliJson as json, runCli as cli } from '../support/cli';
import type { TestApp } from '../support/test-app';
import { type CommandArgs, COMMANDS } from '../../apps/cli/src/commands';

/** The same command in-process (main.ts's parsing and printing are covered by the runCli runs and cli.e2e-spec). */
function run(t: TestApp, name: string, args: CommandArgs): Promise<Record<string, unknown>> {
  return COMMANDS[name].run(args, t.app);
}

/**
 * The operator's side of OAuth: `app:create` prints the client credentials once and stores only
 * the secret's hash; apps may be granted every scope unless `--scopes` narrows them; a password set
 * with `member:set-password` signs the member in to the consent page.
 */
describe('OAuth apps and passwords from the CLI', () => {
  const t = useListeningApp();

  it('app:create prints client_id and client_secret only; the database holds the SHA-256 of the secret, never the secret', async () => {
    const created = json(
      await cli(t.database.url, 'app:create', '--name', 'Reporting', '--redirect-uri', 'https://reports.example/cb', '--redirect-uri', 'http://127.0.0.1:9/cb'),
    );
    expect(Object.keys(created).sort()).toEqual(['client_id', 'client_secret']);
    expect(created.client_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.client_secret).toMatch(/^wbcs_[A-Za-z0-9_-]{43}$/);

    const db = t.app.get(DataSource);
    const [row] = await db.query(`SELECT client_secret_hash, name, redirect_uris, scopes FROM oauth_apps WHERE client_id = $1`, [created.client_id]);
    expect(row.client_secret_hash).toEqual(createHash('sha256').update(String(created.client_secret)).digest());
    expect(row.redirect_uris).toEqual(['https://reports.example/cb', 'http://127.0.0.1:9/cb']);
    // Default: every scope of the catalogue.
    expect(row.scopes).toEqual(ALL_SCOPES);
    const [{ found }] = await db.query(`SELECT count(*)::int AS found FROM oauth_apps WHERE row_to_json(oauth_apps)::text LIKE '%' || $1 || '%'`, [created.client_secret]);
    expect(found).toBe(0);

    // The printed secret authenticates the client (a wrong code, but not a wrong client).
    const token = await t.http().post('/oauth/token').auth(String(created.client_id), String(created.client_secret)).type('form').send({ grant_type: 'authorization_code', code: 'wbac_no-such-code-no-such-code' });
    expect(token.body.error).toBe('invalid_grant');
    const wrong = await t.http().post('/oauth/token').auth(String(created.client_id), `${String(created.client_secret)}x`).type('form').send({ grant_type: 'authorization_code', code: 'wbac_no-such-code-no-such-code' });
    expect(wrong.status).toBe(401);

    const listed = await run(t, 'app:list', {});
    const app = (listed.data as Array<Record<string, unknown>>).find((entry) => entry.client_id === created.client_id);
    expect(app).toEqual({
      client_id: created.client_id,
      name: 'Reporting',
      redirect_uris: ['https://reports.example/cb', 'http://127.0.0.1:9/cb'],
      scopes: ALL_SCOPES.join(' '),
      created_at: expect.any(String),
    });
    expect(JSON.stringify(listed)).not.toContain(String(created.client_secret));
  });

  it('app:create --scopes limits what the app may be granted; unknown scopes and unsafe redirect URIs are refused', async () => {
    const created = await run(t, 'app:create', { name: 'Notes only', 'redirect-uri': ['https://notes.example/cb'], scopes: 'note:read note:read-write' });
    const [row] = await t.app.get(DataSource).query(`SELECT scopes FROM oauth_apps WHERE client_id = $1`, [created.client_id]);
    expect(row.scopes).toEqual(['note:read', 'note:read-write']);
    const query = new URLSearchParams({ response_type: 'code', client_id: String(created.client_id), redirect_uri: 'https://notes.example/cb', scope: 'note:read task:read', state: 's' });
    const refused = await t.http().get(`/oauth/authorize?${query}`).expect(302);
    expect(new URL(refused.headers.location).searchParams.get('error')).toBe('invalid_scope');
    expect(refused.headers.location).toContain('task%3Aread');

    await expect(run(t, 'app:create', { name: 'Bad', 'redirect-uri': ['https://x.example/cb'], scopes: 'note:read everything' })).rejects.toThrow(/unknown scope: everything/);
    await expect(run(t, 'app:create', { name: 'Plain http', 'redirect-uri': ['http://client.example/cb'] })).rejects.toThrow(/use https/);
    await expect(run(t, 'app:create', { name: 'Fragment', 'redirect-uri': ['https://x.example/cb#f'] })).rejects.toThrow(/fragment/);
  });

  it('member:set-password stores an scrypt hash, and the member signs in to the consent page with it', async () => {
    const ws = await t.createWorkspace('cli-oauth');
    const memberId = await t.createMember(ws.workspaceId, 'fay@cli-oauth.test');
    const app = await run(t, 'app:create', { name: 'Fay App', 'redirect-uri': ['http://127.0.0.1:9/cb'] });
    const authorizeUrl = `/oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: String(app.client_id), redirect_uri: 'http://127.0.0.1:9/cb' })}`;

    // No password yet: no sign-in.
    const before = new Browser(t.issuer);
    const page = await before.get(authorizeUrl);
    const refused = await before.post('/oauth/sign-in', { ...page.form('/oauth/sign-in'), email: 'fay@cli-oauth.test', password: 'fay password 1' });
    expect(refused.status).toBe(401);

    await expect(run(t, 'member:set-password', { workspace: ws.slug, email: 'fay@cli-oauth.test', password: 'short' })).rejects.toThrow(/at least 10 characters/);
    expect(await run(t, 'member:set-password', { workspace: ws.slug, email: 'fay@cli-oauth.test', password: 'fay password 1' })).toEqual({
      member_id: memberId,
      password_set: true,
    });
    const [{ password_hash }] = await t.app.get(DataSource).query(`SELECT password_hash FROM workspace_members WHERE id = $1`, [memberId]);
    expect(password_hash).toMatch(/^scrypt\$32768\$8\$3\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);

    const consent = await signIn(new Browser(t.issuer), authorizeUrl, 'FAY@cli-oauth.test', 'fay password 1');
    expect(consent.status).toBe(200);
    expect(consent.html).toContain('<strong>Fay App</strong> wants to access your workspace');
    expect(consent.workspaceChoices()).toEqual([ws.workspaceId]);
  });
});
