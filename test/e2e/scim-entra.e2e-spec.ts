import { randomUUID } from 'node:crypto';
import { MemberProvisioning } from '@workbase/access';
import { ENTERPRISE, GROUP, LIST, patchOp, USER } from '../support/scim';
import { useTestApp, useWorkspace } from '../support/suite';

const AD_GROUP = 'http://schemas.microsoft.com/2006/11/ResourceManagement/ADSCIM/2.0/Group';

/**
 * Microsoft Entra ID's validator sequence (scimvalidator.microsoft.com with "default attributes"
 * and group tests, plus the gallery Logic-App tests): a userName that is no address
 * (`Test_User_<guid>`) with its address in `emails[type eq "work"]`, the enterprise extension,
 * one op per attribute with capitalised ops and string booleans, the null-update test, disable
 * and restore checked by GET and by filter, manager set/change/remove, pagination, delete and
 * re-create, and groups. The token is the workspace's service token.
 */
describe('Microsoft Entra ID validator sequence', () => {
  const t = useTestApp();
  const ws = useWorkspace(t, 'entra-validator');
  let token: string;
  const guid = randomUUID();
  const userName = `Test_User_${guid}`;
  const address = `test.user.${guid.slice(0, 8)}@contoso.example`;
  const externalId = randomUUID();
  let userId: string;
  let managerId: string;

  beforeAll(async () => {
    token = await t.tokenFor(ws.workspaceId, ['user_management:read-write']);
    await t.app.get(MemberProvisioning).addVerifiedEmailDomain(ws.workspaceId, 'contoso.example');
  });

  const entra = () => ({ Authorization: `Bearer ${token}`, 'Content-Type': 'application/scim+json' });
  const filter = (expression: string) => t.http().get('/scim/v2/Users').query({ filter: expression }).set(entra()).expect(200);
  const createUser = (body: object) => t.http().post('/scim/v2/Users').set(entra()).send(body);
  const patch = (id: string, operations: unknown[]) => patchOp(t, `/scim/v2/Users/${id}`, entra(), operations);

  /** The default attributes the create sends and a GET must answer exactly as written. */
  const profile = {
    displayName: 'Test User',
    nickName: 'Testy',
    title: 'Ride operator',
    preferredLanguage: 'en-US',
    locale: 'en-US',
    timezone: 'America/Los_Angeles',
    name: { formatted: 'Test User', familyName: 'User', givenName: 'Test' },
    emails: [{ primary: true, type: 'work', value: address }],
    phoneNumbers: [
      { type: 'work', value: '+1 555 0100' },
      { type: 'mobile', value: '+1 555 0199' },
    ],
  };
  const enterprise = {
    employeeNumber: '701984',
    department: 'Tour Operations',
    costCenter: '4130',
    organization: 'Contoso',
    division: 'Theme Parks',
  };

  it('Test Connection: a random-GUID userName filter answers 200 with an empty ListResponse', async () => {
    const res = await filter(`userName eq "${randomUUID()}"`);
    expect(res.body).toEqual({ schemas: [LIST], totalResults: 0, startIndex: 1, itemsPerPage: 0, Resources: [] });
  });

  it('SCIM_User_Create_Test: a non-email userName, the address in emails, every default attribute and the enterprise extension: 201', async () => {
    const manager = await createUser({ schemas: [USER], userName: `Manager_${guid}`, emails: [{ type: 'work', value: `manager.${guid.slice(0, 8)}@contoso.example`, primary: true }], active: 'True' }).expect(201);
    managerId = manager.body.id;
    const res = await createUser({
      schemas: [USER, ENTERPRISE],
      externalId,
      userName,
      active: 'True',
      addresses: null,
      meta: { resourceType: 'User' },
      roles: [],
      ...profile,
      [ENTERPRISE]: { ...enterprise, manager: { value: managerId } },
    }).expect(201);
    userId = res.body.id;
    expect(res.body).toMatchObject({ userName, active: true, externalId, schemas: [USER, ENTERPRISE] });
    // The member's email is the primary address, not the userName.
    const member = await t.http().get(`/v2/workspace_members/${userId}`).set({ Authorization: `Bearer ${ws.token}` }).expect(200);
    expect(member.body.data).toMatchObject({ email_address: address, first_name: 'Test', last_name: 'User' });
  });

  it('GET by id returns every attribute exactly as written', async () => {
    const res = await t.http().get(`/scim/v2/Users/${userId}`).set(entra()).expect(200);
    expect(res.body).toMatchObject({
      id: userId,
      externalId,
      userName,
      ...profile,
      [ENTERPRISE]: { ...enterprise, manager: { value: managerId } },
    });
    expect(res.body).not.toHaveProperty('addresses');
    // roles: [] is no role (RFC 7643 §2.5: an empty multi-valued attribute is unassigned), so the
    // member's access level is shown as its one role, as every user's roles are an array (libs/scim/README.md).
    expect(res.body.roles).toEqual([{ value: 'member', type: 'access_level', primary: true }]);
  });

  it('matching: userName eq, externalId eq and emails[type eq "work"].value eq each find exactly the user', async () => {
    for (const expression of [`userName eq "${userName.toLowerCase()}"`, `externalId eq "${externalId}"`, `emails[type eq "work"].value eq "${address.toUpperCase()}"`]) {
      expect((await filter(expression)).body.Resources.map((u: { id: string }) => u.id)).toEqual([userId]);
    }
  });

  it('SCIM_User_Update_Test: one capitalised op per attribute, including the work address and enterprise attributes', async () => {
    const newAddress = `renamed.${guid.slice(0, 8)}@contoso.example`;
    const res = await patch(userId, [
      { op: 'Replace', path: 'emails[type eq "work"].value', value: newAddress },
      { op: 'Replace', path: 'name.familyName', value: 'Updated' },
      { op: 'Replace', path: 'displayName', value: 'Test Updated' },
      { op: 'Replace', path: 'phoneNumbers[type eq "mobile"].value', value: '+1 555 0142' },
      { op: 'Add', path: 'phoneNumbers[type eq "fax"].value', value: '+1 555 0177' },
      { op: 'Replace', path: `${ENTERPRISE}:department`, value: 'Guest Relations' },
    ]).expect(200);
    expect(res.body).toMatchObject({
      emails: [{ primary: true, type: 'work', value: newAddress }],
      name: { familyName: 'Updated', givenName: 'Test', formatted: 'Test User' },
      displayName: 'Test Updated',
      phoneNumbers: [
        { type: 'work', value: '+1 555 0100' },
        { type: 'mobile', value: '+1 555 0142' },
        { type: 'fax', value: '+1 555 0177' },
      ],
      [ENTERPRISE]: { department: 'Guest Relations', employeeNumber: '701984' },
    });
    const member = await t.http().get(`/v2/workspace_members/${userId}`).set({ Authorization: `Bearer ${ws.token}` }).expect(200);
    expect(member.body.data).toMatchObject({ email_address: newAddress, last_name: 'Updated' });
    // The compliant form: a path-less value object with dotted and URN keys.
    const compliant = await patch(userId, [
      { op: 'replace', value: { 'name.givenName': 'Given', [`${ENTERPRISE}:employeeNumber`]: '42', title: 'Lead operator' } },
    ]).expect(200);
    expect(compliant.body).toMatchObject({ name: { givenName: 'Given' }, title: 'Lead operator', [ENTERPRISE]: { employeeNumber: '42' } });
  });

  it('manager: set (legacy value array), change, remove', async () => {
    const other = (
      await createUser({ schemas: [USER], userName: `Other_${guid}`, emails: [{ type: 'work', value: `other.${guid.slice(0, 8)}@contoso.example` }] }).expect(201)
    ).body.id;
    const set = await patch(userId, [{ op: 'Add', path: 'manager', value: [{ $ref: null, value: other }] }]).expect(200);
    expect(set.body[ENTERPRISE].manager).toEqual({ value: other });
    const changed = await patch(userId, [{ op: 'Replace', path: `${ENTERPRISE}:manager`, value: managerId }]).expect(200);
    expect(changed.body[ENTERPRISE].manager).toEqual({ value: managerId });
    const removed = await patch(userId, [{ op: 'Remove', path: `${ENTERPRISE}:manager` }]).expect(200);
    expect(removed.body[ENTERPRISE]).not.toHaveProperty('manager');
    expect(removed.body[ENTERPRISE].costCenter).toBe('4130');
  });

  it('SCIM_Null_Update_Test: "" then null empty the attributes', async () => {
    await patch(userId, [{ op: 'Replace', path: 'nickName', value: '' }, { op: 'Replace', path: 'title', value: '' }]).expect(200);
    const res = await patch(userId, [{ op: 'Replace', path: 'timezone', value: null }, { op: 'Replace', path: `${ENTERPRISE}:division`, value: null }]).expect(200);
    for (const gone of ['nickName', 'title', 'timezone']) expect(res.body).not.toHaveProperty(gone);
    expect(res.body[ENTERPRISE]).not.toHaveProperty('division');
  });

  it('disable with "False": active false on GET and in the filter answer; restore with "True"', async () => {
    await patch(userId, [{ op: 'Replace', path: 'active', value: 'False' }]).expect(200);
    expect((await t.http().get(`/scim/v2/Users/${userId}`).set(entra()).expect(200)).body.active).toBe(false);
    expect((await filter(`externalId eq "${externalId}"`)).body.Resources[0].active).toBe(false);
    await patch(userId, [{ op: 'Replace', path: 'active', value: 'True' }]).expect(200);
    expect((await filter(`userName eq "${userName}"`)).body.Resources[0].active).toBe(true);
  });

  it('SCIM_User_Pagination_Test: 11+ users, startIndex page*5+1 with count 5', async () => {
    for (let i = 0; i < 9; i++) {
      await createUser({ schemas: [USER], userName: `Page_${i}_${guid}`, emails: [{ type: 'work', value: `page${i}.${guid.slice(0, 8)}@contoso.example` }] }).expect(201);
    }
    const seen: string[] = [];
    for (let page = 0; page < 3; page++) {
      const res = await t.http().get(`/scim/v2/Users?startIndex=${page * 5 + 1}&count=5`).set(entra()).expect(200);
      expect(res.body.startIndex).toBe(page * 5 + 1);
      expect(res.body.totalResults).toBe(13);
      seen.push(...res.body.Resources.map((u: { id: string }) => u.id));
    }
    expect(new Set(seen).size).toBe(13);
  });

  it('delete: 204, then 404, no longer filtered; re-create with the same userName is a new user (201)', async () => {
    await t.http().delete(`/scim/v2/Users/${userId}`).set(entra()).expect(204);
    await t.http().get(`/scim/v2/Users/${userId}`).set(entra()).expect(404);
    for (const expression of [`userName eq "${userName}"`, `externalId eq "${externalId}"`]) expect((await filter(expression)).body.totalResults).toBe(0);
    const again = await createUser({ schemas: [USER], userName, externalId, emails: [{ type: 'work', primary: true, value: address }] }).expect(201);
    expect(again.body.id).not.toBe(userId);
    // The deleted member is still what /v2 resolves its id to (actor references stay valid).
    const old = await t.http().get(`/v2/workspace_members/${userId}`).set({ Authorization: `Bearer ${ws.token}` }).expect(200);
    expect(old.body.data).toMatchObject({ access_level: 'suspended', first_name: 'Given', last_name: 'Updated' });
  });

  it('groups: create with the Entra schema list, query by displayName without members, rename, add and remove members (204), delete', async () => {
    const created = await t.http().post('/scim/v2/Groups').set(entra()).send({ schemas: [GROUP, AD_GROUP], externalId: randomUUID(), displayName: `Group_${guid}`, members: [] }).expect(201);
    const id = created.body.id;
    const found = await t.http().get('/scim/v2/Groups').query({ excludedAttributes: 'members', filter: `displayName eq "group_${guid}"` }).set(entra()).expect(200);
    expect(found.body.Resources).toEqual([expect.not.objectContaining({ members: expect.anything() })]);
    expect(found.body.Resources[0].id).toBe(id);
    await patchOp(t, `/scim/v2/Groups/${id}`, entra(), [{ op: 'Replace', path: 'displayName', value: `Renamed_${guid}` }]).expect(204);
    await patchOp(t, `/scim/v2/Groups/${id}`, entra(), [{ op: 'Add', path: 'members', value: [{ $ref: null, value: managerId }] }]).expect(204);
    expect((await t.http().get(`/scim/v2/Groups/${id}`).set(entra()).expect(200)).body.members.map((m: { value: string }) => m.value)).toEqual([managerId]);
    await patchOp(t, `/scim/v2/Groups/${id}`, entra(), [{ op: 'Remove', path: 'members', value: [{ $ref: null, value: managerId }] }]).expect(204);
    expect((await t.http().get(`/scim/v2/Groups/${id}`).set(entra()).expect(200)).body.members).toEqual([]);
    await t.http().delete(`/scim/v2/Groups/${id}`).set(entra()).expect(204);
    await t.http().get(`/scim/v2/Groups/${id}`).set(entra()).expect(404);
    expect((await t.http().get('/scim/v2/Groups').query({ filter: `displayName eq "Renamed_${guid}"` }).set(entra()).expect(200)).body.totalResults).toBe(0);
  });
  // Last: it adds users, which the pagination test counts.
  it("SCIM PATCH compatibility flag: a filtered email path and a path-less value with dotted and URN keys apply every operation, the manager's object too", async () => {
    const suffix = randomUUID().slice(0, 8);
    const boss = (await createUser({ schemas: [USER], userName: `Boss_${suffix}`, emails: [{ primary: true, type: 'work', value: `boss.${suffix}@contoso.example` }] }).expect(201)).body.id;
    const user = (await createUser({ schemas: [USER, ENTERPRISE], userName: `Flag_${suffix}`, emails: [{ primary: true, type: 'work', value: `flag.${suffix}@contoso.example` }], name: { givenName: 'Old', familyName: 'Name' } }).expect(201)).body.id;
    const res = await patch(user, [
      { op: 'replace', path: 'emails[type eq "work"].value', value: `flag.new.${suffix}@contoso.example` },
      {
        op: 'replace',
        value: {
          'name.givenName': 'New',
          [`${USER}:name.familyName`]: 'Surname',
          [`${ENTERPRISE}:department`]: 'Flagged',
          [`${ENTERPRISE}:manager`]: { value: boss },
          displayName: 'Flag User',
        },
      },
    ]).expect(200);
    expect(res.body).toMatchObject({
      emails: [{ primary: true, type: 'work', value: `flag.new.${suffix}@contoso.example` }],
      name: { givenName: 'New', familyName: 'Surname' },
      displayName: 'Flag User',
      [ENTERPRISE]: { department: 'Flagged', manager: { value: boss } },
    });
    expect((await t.http().get(`/scim/v2/Users/${user}`).set(entra()).expect(200)).body[ENTERPRISE].manager).toMatchObject({ value: boss });
  });
});
