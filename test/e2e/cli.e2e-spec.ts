import { cliJson as json, runCli as cli } from '../support/cli';
import { useTestApp } from '../support/suite';

describe('CLI', () => {
  // Every test starts several CLI processes, each a cold Node.js start: at CI's load one took over 10 s.
  jest.setTimeout(180_000);
  const t = useTestApp();

  it('creates a workspace, a member, a token that works, and revokes it', async () => {
    const workspace = json(await cli(t.database.url, 'workspace:create', '--name', 'Acme', '--slug', 'acme-cli', '--admin-email', 'Admin@Acme.test'));
    expect(workspace).toEqual({ workspace_id: expect.any(String), workspace_slug: 'acme-cli', admin_member_id: expect.any(String) });

    const [member, token] = await Promise.all([
      cli(t.database.url, 'member:create', '--workspace', 'acme-cli', '--email', 'bo@acme.test', '--first-name', 'Bo', '--role', 'admin', '--password', 'long enough password'),
      cli(t.database.url, 'token:create', '--workspace', String(workspace.workspace_id), '--scopes', 'note:read webhook:read', '--name', 'ci'),
    ]);
    expect(json(member)).toEqual({ member_id: expect.any(String) });
    const issued = json(token);
    expect(issued).toEqual({ access_token: expect.stringMatching(/^wb_/), token_type: 'Bearer', kind: 'service', scope: 'note:read webhook:read', expires_at: null, token_id: expect.any(String) });

    const self = await t.http().get('/v2/self').set('Authorization', `Bearer ${issued.access_token}`).expect(200);
    expect(self.body).toMatchObject({ active: true, workspace_id: workspace.workspace_id, workspace_slug: 'acme-cli', scope: 'note:read webhook:read', exp: null });
    expect(self.body.authorized_by_workspace_member_id).toBe(workspace.admin_member_id);

    expect(json(await cli(t.database.url, 'token:revoke', '--token', String(issued.access_token)))).toEqual({ revoked: true, workspace_id: workspace.workspace_id, token_id: issued.token_id });
    expect((await t.http().get('/v2/self').set('Authorization', `Bearer ${issued.access_token}`).expect(200)).body).toEqual({ active: false });
  });

  it('workspace:create takes the admin\'s first and last name; /v2 never shows a null name ("" when unknown)', async () => {
    const named = json(
      await cli(t.database.url, 'workspace:create', '--name', 'Named', '--slug', 'cli-named', '--admin-email', 'ada@named.test', '--admin-first-name', 'Ada', '--admin-last-name', ' Lovelace '),
    );
    const unnamed = json(await cli(t.database.url, 'workspace:create', '--name', 'Unnamed', '--slug', 'cli-unnamed', '--admin-email', 'nobody@unnamed.test'));
    const token = (slug: string) => cli(t.database.url, 'token:create', '--workspace', slug, '--scopes', 'user_management:read').then((out) => String(json(out).access_token));
    const namedToken = await token('cli-named');
    const members = await t.http().get('/v2/workspace_members').set('Authorization', `Bearer ${namedToken}`).expect(200);
    expect(members.body.data).toEqual([expect.objectContaining({ first_name: 'Ada', last_name: 'Lovelace', email_address: 'ada@named.test', access_level: 'admin' })]);
    const scim = await t.http().get(`/scim/v2/Users/${named.admin_member_id}`).set('Authorization', `Bearer ${namedToken}`).expect(200);
    expect(scim.body.name).toEqual({ givenName: 'Ada', familyName: 'Lovelace' });
    const unnamedToken = await token('cli-unnamed');
    const one = await t.http().get(`/v2/workspace_members/${unnamed.admin_member_id}`).set('Authorization', `Bearer ${unnamedToken}`).expect(200);
    expect(one.body.data).toMatchObject({ first_name: '', last_name: '' });
    const all = await t.http().get('/v2/workspace_members').set('Authorization', `Bearer ${unnamedToken}`).expect(200);
    expect(all.body.data.every((m: { first_name: unknown; last_name: unknown }) => typeof m.first_name === 'string' && typeof m.last_name === 'string')).toBe(true);
  });

  it('issues an expiring token and an all-scope token by default', async () => {
    const ws = await t.createWorkspace('cli-expiring');
    const expiring = json(await cli(t.database.url, 'token:create', '--workspace', ws.slug, '--expires-in', '3600'));
    expect(String(expiring.scope).split(' ')).toContain('activity_record:read-write');
    const self = await t.http().get('/v2/self').set('Authorization', `Bearer ${expiring.access_token}`).expect(200);
    expect(self.body.exp - self.body.iat).toBeGreaterThanOrEqual(3599);
    expect(self.body.exp - self.body.iat).toBeLessThanOrEqual(3601);
  });

  it('sets a password, verifies a domain, registers and lists OAuth apps', async () => {
    const ws = await t.createWorkspace('cli-misc');
    await t.createMember(ws.workspaceId, 'cy@cli-misc.test');
    expect(json(await cli(t.database.url, 'member:set-password', '--workspace', ws.slug, '--email', 'cy@cli-misc.test', '--password', 'correct horse battery'))).toEqual({
      member_id: expect.any(String),
      password_set: true,
    });
    expect(json(await cli(t.database.url, 'workspace:verify-domain', '--workspace', ws.slug, '--domain', 'Example.COM'))).toEqual({
      workspace_id: ws.workspaceId,
      verified_email_domains: ['example.com'],
    });
    const created = json(await cli(t.database.url, 'app:create', '--name', 'Zapier-ish', '--redirect-uri', 'https://client.example/cb', '--redirect-uri', 'http://127.0.0.1:9/cb'));
    expect(created).toEqual({ client_id: expect.any(String), client_secret: expect.any(String) });
    const listed = json(await cli(t.database.url, 'app:list'));
    const app = (listed.data as Record<string, unknown>[]).find((entry) => entry.client_id === created.client_id);
    expect(app).toMatchObject({ name: 'Zapier-ish', redirect_uris: ['https://client.example/cb', 'http://127.0.0.1:9/cb'] });
    expect(JSON.stringify(listed)).not.toContain(String(created.client_secret));
  });

  it('reports migrations as already applied on a migrated database', async () => {
    expect(json(await cli(t.database.url, 'migrate'))).toEqual({ applied: [] });
  });

  it('fails bad arguments with a message on stderr, a non-zero exit and nothing on stdout', async () => {
    await t.createWorkspace('cli-bad');
    const cases: [string[], RegExp][] = [
      [['no:such-command'], /unknown command "no:such-command"/],
      [['workspace:create', '--name', 'X'], /--slug is required/],
      [['workspace:create', '--name', 'X', '--slug', 'x', '--admin-email', 'a@x.test', '--bogus', 'y'], /bogus/],
      [['workspace:create', '--name', 'X', '--slug', 'Not A Slug!', '--admin-email', 'a@x.test'], /slug/],
      [['workspace:create', '--name', 'Dup', '--slug', 'cli-bad', '--admin-email', 'b@x.test'], /cli-bad|already|taken|exists/i],
      [['member:create', '--workspace', 'no-such-workspace', '--email', 'a@b.test'], /no-such-workspace/],
      [['member:create', '--workspace', 'cli-bad', '--email', 'c@acme.test', '--role', 'owner'], /--role must be admin or member/],
      [['member:create', '--workspace', 'cli-bad', '--email', 'not-an-email'], /email/i],
      [['token:create', '--workspace', 'cli-bad', '--scopes', 'note:read everything:write'], /unknown scope: everything:write/],
      [['token:create', '--workspace', 'cli-bad', '--expires-in', 'soon'], /--expires-in must be a positive number/],
      [['token:revoke', '--token', 'wb_not_a_real_token'], /no live token/],
      [['app:create', '--name', 'No redirect'], /--redirect-uri is required/],
      [['app:create', '--name', 'Bad redirect', '--redirect-uri', 'not a url'], /redirect/i],
    ];
    // Two processes at a time: thirteen at once on two cores starve each other (and the suite's
    // other worker) until the slowest passes the test timeout on a loaded machine.
    const results: Awaited<ReturnType<typeof cli>>[] = [];
    for (let next = 0; next < cases.length; next += 2) {
      results.push(...(await Promise.all(cases.slice(next, next + 2).map(([args]) => cli(t.database.url, ...args)))));
    }
    results.forEach((result, index) => {
      const [args, message] = cases[index];
      expect({ args, code: result.code, stdout: result.stdout }).toEqual({ args, code: expect.any(Number), stdout: '' });
      expect({ args, failed: result.code !== 0 }).toEqual({ args, failed: true });
      expect({ args, stderr: result.stderr }).toEqual({ args, stderr: expect.stringMatching(message) });
    });
  }, 180_000);
});
