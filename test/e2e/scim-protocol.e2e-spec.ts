import { ApiExcludeController } from '@nestjs/swagger';
import { Controller, Get, Module } from '@nestjs/common';
import { RevokeTokenUseCase } from '@workbase/access';
import { Public } from '@workbase/shared/http';
import { SCOPES } from '@workbase/shared/kernel';
import { type Body, expectScimError, GROUP, LIST, PATCH, SCHEMA, USER } from '../support/scim';
import { useTestApp, useWorkspace } from '../support/suite';
import type { TestApp } from '../support/test-app';

type Res = { status: number; body: Body; headers: Record<string, string>; text: string };

/** A bug under /scim/: an error nobody mapped, carrying internals that must not leak. */
@ApiExcludeController() // a probe of this suite, not part of the published contract
@Controller('scim/v2/failing-probe')
class ScimFailingProbeController {
  @Get()
  @Public()
  fail(): never {
    throw new Error('connection string postgres://secret@db leaked');
  }
}

@Module({ controllers: [ScimFailingProbeController] })
class ScimFailingProbeModule {}

/** Walks a JSON value and returns the paths of every null in it. */
const nullsIn = (value: unknown, path = '$'): string[] =>
  value === null
    ? [path]
    : Array.isArray(value)
      ? value.flatMap((item, i) => nullsIn(item, `${path}[${i}]`))
      : typeof value === 'object'
        ? Object.entries(value as Body).flatMap(([key, inner]) => nullsIn(inner, `${path}.${key}`))
        : [];

describe('SCIM protocol: discovery, paging, projection, media types, errors, scopes, isolation', () => {
  const t = useTestApp({ imports: [ScimFailingProbeModule], env: { BODY_LIMIT: '8kb' } });
  const ws = useWorkspace(t, 'scim-protocol');
  let token: string;
  let userIds: string[];
  let groupId: string;

  const h = () => ({ Authorization: `Bearer ${token}` });

  beforeAll(async () => {
    token = await t.tokenFor(ws.workspaceId, [SCOPES.userManagementReadWrite]);
    // 105 users in all (the admin plus 104), to page past the cap of 100.
    userIds = [(await t.http().get('/scim/v2/Users?count=1').set(h()).expect(200)).body.Resources[0].id];
    for (let i = 0; i < 104; i++) {
      const res = await t
        .http()
        .post('/scim/v2/Users')
        .set(h())
        .send({ schemas: [USER], userName: `user${String(i).padStart(3, '0')}@example.com`, name: { givenName: `G${i}`, familyName: `F${i}` } })
        .expect(201);
      userIds.push(res.body.id);
    }
    groupId = (await t.http().post('/scim/v2/Groups').set(h()).send({ schemas: [GROUP], displayName: 'Paged', members: [{ value: userIds[1] }, { value: userIds[2] }] }).expect(201)).body.id;
  });

  describe('discovery', () => {
    it('GET /Schemas: a ListResponse of the User, EnterpriseUser and Group schemas (totalResults 3) with full attribute descriptions and no nulls', async () => {
      const res = await t.http().get('/scim/v2/Schemas').set(h()).expect(200);
      expect(res.headers['content-type']).toMatch(/^application\/scim\+json/);
      expect(res.body).toMatchObject({ schemas: [LIST], totalResults: 3, startIndex: 1, itemsPerPage: 3 });
      expect(nullsIn(res.body)).toEqual([]);
      const [user, enterprise, group] = res.body.Resources;
      expect(enterprise).toMatchObject({ id: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User' });
      expect((enterprise.attributes as Body[]).map((a) => a.name)).toEqual(['employeeNumber', 'costCenter', 'organization', 'division', 'department', 'manager']);
      expect(user).toMatchObject({
        schemas: [SCHEMA],
        id: USER,
        name: 'User',
        description: expect.any(String),
        meta: { resourceType: 'Schema', location: `http://localhost:3000/scim/v2/Schemas/${USER}` },
      });
      expect(group).toMatchObject({ id: GROUP, name: 'Group', meta: { resourceType: 'Schema' } });
      const attr = (schema: Body, name: string) => (schema.attributes as Body[]).find((a) => a.name === name)!;
      for (const schema of [user, group]) {
        for (const a of schema.attributes as Body[]) {
          expect(a).toMatchObject({ name: expect.any(String), type: expect.any(String), multiValued: expect.any(Boolean), description: expect.any(String), required: expect.any(Boolean) });
          expect(['readWrite', 'readOnly', 'immutable']).toContain(a.mutability);
          expect(['default', 'always']).toContain(a.returned);
        }
      }
      expect(attr(user, 'userName')).toMatchObject({ type: 'string', multiValued: false, required: true, mutability: 'readWrite', returned: 'default', uniqueness: 'server', caseExact: false });
      expect(attr(user, 'emails')).toMatchObject({ type: 'complex', multiValued: true, mutability: 'readWrite' });
      expect((attr(user, 'emails').subAttributes as Body[]).map((a) => a.name)).toEqual(['value', 'display', 'type', 'primary']);
      expect(attr(user, 'groups')).toMatchObject({ multiValued: true, mutability: 'readOnly' });
      expect((attr(user, 'name').subAttributes as Body[]).map((a) => a.name)).toEqual(['formatted', 'familyName', 'givenName', 'middleName', 'honorificPrefix', 'honorificSuffix']);
      expect(attr(user, 'active')).toMatchObject({ type: 'boolean', mutability: 'readWrite' });
      expect(attr(user, 'appRole')).toMatchObject({ canonicalValues: ['admin', 'member'] });
      expect(attr(user, 'externalId')).toMatchObject({ caseExact: true });
      expect(attr(group, 'displayName')).toMatchObject({ required: true, uniqueness: 'server' });
      expect((attr(group, 'members').subAttributes as Body[]).map((a) => a.name)).toEqual(['value', '$ref', 'type', 'display']);
    });

    it('GET /Schemas/{urn} (case-insensitive), unknown urn 404', async () => {
      expect((await t.http().get(`/scim/v2/Schemas/${USER}`).set(h()).expect(200)).body).toMatchObject({ id: USER, name: 'User' });
      expect((await t.http().get(`/scim/v2/Schemas/${GROUP.toLowerCase()}`).set(h()).expect(200)).body).toMatchObject({ id: GROUP, name: 'Group' });
      expect((await t.http().get('/scim/v2/Schemas/urn:ietf:params:scim:schemas:extension:enterprise:2.0:user').set(h()).expect(200)).body).toMatchObject({ name: 'EnterpriseUser' });
      expectScimError(await t.http().get('/scim/v2/Schemas/urn:example:custom:2.0:User').set(h()), 404);
    });

    it('GET /ServiceProviderConfig and /ResourceTypes describe what is supported', async () => {
      const spc = (await t.http().get('/scim/v2/ServiceProviderConfig').set(h()).expect(200)).body;
      expect(spc).toMatchObject({
        schemas: ['urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig'],
        patch: { supported: true },
        bulk: { supported: false },
        filter: { supported: true, maxResults: 100 },
        changePassword: { supported: false },
        sort: { supported: false },
        etag: { supported: true },
        authenticationSchemes: expect.arrayContaining([expect.objectContaining({ type: 'oauthbearertoken', primary: true })]),
      });
      const types = (await t.http().get('/scim/v2/ResourceTypes').set(h()).expect(200)).body;
      expect(types).toMatchObject({ schemas: [LIST], totalResults: 2, itemsPerPage: 2 });
      expect(types.Resources).toEqual([
        expect.objectContaining({ id: 'User', name: 'User', endpoint: '/Users', schema: USER }),
        expect.objectContaining({ id: 'Group', name: 'Group', endpoint: '/Groups', schema: GROUP }),
      ]);
      expect((await t.http().get('/scim/v2/ResourceTypes/group').set(h()).expect(200)).body).toMatchObject({ id: 'Group', meta: { resourceType: 'ResourceType' } });
      expectScimError(await t.http().get('/scim/v2/ResourceTypes/Device').set(h()), 404);
    });

    it('a filter on a discovery endpoint is refused with 403 (RFC 7644 §4)', async () => {
      for (const path of ['/scim/v2/Schemas', `/scim/v2/Schemas/${USER}`, '/scim/v2/ServiceProviderConfig', '/scim/v2/ResourceTypes', '/scim/v2/ResourceTypes/User']) {
        expectScimError(await t.http().get(`${path}?filter=${encodeURIComponent('name eq "User"')}`).set(h()), 403);
      }
    });
  });

  describe('paging', () => {
    const page = async (query: string) => (await t.http().get(`/scim/v2/Users?${query}`).set(h()).expect(200)).body;

    it('count defaults to and is capped at 100; totalResults counts every match; integers throughout', async () => {
      for (const query of ['', 'count=100', 'count=500']) {
        const body = await page(query);
        expect(body).toMatchObject({ schemas: [LIST], totalResults: 105, startIndex: 1, itemsPerPage: 100 });
        expect(body.Resources).toHaveLength(100);
      }
    });

    it('startIndex is 1-based; below 1 reads as 1; pages are disjoint, stable and cover everything', async () => {
      expect((await page('startIndex=0&count=2')).startIndex).toBe(1);
      expect((await page('startIndex=-7&count=2')).Resources[0].id).toBe(userIds[0]);
      const seen: string[] = [];
      for (let start = 1; start <= 105; start += 25) {
        const body = await page(`startIndex=${start}&count=25`);
        expect(body.startIndex).toBe(start);
        expect(body.itemsPerPage).toBe(body.Resources.length);
        seen.push(...body.Resources.map((u: { id: string }) => u.id));
      }
      expect(seen).toEqual(userIds);
      const last = await page('startIndex=101&count=100');
      expect(last).toMatchObject({ totalResults: 105, startIndex: 101, itemsPerPage: 5 });
      expect(await page('startIndex=500')).toMatchObject({ totalResults: 105, startIndex: 500, itemsPerPage: 0, Resources: [] });
    });

    it('count=0 (or below) returns only the total; non-integers are 400 invalidValue', async () => {
      expect(await page('count=0')).toEqual({ schemas: [LIST], totalResults: 105, startIndex: 1, itemsPerPage: 0, Resources: [] });
      expect((await page('count=-3')).itemsPerPage).toBe(0);
      expectScimError(await t.http().get('/scim/v2/Users?count=ten').set(h()), 400, 'invalidValue');
      expectScimError(await t.http().get('/scim/v2/Users?startIndex=1.5').set(h()), 400, 'invalidValue');
    });

    it('query parameter names are case-insensitive and unknown ones are ignored; a repeated one is 400', async () => {
      expect(await page('STARTINDEX=3&Count=1&cachebuster=123&$top=5')).toMatchObject({ totalResults: 105, startIndex: 3, itemsPerPage: 1 });
      expect((await page(`Filter=${encodeURIComponent('userName eq "user001@example.com"')}`)).Resources[0].id).toBe(userIds[2]);
      expect((await t.http().get(`/scim/v2/Users/${userIds[1]}?ATTRIBUTES=userName&foo=bar`).set(h()).expect(200)).body).toEqual({ schemas: [USER], id: userIds[1], userName: 'user000@example.com' });
      expectScimError(await t.http().get('/scim/v2/Users?filter=userName%20pr&filter=id%20pr').set(h()), 400, 'invalidFilter');
      expectScimError(await t.http().get('/scim/v2/Users?count=1&count=2').set(h()), 400, 'invalidValue');
    });

    it('groups page the same way, with the paging fields as integers', async () => {
      const body = (await t.http().get('/scim/v2/Groups?startIndex=1&count=1').set(h()).expect(200)).body;
      expect(body).toMatchObject({ totalResults: 1, startIndex: 1, itemsPerPage: 1 });
      expect(body.Resources[0].members).toHaveLength(2);
    });
  });

  describe('attributes and excludedAttributes', () => {
    it('attributes keeps only what is asked for, plus id and schemas; sub-attributes and URN-qualified names work', async () => {
      const one = (await t.http().get(`/scim/v2/Users/${userIds[1]}?attributes=userName`).set(h()).expect(200)).body;
      expect(one).toEqual({ schemas: [USER], id: userIds[1], userName: 'user000@example.com' });
      const sub = (await t.http().get(`/scim/v2/Users/${userIds[1]}?attributes=name.givenName,${USER}:emails.value`).set(h()).expect(200)).body;
      expect(sub).toEqual({ schemas: [USER], id: userIds[1], name: { givenName: 'G0' }, emails: [{ value: 'user000@example.com' }] });
      const list = (await t.http().get(`/scim/v2/Users?count=2&startIndex=2&attributes=ACTIVE`).set(h()).expect(200)).body;
      expect(list.Resources).toEqual([
        { schemas: [USER], id: userIds[1], active: true },
        { schemas: [USER], id: userIds[2], active: true },
      ]);
    });

    it('excludedAttributes drops attributes but never id or schemas', async () => {
      const res = (await t.http().get(`/scim/v2/Users/${userIds[1]}?excludedAttributes=emails,meta,id,name.familyName`).set(h()).expect(200)).body;
      expect(res).toMatchObject({ schemas: [USER], id: userIds[1], userName: 'user000@example.com', name: { givenName: 'G0' } });
      expect(res).not.toHaveProperty('emails');
      expect(res).not.toHaveProperty('meta');
      expect(res.name).not.toHaveProperty('familyName');
      const group = (await t.http().get(`/scim/v2/Groups/${groupId}?excludedAttributes=members`).set(h()).expect(200)).body;
      expect(group).not.toHaveProperty('members');
      expect(group.displayName).toBe('Paged');
      const onlyName = (await t.http().get(`/scim/v2/Groups?attributes=displayName`).set(h()).expect(200)).body.Resources[0];
      expect(onlyName).toEqual({ schemas: [GROUP], id: groupId, displayName: 'Paged' });
    });
  });

  describe('media types and errors', () => {
    it('accepts application/scim+json (with charset) and application/json bodies, and answers application/scim+json', async () => {
      const scim = await t
        .http()
        .post('/scim/v2/Users')
        .set({ ...h(), 'Content-Type': 'application/scim+json; charset=utf-8', Accept: 'application/scim+json' })
        .send(JSON.stringify({ schemas: [USER], userName: 'media1@example.com' }))
        .expect(201);
      expect(scim.headers['content-type']).toMatch(/^application\/scim\+json/);
      expect(scim.headers.location).toBe(scim.body.meta.location);
      const json = await t.http().post('/scim/v2/Users').set({ ...h(), 'Content-Type': 'application/json' }).send(JSON.stringify({ schemas: [USER], userName: 'media2@example.com' })).expect(201);
      expect(json.headers['content-type']).toMatch(/^application\/scim\+json/);
      const patched = await t
        .http()
        .patch(`/scim/v2/Users/${scim.body.id}`)
        .set({ ...h(), 'Content-Type': 'application/scim+json' })
        .send(JSON.stringify({ schemas: [PATCH], Operations: [{ op: 'replace', path: 'name.givenName', value: 'Media' }] }))
        .expect(200);
      expect(patched.body.name.givenName).toBe('Media');
      expect(patched.headers['content-type']).toMatch(/^application\/scim\+json/);
    });

    it('400: malformed JSON is invalidSyntax in the SCIM schema', async () => {
      expectScimError(await t.http().post('/scim/v2/Users').set({ ...h(), 'Content-Type': 'application/scim+json' }).send('{"schemas": ['), 400, 'invalidSyntax');
      expectScimError(await t.http().post('/scim/v2/Users').set({ ...h(), 'Content-Type': 'application/scim+json' }).send('[1, 2]'), 400, 'invalidSyntax');
    });

    it('401: no token, a malformed or revoked token; Basic with the token as username works', async () => {
      expectScimError(await t.http().get('/scim/v2/Users'), 401);
      expectScimError(await t.http().get('/scim/v2/Users').set({ Authorization: 'Bearer not-a-token' }), 401);
      expectScimError(await t.http().get('/scim/v2/Users').set({ Authorization: 'non-token' }), 401);
      const doomed = await t.tokenFor(ws.workspaceId, [SCOPES.userManagementRead]);
      await t.http().get('/scim/v2/Users?count=1').set({ Authorization: `Bearer ${doomed}` }).expect(200);
      await t.app.get(RevokeTokenUseCase).execute(doomed);
      expectScimError(await t.http().get('/scim/v2/Users?count=1').set({ Authorization: `Bearer ${doomed}` }), 401);
      await t.http().get('/scim/v2/Users?count=1').auth(token, '').expect(200);
    });

    it('404: unknown ids and unknown routes under /scim/v2', async () => {
      expectScimError(await t.http().get('/scim/v2/Users/010101001010101011001010101011').set(h()), 404);
      expectScimError(await t.http().get('/scim/v2/Groups/6f1c1d3e-0000-4000-8000-000000000000').set(h()), 404);
      expectScimError(await t.http().get('/scim/v2/Nowhere').set(h()), 404);
    });

    it('409: uniqueness, with scimType', async () => {
      expectScimError(await t.http().post('/scim/v2/Users').set(h()).send({ schemas: [USER], userName: 'USER001@example.com' }), 409, 'uniqueness');
      expectScimError(await t.http().post('/scim/v2/Groups').set(h()).send({ schemas: [GROUP], displayName: 'paged' }), 409, 'uniqueness');
    });

    it('413: a body over the size limit', async () => {
      const res = await t
        .http()
        .post('/scim/v2/Groups')
        .set({ ...h(), 'Content-Type': 'application/scim+json' })
        .send(JSON.stringify({ schemas: [GROUP], displayName: 'x'.repeat(10_000) }));
      expectScimError(res, 413);
    });

    it('500: an unexpected failure leaks nothing', async () => {
      const res = await t.http().get('/scim/v2/failing-probe');
      expectScimError(res, 500);
      expect(res.body.detail).toBe('An unexpected error occurred.');
      expect(res.text).not.toMatch(/secret|postgres:/);
    });

    it('trailing slashes are tolerated on collections and resources', async () => {
      await t.http().get('/scim/v2/Users/?count=1').set(h()).expect(200);
      await t.http().get(`/scim/v2/Users/${userIds[3]}/`).set(h()).expect(200);
      await t.http().get(`/scim/v2/Groups/${groupId}/`).set(h()).expect(200);
      await t.http().get('/scim/v2/Schemas/').set(h()).expect(200);
      await t.http().get('/scim/v2/ServiceProviderConfig/').set(h()).expect(200);
      const created = await t.http().post('/scim/v2/Users/').set(h()).send({ schemas: [USER], userName: 'slash@example.com' }).expect(201);
      await t
        .http()
        .patch(`/scim/v2/Users/${created.body.id}/`)
        .set(h())
        .send({ schemas: [PATCH], Operations: [{ op: 'replace', path: 'name.familyName', value: 'Slash' }] })
        .expect(200);
    });
  });

  it('OpenAPI documents the SCIM query parameters', async () => {
    const doc = (await t.http().get('/openapi.json').expect(200)).body as { paths: Record<string, Record<string, { parameters?: Array<{ name: string; in: string }> }>> };
    const names = (path: string, method: string) => (doc.paths[path][method].parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
    expect(names('/scim/v2/Users', 'get')).toEqual(expect.arrayContaining(['filter', 'startIndex', 'count', 'attributes', 'excludedAttributes']));
    expect(names('/scim/v2/Groups/{workspace_team_id}', 'get')).toEqual(['attributes', 'excludedAttributes']);
  });

  describe('scopes and workspace isolation', () => {
    it('user_management:read reads everything and writes nothing (403); no user_management scope is 403 everywhere', async () => {
      const reader = { Authorization: `Bearer ${await t.tokenFor(ws.workspaceId, [SCOPES.userManagementRead])}` };
      const none = { Authorization: `Bearer ${await t.tokenFor(ws.workspaceId, [SCOPES.noteRead, SCOPES.webhookRead])}` };
      const reads: Array<[string, string, Body?]> = [
        ['get', '/scim/v2/Users'],
        ['get', `/scim/v2/Users/${userIds[1]}`],
        ['post', '/scim/v2/Users/.search', { schemas: ['urn:ietf:params:scim:api:messages:2.0:SearchRequest'] }],
        ['get', '/scim/v2/Groups'],
        ['get', `/scim/v2/Groups/${groupId}`],
        ['post', '/scim/v2/Groups/.search', { schemas: ['urn:ietf:params:scim:api:messages:2.0:SearchRequest'] }],
        ['get', '/scim/v2/Schemas'],
        ['get', `/scim/v2/Schemas/${USER}`],
        ['get', '/scim/v2/ServiceProviderConfig'],
        ['get', '/scim/v2/ResourceTypes'],
        ['get', '/scim/v2/ResourceTypes/User'],
      ];
      const writes: Array<[string, string, Body?]> = [
        ['post', '/scim/v2/Users', { schemas: [USER], userName: 'scoped@example.com' }],
        ['put', `/scim/v2/Users/${userIds[1]}`, { schemas: [USER], userName: 'user000@example.com' }],
        ['patch', `/scim/v2/Users/${userIds[1]}`, { schemas: [PATCH], Operations: [] }],
        ['delete', `/scim/v2/Users/${userIds[1]}`],
        ['post', '/scim/v2/Groups', { schemas: [GROUP], displayName: 'Scoped' }],
        ['put', `/scim/v2/Groups/${groupId}`, { schemas: [GROUP], displayName: 'Paged' }],
        ['patch', `/scim/v2/Groups/${groupId}`, { schemas: [PATCH], Operations: [] }],
        ['delete', `/scim/v2/Groups/${groupId}`],
      ];
      const call = (method: string, path: string, headers: Record<string, string>, body?: Body) => {
        const req = (t.http() as unknown as Record<string, (p: string) => ReturnType<ReturnType<TestApp['http']>['get']>>)[method](path).set(headers);
        return (body ? req.send(body) : req) as unknown as Promise<Res>;
      };
      for (const [method, path, body] of reads) {
        expect([method, path, (await call(method, path, reader, body)).status]).toEqual([method, path, 200]);
        expectScimError(await call(method, path, none, body), 403);
      }
      for (const [method, path, body] of writes) {
        const res = await call(method, path, reader, body);
        expectScimError(res, 403);
        expect(res.body.detail).toContain('user_management:read-write');
        expectScimError(await call(method, path, none, body), 403);
      }
      // Nothing was written.
      expect((await t.http().get(`/scim/v2/Groups/${groupId}`).set(h()).expect(200)).body.members).toHaveLength(2);
    });

    it("another workspace's user and group ids are 404 for every method, and cannot be made members", async () => {
      const other = await t.createWorkspace('scim-protocol-other');
      const otherToken = await t.tokenFor(other.workspaceId, [SCOPES.userManagementReadWrite]);
      const o = { Authorization: `Bearer ${otherToken}` };
      const theirs = (await t.http().post('/scim/v2/Users').set(o).send({ schemas: [USER], userName: 'theirs@example.com' }).expect(201)).body.id;
      const theirGroup = (await t.http().post('/scim/v2/Groups').set(o).send({ schemas: [GROUP], displayName: 'Theirs' }).expect(201)).body.id;
      const patchBody = { schemas: [PATCH], Operations: [{ op: 'replace', path: 'active', value: false }] };
      expectScimError(await t.http().get(`/scim/v2/Users/${theirs}`).set(h()), 404);
      expectScimError(await t.http().put(`/scim/v2/Users/${theirs}`).set(h()).send({ schemas: [USER], userName: 'theirs@example.com' }), 404);
      expectScimError(await t.http().patch(`/scim/v2/Users/${theirs}`).set(h()).send(patchBody), 404);
      expectScimError(await t.http().delete(`/scim/v2/Users/${theirs}`).set(h()), 404);
      expectScimError(await t.http().get(`/scim/v2/Groups/${theirGroup}`).set(h()), 404);
      expectScimError(await t.http().put(`/scim/v2/Groups/${theirGroup}`).set(h()).send({ schemas: [GROUP], displayName: 'Mine now' }), 404);
      expectScimError(await t.http().patch(`/scim/v2/Groups/${theirGroup}`).set(h()).send({ schemas: [PATCH], Operations: [] }), 404);
      expectScimError(await t.http().delete(`/scim/v2/Groups/${theirGroup}`).set(h()), 404);
      expectScimError(
        await t.http().patch(`/scim/v2/Groups/${groupId}`).set(h()).send({ schemas: [PATCH], Operations: [{ op: 'add', path: 'members', value: [{ value: theirs }] }] }),
        400,
        'invalidValue',
      );
      // Their user is untouched and their list shows only their own.
      expect((await t.http().get(`/scim/v2/Users/${theirs}`).set(o).expect(200)).body.active).toBe(true);
      expect((await t.http().get('/scim/v2/Users').set(o).expect(200)).body.totalResults).toBe(2);
      // The same userName may exist in both workspaces.
      await t.http().post('/scim/v2/Users').set(h()).send({ schemas: [USER], userName: 'theirs@example.com' }).expect(201);
    });
  });
});
