import { MemberProvisioning } from '@workbase/access';
import { TransactionRunner } from '@workbase/shared/persistence';
import { type Body, ENTERPRISE, expectScimError, GROUP, PATCH, USER } from '../support/scim';
import { useTestApp, useWorkspace } from '../support/suite';

/** The RFC 7643/7644 rules of issue 16, one by one. */
describe('SCIM RFC rules', () => {
  const t = useTestApp();
  const ws = useWorkspace(t, 'scim-rfc');
  let token: string;

  beforeAll(async () => {
    token = await t.tokenFor(ws.workspaceId, ['user_management:read-write']);
    await t.app.get(MemberProvisioning).addVerifiedEmailDomain(ws.workspaceId, 'rfc.example');
  });

  const h = () => ({ Authorization: `Bearer ${token}` });
  let counter = 0;
  const createUser = async (extra: Body = {}) => {
    const userName = `rfc.user.${++counter}@rfc.example`;
    return (await t.http().post('/scim/v2/Users').set(h()).send({ schemas: [USER], userName, ...extra }).expect(201)).body as Body & { id: string; userName: string };
  };
  const patch = (id: string, Operations: unknown[], headers: Record<string, string> = {}) => t.http().patch(`/scim/v2/Users/${id}`).set({ ...h(), ...headers }).send({ schemas: [PATCH], Operations });

  describe('mutability', () => {
    it('PATCH of a readOnly attribute (id, meta, groups), with or without a path, is 400 mutability and changes nothing', async () => {
      const user = await createUser({ name: { givenName: 'Read', familyName: 'Only' } });
      for (const operations of [
        [{ op: 'replace', path: 'id', value: '00000000-0000-4000-8000-000000000000' }],
        [{ op: 'replace', path: 'meta.lastModified', value: '2020-01-01T00:00:00Z' }],
        [{ op: 'remove', path: 'meta' }],
        [{ op: 'add', path: 'groups', value: [{ value: 'x' }] }],
        [{ op: 'replace', path: `${USER}:id`, value: 'x' }],
        [{ op: 'replace', path: 'name.givenName', value: 'Changed' }, { op: 'replace', value: { id: 'x' } }],
        [{ op: 'replace', value: { meta: { version: 'W/"1"' } } }],
      ]) {
        expectScimError(await patch(user.id, operations), 400, 'mutability');
      }
      const after = (await t.http().get(`/scim/v2/Users/${user.id}`).set(h()).expect(200)).body;
      expect(after).toMatchObject({ id: user.id, name: { givenName: 'Read', familyName: 'Only' } });
      expect(after.meta).toEqual(user.meta);
    });

    it('PUT ignores the readOnly values it receives (id, meta, groups) and replaces the rest', async () => {
      const user = await createUser({ title: 'Before', nickName: 'Nick' });
      const res = await t
        .http()
        .put(`/scim/v2/Users/${user.id}`)
        .set(h())
        .send({ schemas: [USER], id: 'not-this', userName: user.userName, meta: { created: '2000-01-01T00:00:00Z' }, groups: [{ value: 'g' }], title: 'After' })
        .expect(200);
      expect(res.body).toMatchObject({ id: user.id, title: 'After', meta: { created: (user.meta as Body).created } });
      expect(res.body).not.toHaveProperty('nickName');
      expect(res.body).not.toHaveProperty('groups');
    });
  });

  describe('ids', () => {
    it('ids match exactly: an upper-cased user or group id is 404 for GET, PUT, PATCH and DELETE', async () => {
      const user = await createUser();
      const group = (await t.http().post('/scim/v2/Groups').set(h()).send({ schemas: [GROUP], displayName: 'Exact ids' }).expect(201)).body;
      for (const path of [`/scim/v2/Users/${user.id.toUpperCase()}`, `/scim/v2/Groups/${(group.id as string).toUpperCase()}`]) {
        expectScimError(await t.http().get(path).set(h()), 404);
        expectScimError(await t.http().delete(path).set(h()), 404);
        expectScimError(await t.http().patch(path).set(h()).send({ schemas: [PATCH], Operations: [{ op: 'replace', path: 'externalId', value: 'x' }] }), 404);
      }
      expectScimError(await t.http().put(`/scim/v2/Users/${user.id.toUpperCase()}`).set(h()).send({ schemas: [USER], userName: user.userName }), 404);
      await t.http().get(`/scim/v2/Users/${user.id}`).set(h()).expect(200);
      await t.http().get(`/scim/v2/Groups/${group.id}`).set(h()).expect(200);
    });
  });

  describe('ETags (supported: weak, equal to meta.version)', () => {
    it('every User and Group answer carries ETag = meta.version, which changes with each write', async () => {
      const created = await t.http().post('/scim/v2/Users').set(h()).send({ schemas: [USER], userName: 'etag.user@rfc.example' }).expect(201);
      expect(created.headers.etag).toBe(created.body.meta.version);
      expect(created.body.meta.version).toMatch(/^W\/"\d+"$/);
      const got = await t.http().get(`/scim/v2/Users/${created.body.id}`).set(h()).expect(200);
      expect(got.headers.etag).toBe(got.body.meta.version);
      expect(got.body.meta.version).toBe(created.body.meta.version);
      const patched = await patch(created.body.id, [{ op: 'replace', path: 'title', value: 'New' }]).expect(200);
      expect(patched.headers.etag).toBe(patched.body.meta.version);
      expect(patched.body.meta.version).not.toBe(created.body.meta.version);
      const group = await t.http().post('/scim/v2/Groups').set(h()).send({ schemas: [GROUP], displayName: 'ETag group' }).expect(201);
      expect(group.headers.etag).toBe(group.body.meta.version);
      expect((await t.http().get(`/scim/v2/Groups/${group.body.id}`).set(h()).expect(200)).headers.etag).toBe(group.body.meta.version);
    });

    it('If-None-Match with the current version: 304 without a body; with another: 200', async () => {
      const user = await createUser();
      const version = user.meta as Body;
      const same = await t.http().get(`/scim/v2/Users/${user.id}`).set({ ...h(), 'If-None-Match': version.version as string }).expect(304);
      expect(same.text).toBe('');
      await t.http().get(`/scim/v2/Users/${user.id}`).set({ ...h(), 'If-None-Match': 'W/"1"' }).expect(200);
    });

    it('returns roles as an array: as sent, else the access level as one primary role, and none once access is lost', async () => {
      const plain = await createUser();
      expect(plain.roles).toEqual([{ value: 'member', type: 'access_level', primary: true }]);
      const admin = await createUser({ appRole: 'admin' });
      expect((await t.http().get(`/scim/v2/Users/${admin.id}`).set(h()).expect(200)).body.roles).toEqual([{ value: 'admin', type: 'access_level', primary: true }]);
      const sent = [{ value: 'Sales', display: 'Sales team', primary: false }];
      expect((await createUser({ roles: sent })).roles).toEqual(sent);
      const suspended = await createUser({ active: false });
      expect(suspended.roles).toEqual([]);
      const listed = (await t.http().get('/scim/v2/Users').query({ filter: `userName eq "${plain.userName}"` }).set(h()).expect(200)).body.Resources;
      expect(listed[0].roles).toEqual([{ value: 'member', type: 'access_level', primary: true }]);
      expect((await t.http().get(`/scim/v2/Users/${plain.id}`).query({ excludedAttributes: 'roles' }).set(h()).expect(200)).body).not.toHaveProperty('roles');
    });

    it('If-None-Match with the current version is 304 whatever else the request says (no-cache, a list of tags, the strong form, *), for users and groups', async () => {
      const user = await createUser();
      const version = (user.meta as Body).version as string;
      const group = (await t.http().post('/scim/v2/Groups').set(h()).send({ schemas: [GROUP], displayName: `Etag ${version}` }).expect(201)).body;
      for (const [path, current] of [[`/scim/v2/Users/${user.id}`, version], [`/scim/v2/Groups/${group.id}`, group.meta.version as string]]) {
        for (const ifNoneMatch of [current, current.replace(/^W\//, ''), `W/"1", ${current}`, '*']) {
          const res = await t.http().get(path).set({ ...h(), 'If-None-Match': ifNoneMatch, 'Cache-Control': 'no-cache' });
          expect({ path, ifNoneMatch, status: res.status, body: res.text, etag: res.headers.etag }).toEqual({ path, ifNoneMatch, status: 304, body: '', etag: current });
        }
        await t.http().get(path).set({ ...h(), 'If-None-Match': 'W/"1"', 'Cache-Control': 'no-cache' }).expect(200);
      }
    });

    it('If-Match with another version: 412 on PUT, PATCH and DELETE, and nothing changes; the current version or * passes', async () => {
      const user = await createUser({ title: 'Kept' });
      const stale = { 'If-Match': 'W/"12345"' };
      expectScimError(await patch(user.id, [{ op: 'replace', path: 'title', value: 'Lost' }], stale), 412);
      expectScimError(await t.http().put(`/scim/v2/Users/${user.id}`).set({ ...h(), ...stale }).send({ schemas: [USER], userName: user.userName, title: 'Lost' }), 412);
      expectScimError(await t.http().delete(`/scim/v2/Users/${user.id}`).set({ ...h(), ...stale }), 412);
      const unchanged = (await t.http().get(`/scim/v2/Users/${user.id}`).set(h()).expect(200)).body;
      expect(unchanged).toMatchObject({ title: 'Kept', meta: { version: (user.meta as Body).version } });
      const current = (user.meta as Body).version as string;
      const ok = await patch(user.id, [{ op: 'replace', path: 'title', value: 'Changed' }], { 'If-Match': current }).expect(200);
      await patch(user.id, [{ op: 'replace', path: 'title', value: 'Again' }], { 'If-Match': '*' }).expect(200);
      // The version the first write made is stale now.
      expectScimError(await patch(user.id, [{ op: 'replace', path: 'title', value: 'Stale' }], { 'If-Match': ok.body.meta.version }), 412);
      const group = (await t.http().post('/scim/v2/Groups').set(h()).send({ schemas: [GROUP], displayName: 'Guarded group' }).expect(201)).body;
      expectScimError(await t.http().delete(`/scim/v2/Groups/${group.id}`).set({ ...h(), ...stale }), 412);
      await t.http().delete(`/scim/v2/Groups/${group.id}`).set({ ...h(), 'If-Match': group.meta.version }).expect(204);
    });

    it('ServiceProviderConfig says etag.supported: true', async () => {
      expect((await t.http().get('/scim/v2/ServiceProviderConfig').set(h()).expect(200)).body.etag).toEqual({ supported: true });
    });
  });

  describe('what is not supported', () => {
    it('/Bulk is 501 in the SCIM error schema', async () => {
      const res = await t.http().post('/scim/v2/Bulk').set(h()).send({ schemas: ['urn:ietf:params:scim:api:messages:2.0:BulkRequest'], Operations: [] });
      expectScimError(res, 501);
    });

    it('a write method on /ServiceProviderConfig, /Schemas or /ResourceTypes is 405 (Allow: GET) in the SCIM error schema', async () => {
      for (const path of ['/scim/v2/ServiceProviderConfig', '/scim/v2/Schemas', `/scim/v2/Schemas/${USER}`, '/scim/v2/ResourceTypes', '/scim/v2/ResourceTypes/User']) {
        for (const method of ['post', 'put', 'patch', 'delete'] as const) {
          const res = await t.http()[method](path).set(h()).send({});
          expectScimError(res, 405);
          expect(res.headers.allow).toBe('GET');
        }
        await t.http().get(path).set(h()).expect(200);
      }
    });
  });

  describe('deletes are deletes', () => {
    it('a deleted group answers 404, is neither listed nor filtered, and its displayName is free again', async () => {
      const group = (await t.http().post('/scim/v2/Groups').set(h()).send({ schemas: [GROUP], displayName: 'Doomed', externalId: 'doomed-1' }).expect(201)).body;
      await t.http().delete(`/scim/v2/Groups/${group.id}`).set(h()).expect(204);
      expectScimError(await t.http().get(`/scim/v2/Groups/${group.id}`).set(h()), 404);
      const list = (await t.http().get('/scim/v2/Groups').set(h()).expect(200)).body;
      expect(list.Resources.map((g: Body) => g.id)).not.toContain(group.id);
      for (const filter of ['displayName eq "Doomed"', 'externalId eq "doomed-1"']) {
        expect((await t.http().get('/scim/v2/Groups').query({ filter }).set(h()).expect(200)).body.totalResults).toBe(0);
      }
      const again = (await t.http().post('/scim/v2/Groups').set(h()).send({ schemas: [GROUP], displayName: 'Doomed' }).expect(201)).body;
      expect(again.id).not.toBe(group.id);
    });

    it('a deleted member: 404, not listed, not filtered by userName, externalId or email; a POST with the same userName is 201; actor references still resolve on /v2', async () => {
      const user = await createUser({ externalId: 'gone-1', name: { givenName: 'Gone', familyName: 'Soon' } });
      // A record that names the member as its owner (an actor reference).
      const deal = await t
        .http()
        .post('/v2/objects/deals/records')
        .set({ Authorization: `Bearer ${ws.token}` })
        .send({ data: { values: { name: 'Owned deal', stage: 'Lead', owner: user.id } } })
        .expect(200);
      await t.http().delete(`/scim/v2/Users/${user.id}`).set(h()).expect(204);
      expectScimError(await t.http().get(`/scim/v2/Users/${user.id}`).set(h()), 404);
      const all = (await t.http().get('/scim/v2/Users').set(h()).expect(200)).body;
      expect(all.Resources.map((u: Body) => u.id)).not.toContain(user.id);
      for (const filter of [`userName eq "${user.userName}"`, 'externalId eq "gone-1"', `emails[type eq "work"].value eq "${user.userName}"`, `id eq "${user.id}"`]) {
        expect((await t.http().get('/scim/v2/Users').query({ filter }).set(h()).expect(200)).body.totalResults).toBe(0);
      }
      const record = await t.http().get(`/v2/objects/deals/records/${deal.body.data.id.record_id}`).set({ Authorization: `Bearer ${ws.token}` }).expect(200);
      expect(record.body.data.values.owner[0]).toMatchObject({ referenced_actor_type: 'workspace-member', referenced_actor_id: user.id });
      const member = await t.http().get(`/v2/workspace_members/${user.id}`).set({ Authorization: `Bearer ${ws.token}` }).expect(200);
      expect(member.body.data).toMatchObject({ first_name: 'Gone', last_name: 'Soon', access_level: 'suspended' });
      const again = await t.http().post('/scim/v2/Users').set(h()).send({ schemas: [USER], userName: user.userName.toUpperCase(), externalId: 'gone-1' }).expect(201);
      expect(again.body.id).not.toBe(user.id);
    });
  });

  describe('userName and emails', () => {
    it('userName is any string, unique case-insensitively', async () => {
      const a = await t.http().post('/scim/v2/Users').set(h()).send({ schemas: [USER], userName: 'Plain Name 1', emails: [{ value: 'plain1@rfc.example' }] }).expect(201);
      expect(a.body.userName).toBe('Plain Name 1');
      expectScimError(await t.http().post('/scim/v2/Users').set(h()).send({ schemas: [USER], userName: 'PLAIN name 1', emails: [{ value: 'plain2@rfc.example' }] }), 409, 'uniqueness');
      expectScimError(await patch(a.body.id, [{ op: 'remove', path: 'userName' }]), 400, 'mutability');
      expectScimError(await t.http().post('/scim/v2/Users').set(h()).send({ schemas: [USER], userName: '   ', emails: [{ value: 'plain3@rfc.example' }] }), 400, 'invalidValue');
    });

    it('the member email is the primary entry, else the first work one, else the first; else the userName if an address; neither is 400 naming emails', async () => {
      const email = async (body: Body) => {
        const user = (await t.http().post('/scim/v2/Users').set(h()).send({ schemas: [USER], ...body }).expect(201)).body;
        return (await t.http().get(`/v2/workspace_members/${user.id}`).set({ Authorization: `Bearer ${ws.token}` }).expect(200)).body.data.email_address;
      };
      expect(await email({ userName: 'pick-1', emails: [{ value: 'home1@rfc.example', type: 'home' }, { value: 'prim1@rfc.example', type: 'other', primary: true }, { value: 'work1@rfc.example', type: 'work' }] })).toBe(
        'prim1@rfc.example',
      );
      expect(await email({ userName: 'pick-2', emails: [{ value: 'home2@rfc.example', type: 'home' }, { value: 'work2@rfc.example', type: 'work' }] })).toBe('work2@rfc.example');
      expect(await email({ userName: 'pick-3', emails: [{ value: 'first3@rfc.example', type: 'home' }, { value: 'other3@rfc.example', type: 'other' }] })).toBe('first3@rfc.example');
      expect(await email({ userName: 'pick4@rfc.example' })).toBe('pick4@rfc.example');
      for (const body of [{ userName: 'no-address' }, { userName: 'bad-address', emails: [{ value: 'not an address', primary: true }] }]) {
        const res = await t.http().post('/scim/v2/Users').set(h()).send({ schemas: [USER], ...body });
        expectScimError(res, 400, 'invalidValue');
        expect(res.body.detail).toMatch(/emails/);
      }
      // A PATCH that removes the only address of a non-address userName is refused, and changes nothing.
      const user = (await t.http().post('/scim/v2/Users').set(h()).send({ schemas: [USER], userName: 'keeps-address', emails: [{ value: 'keep@rfc.example' }] }).expect(201)).body;
      const refused = await patch(user.id, [{ op: 'remove', path: 'emails' }]);
      expectScimError(refused, 400, 'invalidValue');
      expect((await t.http().get(`/scim/v2/Users/${user.id}`).set(h()).expect(200)).body.emails).toEqual([{ value: 'keep@rfc.example' }]);
    });

    it('emails round-trip as sent (every entry, type, primary, display); the same address on two users is 409', async () => {
      const emails = [
        { value: 'Round.Trip@rfc.example', type: 'work', primary: true, display: 'Round Trip' },
        { value: 'round.home@rfc.example', type: 'home' },
      ];
      const user = (await t.http().post('/scim/v2/Users').set(h()).send({ schemas: [USER], userName: 'round-trip', emails }).expect(201)).body;
      expect((await t.http().get(`/scim/v2/Users/${user.id}`).set(h()).expect(200)).body.emails).toEqual(emails);
      const clash = await t.http().post('/scim/v2/Users').set(h()).send({ schemas: [USER], userName: 'clash', emails: [{ value: 'round.trip@RFC.example', primary: true }] });
      expectScimError(clash, 409, 'uniqueness');
      expect(clash.body.detail).toMatch(/emails/);
    });
  });

  describe('round trip of what providers send', () => {
    const full = {
      externalId: 'ext-full',
      name: { formatted: 'Dr. Ada K. Lovelace III', familyName: 'Lovelace', givenName: 'Ada', middleName: 'King', honorificPrefix: 'Dr.', honorificSuffix: 'III' },
      displayName: 'Ada Lovelace',
      nickName: 'Ada',
      title: 'Analyst',
      preferredLanguage: 'en-GB',
      locale: 'en-GB',
      timezone: 'Europe/London',
      emails: [{ value: 'ada.full@rfc.example', type: 'work', primary: true }],
      phoneNumbers: [
        { value: '+44 20 7946 0000', type: 'work', primary: true },
        { value: '+44 7700 900000', type: 'mobile' },
      ],
      [ENTERPRISE]: { employeeNumber: '1815', department: 'Engines', costCenter: 'CC-1', organization: 'Analytical', division: 'Research', manager: { value: 'mgr-1' } },
    };

    it('each attribute comes back on GET exactly as last written; PUT replaces them all', async () => {
      const created = (await t.http().post('/scim/v2/Users').set(h()).send({ schemas: [USER, ENTERPRISE], userName: 'ada.full', ...full }).expect(201)).body;
      const got = (await t.http().get(`/scim/v2/Users/${created.id}`).set(h()).expect(200)).body;
      expect(got).toMatchObject({ schemas: [USER, ENTERPRISE], userName: 'ada.full', ...full });
      const replaced = (
        await t
          .http()
          .put(`/scim/v2/Users/${created.id}`)
          .set(h())
          .send({ schemas: [USER], userName: 'ada.full', name: { givenName: 'Augusta' }, title: 'Countess', emails: [{ value: 'augusta@rfc.example' }] })
          .expect(200)
      ).body;
      expect(replaced).toMatchObject({ schemas: [USER], name: { givenName: 'Augusta' }, title: 'Countess', emails: [{ value: 'augusta@rfc.example' }], externalId: 'ext-full' });
      for (const gone of ['displayName', 'nickName', 'preferredLanguage', 'locale', 'timezone', 'phoneNumbers', ENTERPRISE]) expect(replaced).not.toHaveProperty(gone);
      expect(replaced.name).toEqual({ givenName: 'Augusta' });
    });

    it('a value of the wrong type is 400 invalidValue naming the attribute, and changes nothing', async () => {
      const user = await createUser({ title: 'Typed' });
      for (const [path, value] of [
        ['title', 7],
        ['phoneNumbers', [{ value: 5 }]],
        ['name', 'flat'],
        [`${ENTERPRISE}:employeeNumber`, { no: 'object' }],
        ['emails[type eq "work"].primary', 'maybe'],
      ] as const) {
        const res = await patch(user.id, [{ op: 'replace', path, value }]);
        expectScimError(res, 400, 'invalidValue');
      }
      expect((await t.http().get(`/scim/v2/Users/${user.id}`).set(h()).expect(200)).body.title).toBe('Typed');
    });
  });

  describe('filters naming __proto__ or constructor', () => {
    it('are 400 invalidFilter in the SCIM error schema on Users and Groups, in lists, /.search and PATCH paths', async () => {
      const user = await createUser();
      for (const resource of ['Users', 'Groups']) {
        for (const filter of ['__proto__ eq "x"', 'constructor eq "x"', '__proto__.polluted eq "x"', 'toString pr', 'emails[__proto__ eq "x"]', 'members[constructor eq "x"]', 'hasOwnProperty eq "x"']) {
          const res = await t.http().get(`/scim/v2/${resource}`).query({ filter }).set(h());
          expectScimError(res, 400, 'invalidFilter');
          const search = await t.http().post(`/scim/v2/${resource}/.search`).set(h()).send({ schemas: ['urn:ietf:params:scim:api:messages:2.0:SearchRequest'], filter });
          expectScimError(search, 400, 'invalidFilter');
        }
      }
      expectScimError(await patch(user.id, [{ op: 'remove', path: 'emails[constructor eq "x"]' }]), 400, 'invalidPath');
      expectScimError(await patch(user.id, [{ op: 'remove', path: 'emails[__proto__ eq "x"]' }]), 400, 'invalidPath');
      // Nothing leaked onto Object.prototype.
      expect(({} as Body).polluted).toBeUndefined();
    });
  });

  describe('filters on an index', () => {
    it('userName eq, externalId eq, emails[type eq "work"].value eq (Users) and displayName eq (Groups) are index scans at a few thousand users', async () => {
      const db = t.app.get(TransactionRunner).manager();
      await db.query(
        `INSERT INTO workspace_members (workspace_id, id, email, user_name, access_level, external_id)
         SELECT $1, gen_random_uuid(), 'bulk' || n || '@rfc.example', 'bulk' || n || '@rfc.example', 'member', 'ext-' || n FROM generate_series(1, 3000) AS n`,
        [ws.workspaceId],
      );
      await db.query(
        `INSERT INTO teams (workspace_id, id, display_name) SELECT $1, gen_random_uuid(), 'Team ' || n FROM generate_series(1, 3000) AS n`,
        [ws.workspaceId],
      );
      await db.query(`ANALYZE workspace_members; ANALYZE workspace_invites; ANALYZE scim_user_emails; ANALYZE teams`);
      const { USER_FILTER_TARGET } = await import('../../libs/scim/src/infrastructure/scim-user.repository');
      const { GROUP_FILTER_TARGET } = await import('../../libs/scim/src/infrastructure/scim-group.repository');
      const { compileFilter } = await import('../../libs/scim/src/infrastructure/filter-sql');
      const { parseFilter } = await import('../../libs/scim/src/domain/filter');
      const plan = async (table: string, target: typeof USER_FILTER_TARGET, filter: string) => {
        const params: unknown[] = [ws.workspaceId];
        const where = compileFilter(parseFilter(filter), target, params);
        const rows: Array<{ 'QUERY PLAN': string }> = await db.query(`EXPLAIN SELECT * FROM ${table} WHERE ${table.endsWith('u') ? 'u' : 't'}.workspace_id = $1 AND ${where}`, params);
        return rows.map((row) => row['QUERY PLAN']).join('\n');
      };
      const users = 'scim_users u';
      for (const [filter, index] of [
        ['userName eq "BULK1234@rfc.example"', 'workspace_members_user_name_unique'],
        ['externalId eq "ext-1234"', 'workspace_members_external_id'],
        ['emails[type eq "work"].value eq "bulk1234@rfc.example"', 'scim_user_emails_value'],
      ]) {
        const text = await plan(users, USER_FILTER_TARGET, filter);
        expect({ filter, usesIndex: text.includes(index), seqScanOnMembers: /Seq Scan on workspace_members/.test(text) }).toEqual({ filter, usesIndex: true, seqScanOnMembers: false });
      }
      const groups = await plan('teams t', GROUP_FILTER_TARGET, 'displayName eq "team 1234"');
      expect(groups).toContain('teams_display_name_unique');
      // And the answers are right.
      const found = await t.http().get('/scim/v2/Users').query({ filter: 'emails[type eq "work"].value eq "BULK1234@rfc.example"' }).set(h()).expect(200);
      expect(found.body.Resources.map((u: Body) => u.userName)).toEqual(['bulk1234@rfc.example']);
    });
  });
});
