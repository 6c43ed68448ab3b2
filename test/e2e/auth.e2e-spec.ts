import { RevokeTokenUseCase } from '@workbase/access';
import { SCOPES } from '@workbase/shared/kernel';
import { useTestApp, useWorkspace } from '../support/suite';

describe('authentication and scopes', () => {
  const t = useTestApp();
  const acme = useWorkspace(t, 'acme');
  const globex = useWorkspace(t, 'globex');

  const expectAuthError = (body: Record<string, unknown>, status: number) =>
    expect(body).toEqual({ status_code: status, type: 'auth_error', code: 'unauthorized', message: expect.any(String) });

  it('accepts a valid bearer token', async () => {
    const res = await t.http().get('/v2/workspace_members').set('Authorization', `Bearer ${acme.token}`).expect(200);
    expect(res.body.data).toHaveLength(1);
    expect(res.body.data[0]).toMatchObject({ email_address: 'admin@acme.test', access_level: 'admin', id: { workspace_id: acme.workspaceId } });
  });

  it('accepts HTTP Basic with the token as username and an empty password', async () => {
    const basic = Buffer.from(`${acme.token}:`).toString('base64');
    await t.http().get('/v2/workspace_members').set('Authorization', `Basic ${basic}`).expect(200);
  });

  it('401s a request without a token, naming the header', async () => {
    const res = await t.http().get('/v2/workspace_members').expect(401);
    expectAuthError(res.body, 401);
    expect(res.body.message).toMatch(/Authorization header/);
  });

  it('takes credentials only from the Authorization header: never from the URL or the body', async () => {
    const inQuery = await t.http().get(`/v2/workspace_members?access_token=${acme.token}`).expect(401);
    expectAuthError(inQuery.body, 401);
    expect(inQuery.body.message).toMatch(/Authorization: Bearer/);
    // A junk token in the URL beside a valid header is ignored, not a conflict.
    await t.http().get('/v2/workspace_members?access_token=junk').set('Authorization', `Bearer ${acme.token}`).expect(200);
    // A token in a JSON or a form body authenticates nothing (and deletes nothing).
    const note = await t.http().post('/v2/notes').set('Authorization', `Bearer ${acme.token}`)
      .send({ data: { parent_object: 'people', parent_record_id: (await t.http().post('/v2/objects/people/records').set('Authorization', `Bearer ${acme.token}`).send({ data: { values: {} } }).expect(200)).body.data.id.record_id, title: 'kept', format: 'plaintext', content: 'x' } })
      .expect(200);
    const noteId = note.body.data.id.note_id as string;
    expectAuthError((await t.http().delete(`/v2/notes/${noteId}`).send({ access_token: acme.token }).expect(401)).body, 401);
    expectAuthError((await t.http().delete(`/v2/notes/${noteId}`).type('form').send({ access_token: acme.token }).expect(401)).body, 401);
    await t.http().get(`/v2/notes/${noteId}`).set('Authorization', `Bearer ${acme.token}`).expect(200);
  });

  it('401s a garbage token and a wrong Basic token', async () => {
    expectAuthError((await t.http().get('/v2/workspace_members').set('Authorization', 'Bearer not-a-real-token-at-all').expect(401)).body, 401);
    expectAuthError((await t.http().get('/v2/workspace_members').set('Authorization', 'Bearer x').expect(401)).body, 401);
    const basic = Buffer.from('wb_nope:').toString('base64');
    await t.http().get('/v2/workspace_members').set('Authorization', `Basic ${basic}`).expect(401);
  });

  it('401s a revoked token at once', async () => {
    const token = await t.tokenFor(acme.workspaceId, [SCOPES.userManagementRead]);
    await t.http().get('/v2/workspace_members').set('Authorization', `Bearer ${token}`).expect(200);
    await t.app.get(RevokeTokenUseCase).execute(token);
    const res = await t.http().get('/v2/workspace_members').set('Authorization', `Bearer ${token}`).expect(401);
    expect(res.body.message).toMatch(/invalid, expired or revoked/);
  });

  it('401s an expired token', async () => {
    const token = await t.tokenFor(acme.workspaceId, [SCOPES.userManagementRead], { expiresAt: new Date(Date.now() + 1200) });
    await t.http().get('/v2/workspace_members').set('Authorization', `Bearer ${token}`).expect(200);
    await new Promise((resolve) => setTimeout(resolve, 1400));
    await t.http().get('/v2/workspace_members').set('Authorization', `Bearer ${token}`).expect(401);
  });

  it('403s a token without the scope, naming the missing scope', async () => {
    const token = await t.tokenFor(acme.workspaceId, [SCOPES.noteRead]);
    const res = await t.http().get('/v2/workspace_members').set('Authorization', `Bearer ${token}`).expect(403);
    expectAuthError(res.body, 403);
    expect(res.body.message).toContain('user_management:read');
  });

  it('lets read-write imply read', async () => {
    const token = await t.tokenFor(acme.workspaceId, [SCOPES.userManagementReadWrite]);
    await t.http().get('/v2/workspace_members').set('Authorization', `Bearer ${token}`).expect(200);
  });

  it("never shows another workspace's member: 404, not 403", async () => {
    await t.http().get(`/v2/workspace_members/${globex.adminMemberId}`).set('Authorization', `Bearer ${acme.token}`).expect(404);
    const own = await t.http().get(`/v2/workspace_members/${acme.adminMemberId}`).set('Authorization', `Bearer ${acme.token}`).expect(200);
    expect(own.body.data.id.workspace_member_id).toBe(acme.adminMemberId);
    const list = await t.http().get('/v2/workspace_members').set('Authorization', `Bearer ${globex.token}`).expect(200);
    expect(list.body.data.map((m: { email_address: string }) => m.email_address)).toEqual(['admin@globex.test']);
  });

  describe('GET /v2/self', () => {
    it('introspects an active token with every field of the spec', async () => {
      const res = await t.http().get('/v2/self').set('Authorization', `Bearer ${acme.token}`).expect(200);
      expect(res.body).toEqual({
        active: true,
        scope: expect.stringContaining('record_permission:read'),
        client_id: expect.any(String),
        token_type: 'Bearer',
        exp: null,
        iat: expect.any(Number),
        sub: acme.workspaceId,
        aud: res.body.client_id,
        iss: 'http://localhost:3000',
        authorized_by_workspace_member_id: acme.adminMemberId,
        workspace_id: acme.workspaceId,
        workspace_name: 'Workspace acme',
        workspace_slug: 'acme',
        workspace_logo_url: null,
      });
    });

    it('answers {active:false} for a missing, invalid, revoked or expired token', async () => {
      expect((await t.http().get('/v2/self').expect(200)).body).toEqual({ active: false });
      expect((await t.http().get('/v2/self').set('Authorization', 'Bearer wb_garbage_garbage_garbage').expect(200)).body).toEqual({ active: false });
      const expiring = await t.tokenFor(acme.workspaceId, [SCOPES.noteRead], { expiresAt: new Date(Date.now() + 1000) });
      const live = await t.http().get('/v2/self').set('Authorization', `Bearer ${expiring}`).expect(200);
      expect(live.body.exp).toBeGreaterThan(live.body.iat - 1);
      await new Promise((resolve) => setTimeout(resolve, 1200));
      expect((await t.http().get('/v2/self').set('Authorization', `Bearer ${expiring}`).expect(200)).body).toEqual({ active: false });
    });
  });
});
