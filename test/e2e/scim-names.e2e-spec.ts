import { randomUUID } from 'node:crypto';
import { CreateMemberUseCase, CreateWorkspaceUseCase, MemberProvisioning } from '@workbase/access';
import { MIGRATIONS } from '@workbase/shared/persistence';
import type { QueryRunner } from 'typeorm';
import { PATCH, USER } from '../support/scim';
import { useTestApp, useTestDatabase } from '../support/suite';

/**
 * Every listed user has names (issue 28 part 7). A member made outside SCIM without names (the
 * first admin of `workspace:create`, `member:create`) is shown with names made from their email,
 * so that Okta's SPEC test 1 finds `name.givenName` and `name.familyName` on the first user of
 * `GET /Users?count=1`. Names given at creation are shown as given; names a SCIM client removes
 * stay removed (Entra), and a SCIM client's own users are shown as it wrote them.
 */
describe('SCIM names of members made outside SCIM', () => {
  const t = useTestApp();
  let token: string;
  let workspaceId: string;
  let adminId: string;
  const scim = () => ({ Authorization: `Bearer ${token}`, Accept: 'application/scim+json', 'Content-Type': 'application/scim+json' });
  const user = async (id: string) => (await t.http().get(`/scim/v2/Users/${id}`).set(scim()).expect(200)).body as Record<string, unknown>;
  const patch = (id: string, operations: unknown[]) => t.http().patch(`/scim/v2/Users/${id}`).set(scim()).send({ schemas: [PATCH], Operations: operations });

  beforeAll(async () => {
    // As `workspace:create --name Names --slug scim-names --admin-email ada.lovelace@names.example` makes it: no names.
    const ws = await t.app.get(CreateWorkspaceUseCase).execute({ name: 'Names', slug: 'scim-names', adminEmail: 'ada.lovelace@names.example' });
    workspaceId = ws.workspaceId;
    adminId = ws.adminMemberId;
    token = await t.tokenFor(workspaceId, ['user_management:read-write']);
    await t.app.get(MemberProvisioning).addVerifiedEmailDomain(workspaceId, 'names.example');
  });

  const create = (email: string, names: { firstName?: string; lastName?: string } = {}) =>
    t.app.get(CreateMemberUseCase).execute({ workspaceId, email, accessLevel: 'member', ...names }).then((made) => made.memberId);

  it('shows the first admin, made without names, with names from the email on the first user of GET /Users?count=1 (Okta SPEC step 1)', async () => {
    const res = await t.http().get('/scim/v2/Users?count=1&startIndex=1').set(scim()).expect(200);
    expect(res.body.Resources[0]).toMatchObject({ id: adminId, userName: 'ada.lovelace@names.example', name: { givenName: 'Ada', familyName: 'Lovelace' } });
    expect(await user(adminId)).toMatchObject({ name: { givenName: 'Ada', familyName: 'Lovelace' } });
  });

  it('makes the family name of a one-word local part from the domain, and finds made names with a filter as GET shows them', async () => {
    const id = await create('admin+ops@acme-corp.example');
    expect((await user(id)).name).toEqual({ givenName: 'Admin', familyName: 'Acme-Corp' });
    const found = await t.http().get('/scim/v2/Users').query({ filter: 'name.familyName eq "Acme-Corp"' }).set(scim()).expect(200);
    expect(found.body.Resources.map((u: { id: string }) => u.id)).toEqual([id]);
  });

  it('shows the names given at member:create, and a single given name without a made-up other one', async () => {
    const named = await create('grace@names.example', { firstName: 'Grace', lastName: 'Hopper' });
    expect((await user(named)).name).toEqual({ givenName: 'Grace', familyName: 'Hopper' });
    const halfNamed = await create('cher@names.example', { firstName: 'Cher' });
    expect((await user(halfNamed)).name).toEqual({ givenName: 'Cher' });
  });

  it('keeps a name a SCIM PATCH removes removed, and the other as it was shown (Entra)', async () => {
    const id = await create('alan.turing@names.example');
    await patch(id, [{ op: 'remove', path: 'name.givenName' }]).expect(200);
    expect((await user(id)).name).toEqual({ familyName: 'Turing' });
    // A later write that does not name the names leaves them as they are.
    await patch(id, [{ op: 'replace', path: 'title', value: 'Engineer' }]).expect(200);
    expect((await user(id)).name).toEqual({ familyName: 'Turing' });
    await patch(id, [{ op: 'remove', path: 'name.familyName' }]).expect(200);
    // Without names, `name` is empty (`{}`) or absent; what counts is that nothing comes back.
    expect((await user(id)).name ?? {}).toEqual({});
    const listed = await t.http().get('/scim/v2/Users').query({ filter: `id eq "${id}"` }).set(scim()).expect(200);
    expect(listed.body.Resources[0].name ?? {}).toEqual({});
  });

  it('keeps names a SCIM PUT leaves out empty, and a SCIM client\'s own user without names as it wrote it', async () => {
    const id = await create('edsger.dijkstra@names.example');
    const shown = await user(id);
    await t.http().put(`/scim/v2/Users/${id}`).set(scim()).send({ schemas: [USER], userName: shown.userName }).expect(200);
    expect((await user(id)).name ?? {}).toEqual({});

    const posted = await t.http().post('/scim/v2/Users').set(scim()).send({ schemas: [USER], userName: 'nameless@names.example' }).expect(201);
    expect(posted.body.name ?? {}).toEqual({});
    expect((await user(posted.body.id)).name ?? {}).toEqual({});
  });
});

/**
 * The migration's backfill: a member who exists before it and has no names and nothing of SCIM is
 * never-named; one with a name, an externalId or a SCIM profile is not (their emptiness may be a
 * SCIM client's). Down and up again leave the same view.
 */
describe('migration ScimDefaultNames: existing members', () => {
  const db = useTestDatabase();
  const migration = () => MIGRATIONS.find((m) => m.name === 'ScimDefaultNames1765900000000')!;
  const runner = () => ({ query: (sql: string) => db.client.query(sql) }) as unknown as QueryRunner;

  it('marks the nameless members made outside SCIM as never named, and round-trips down and up', async () => {
    await new (migration())().down(runner());
    const ws = randomUUID();
    await db.client.query(`INSERT INTO workspaces (id, name, slug) VALUES ($1, 'Before', 'before-names')`, [ws]);
    const members = { plain: randomUUID(), named: randomUUID(), provisioned: randomUUID(), profiled: randomUUID(), blank: randomUUID() };
    const insert = (id: string, email: string, extra: { first?: string; external?: string; profile?: object } = {}) =>
      db.client.query(
        `INSERT INTO workspace_members (workspace_id, id, email, user_name, first_name, access_level, external_id, scim_profile) VALUES ($1, $2, $3, $3, $4, 'member', $5, $6)`,
        [ws, id, email, extra.first ?? null, extra.external ?? null, JSON.stringify(extra.profile ?? {})],
      );
    await insert(members.plain, 'mary.shelley@before.example');
    await insert(members.named, 'named@before.example', { first: 'Named' });
    await insert(members.provisioned, 'prov@before.example', { external: 'okta-1' });
    await insert(members.profiled, 'profiled@before.example', { profile: { title: 'x' } });
    await insert(members.blank, 'blank.names@before.example', { first: '' });
    await new (migration())().up(runner());

    const names = async () =>
      new Map(
        (await db.client.query<{ id: string; first_name: string | null; last_name: string | null }>(`SELECT id, first_name, last_name FROM scim_users WHERE workspace_id = $1`, [ws])).rows.map(
          (row) => [row.id, [row.first_name, row.last_name]],
        ),
      );
    const expected = new Map([
      [members.plain, ['Mary', 'Shelley']],
      [members.named, ['Named', null]],
      [members.provisioned, [null, null]],
      [members.profiled, [null, null]],
      [members.blank, ['Blank', 'Names']],
    ]);
    expect(await names()).toEqual(expected);
    await new (migration())().down(runner());
    await new (migration())().up(runner());
    expect(await names()).toEqual(expected);
  });
});
