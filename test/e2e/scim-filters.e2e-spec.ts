import { MemberProvisioning } from '@workbase/access';
import { SCOPES } from '@workbase/shared/kernel';
import { ERROR, GROUP, PATCH, SEARCH, USER } from '../support/scim';
import { useTestApp, useWorkspace } from '../support/suite';

/**
 * The SCIM filter language (RFC 7644 §3.4.2.2) end to end: each expression goes over HTTP, is
 * parsed, compiled to SQL and run against real rows. Expected results are the local parts of the
 * matching userNames (or group names), in creation order; `INVALID` means 400 `invalidFilter`.
 *
 * Users: admin (workspace admin made without names: SCIM shows names made from its email,
 * admin@scim-filters.test, "Admin" "Scim-Filters"), ada (active admin, externalId ext-ada), bob
 * (deprovisioned member, externalId EXT-bob), carol (pending invite, given name only), dave
 * (deprovisioned invite, no name).
 */
const INVALID = 'invalidFilter' as const;
type Expected = readonly string[] | typeof INVALID;

const ALL = ['admin', 'ada', 'bob', 'carol', 'dave'];

const USER_FILTERS: ReadonlyArray<readonly [string, Expected]> = [
  // Attribute operators on a case-insensitive string (userName, caseExact false).
  ['userName eq "ada@acme.example"', ['ada']],
  ['USERNAME EQ "ADA@ACME.EXAMPLE"', ['ada']],
  ['userName Eq "ada@acme.example"', ['ada']],
  ['userName ne "ada@acme.example"', ['admin', 'bob', 'carol', 'dave']],
  ['userName co "ACME"', ['ada', 'bob']],
  ['userName sw "ca"', ['carol']],
  ['userName ew "@other.example"', ['carol', 'dave']],
  ['userName gt "c"', ['carol', 'dave']],
  ['userName ge "carol@other.example"', ['carol', 'dave']],
  ['userName lt "b"', ['admin', 'ada']],
  ['userName le "bob@acme.example"', ['admin', 'ada', 'bob']],
  ['userName pr', ALL],
  ['userName eq "nobody@acme.example"', []],
  ['userName eq "with \\"quotes\\" and \\u0041"', []],
  ['urn:ietf:params:scim:schemas:core:2.0:User:userName eq "ada@acme.example"', ['ada']],
  // Sub-attributes, presence and null.
  ['name.givenName pr', ['admin', 'ada', 'bob', 'carol']],
  ['name.familyName pr', ['admin', 'ada', 'bob']],
  ['name.GIVENNAME sw "b"', ['bob']],
  ['name.givenName eq null', ['dave']],
  ['name.familyName ne null', ['admin', 'ada', 'bob']],
  ['name.familyName eq "Scim-Filters"', ['admin']],
  // externalId is caseExact.
  ['externalId eq "ext-ada"', ['ada']],
  ['externalId eq "EXT-ADA"', []],
  ['externalId pr', ['ada', 'bob']],
  ['externalId sw "EXT"', ['bob']],
  // Booleans, including Entra's string booleans.
  ['active eq true', ['admin', 'ada', 'carol']],
  ['active eq false', ['bob', 'dave']],
  ['active ne true', ['bob', 'dave']],
  ['active eq "False"', ['bob', 'dave']],
  ['appRole eq "ADMIN"', ['admin', 'ada']],
  // Multi-valued emails: value paths, Entra's `[...].value eq`, implicit `value`.
  ['emails[type eq "work"].value eq "bob@acme.example"', ['bob']],
  ['emails[type eq "work" and value co "other"]', ['carol', 'dave']],
  ['emails[type eq "work"]', ALL],
  ['emails[primary eq true]', ALL],
  ['emails[not (value sw "a")]', ['bob', 'carol', 'dave']],
  ['emails.value sw "dave"', ['dave']],
  ['emails co "ada@"', ['ada']],
  ['emails.type eq "home"', []],
  // Logical operators, precedence (not > and > or), grouping, case-insensitive keywords.
  ['userName sw "a" and active eq true', ['admin', 'ada']],
  ['userName sw "a" or userName sw "b"', ['admin', 'ada', 'bob']],
  ['active eq false and userName sw "b" or userName sw "c"', ['bob', 'carol']],
  ['active eq false and (userName sw "b" or userName sw "c")', ['bob']],
  ['userName sw "c" or userName sw "b" and active eq true', ['carol']],
  ['userName eq "ada@acme.example" OR userName eq "bob@acme.example"', ['ada', 'bob']],
  ['not (userName ew "example")', ['admin']],
  ['NOT (active eq true) AND userName co "o"', ['bob', 'dave']],
  ['not (not (userName sw "d"))', ['dave']],
  ['(((userName eq "ada@acme.example")))', ['ada']],
  ['(userName sw "a" or userName sw "d") and not (appRole eq "admin")', ['dave']],
  // meta attributes.
  ['meta.created gt "2000-01-01T00:00:00Z"', ALL],
  ['meta.lastModified lt "2000-01-01T00:00:00Z"', []],
  ['meta.resourceType eq "User"', ALL],
  // id with a placeholder.
  ['id eq "{ada}"', ['ada']],
  ['id eq "{ada}" or id eq "{dave}"', ['ada', 'dave']],
  // Invalid: syntax.
  ['userName', INVALID],
  ['userName eq', INVALID],
  ['userName xx "a"', INVALID],
  ['userName eq "unterminated', INVALID],
  ['userName eq ada@acme.example', INVALID],
  ["userName eq 'ada@acme.example'", INVALID],
  ['(userName eq "a"', INVALID],
  ['userName eq "a")', INVALID],
  ['userName eq "a" and', INVALID],
  ['userName eq "a" and or userName eq "b"', INVALID],
  ['userName eq "a" xor userName eq "b"', INVALID],
  ['emails[type eq "work"', INVALID],
  ['emails[type eq "work"][value eq "x"]', INVALID],
  ['emails[type eq "work" and emails[value pr]]', INVALID],
  ['name.givenName.extra eq "x"', INVALID],
  ['   ', INVALID],
  [`${'('.repeat(40)}userName pr${')'.repeat(40)}`, INVALID],
  [`userName eq "${'x'.repeat(5000)}"`, INVALID],
  // Invalid: names and types this resource does not have.
  ['addresses.locality eq "x"', INVALID],
  ['__proto__ eq "x"', INVALID],
  ['constructor eq "x"', INVALID],
  ['name.constructor eq "x"', INVALID],
  ['emails[__proto__ eq "x"]', INVALID],
  ['emails[constructor pr]', INVALID],
  ['members pr', INVALID],
  ['emails[foo eq "x"]', INVALID],
  ['name[givenName eq "x"]', INVALID],
  ['urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:employeeNumber eq "1"', INVALID],
  ['active gt true', INVALID],
  ['active eq "yes"', INVALID],
  ['userName eq 42', INVALID],
  ['userName eq true', INVALID],
  ['meta.created gt "not a date"', INVALID],
  ['meta.created co "2020"', INVALID],
  ['userName gt null', INVALID],
];

const GROUP_FILTERS: ReadonlyArray<readonly [string, Expected]> = [
  ['displayName eq "engineering"', ['Engineering']],
  ['DisplayName Eq "SALES"', ['Sales']],
  ['displayName co "e"', ['Engineering', 'Sales', 'Empty team']],
  ['externalId eq "g-eng"', ['Engineering']],
  ['externalId eq "G-ENG"', []],
  ['members[value eq "{ada}"]', ['Engineering']],
  ['members.value eq "{bob}"', ['Sales']],
  ['members pr', ['Engineering', 'Sales']],
  ['not (members pr)', ['Empty team']],
  ['members.display co "acme"', ['Engineering', 'Sales']],
  ['members[type eq "User" and display sw "carol"]', ['Engineering']],
  ['displayName sw "S" or externalId pr', ['Engineering', 'Sales']],
  ['meta.resourceType eq "Group"', ['Engineering', 'Sales', 'Empty team']],
  ['userName eq "x"', INVALID],
  ['displayName gt 5', INVALID],
  ['members[foo eq "x"]', INVALID],
];

describe('SCIM filters (RFC 7644 §3.4.2.2) over real data', () => {
  const t = useTestApp();
  const ws = useWorkspace(t, 'scim-filters');
  let token: string;
  const ids = new Map<string, string>();
  const names = new Map<string, string>();

  const headers = () => ({ Authorization: `Bearer ${token}`, 'Content-Type': 'application/scim+json' });
  const createUser = async (body: Record<string, unknown>) =>
    (await t.http().post('/scim/v2/Users').set(headers()).send({ schemas: [USER], ...body }).expect(201)).body as { id: string; userName: string };
  const deactivate = (id: string) => t.http().patch(`/scim/v2/Users/${id}`).set(headers()).send({ schemas: [PATCH], Operations: [{ op: 'replace', path: 'active', value: false }] });
  const fill = (filter: string) => filter.replace(/\{(\w+)\}/g, (_, key: string) => ids.get(key)!);

  beforeAll(async () => {
    token = await t.tokenFor(ws.workspaceId, [SCOPES.userManagementReadWrite]);
    await t.app.get(MemberProvisioning).addVerifiedEmailDomain(ws.workspaceId, 'acme.example');
    const admin = (await t.http().get('/scim/v2/Users').set(headers()).expect(200)).body.Resources[0];
    const ada = await createUser({ userName: 'ada@acme.example', name: { givenName: 'Ada', familyName: 'Lovelace' }, externalId: 'ext-ada', appRole: 'admin' });
    const bob = await createUser({ userName: 'bob@acme.example', name: { givenName: 'Bob', familyName: 'Builder' }, externalId: 'EXT-bob' });
    const carol = await createUser({ userName: 'carol@other.example', name: { givenName: 'Carol' } });
    const dave = await createUser({ userName: 'dave@other.example' });
    await deactivate(bob.id).expect(200);
    await deactivate(dave.id).expect(204);
    for (const user of [admin, ada, bob, carol, dave]) {
      const key = user.userName.split('@')[0];
      ids.set(key, user.id);
      names.set(user.id, key);
    }
    // Another workspace's users must never show up.
    const other = await t.createWorkspace('scim-filters-other');
    const otherToken = await t.tokenFor(other.workspaceId, [SCOPES.userManagementReadWrite]);
    await t.http().post('/scim/v2/Users').set({ Authorization: `Bearer ${otherToken}` }).send({ schemas: [USER], userName: 'ada@acme.example' }).expect(201);

    const group = async (displayName: string, members: string[], externalId?: string) =>
      t
        .http()
        .post('/scim/v2/Groups')
        .set(headers())
        .send({ schemas: [GROUP], displayName, ...(externalId ? { externalId } : {}), members: members.map((value) => ({ value })) })
        .expect(201);
    await group('Engineering', [ada.id, carol.id], 'g-eng');
    await group('Sales', [bob.id]);
    await group('Empty team', []);
  });

  it(`has a table of at least 40 expressions (${USER_FILTERS.length + GROUP_FILTERS.length})`, () => {
    expect(USER_FILTERS.length + GROUP_FILTERS.length).toBeGreaterThanOrEqual(40);
    expect(USER_FILTERS.filter(([, expected]) => expected === INVALID).length).toBeGreaterThanOrEqual(15);
  });

  it.each(USER_FILTERS)('Users?filter=%s', async (filter, expected) => {
    const res = await t.http().get(`/scim/v2/Users?filter=${encodeURIComponent(fill(filter))}`).set(headers());
    if (expected === INVALID) {
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ schemas: [ERROR], status: '400', scimType: 'invalidFilter', detail: expect.stringMatching(/^Invalid filter: /) });
      return;
    }
    expect(res.status).toBe(200);
    expect(res.body.totalResults).toBe(expected.length);
    expect(res.body.Resources.map((u: { id: string }) => names.get(u.id))).toEqual(expected);
  });

  it.each(GROUP_FILTERS)('Groups?filter=%s', async (filter, expected) => {
    const res = await t.http().get(`/scim/v2/Groups?filter=${encodeURIComponent(fill(filter))}`).set(headers());
    if (expected === INVALID) {
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ schemas: [ERROR], status: '400', scimType: 'invalidFilter' });
      return;
    }
    expect(res.status).toBe(200);
    expect(res.body.Resources.map((g: { displayName: string }) => g.displayName)).toEqual(expected);
  });

  it('POST /.search takes the same filter, paging and attribute lists in a SearchRequest body', async () => {
    const res = await t
      .http()
      .post('/scim/v2/Users/.search')
      .set(headers())
      .send({ schemas: [SEARCH], filter: 'userName ew "acme.example"', startIndex: 2, count: 1, attributes: ['userName'] })
      .expect(200);
    expect(res.body).toMatchObject({ totalResults: 2, startIndex: 2, itemsPerPage: 1 });
    expect(res.body.Resources).toEqual([{ schemas: [USER], id: ids.get('bob'), userName: 'bob@acme.example' }]);
    const bad = await t.http().post('/scim/v2/Groups/.search').set(headers()).send({ schemas: [SEARCH], filter: 'displayName zz "x"' }).expect(400);
    expect(bad.body.scimType).toBe('invalidFilter');
    await t.http().post('/scim/v2/Users/.search').set(headers()).send({ filter: 'userName pr' }).expect(400);
  });

  it('a filter in the body of a search by a read-only token works; an unsupported one never lists the whole tenant', async () => {
    const reader = await t.tokenFor(ws.workspaceId, [SCOPES.userManagementRead]);
    const res = await t.http().post('/scim/v2/Groups/.search').set({ Authorization: `Bearer ${reader}` }).send({ schemas: [SEARCH], filter: 'displayName eq "Sales"', excludedAttributes: 'members' }).expect(200);
    expect(res.body.Resources).toEqual([expect.not.objectContaining({ members: expect.anything() })]);
    expect(res.body.Resources[0].displayName).toBe('Sales');
  });
});
