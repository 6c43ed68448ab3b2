import { MemberProvisioning } from '@workbase/access';
import { ALL_SCOPES, SCOPES } from '@workbase/shared/kernel';
import { type Body, GROUP, PATCH, USER } from '../support/scim';
import { useTestApp, useWorkspace } from '../support/suite';
import type { TestWorkspace } from '../support/test-app';

/**
 * Issue 16.1 and 20.1: workspace API tokens are service credentials of the workspace that no member
 * change affects; tokens granted by members act as them; SCIM writes and admin-only actions need
 * an admin member or a service token; no token raises its own member's level.
 */
describe('service tokens, member tokens and who may change access', () => {
  const t = useTestApp();
  const ws = useWorkspace(t, 'service-tokens');
  let service: string;

  beforeAll(async () => {
    service = await t.tokenFor(ws.workspaceId, [SCOPES.userManagementReadWrite]);
    await t.app.get(MemberProvisioning).addVerifiedEmailDomain(ws.workspaceId, 'service-tokens.test');
  });

  const as = (token: string) => ({ Authorization: `Bearer ${token}` });
  const self = async (token: string) => (await t.http().get('/v2/self').set(as(token)).expect(200)).body as Body;
  const scimUsers = (token: string) => t.http().get('/scim/v2/Users').set(as(token));

  describe('the SCIM token outlives every member (16.1)', () => {
    it('provisions, deactivates and deletes every member, the first admin included, and keeps working; it can reactivate them', async () => {
      // The identity provider takes over the workspace's own admin (made outside SCIM) and adds two people.
      const admin = (await t.http().get('/scim/v2/Users').query({ filter: `userName eq "admin@service-tokens.test"` }).set(as(service)).expect(200)).body.Resources[0];
      const made: string[] = [admin.id];
      for (const name of ['ada', 'grace']) {
        const res = await t.http().post('/scim/v2/Users').set(as(service)).send({ schemas: [USER], userName: `${name}@service-tokens.test`, appRole: 'admin' }).expect(201);
        made.push(res.body.id);
      }
      const oauth = await t.tokenFor(ws.workspaceId, ALL_SCOPES, { memberId: made[1], clientId: 'some-oauth-app' });
      await t.http().get('/v2/objects').set(as(oauth)).expect(200);

      // Demote everyone, then deactivate everyone: the service token keeps working.
      for (const id of made) {
        await t.http().patch(`/scim/v2/Users/${id}`).set(as(service)).send({ schemas: [PATCH], Operations: [{ op: 'replace', path: 'appRole', value: 'member' }] }).expect(200);
      }
      for (const id of made) {
        await t.http().patch(`/scim/v2/Users/${id}`).set(as(service)).send({ schemas: [PATCH], Operations: [{ op: 'replace', value: { active: false } }] }).expect(200);
      }
      await scimUsers(service).expect(200);
      // The OAuth token its member granted stops with the member.
      await t.http().get('/v2/objects').set(as(oauth)).expect(401);
      expect(await self(oauth)).toEqual({ active: false });

      // /v2/self stays truthful: active, no client, and a member id that exists.
      const identity = await self(service);
      expect(identity).toMatchObject({ active: true, workspace_id: ws.workspaceId, scope: 'user_management:read-write' });
      expect(made).toContain(identity.authorized_by_workspace_member_id);

      // Reactivate them all with the same token; the OAuth token works again.
      for (const id of made) {
        await t.http().patch(`/scim/v2/Users/${id}`).set(as(service)).send({ schemas: [PATCH], Operations: [{ op: 'replace', value: { active: true } }] }).expect(200);
      }
      await t.http().get('/v2/objects').set(as(oauth)).expect(200);

      // Delete every member: still working, still able to provision.
      for (const id of made) await t.http().delete(`/scim/v2/Users/${id}`).set(as(service)).expect(204);
      expect((await scimUsers(service).expect(200)).body.totalResults).toBe(0);
      await t.http().get('/v2/objects').set(as(oauth)).expect(401);
      const back = await t.http().post('/scim/v2/Users').set(as(service)).send({ schemas: [USER], userName: 'ada@service-tokens.test', appRole: 'admin' }).expect(201);
      expect(back.body.id).not.toBe(made[1]);
      expect((await self(service)).active).toBe(true);
    });

    it('/v2/self names the granting member for a member token, and a stand-in admin for a service token', async () => {
      const memberId = await t.createMember(ws.workspaceId, 'self-member@service-tokens.test', 'member');
      const own = await t.tokenFor(ws.workspaceId, [SCOPES.userManagementRead], { memberId });
      expect(await self(own)).toMatchObject({ active: true, authorized_by_workspace_member_id: memberId });
      const other = await t.createWorkspace('service-tokens-self');
      const token = await t.tokenFor(other.workspaceId, [SCOPES.userManagementRead]);
      expect(await self(token)).toMatchObject({ active: true, authorized_by_workspace_member_id: other.adminMemberId, workspace_id: other.workspaceId });
    });
  });

  describe('who may write through SCIM and do admin-only things (20.1)', () => {
    let scimWs: TestWorkspace;
    let tokens: Record<'member' | 'admin' | 'service', string>;
    let memberId: string;
    let adminId: string;

    beforeAll(async () => {
      scimWs = await t.createWorkspace('privileges');
      await t.app.get(MemberProvisioning).addVerifiedEmailDomain(scimWs.workspaceId, 'privileges.test');
      memberId = await t.createMember(scimWs.workspaceId, 'member@privileges.test', 'member');
      adminId = await t.createMember(scimWs.workspaceId, 'second-admin@privileges.test', 'admin');
      tokens = {
        // OAuth tokens granted by a plain member and by an admin, with every scope.
        member: await t.tokenFor(scimWs.workspaceId, ALL_SCOPES, { memberId, clientId: 'oauth-app' }),
        admin: await t.tokenFor(scimWs.workspaceId, ALL_SCOPES, { memberId: adminId, clientId: 'oauth-app' }),
        service: await t.tokenFor(scimWs.workspaceId, ALL_SCOPES),
      };
    });

    let n = 0;
    const freshUser = async () =>
      (await t.http().post('/scim/v2/Users').set(as(tokens.service)).send({ schemas: [USER], userName: `target${++n}@privileges.test` }).expect(201)).body.id as string;
    const freshGroup = async () =>
      (await t.http().post('/scim/v2/Groups').set(as(tokens.service)).send({ schemas: [GROUP], displayName: `Team ${++n}` }).expect(201)).body.id as string;
    const freshActivity = async () => {
      const api_slug = `guarded_${++n}`;
      await t.http().post('/v2/activities').set(as(tokens.service)).send({ data: { api_slug, singular_noun: 'one', plural_noun: 'many', extends: 'activities' } }).expect(200);
      return api_slug;
    };

    const actions: Array<{ name: string; run: (token: string) => Promise<{ status: number }> }> = [
      { name: 'POST /Users', run: (token) => t.http().post('/scim/v2/Users').set(as(token)).send({ schemas: [USER], userName: `new${++n}@privileges.test` }) },
      { name: 'PUT /Users/{id}', run: async (token) => t.http().put(`/scim/v2/Users/${await freshUser()}`).set(as(token)).send({ schemas: [USER], userName: `put${++n}@privileges.test` }) },
      {
        name: 'PATCH /Users/{id}',
        run: async (token) => t.http().patch(`/scim/v2/Users/${await freshUser()}`).set(as(token)).send({ schemas: [PATCH], Operations: [{ op: 'replace', path: 'title', value: 'x' }] }),
      },
      { name: 'DELETE /Users/{id}', run: async (token) => t.http().delete(`/scim/v2/Users/${await freshUser()}`).set(as(token)) },
      { name: 'POST /Groups', run: (token) => t.http().post('/scim/v2/Groups').set(as(token)).send({ schemas: [GROUP], displayName: `New ${++n}` }) },
      { name: 'PUT /Groups/{id}', run: async (token) => t.http().put(`/scim/v2/Groups/${await freshGroup()}`).set(as(token)).send({ schemas: [GROUP], displayName: `Put ${++n}` }) },
      {
        name: 'PATCH /Groups/{id}',
        run: async (token) => t.http().patch(`/scim/v2/Groups/${await freshGroup()}`).set(as(token)).send({ schemas: [PATCH], Operations: [{ op: 'replace', path: 'displayName', value: `Patched ${++n}` }] }),
      },
      { name: 'DELETE /Groups/{id}', run: async (token) => t.http().delete(`/scim/v2/Groups/${await freshGroup()}`).set(as(token)) },
      { name: 'DELETE /v2/activities/{activity}', run: async (token) => t.http().delete(`/v2/activities/${await freshActivity()}`).set(as(token)) },
    ];

    for (const action of actions) {
      it(`${action.name}: refused (403) to a plain member's token, allowed to an admin's and to a service token`, async () => {
        expect((await action.run(tokens.member)).status).toBe(403);
        expect([200, 201, 204]).toContain((await action.run(tokens.admin)).status);
        expect([200, 201, 204]).toContain((await action.run(tokens.service)).status);
      });
    }

    it('reads stay open to every token with the scope', async () => {
      for (const token of Object.values(tokens)) {
        await scimUsers(token).expect(200);
        await t.http().get('/scim/v2/Groups').set(as(token)).expect(200);
      }
    });

    it("the issue's escalation: a member's token can neither promote itself, nor demote the admin, nor then delete an activity; nothing changed", async () => {
      const refused = await t
        .http()
        .patch(`/scim/v2/Users/${memberId}`)
        .set(as(tokens.member))
        .send({ schemas: [PATCH], Operations: [{ op: 'replace', path: 'appRole', value: 'admin' }] })
        .expect(403);
      expect(refused.body).toMatchObject({ status: '403', detail: expect.stringContaining('admin') });
      await t.http().patch(`/scim/v2/Users/${adminId}`).set(as(tokens.member)).send({ schemas: [PATCH], Operations: [{ op: 'replace', path: 'appRole', value: 'member' }] }).expect(403);
      await t.http().delete(`/v2/activities/${await freshActivity()}`).set(as(tokens.member)).expect(403);
      const members = (await t.http().get('/v2/workspace_members').set(as(tokens.service)).expect(200)).body.data as Array<{ id: { workspace_member_id: string }; access_level: string }>;
      const level = (id: string) => members.find((m) => m.id.workspace_member_id === id)?.access_level;
      expect([level(memberId), level(adminId)]).toEqual(['member', 'admin']);
    });

    it('a demoted admin loses admin rights at once, its token included; an admin token cannot re-promote its own member', async () => {
      const demotable = await t.createMember(scimWs.workspaceId, 'demotable@privileges.test', 'admin');
      const own = await t.tokenFor(scimWs.workspaceId, ALL_SCOPES, { memberId: demotable, clientId: 'oauth-app' });
      // It may lower its own level...
      await t.http().patch(`/scim/v2/Users/${demotable}`).set(as(own)).send({ schemas: [PATCH], Operations: [{ op: 'replace', path: 'appRole', value: 'member' }] }).expect(200);
      // ...and from then on it is a member's token: no SCIM writes, no raising itself back.
      await t.http().patch(`/scim/v2/Users/${demotable}`).set(as(own)).send({ schemas: [PATCH], Operations: [{ op: 'replace', path: 'appRole', value: 'admin' }] }).expect(403);
      await t.http().post('/scim/v2/Users').set(as(own)).send({ schemas: [USER], userName: `late${++n}@privileges.test` }).expect(403);
      // The service token promotes it back; the member's token is an admin's again.
      await t.http().patch(`/scim/v2/Users/${demotable}`).set(as(tokens.service)).send({ schemas: [PATCH], Operations: [{ op: 'replace', path: 'appRole', value: 'admin' }] }).expect(200);
      await t.http().post('/scim/v2/Users').set(as(own)).send({ schemas: [USER], userName: `later${++n}@privileges.test` }).expect(201);
    });
  });
});
