import { MemberProvisioning } from '@workbase/access';
import { SCOPES } from '@workbase/shared/kernel';
import { ERROR, GROUP, LIST, patchOp, USER } from '../support/scim';
import { useTestApp, useWorkspace } from '../support/suite';

describe('SCIM interoperability: Okta and Microsoft Entra ID request sequences', () => {
  const t = useTestApp();
  const ws = useWorkspace(t, 'scim-interop');
  let scim: string;

  beforeAll(async () => {
    scim = await t.tokenFor(ws.workspaceId, [SCOPES.userManagementReadWrite]);
    await t.app.get(MemberProvisioning).addVerifiedEmailDomain(ws.workspaceId, 'okta.example');
  });

  const auth = { Authorization: '' };
  const okta = () => ({ Authorization: `Bearer ${scim}`, 'User-Agent': 'Okta SCIM Client 1.0.0', Accept: 'application/scim+json' });
  const expectScimError = (body: Record<string, unknown>, status: number, scimType?: string) => {
    expect(body).toEqual({ schemas: [ERROR], status: String(status), detail: expect.any(String), ...(scimType ? { scimType } : {}) });
    expect((body.detail as string).length).toBeGreaterThan(0);
  };

  describe('Okta', () => {
    let userId: string;
    let groupId: string;
    const userName = 'Test.User@okta.example';

    it('SPEC test: list with count=1, then GET the first user, with integer paging fields', async () => {
      const list = await t.http().get('/scim/v2/Users?count=1&startIndex=1').set(okta()).expect(200);
      expect(list.headers['content-type']).toMatch(/^application\/scim\+json/);
      expect(list.body).toMatchObject({ schemas: [LIST], totalResults: 1, startIndex: 1, itemsPerPage: 1 });
      const first = list.body.Resources[0];
      expect(first).toMatchObject({ id: expect.any(String), userName: `admin@scim-interop.test`, active: true, emails: [{ value: 'admin@scim-interop.test', primary: true, type: 'work' }] });
      const got = await t.http().get(`/scim/v2/Users/${first.id}`).set(okta()).expect(200);
      expect(got.body.id).toBe(first.id);
    });

    it('existence check by userName eq finds nothing: 200 with an empty ListResponse', async () => {
      const res = await t.http().get(`/scim/v2/Users?filter=${encodeURIComponent(`userName eq "${userName}"`)}&startIndex=1&count=100`).set(okta()).expect(200);
      expect(res.body).toEqual({ schemas: [LIST], totalResults: 0, startIndex: 1, itemsPerPage: 0, Resources: [] });
    });

    it('the unencoded SPEC-test filter form works too', async () => {
      const res = await t.http().get('/scim/v2/Users?filter=userName eq "nobody@okta.example"').set(okta()).expect(200);
      expect(res.body.totalResults).toBe(0);
    });

    it('creates the user (201, Location, echoed values) as an active member of the verified domain', async () => {
      const res = await t
        .http()
        .post('/scim/v2/Users')
        .set({ ...okta(), 'Content-Type': 'application/json' })
        .send({
          schemas: [USER],
          userName,
          name: { givenName: 'Test', familyName: 'User' },
          emails: [{ primary: true, value: userName, type: 'work' }],
          displayName: 'Test User',
          locale: 'en-US',
          externalId: '00u1okta',
          groups: [],
          password: '1mPr0b4bl3!',
          active: true,
        })
        .expect(201);
      userId = res.body.id;
      expect(res.headers.location).toBe(`http://localhost:3000/scim/v2/Users/${userId}`);
      expect(res.body).toMatchObject({
        schemas: [USER],
        userName,
        name: { givenName: 'Test', familyName: 'User' },
        active: true,
        appRole: 'member',
        externalId: '00u1okta',
        meta: { resourceType: 'User', location: res.headers.location, version: expect.stringMatching(/^W\/"/) },
      });
      expect(res.body).not.toHaveProperty('password');
      const got = await t.http().get(`/scim/v2/Users/${userId}`).set(okta()).expect(200);
      expect(got.body).toMatchObject({ id: userId, userName, active: true });
    });

    it('a duplicate create is 409 uniqueness, also when the case differs', async () => {
      const body = { schemas: [USER], userName: userName.toUpperCase(), name: { givenName: 'Test', familyName: 'User' }, active: true };
      expectScimError((await t.http().post('/scim/v2/Users').set(okta()).send(body).expect(409)).body, 409, 'uniqueness');
    });

    it('finds the user with an upper-cased userName filter (case-insensitive)', async () => {
      const res = await t.http().get(`/scim/v2/Users?filter=${encodeURIComponent(`userName eq "${userName.toUpperCase()}"`)}`).set(okta()).expect(200);
      expect(res.body.totalResults).toBe(1);
      expect(res.body.Resources[0].id).toBe(userId);
    });

    it('updates the profile with GET then PUT of the whole object', async () => {
      const current = (await t.http().get(`/scim/v2/Users/${userId}`).set(okta()).expect(200)).body;
      const res = await t
        .http()
        .put(`/scim/v2/Users/${userId}`)
        .set(okta())
        .send({ ...current, name: { givenName: 'Tess', familyName: 'User' } })
        .expect(200);
      expect(res.body).toMatchObject({ id: userId, name: { givenName: 'Tess', familyName: 'User' }, active: true, externalId: '00u1okta' });
    });

    it('deactivates with a path-less replace (200 with the user) and the filter still finds them', async () => {
      const res = await patchOp(t, `/scim/v2/Users/${userId}`, okta(), [{ op: 'replace', value: { active: false } }]).expect(200);
      expect(res.body).toMatchObject({ id: userId, active: false });
      const found = await t.http().get(`/scim/v2/Users?filter=${encodeURIComponent(`userName eq "${userName}"`)}`).set(okta()).expect(200);
      expect(found.body.Resources[0]).toMatchObject({ id: userId, active: false });
    });

    it('reactivates with a path-less replace', async () => {
      const res = await patchOp(t, `/scim/v2/Users/${userId}`, okta(), [{ op: 'replace', value: { active: true } }]).expect(200);
      expect(res.body.active).toBe(true);
    });

    it('custom (AIW) apps deactivate and reactivate with PUT', async () => {
      const current = (await t.http().get(`/scim/v2/Users/${userId}`).set(okta()).expect(200)).body;
      expect((await t.http().put(`/scim/v2/Users/${userId}`).set(okta()).send({ ...current, active: false }).expect(200)).body.active).toBe(false);
      expect((await t.http().put(`/scim/v2/Users/${userId}`).set(okta()).send({ ...current, active: true }).expect(200)).body.active).toBe(true);
    });

    it('pushes a group, then adds, removes and replaces members', async () => {
      const second = (
        await t.http().post('/scim/v2/Users').set(okta()).send({ schemas: [USER], userName: 'second@okta.example', name: { givenName: 'Sec', familyName: 'Ond' } }).expect(201)
      ).body.id;
      const created = await t.http().post('/scim/v2/Groups').set(okta()).send({ schemas: [GROUP], displayName: 'Test SCIMv2', members: [] }).expect(201);
      groupId = created.body.id;
      expect(created.headers.location).toBe(`http://localhost:3000/scim/v2/Groups/${groupId}`);
      expect(created.body).toMatchObject({ schemas: [GROUP], displayName: 'Test SCIMv2', members: [] });
      await t.http().get(`/scim/v2/Groups/${groupId}`).set(okta()).expect(200);

      // Rename, sent with every membership update.
      await patchOp(t, `/scim/v2/Groups/${groupId}`, okta(), [{ op: 'replace', value: { id: groupId, displayName: 'Test SCIMv2 renamed' } }]).expect(204);
      // Membership delta in one PATCH.
      await patchOp(t, `/scim/v2/Groups/${groupId}`, okta(), [
        { op: 'remove', path: `members[value eq "${second}"]` },
        { op: 'add', path: 'members', value: [{ value: userId, display: userName }, { value: second, display: 'second@okta.example' }] },
      ]).expect(204);
      let group = (await t.http().get(`/scim/v2/Groups/${groupId}`).set(okta()).expect(200)).body;
      expect(group.displayName).toBe('Test SCIMv2 renamed');
      expect(group.members.map((m: { value: string }) => m.value)).toEqual([userId, second]);
      expect(group.members[0]).toEqual({ value: userId, $ref: `http://localhost:3000/scim/v2/Users/${userId}`, type: 'User', display: userName });

      await patchOp(t, `/scim/v2/Groups/${groupId}`, okta(), [{ op: 'remove', path: `members[value eq "${userId}"]` }]).expect(204);
      group = (await t.http().get(`/scim/v2/Groups/${groupId}`).set(okta()).expect(200)).body;
      expect(group.members.map((m: { value: string }) => m.value)).toEqual([second]);

      // Full push, then "Push now" on an emptied group.
      await patchOp(t, `/scim/v2/Groups/${groupId}`, okta(), [{ op: 'replace', path: 'members', value: [{ value: userId }] }]).expect(204);
      group = (await t.http().get(`/scim/v2/Groups/${groupId}`).set(okta()).expect(200)).body;
      expect(group.members.map((m: { value: string }) => m.value)).toEqual([userId]);
      await patchOp(t, `/scim/v2/Groups/${groupId}`, okta(), [{ op: 'replace', path: 'members', value: [] }]).expect(204);
      expect((await t.http().get(`/scim/v2/Groups/${groupId}`).set(okta()).expect(200)).body.members).toEqual([]);
    });

    it('imports groups page by page and unlinks with DELETE', async () => {
      const page = await t.http().get('/scim/v2/Groups?startIndex=1&count=100').set(okta()).expect(200);
      expect(page.body).toMatchObject({ schemas: [LIST], totalResults: 1, startIndex: 1, itemsPerPage: 1 });
      await t.http().delete(`/scim/v2/Groups/${groupId}`).set(okta()).expect(204);
      await t.http().get(`/scim/v2/Groups/${groupId}`).set(okta()).expect(404);
      await t.http().get(`/scim/v2/Users/${userId}`).set(okta()).expect(200);
    });

    it('SPEC test errors: unknown ids are 404, a non-token is 401, all in the SCIM error schema', async () => {
      expectScimError((await t.http().get('/scim/v2/Users/010101001010101011001010101011').set(okta()).expect(404)).body, 404);
      expectScimError((await t.http().get('/scim/v2/Users/00919288221112222').set(okta()).expect(404)).body, 404);
      const unauth = await t.http().get('/scim/v2/Users?filter=userName eq "x@y.z"').set({ ...okta(), Authorization: 'non-token' }).expect(401);
      expect(unauth.headers['content-type']).toMatch(/^application\/scim\+json/);
      expectScimError(unauth.body, 401);
    });
  });

  describe('Microsoft Entra ID', () => {
    let userId: string;
    let groupId: string;
    const entra = () => ({ Authorization: `Bearer ${scim}`, 'Content-Type': 'application/scim+json' });

    it('Test Connection: a random-GUID filter answers 200 with an empty ListResponse', async () => {
      const guid = 'b7f1a6c1-0f2e-4a8f-9d8b-6c1f0e5a2b3c';
      for (const filter of [`userName eq "${guid}"`, `externalId eq "${guid}"`]) {
        const res = await t.http().get(`/scim/v2/Users?filter=${encodeURIComponent(filter)}`).set(entra()).expect(200);
        expect(res.body).toEqual({ schemas: [LIST], totalResults: 0, startIndex: 1, itemsPerPage: 0, Resources: [] });
      }
    });

    it('creates a user with string booleans and Entra attributes (unverified domain: a pending invite)', async () => {
      const res = await t
        .http()
        .post('/scim/v2/Users')
        .set(entra())
        .send(
          JSON.stringify({
            schemas: [USER, 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User'],
            externalId: '0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef',
            userName: 'Test_User_ab6490ee@contoso.com',
            active: 'True',
            addresses: null,
            title: null,
            emails: [{ primary: true, type: 'work', value: 'Test_User_ab6490ee@contoso.com' }],
            meta: { resourceType: 'User' },
            name: { formatted: 'Test User', familyName: 'User', givenName: 'Test' },
            roles: [],
            'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User': { employeeNumber: '42' },
          }),
        )
        .expect(201);
      userId = res.body.id;
      expect(res.body).toMatchObject({ active: true, externalId: '0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef', name: { givenName: 'Test', familyName: 'User' } });
    });

    it('matches by externalId and by emails[type eq "work"].value', async () => {
      for (const filter of ['externalId eq "0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef"', 'emails[type eq "work"].value eq "test_user_ab6490ee@contoso.com"']) {
        const res = await t.http().get(`/scim/v2/Users?filter=${encodeURIComponent(filter)}`).set(entra()).expect(200);
        expect(res.body.Resources.map((u: { id: string }) => u.id)).toEqual([userId]);
      }
    });

    it('applies capitalised ops, filtered email paths and one op per attribute (non-compliant default)', async () => {
      const res = await patchOp(t, `/scim/v2/Users/${userId}`, entra(), [
        { op: 'Replace', path: 'emails[type eq "work"].value', value: 'Test_User_ab6490ee@contoso.com' },
        { op: 'Replace', path: 'name.familyName', value: 'Updated' },
        { op: 'Add', path: 'displayName', value: 'Stored Display' },
        { op: 'Replace', path: 'userName', value: 'renamed@contoso.com' },
      ]).expect(200);
      // emails are the provider's own and no longer follow userName.
      expect(res.body).toMatchObject({
        userName: 'renamed@contoso.com',
        displayName: 'Stored Display',
        name: { givenName: 'Test', familyName: 'Updated' },
        emails: [expect.objectContaining({ value: 'Test_User_ab6490ee@contoso.com', type: 'work' })],
      });
    });

    it('applies the compliant form: a path-less value object with dotted and URN keys', async () => {
      const res = await patchOp(t, `/scim/v2/Users/${userId}`, entra(), [
        {
          op: 'replace',
          value: {
            displayName: 'Compliant',
            'name.givenName': 'Given',
            'urn:ietf:params:scim:schemas:core:2.0:User:name.familyName': 'Family',
            'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:employeeNumber': '7',
          },
        },
      ]).expect(200);
      expect(res.body.name).toMatchObject({ givenName: 'Given', familyName: 'Family' });
      expect(res.body).toMatchObject({ displayName: 'Compliant', 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User': { employeeNumber: '7' } });
    });

    it('stores the legacy enterprise manager add, and clears a name part sent as "" then null (validator null-update test)', async () => {
      const manager = await patchOp(t, `/scim/v2/Users/${userId}`, entra(), [{ op: 'Add', path: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:manager', value: [{ $ref: `http://x/Users/${userId}`, value: userId }] }]).expect(200);
      expect(manager.body['urn:ietf:params:scim:schemas:extension:enterprise:2.0:User'].manager).toEqual({ $ref: `http://x/Users/${userId}`, value: userId });
      const empty = await patchOp(t, `/scim/v2/Users/${userId}`, entra(), [{ op: 'Replace', path: 'name.givenName', value: '' }]).expect(200);
      expect(empty.body.name).not.toHaveProperty('givenName');
      expect(empty.body.name.familyName).toBe('Family');
      const nulled = await patchOp(t, `/scim/v2/Users/${userId}`, entra(), [{ op: 'Replace', path: 'name.familyName', value: null }]).expect(200);
      expect(nulled.body.name).toEqual({ formatted: 'Test User' });
      await patchOp(t, `/scim/v2/Users/${userId}`, entra(), [{ op: 'Replace', value: { 'name.givenName': 'Given', 'name.familyName': 'Family' } }]).expect(200);
    });

    it('Test Connection also fetches "a random user and group": a page of one of each answers 200', async () => {
      const users = await t.http().get('/scim/v2/Users?startIndex=1&count=1').set(entra()).expect(200);
      expect(users.body.itemsPerPage).toBe(1);
      const groups = await t.http().get('/scim/v2/Groups?excludedAttributes=members&startIndex=1&count=1').set(entra()).expect(200);
      expect(groups.body).toMatchObject({ schemas: [LIST], startIndex: 1 });
    });

    it('accepts an empty Operations array (Microsoft validator) as a no-op', async () => {
      const res = await patchOp(t, `/scim/v2/Users/${userId}`, entra(), []).expect(200);
      expect(res.body.id).toBe(userId);
    });

    it('disables a pending invite with "False" (204) and keeps it visible as inactive, then restores it', async () => {
      await patchOp(t, `/scim/v2/Users/${userId}`, entra(), [{ op: 'Replace', path: 'active', value: 'False' }]).expect(204);
      expect((await t.http().get(`/scim/v2/Users/${userId}`).set(entra()).expect(200)).body.active).toBe(false);
      const filtered = await t.http().get(`/scim/v2/Users?filter=${encodeURIComponent('externalId eq "0a21f0f2-8d2a-4f8e-bf98-7363c4aed4ef"')}`).set(entra()).expect(200);
      expect(filtered.body.Resources[0].active).toBe(false);
      const restored = await patchOp(t, `/scim/v2/Users/${userId}`, entra(), [{ op: 'Replace', path: 'active', value: 'True' }]).expect(200);
      expect(restored.body.active).toBe(true);
    });

    it('groups: create with the Entra schema list, query by displayName without members, rename, add and remove members both ways', async () => {
      const created = await t
        .http()
        .post('/scim/v2/Groups')
        .set(entra())
        .send({ schemas: [GROUP, 'http://schemas.microsoft.com/2006/11/ResourceManagement/ADSCIM/2.0/Group'], externalId: '8aa1a0c0-c4c3-4bc0-b4a5-2ef676900159', displayName: 'Group1DisplayName', meta: { resourceType: 'Group' } })
        .expect(201);
      groupId = created.body.id;
      const other = (await t.http().post('/scim/v2/Users').set(entra()).send({ schemas: [USER], userName: 'other@contoso.com', active: true }).expect(201)).body.id;

      const byName = await t.http().get(`/scim/v2/Groups?excludedAttributes=members&filter=${encodeURIComponent('displayName eq "Group1DisplayName"')}`).set(entra()).expect(200);
      expect(byName.body.totalResults).toBe(1);
      expect(byName.body.Resources[0]).not.toHaveProperty('members');
      expect((await t.http().get(`/scim/v2/Groups/${groupId}?excludedAttributes=members`).set(entra()).expect(200)).body).not.toHaveProperty('members');

      await patchOp(t, `/scim/v2/Groups/${groupId}`, entra(), [{ op: 'Replace', path: 'displayName', value: '1879db59-3bdf-4490-ad68-ab880a269474updatedDisplayName' }]).expect(204);
      await patchOp(t, `/scim/v2/Groups/${groupId}`, entra(), [{ op: 'Add', path: 'members', value: [{ $ref: null, value: userId }, { $ref: null, value: other }] }]).expect(204);
      const members = async () => ((await t.http().get(`/scim/v2/Groups/${groupId}`).set(entra()).expect(200)).body.members as Array<{ value: string }>).map((m) => m.value);
      expect(await members()).toEqual([userId, other]);
      // Legacy removal: value array.
      await patchOp(t, `/scim/v2/Groups/${groupId}`, entra(), [{ op: 'Remove', path: 'members', value: [{ $ref: null, value: userId }] }]).expect(204);
      expect(await members()).toEqual([other]);
      // Compliant removal: filtered path.
      await patchOp(t, `/scim/v2/Groups/${groupId}`, entra(), [{ op: 'remove', path: `members[value eq "${other}"]` }]).expect(204);
      expect(await members()).toEqual([]);
      const filtered = await t.http().get(`/scim/v2/Groups?filter=${encodeURIComponent('externalId eq "8aa1a0c0-c4c3-4bc0-b4a5-2ef676900159"')}`).set(entra()).expect(200);
      expect(filtered.body.Resources[0].displayName).toBe('1879db59-3bdf-4490-ad68-ab880a269474updatedDisplayName');
    });

    it('deletes the user (invite cancelled: 404 afterwards) and the group', async () => {
      await t.http().delete(`/scim/v2/Users/${userId}`).set(entra()).expect(204);
      await t.http().get(`/scim/v2/Users/${userId}`).set(entra()).expect(404);
      await t.http().delete(`/scim/v2/Groups/${groupId}`).set(entra()).expect(204);
    });
  });

  describe('protocol', () => {
    it('tolerates trailing slashes on collections', async () => {
      await t.http().get('/scim/v2/Users/?filter=userName%20eq%20%22none@x.io%22').set({ Authorization: `Bearer ${scim}` }).expect(200);
      await t.http().get('/scim/v2/Groups/').set({ Authorization: `Bearer ${scim}` }).expect(200);
    });

    it('403s a token without user_management scopes, in the SCIM error schema', async () => {
      const other = await t.tokenFor(ws.workspaceId, [SCOPES.noteRead]);
      const res = await t.http().get('/scim/v2/Users').set({ Authorization: `Bearer ${other}` }).expect(403);
      expect(res.headers['content-type']).toMatch(/^application\/scim\+json/);
      expectScimError(res.body, 403);
      const readOnly = await t.tokenFor(ws.workspaceId, [SCOPES.userManagementRead]);
      await t.http().get('/scim/v2/Users').set({ Authorization: `Bearer ${readOnly}` }).expect(200);
      expectScimError((await t.http().post('/scim/v2/Users').set({ Authorization: `Bearer ${readOnly}` }).send({ schemas: [USER], userName: 'ro@x.io' }).expect(403)).body, 403);
    });

    it('401s a request without a token, in the SCIM error schema', async () => {
      auth.Authorization = '';
      expectScimError((await t.http().get('/scim/v2/Groups').expect(401)).body, 401);
      expectScimError((await t.http().get('/scim/v2/Schemas').expect(401)).body, 401);
    });
  });
});
