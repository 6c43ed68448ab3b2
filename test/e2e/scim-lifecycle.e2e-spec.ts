import { MemberProvisioning } from '@workbase/access';
import { SCOPES } from '@workbase/shared/kernel';
import { DataSource } from 'typeorm';
import { COMMANDS } from '../../apps/cli/src/commands';
import { type Body, expectScimError, GROUP, PATCH, USER } from '../support/scim';
import { useTestApp, useWorkspace } from '../support/suite';

/**
 * SCIM Users and Groups as the spec's state table, PATCH body table and group rules describe them:
 * every transition with its exact status, token cut-off, team membership on delete, uniqueness,
 * the CLI that verifies a domain, and the `workspace-member.created` event.
 */
describe('SCIM states, transitions, PATCH rules and groups', () => {
  const t = useTestApp();
  const ws = useWorkspace(t, 'scim-states');
  let token: string;

  const h = () => ({ Authorization: `Bearer ${token}` });
  const createUser = async (userName: string, extra: Body = {}) =>
    (await t.http().post('/scim/v2/Users').set(h()).send({ schemas: [USER], userName, ...extra }).expect(201)).body as Body & { id: string };
  const getUser = (id: string) => t.http().get(`/scim/v2/Users/${id}`).set(h());
  const patchUser = (id: string, Operations: unknown[], schemas: unknown = [PATCH]) => t.http().patch(`/scim/v2/Users/${id}`).set(h()).send({ schemas, Operations });
  const createGroup = async (displayName: string, members: string[] = []) =>
    (await t.http().post('/scim/v2/Groups').set(h()).send({ schemas: [GROUP], displayName, members: members.map((value) => ({ value })) }).expect(201)).body as Body & {
      id: string;
    };
  const memberIds = async (groupId: string) =>
    ((await t.http().get(`/scim/v2/Groups/${groupId}`).set(h()).expect(200)).body.members as Array<{ value: string }>).map((m) => m.value);
  const tokenWorks = async (bearer: string) => (await t.http().get('/scim/v2/Schemas').set({ Authorization: `Bearer ${bearer}` })).status;

  beforeAll(async () => {
    token = await t.tokenFor(ws.workspaceId, [SCOPES.userManagementReadWrite]);
    await t.app.get(MemberProvisioning).addVerifiedEmailDomain(ws.workspaceId, 'corp.example');
  });

  describe('creation: verified domain → active member (with event), otherwise a pending invite', () => {
    it('a verified-domain user is an active member at once and workspace-member.created is in the outbox', async () => {
      const user = await createUser('Grace@Corp.example', { name: { givenName: 'Grace', familyName: 'Hopper' }, appRole: 'admin' });
      expect(user).toMatchObject({ userName: 'Grace@Corp.example', active: true, appRole: 'admin', emails: [{ value: 'Grace@Corp.example', primary: true, type: 'work' }] });
      const member = await t.http().get(`/v2/workspace_members/${user.id}`).set({ Authorization: `Bearer ${ws.token}` }).expect(200);
      expect(member.body.data).toMatchObject({ email_address: 'Grace@Corp.example', access_level: 'admin' });
      const events: Array<{ event_type: string; entity_id: Body; actor: Body }> = await t.app
        .get(DataSource)
        .query(`SELECT event_type, entity_id, actor FROM event_outbox WHERE workspace_id = $1 AND entity_id->>'workspace_member_id' = $2`, [ws.workspaceId, user.id]);
      expect(events).toEqual([
        { event_type: 'workspace-member.created', entity_id: { workspace_id: ws.workspaceId, workspace_member_id: user.id }, actor: { type: 'api-token', id: expect.any(String) } },
      ]);
    });

    it('an unverified-domain user is a pending invite (active, not a member, no event)', async () => {
      const user = await createUser('pat@elsewhere.example');
      expect(user).toMatchObject({ active: true, appRole: 'member' });
      await t.http().get(`/v2/workspace_members/${user.id}`).set({ Authorization: `Bearer ${ws.token}` }).expect(404);
      const [{ n }] = await t.app.get(DataSource).query(`SELECT count(*)::int AS n FROM event_outbox WHERE entity_id->>'workspace_member_id' = $1`, [user.id]);
      expect(n).toBe(0);
    });

    it('active:false at create gives a suspended member (verified) or a deprovisioned invite', async () => {
      const member = await createUser('off@corp.example', { active: 'False' });
      expect(member.active).toBe(false);
      expect(member).not.toHaveProperty('appRole');
      const invite = await createUser('off@elsewhere.example', { active: false });
      expect(invite).toMatchObject({ active: false, appRole: 'member' });
    });

    it('CLI workspace:verify-domain normalises the domain, and users at it become members', async () => {
      const command = COMMANDS['workspace:verify-domain'];
      const out = await command.run({ workspace: ws.slug, domain: ' @Verified-Later.EXAMPLE. ' }, t.app);
      expect(out).toEqual({ workspace_id: ws.workspaceId, verified_email_domains: expect.arrayContaining(['corp.example', 'verified-later.example']) });
      // Idempotent: a second run adds nothing.
      const again = await command.run({ workspace: ws.workspaceId, domain: 'verified-later.example' }, t.app);
      expect((again.verified_email_domains as string[]).filter((d) => d === 'verified-later.example')).toHaveLength(1);
      await expect(command.run({ workspace: ws.slug, domain: 'not a domain' }, t.app)).rejects.toMatchObject({ code: 'validation_type' });
      const user = await createUser('new@VERIFIED-later.example');
      await t.http().get(`/v2/workspace_members/${user.id}`).set({ Authorization: `Bearer ${ws.token}` }).expect(200);
    });

    it('userName is required, must be an email, and is unique case-insensitively across members and invites (409 uniqueness)', async () => {
      expectScimError(await t.http().post('/scim/v2/Users').set(h()).send({ schemas: [USER], name: { givenName: 'x' } }), 400, 'invalidValue');
      expectScimError(await t.http().post('/scim/v2/Users').set(h()).send({ schemas: [USER], userName: 'not-an-email' }), 400, 'invalidValue');
      expectScimError(await t.http().post('/scim/v2/Users').set(h()).send({ userName: 'noschema@corp.example' }), 400, 'invalidSyntax');
      expectScimError(await t.http().post('/scim/v2/Users').set(h()).send({ schemas: [USER], userName: 'x@corp.example', active: 'maybe' }), 400, 'invalidValue');
      expectScimError(await t.http().post('/scim/v2/Users').set(h()).send({ schemas: [USER], userName: 'x@corp.example', appRole: 'owner' }), 400, 'invalidValue');
      expectScimError(await t.http().post('/scim/v2/Users').set(h()).send({ schemas: [USER], userName: 'GRACE@corp.EXAMPLE' }), 409, 'uniqueness');
      expectScimError(await t.http().post('/scim/v2/Users').set(h()).send({ schemas: [USER], userName: 'PAT@elsewhere.example' }), 409, 'uniqueness');
      // The workspace's own admin (created outside SCIM) holds its address too.
      expectScimError(await t.http().post('/scim/v2/Users').set(h()).send({ schemas: [USER], userName: 'admin@scim-states.test' }), 409, 'uniqueness');
    });
  });

  describe('the state table', () => {
    it('active member, DELETE → gone for SCIM (404, not listed), tokens stop at once, out of every team; the member stays readable on /v2', async () => {
      const user = await createUser('del-member@corp.example', { name: { givenName: 'Del', familyName: 'Member' } });
      const own = await t.tokenFor(ws.workspaceId, [SCOPES.userManagementRead], { memberId: user.id });
      expect(await tokenWorks(own)).toBe(200);
      const g1 = await createGroup('Suspend team 1', [user.id]);
      const g2 = await createGroup('Suspend team 2', [user.id]);

      const res = await t.http().delete(`/scim/v2/Users/${user.id}`).set(h()).expect(204);
      expect(res.text).toBe('');
      expect(await tokenWorks(own)).toBe(401);
      await getUser(user.id).expect(404);
      const listed = (await t.http().get('/scim/v2/Users').query({ filter: 'userName eq "del-member@corp.example"' }).set(h()).expect(200)).body;
      expect(listed.totalResults).toBe(0);
      expect(await memberIds(g1.id)).toEqual([]);
      expect(await memberIds(g2.id)).toEqual([]);
      const member = await t.http().get(`/v2/workspace_members/${user.id}`).set({ Authorization: `Bearer ${ws.token}` }).expect(200);
      expect(member.body.data.access_level).toBe('suspended');
      // Gone: deleting again, patching or replacing it is 404, and the token stays cut off.
      expectScimError(await t.http().delete(`/scim/v2/Users/${user.id}`).set(h()), 404);
      expectScimError(await patchUser(user.id, [{ op: 'replace', value: { active: true } }]), 404);
      expect(await tokenWorks(own)).toBe(401);
      // Its userName is free: a new POST creates a new user.
      const again = await createUser('del-member@corp.example');
      expect(again.id).not.toBe(user.id);
    });

    it('pending invite, DELETE → invite cancelled: 204 empty, then 404, out of every team, and its userName is free again', async () => {
      const invite = await createUser('del-invite@elsewhere.example');
      const team = await createGroup('Invite team', [invite.id]);
      const res = await t.http().delete(`/scim/v2/Users/${invite.id}`).set(h()).expect(204);
      expect(res.text).toBe('');
      expectScimError(await getUser(invite.id), 404);
      expectScimError(await t.http().delete(`/scim/v2/Users/${invite.id}`).set(h()), 404);
      expectScimError(await patchUser(invite.id, [{ op: 'replace', path: 'active', value: true }]), 404);
      expect(await memberIds(team.id)).toEqual([]);
      const again = await createUser('DEL-invite@elsewhere.example');
      expect(again.id).not.toBe(invite.id);
    });

    it('active member, PATCH active=false → deprovisioned: 200 with the user, tokens stop; Okta reactivation restores both', async () => {
      const user = await createUser('deprov@corp.example', { appRole: 'admin' });
      const own = await t.tokenFor(ws.workspaceId, [SCOPES.userManagementRead], { memberId: user.id });
      const team = await createGroup('Deprov team', [user.id]);
      const res = await patchUser(user.id, [{ op: 'replace', path: 'active', value: false }]).expect(200);
      expect(res.headers['content-type']).toMatch(/^application\/scim\+json/);
      expect(res.body).toMatchObject({ schemas: [USER], id: user.id, active: false });
      expect(await tokenWorks(own)).toBe(401);
      // Deprovisioning is not a delete: team membership stays, the user is still found by filter.
      expect(await memberIds(team.id)).toEqual([user.id]);
      const found = await t.http().get(`/scim/v2/Users?filter=${encodeURIComponent('userName eq "DEPROV@corp.example"')}`).set(h()).expect(200);
      expect(found.body.Resources).toEqual([expect.objectContaining({ id: user.id, active: false })]);
      // Setting it inactive again is a no-op answered with the user.
      expect((await patchUser(user.id, [{ op: 'replace', path: 'active', value: 'false' }]).expect(200)).body.active).toBe(false);

      const back = await patchUser(user.id, [{ op: 'replace', value: { active: true } }]).expect(200);
      expect(back.body).toMatchObject({ active: true, appRole: 'admin' });
      expect(await tokenWorks(own)).toBe(200);
    });

    it('pending invite, PATCH active=false → deprovisioned: 204 empty; still listed inactive; active=true → pending again (200)', async () => {
      const invite = await createUser('deprov-invite@elsewhere.example');
      const res = await patchUser(invite.id, [{ op: 'Replace', path: 'active', value: 'False' }]).expect(204);
      expect(res.text).toBe('');
      expect((await getUser(invite.id).expect(200)).body).toMatchObject({ active: false, appRole: 'member' });
      const back = await patchUser(invite.id, [{ op: 'Replace', path: 'active', value: 'True' }]).expect(200);
      expect(back.body.active).toBe(true);
      // A deprovisioned invite that is deleted is cancelled too.
      await patchUser(invite.id, [{ op: 'replace', path: 'active', value: false }]).expect(204);
      await t.http().delete(`/scim/v2/Users/${invite.id}`).set(h()).expect(204);
      await getUser(invite.id).expect(404);
    });

    it('PUT with active:false deprovisions (Okta custom apps) and active:true restores; omitted attributes keep their values', async () => {
      const user = await createUser('put@corp.example', { name: { givenName: 'Put', familyName: 'Me' }, externalId: 'okta-1', appRole: 'admin' });
      const off = await t.http().put(`/scim/v2/Users/${user.id}`).set(h()).send({ schemas: [USER], userName: 'put@corp.example', name: { givenName: 'Put', familyName: 'Me' }, active: false }).expect(200);
      expect(off.body).toMatchObject({ active: false, externalId: 'okta-1' });
      const on = await t.http().put(`/scim/v2/Users/${user.id}`).set(h()).send({ schemas: [USER], userName: 'Put@corp.example', active: true, id: 'ignored', meta: { created: 'x' } }).expect(200);
      // PUT replaces: the omitted name is cleared; externalId, active and appRole keep their values.
      expect(on.body).toMatchObject({ id: user.id, userName: 'Put@corp.example', active: true, appRole: 'admin', externalId: 'okta-1', name: {} });
      expectScimError(await t.http().put(`/scim/v2/Users/${user.id}`).set(h()).send({ schemas: [USER], userName: 'grace@corp.example' }), 409, 'uniqueness');
      expectScimError(await t.http().put(`/scim/v2/Users/${user.id}`).set(h()).send({ schemas: [USER] }), 400, 'invalidValue');
    });
  });

  describe('PATCH body rules', () => {
    let id: string;
    beforeAll(async () => {
      id = (await createUser('patch@corp.example', { name: { givenName: 'Pat', familyName: 'Ch' } })).id;
    });

    it('schemas must include the PatchOp URN and Operations must be an array of objects with a known op', async () => {
      expectScimError(await patchUser(id, [{ op: 'replace', path: 'active', value: true }], [USER]), 400, 'invalidSyntax');
      expectScimError(await patchUser(id, [{ op: 'replace', path: 'active', value: true }], null), 400, 'invalidSyntax');
      expectScimError(await t.http().patch(`/scim/v2/Users/${id}`).set(h()).send({ schemas: [PATCH], Operations: { op: 'replace' } }), 400, 'invalidSyntax');
      expectScimError(await t.http().patch(`/scim/v2/Users/${id}`).set(h()).send({ schemas: [PATCH] }), 400, 'invalidSyntax');
      expectScimError(await patchUser(id, ['replace']), 400, 'invalidSyntax');
      expectScimError(await patchUser(id, [{ op: 'move', path: 'active', value: true }]), 400, 'invalidSyntax');
      expectScimError(await patchUser(id, [{ op: 'replace', path: 42, value: true }]), 400, 'invalidPath');
    });

    it('applies operations in order; remove works on name.givenName and name.familyName only', async () => {
      const res = await patchUser(id, [
        { op: 'replace', path: 'name.givenName', value: 'First' },
        { op: 'replace', path: 'name.givenName', value: 'Second' },
        { op: 'remove', path: 'name.familyName' },
        { op: 'add', path: 'appRole', value: 'Admin' },
      ]).expect(200);
      expect(res.body).toMatchObject({ name: { givenName: 'Second' }, appRole: 'admin' });
      expect(res.body.name).not.toHaveProperty('familyName');
      expect((await patchUser(id, [{ op: 'remove', path: 'name.givenName' }]).expect(200)).body.name).toEqual({});
      for (const path of ['active', 'userName', 'appRole']) expectScimError(await patchUser(id, [{ op: 'remove', path }]), 400, 'mutability');
      expectScimError(await patchUser(id, [{ op: 'remove' }]), 400, 'noTarget');
    });

    it('is atomic: a failing operation leaves the user as it was', async () => {
      await patchUser(id, [{ op: 'replace', path: 'name.givenName', value: 'Kept' }]).expect(200);
      expectScimError(await patchUser(id, [{ op: 'replace', path: 'name.givenName', value: 'Lost' }, { op: 'replace', path: 'active', value: 'maybe' }]), 400, 'invalidValue');
      expectScimError(await patchUser(id, [{ op: 'replace', path: 'name.givenName', value: 'Lost' }, { op: 'replace', path: 'userName', value: 'grace@corp.example' }]), 409, 'uniqueness');
      expect((await getUser(id).expect(200)).body.name.givenName).toBe('Kept');
    });

    it('path-less value objects: plain, dotted, URN-qualified and nested-under-URN keys; other schemas ignored', async () => {
      const res = await patchUser(id, [
        {
          op: 'Replace',
          value: {
            'NAME.GIVENNAME': 'Dotted',
            [`${USER}:name.familyName`]: 'Urn',
            [USER]: { appRole: 'member' },
            'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User': { department: 'R&D' },
            externalId: 'ext-patch',
          },
        },
      ]).expect(200);
      expect(res.body).toMatchObject({ name: { givenName: 'Dotted', familyName: 'Urn' }, appRole: 'member', externalId: 'ext-patch' });
      expectScimError(await patchUser(id, [{ op: 'replace', value: 'not an object' }]), 400, 'invalidValue');
      expectScimError(await patchUser(id, [{ op: 'replace', value: { active: 'nope' } }]), 400, 'invalidValue');
    });

    it('Entra: emails[type eq "work"].value creates or updates the work address (and so the member email); a malformed path is 400 invalidPath', async () => {
      const res = await patchUser(id, [{ op: 'Add', path: 'emails[type eq "work"].value', value: 'other@corp.example' }]).expect(200);
      expect(res.body.emails).toEqual([{ type: 'work', value: 'other@corp.example' }]);
      const member = await t.http().get(`/v2/workspace_members/${id}`).set({ Authorization: `Bearer ${ws.token}` }).expect(200);
      expect(member.body.data.email_address).toBe('other@corp.example');
      expectScimError(await patchUser(id, [{ op: 'replace', path: 'emails[type eq "work"', value: 'x' }]), 400, 'invalidPath');
      expectScimError(await patchUser(id, [{ op: 'replace', path: 'emails[nope eq "work"].value', value: 'x' }]), 400, 'invalidPath');
      expectScimError(await patchUser(id, [{ op: 'replace', path: 'active[type eq "x"]', value: true }]), 400, 'invalidPath');
    });

    it('empty Operations is a no-op answered with the user', async () => {
      const before = (await getUser(id).expect(200)).body;
      const res = await patchUser(id, []).expect(200);
      expect(res.body).toEqual(before);
    });
  });

  describe('groups (teams)', () => {
    let a: string;
    let b: string;
    beforeAll(async () => {
      a = (await createUser('ga@corp.example')).id;
      b = (await createUser('gb@elsewhere.example')).id;
    });

    it('displayName is required, non-empty after trimming and unique case-insensitively (POST, PUT, PATCH)', async () => {
      const post = (body: Body) => t.http().post('/scim/v2/Groups').set(h()).send({ schemas: [GROUP], ...body });
      expectScimError(await post({}), 400, 'invalidValue');
      expectScimError(await post({ displayName: '   ' }), 400, 'invalidValue');
      expectScimError(await post({ displayName: 7 }), 400, 'invalidValue');
      expectScimError(await t.http().post('/scim/v2/Groups').set(h()).send({ displayName: 'No schemas' }), 400, 'invalidSyntax');
      const first = await createGroup('  Platform  ');
      expect(first.displayName).toBe('Platform');
      expectScimError(await post({ displayName: 'PLATFORM' }), 409, 'uniqueness');
      const second = await createGroup('Platform 2');
      expectScimError(await t.http().put(`/scim/v2/Groups/${second.id}`).set(h()).send({ schemas: [GROUP], displayName: 'platform' }), 409, 'uniqueness');
      expectScimError(
        await t.http().patch(`/scim/v2/Groups/${second.id}`).set(h()).send({ schemas: [PATCH], Operations: [{ op: 'replace', path: 'displayName', value: 'Platform' }] }),
        409,
        'uniqueness',
      );
      expectScimError(await t.http().patch(`/scim/v2/Groups/${second.id}`).set(h()).send({ schemas: [PATCH], Operations: [{ op: 'replace', path: 'displayName', value: '' }] }), 400, 'invalidValue');
      expectScimError(await t.http().patch(`/scim/v2/Groups/${second.id}`).set(h()).send({ schemas: [PATCH], Operations: [{ op: 'remove', path: 'displayName' }] }), 400, 'mutability');
      // Renaming to a different case of its own name is fine.
      await t.http().patch(`/scim/v2/Groups/${first.id}`).set(h()).send({ schemas: [PATCH], Operations: [{ op: 'replace', path: 'displayName', value: 'PLATFORM' }] }).expect(204);
    });

    it('members: shape, add without duplicates, PUT replaces name and list, unknown ids 400, a failing PATCH changes nothing', async () => {
      const group = await createGroup('Members', [a]);
      expect(group.members).toEqual([{ value: a, $ref: `http://localhost:3000/scim/v2/Users/${a}`, type: 'User', display: 'ga@corp.example' }]);
      await t
        .http()
        .patch(`/scim/v2/Groups/${group.id}`)
        .set(h())
        .send({ schemas: [PATCH], Operations: [{ op: 'add', path: 'members', value: [{ value: a }, { value: b }, { value: b }] }] })
        .expect(204);
      expect(await memberIds(group.id)).toEqual([a, b]);
      expectScimError(
        await t
          .http()
          .patch(`/scim/v2/Groups/${group.id}`)
          .set(h())
          .send({ schemas: [PATCH], Operations: [{ op: 'remove', path: 'members' }, { op: 'add', path: 'members', value: [{ value: '6f1c1d3e-0000-4000-8000-000000000000' }] }] }),
        400,
        'invalidValue',
      );
      expect(await memberIds(group.id)).toEqual([a, b]);
      const put = await t.http().put(`/scim/v2/Groups/${group.id}`).set(h()).send({ schemas: [GROUP], displayName: 'Members renamed', members: [{ value: b }] }).expect(200);
      expect(put.body).toMatchObject({ displayName: 'Members renamed', members: [expect.objectContaining({ value: b })] });
      // PATCH with attributes asked for answers 200 with the group.
      const patched = await t
        .http()
        .patch(`/scim/v2/Groups/${group.id}?excludedAttributes=members`)
        .set(h())
        .send({ schemas: [PATCH], Operations: [{ op: 'replace', value: { members: [{ value: a }], externalId: 'ext-g' } }] })
        .expect(200);
      expect(patched.body).toMatchObject({ id: group.id, externalId: 'ext-g' });
      expect(patched.body).not.toHaveProperty('members');
      expect(await memberIds(group.id)).toEqual([a]);
      // Remove with a filter naming something members do not have is a 400, even when nothing would match.
      const empty = await createGroup('Empty for filter');
      expectScimError(await t.http().patch(`/scim/v2/Groups/${empty.id}`).set(h()).send({ schemas: [PATCH], Operations: [{ op: 'remove', path: 'members[nope eq "x"]' }] }), 400, 'invalidPath');
      expectScimError(await t.http().patch(`/scim/v2/Groups/${group.id}`).set(h()).send({ schemas: [PATCH], Operations: [{ op: 'replace', path: 'members.value', value: 'x' }] }), 400, 'invalidPath');
    });

    it('Entra: remove members with a value array and with a filter, several members in one PATCH', async () => {
      const c = (await createUser('gc@corp.example')).id;
      const group = await createGroup('Entra multi', [a, b, c]);
      await t
        .http()
        .patch(`/scim/v2/Groups/${group.id}`)
        .set(h())
        .send({ schemas: [PATCH], Operations: [{ op: 'Remove', path: 'members', value: [{ $ref: null, value: a }, { $ref: null, value: c }] }] })
        .expect(204);
      expect(await memberIds(group.id)).toEqual([b]);
      await t
        .http()
        .patch(`/scim/v2/Groups/${group.id}`)
        .set(h())
        .send({ schemas: [PATCH], Operations: [{ op: 'Add', path: 'members', value: [{ value: a }, { value: c }] }, { op: 'remove', path: `members[value eq "${b}" or value eq "${c}"]` }] })
        .expect(204);
      expect(await memberIds(group.id)).toEqual([a]);
    });

    it('deleting a team leaves its members; deleting a user removes them from every team', async () => {
      const group = await createGroup('Doomed', [a, b]);
      const keep = await createGroup('Keeps b', [a, b]);
      await t.http().delete(`/scim/v2/Groups/${group.id}`).set(h()).expect(204);
      expectScimError(await t.http().get(`/scim/v2/Groups/${group.id}`).set(h()), 404);
      expectScimError(await t.http().delete(`/scim/v2/Groups/${group.id}`).set(h()), 404);
      expect((await getUser(a).expect(200)).body.active).toBe(true);
      expect((await getUser(b).expect(200)).body.active).toBe(true);
      await t.http().delete(`/scim/v2/Users/${b}`).set(h()).expect(204);
      expect(await memberIds(keep.id)).toEqual([a]);
    });
  });
});
