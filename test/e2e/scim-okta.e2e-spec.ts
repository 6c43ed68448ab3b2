import { CreateWorkspaceUseCase, MemberProvisioning } from '@workbase/access';
import { ERROR, LIST, USER } from '../support/scim';
import { useTestApp } from '../support/suite';

/**
 * Okta's "SCIM 2.0 SPEC Test" (Runscope suite, Okta-SCIM-20-SPEC-Test.json), its 12 steps in order
 * with the headers and assertions the suite makes, against a workspace whose admin was made by
 * `workspace:create` with a name (Okta's step 1 asserts non-empty name parts). The token is the
 * workspace's service token, as `token:create` issues it.
 */
describe('Okta SCIM 2.0 SPEC test, step by step', () => {
  const t = useTestApp();
  let token: string;
  const random = Math.random().toString(36).slice(2, 10);
  const randomEmail = `okta.${random}@okta-spec.example`;
  const randomUsernameCaps = randomEmail.toUpperCase();
  let firstUserId: string;
  let idUserOne: string;

  beforeAll(async () => {
    // As `workspace:create --admin-first-name Ada --admin-last-name Admin` makes it.
    const ws = await t.app
      .get(CreateWorkspaceUseCase)
      .execute({ name: 'Okta spec', slug: 'okta-spec', adminEmail: 'ada@okta-spec.example', adminFirstName: 'Ada', adminLastName: 'Admin' });
    token = await t.tokenFor(ws.workspaceId, ['user_management:read-write']);
    await t.app.get(MemberProvisioning).addVerifiedEmailDomain(ws.workspaceId, 'okta-spec.example');
    // "Create at least one user in your SCIM server before running the Okta SCIM API test suite."
    await t
      .http()
      .post('/scim/v2/Users')
      .set({ Authorization: `Bearer ${token}` })
      .send({ schemas: [USER], userName: 'first.user@okta-spec.example', name: { givenName: 'First', familyName: 'User' }, emails: [{ value: 'first.user@okta-spec.example', primary: true, type: 'work' }] })
      .expect(201);
  });

  const get = () => ({ Authorization: `Bearer ${token}`, Accept: 'application/scim+json', 'Content-Type': 'application/scim+json; charset=utf-8', 'User-Agent': 'OKTA SCIM Integration' });
  const post = () => ({ Authorization: `Bearer ${token}`, Accept: 'application/scim+json', 'Content-Type': 'application/json', 'User-Agent': 'OKTA SCIM Integration' });
  const isError = (body: Record<string, unknown>, status: string) => {
    expect(body.schemas).toContain(ERROR);
    expect(body.status).toBe(status);
    expect(typeof body.detail === 'string' && body.detail.length > 0).toBe(true);
  };
  const userFields = (user: Record<string, unknown>) => {
    const name = user.name as Record<string, string>;
    const emails = user.emails as Array<{ value: string }>;
    expect(typeof user.id === 'string' && user.id.length > 0).toBe(true);
    expect(name.familyName.length).toBeGreaterThan(0);
    expect(name.givenName.length).toBeGreaterThan(0);
    expect(typeof user.userName === 'string' && user.userName.length > 0).toBe(true);
    expect(typeof user.active).toBe('boolean');
    expect(emails[0].value.length).toBeGreaterThan(0);
  };

  it('1. GET /Users?count=1&startIndex=1: a ListResponse with numbers and a complete first user (the named admin)', async () => {
    const res = await t.http().get('/scim/v2/Users?count=1&startIndex=1').set(get()).expect(200);
    expect(res.body.schemas).toContain(LIST);
    for (const field of ['itemsPerPage', 'startIndex', 'totalResults']) expect(typeof res.body[field]).toBe('number');
    userFields(res.body.Resources[0]);
    firstUserId = res.body.Resources[0].id;
  });

  it('2. GET /Users/{that id}: the same fields, the same id', async () => {
    const res = await t.http().get(`/scim/v2/Users/${firstUserId}`).set(get()).expect(200);
    userFields(res.body);
    expect(res.body.id).toBe(firstUserId);
  });

  it('3. GET /Users?filter=userName eq "{InvalidUserEmail}" (unencoded): 200, totalResults 0', async () => {
    const res = await t.http().get(`/scim/v2/Users?filter=userName eq "invalid-${random}@okta-spec.example"`).set(get()).expect(200);
    expect(res.body.schemas).toContain(LIST);
    expect(res.body.totalResults).toBe(0);
  });

  it('4. GET /Users/{UserIdThatDoesNotExist}: 404 in the error schema', async () => {
    const res = await t.http().get('/scim/v2/Users/010101001010101011001010101011').set(get()).expect(404);
    isError(res.body, '404');
  });

  it('5. GET /Users?filter=userName eq "{randomEmail}": 200, totalResults 0', async () => {
    const res = await t.http().get(`/scim/v2/Users?filter=userName eq "${randomEmail}"`).set(get()).expect(200);
    expect(res.body.totalResults).toBe(0);
  });

  const body = () => ({
    schemas: [USER],
    userName: randomEmail,
    name: { givenName: 'Random', familyName: 'Person' },
    emails: [{ primary: true, value: randomEmail, type: 'work' }],
    displayName: 'Random Person',
    active: true,
  });

  it('6. POST /Users: 201, active, an id, names and userName echoed, the core schema', async () => {
    const res = await t.http().post('/scim/v2/Users').set(post()).send(body()).expect(201);
    expect(res.body).toMatchObject({ active: true, userName: randomEmail, name: { givenName: 'Random', familyName: 'Person' }, displayName: 'Random Person' });
    expect(res.body.schemas).toContain(USER);
    expect(res.body.id.length).toBeGreaterThan(0);
    idUserOne = res.body.id;
  });

  it('7. GET /Users/{idUserOne}: the same values', async () => {
    const res = await t.http().get(`/scim/v2/Users/${idUserOne}`).set(get()).expect(200);
    expect(res.body).toMatchObject({ id: idUserOne, active: true, userName: randomEmail, name: { givenName: 'Random', familyName: 'Person' }, emails: [{ value: randomEmail, primary: true, type: 'work' }] });
  });

  it('8. the same POST again: 409', async () => {
    const res = await t.http().post('/scim/v2/Users').set(post()).send(body()).expect(409);
    isError(res.body, '409');
    expect(res.body.scimType).toBe('uniqueness');
  });

  it('9. GET /Users?filter=userName eq "{randomUsernameCaps}": 200 (and it finds the user: userName is case-insensitive)', async () => {
    const res = await t.http().get(`/scim/v2/Users?filter=userName eq "${randomUsernameCaps}"`).set(get()).expect(200);
    expect(res.body.Resources.map((u: { id: string }) => u.id)).toEqual([idUserOne]);
  });

  it('10. GET /Groups: 200 with totalResults 0 or an array of Resources', async () => {
    const res = await t.http().get('/scim/v2/Groups').set(get()).expect(200);
    expect(res.body.totalResults === 0 || Array.isArray(res.body.Resources)).toBe(true);
  });

  it('11. GET /Users?filter=… with Authorization "non-token": 401 in the error schema', async () => {
    const res = await t.http().get(`/scim/v2/Users?filter=userName eq "${randomEmail}"`).set({ ...get(), Authorization: 'non-token' }).expect(401);
    isError(res.body, '401');
  });

  it('12. GET /Users/00919288221112222: 404 in the error schema', async () => {
    const res = await t.http().get('/scim/v2/Users/00919288221112222').set(get()).expect(404);
    isError(res.body, '404');
  });
});
