import { ALL_SCOPES, SCOPES, type Scope } from '@workbase/shared/kernel';
import { DataSource } from 'typeorm';
import { bearer, bearerRequests } from '../support/requests';
import { useTestApp, useWorkspace } from '../support/suite';

type Row = Record<string, unknown>;

/** Walks the Activity, Attributes and Events sections of the spec for activities themselves. */
describe('activities: definitions, schemas, attributes, scopes, events', () => {
  const t = useTestApp();
  const ws = useWorkspace(t, 'activities');
  const other = useWorkspace(t, 'activities-other');

  const { get, post, patch, del, objectId } = bearerRequests(() => t, () => ws.token);
  const db = () => t.app.get(DataSource);
  const slugs = (rows: Row[]) => rows.map((row) => row.api_slug);
  const createActivity = (api_slug: string, ext: string, token = ws.token) =>
    post('/v2/activities', { data: { api_slug, singular_noun: `${api_slug} one`, plural_noun: `${api_slug} many`, extends: ext } }, token);
  const attribute = (api_slug: string, type: string, extra: object = {}) => ({
    data: { title: api_slug, api_slug, type, is_required: false, is_unique: false, is_multiselect: false, config: {}, ...extra },
  });
  const without = (scope: Scope) => ALL_SCOPES.filter((s) => s !== scope && s !== scope.replace(':read-write', ':read') + (scope.endsWith(':read') ? '-write' : ''));

  describe('the system activity', () => {
    it('exists in every workspace with the documented response shape', async () => {
      const res = await get('/v2/activities').expect(200);
      expect(res.body.data).toEqual([
        {
          id: { workspace_id: ws.workspaceId, activity_id: expect.any(String) },
          api_slug: 'phone_calls',
          singular_noun: 'Phone call',
          plural_noun: 'Phone calls',
          extends: 'calls',
          is_archived: false,
          created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z$/),
        },
      ]);
      expect(slugs((await get('/v2/activities', other.token).expect(200)).body.data)).toEqual(['phone_calls']);
      expect((await get('/v2/activities', other.token)).body.data[0].id.activity_id).not.toBe(res.body.data[0].id.activity_id);
    });

    it('cannot be changed or deleted (400), by slug or UUID', async () => {
      const id = (await get('/v2/activities/phone_calls').expect(200)).body.data.id.activity_id;
      for (const key of ['phone_calls', id]) {
        const patched = await patch(`/v2/activities/${key}`, { data: { singular_noun: 'Call' } }).expect(400);
        expect(patched.body).toMatchObject({ status_code: 400, type: 'invalid_request_error', code: 'system_edit_unauthorized', message: expect.stringContaining('phone_calls') });
        await patch(`/v2/activities/${key}`, { data: { is_archived: true } }).expect(400);
        expect((await del(`/v2/activities/${key}`).expect(400)).body.code).toBe('system_edit_unauthorized');
      }
      expect((await get('/v2/activities/phone_calls').expect(200)).body.data).toMatchObject({ singular_noun: 'Phone call', is_archived: false });
    });
  });

  describe('create, get, update', () => {
    it('creates one activity per schema and returns it by slug and by UUID', async () => {
      for (const ext of ['activities', 'interactions', 'calls', 'emails']) {
        const created = await createActivity(`acme_${ext}`, ext).expect(200);
        expect(created.body.data).toEqual({
          id: { workspace_id: ws.workspaceId, activity_id: expect.any(String) },
          api_slug: `acme_${ext}`,
          singular_noun: `acme_${ext} one`,
          plural_noun: `acme_${ext} many`,
          extends: ext,
          is_archived: false,
          created_at: expect.any(String),
        });
        expect((await get(`/v2/activities/acme_${ext}`).expect(200)).body.data).toEqual(created.body.data);
        expect((await get(`/v2/activities/${created.body.data.id.activity_id}`).expect(200)).body.data).toEqual(created.body.data);
      }
      expect(slugs((await get('/v2/activities').expect(200)).body.data)).toEqual(['phone_calls', 'acme_activities', 'acme_interactions', 'acme_calls', 'acme_emails']);
    });

    it('refuses bad bodies with 400s naming the field, and a taken slug with 409', async () => {
      const base = { api_slug: 'acme_bad', singular_noun: 'Bad', plural_noun: 'Bads', extends: 'activities' };
      const cases: Array<[Row, string]> = [
        [{ extends: undefined }, 'data.extends'],
        [{ extends: 'meetings' }, 'data.extends'],
        [{ extends: 3 }, 'data.extends'],
        [{ api_slug: 'Bad Slug' }, 'data.api_slug'],
        [{ api_slug: '9lives' }, 'data.api_slug'],
        [{ api_slug: undefined }, 'data.api_slug'],
        [{ singular_noun: '' }, 'data.singular_noun'],
        [{ plural_noun: undefined }, 'data.plural_noun'],
        [{ colour: 'red' }, 'colour'],
      ];
      for (const [override, field] of cases) {
        const res = await post('/v2/activities', { data: { ...base, ...override } });
        expect([res.status, res.body.code, res.body.message.includes(field)]).toEqual([400, 'validation_type', true]);
      }
      await post('/v2/activities', {}).expect(400);
      for (const taken of ['acme_calls', 'phone_calls']) {
        expect((await createActivity(taken, 'calls').expect(409)).body).toMatchObject({ status_code: 409, code: 'slug_conflict' });
      }
      expect(slugs((await get('/v2/activities?show_archived=true').expect(200)).body.data)).not.toContain('acme_bad');
    });

    it('updates slug and nouns by slug or UUID; extends never changes (400)', async () => {
      const id = (await createActivity('acme_visits', 'interactions').expect(200)).body.data.id.activity_id;
      const renamed = await patch('/v2/activities/acme_visits', { data: { api_slug: 'acme_site_visits', singular_noun: 'Site visit' } }).expect(200);
      expect(renamed.body.data).toMatchObject({ id: { activity_id: id }, api_slug: 'acme_site_visits', singular_noun: 'Site visit', plural_noun: 'acme_visits many', extends: 'interactions' });
      await get('/v2/activities/acme_visits').expect(404);
      expect((await patch(`/v2/activities/${id}`, { data: { plural_noun: 'Site visits' } }).expect(200)).body.data.plural_noun).toBe('Site visits');
      for (const ext of ['calls', 'interactions', null]) {
        const res = await patch(`/v2/activities/${id}`, { data: { extends: ext, singular_noun: 'Changed' } }).expect(400);
        expect(res.body).toMatchObject({ code: 'validation_type', message: expect.stringContaining('extends') });
      }
      expect((await get(`/v2/activities/${id}`).expect(200)).body.data).toMatchObject({ extends: 'interactions', singular_noun: 'Site visit' });
      expect((await patch(`/v2/activities/${id}`, { data: { api_slug: 'acme_calls' } }).expect(409)).body.code).toBe('slug_conflict');
      expect((await patch(`/v2/activities/${id}`, { data: { api_slug: 'No Good' } }).expect(400)).body.message).toContain('api_slug');
      expect((await patch(`/v2/activities/${id}`, { data: { is_archived: 'yes' } }).expect(400)).body.message).toContain('data.is_archived');
      await patch('/v2/activities/nope', { data: { singular_noun: 'x' } }).expect(404);
    });

    it("answers 404 for unknown activities and another workspace's, by UUID or slug", async () => {
      const missing = await get('/v2/activities/nope').expect(404);
      expect(missing.body).toMatchObject({ status_code: 404, code: 'not_found', message: 'Activity with slug/ID "nope" not found.' });
      const theirs = (await createActivity('theirs_only', 'calls', other.token).expect(200)).body.data.id.activity_id;
      const theirPhoneCalls = (await get('/v2/activities/phone_calls', other.token).expect(200)).body.data.id.activity_id;
      for (const key of [theirs, theirPhoneCalls, 'theirs_only']) {
        await get(`/v2/activities/${key}`).expect(404);
        await patch(`/v2/activities/${key}`, { data: { singular_noun: 'Mine now' } }).expect(404);
        await del(`/v2/activities/${key}`).expect(404);
        await get(`/v2/activities/${key}/attributes`).expect(404);
        await post(`/v2/activities/${key}/attributes`, attribute('stolen', 'text')).expect(404);
        await post(`/v2/activities/${key}/records/query`, {}).expect(404);
        await post(`/v2/activities/${key}/records`, { data: { values: { timestamp: '2026-01-01T00:00:00Z' } } }).expect(404);
      }
      expect((await get(`/v2/activities/${theirs}`, other.token).expect(200)).body.data.singular_noun).toBe('theirs_only one');
    });
  });

  describe('archive and delete', () => {
    it('hides archived activities from the default list, shows them with show_archived=true, and deletes them', async () => {
      const id = (await createActivity('acme_archived', 'emails').expect(200)).body.data.id.activity_id;
      expect((await patch('/v2/activities/acme_archived', { data: { is_archived: true } }).expect(200)).body.data.is_archived).toBe(true);
      expect(slugs((await get('/v2/activities').expect(200)).body.data)).not.toContain('acme_archived');
      expect(slugs((await get('/v2/activities?show_archived=false').expect(200)).body.data)).not.toContain('acme_archived');
      expect(slugs((await get('/v2/activities?show_archived=true').expect(200)).body.data)).toContain('acme_archived');
      await get('/v2/activities?show_archived=maybe').expect(400);
      expect((await get(`/v2/activities/${id}`).expect(200)).body.data.is_archived).toBe(true);
      await patch('/v2/activities/acme_archived', { data: { is_archived: false } }).expect(200);
      expect(slugs((await get('/v2/activities').expect(200)).body.data)).toContain('acme_archived');
      await patch('/v2/activities/acme_archived', { data: { is_archived: true } }).expect(200);
      expect((await del('/v2/activities/acme_archived').expect(200)).body).toEqual({});
      await get(`/v2/activities/${id}`).expect(404);
      expect(slugs((await get('/v2/activities?show_archived=true').expect(200)).body.data)).not.toContain('acme_archived');
      await del(`/v2/activities/${id}`).expect(404);
    });

    it('deletes the activity with all its records, attributes and options, and nothing else', async () => {
      const id = (await createActivity('acme_doomed', 'calls').expect(200)).body.data.id.activity_id;
      await post('/v2/activities/acme_doomed/attributes', attribute('kind', 'select')).expect(200);
      await post('/v2/activities/acme_doomed/attributes/kind/options', { data: { title: 'Cold' } }).expect(200);
      for (let i = 0; i < 3; i++) {
        await post('/v2/activities/acme_doomed/records', { data: { values: { timestamp: `2026-01-0${i + 1}T10:00:00Z`, direction: 'Inbound', kind: 'Cold' } } }).expect(200);
      }
      const kept = await post('/v2/activities/phone_calls/records', { data: { values: { timestamp: '2026-01-01T10:00:00Z' } } }).expect(200);
      const count = async (sql: string) => Number((await db().query(sql, [ws.workspaceId, id]))[0].n);
      expect(await count(`SELECT count(*) AS n FROM records WHERE workspace_id = $1 AND container_id = $2`)).toBe(3);
      expect(await count(`SELECT count(*) AS n FROM attributes WHERE workspace_id = $1 AND container_id = $2`)).toBeGreaterThan(5);

      await del(`/v2/activities/${id}`).expect(200);
      expect(await count(`SELECT count(*) AS n FROM records WHERE workspace_id = $1 AND container_id = $2`)).toBe(0);
      expect(await count(`SELECT count(*) AS n FROM attributes WHERE workspace_id = $1 AND container_id = $2`)).toBe(0);
      expect(
        await count(`SELECT count(*) AS n FROM record_values v WHERE workspace_id = $1 AND NOT EXISTS (SELECT 1 FROM records r WHERE r.workspace_id = v.workspace_id AND r.id = v.record_id) AND $2::uuid IS NOT NULL`),
      ).toBe(0);
      expect(
        await count(`SELECT count(*) AS n FROM select_options o WHERE workspace_id = $1 AND NOT EXISTS (SELECT 1 FROM attributes a WHERE a.workspace_id = o.workspace_id AND a.id = o.attribute_id) AND $2::uuid IS NOT NULL`),
      ).toBe(0);
      await post(`/v2/activities/${id}/records/query`, {}).expect(404);
      await get(`/v2/activities/phone_calls/records/${kept.body.data.id.record_id}`).expect(200);
      // The slug is free again.
      expect((await createActivity('acme_doomed', 'activities').expect(200)).body.data.id.activity_id).not.toBe(id);
      expect((await post('/v2/activities/acme_doomed/records/query', {}).expect(200)).body.data).toEqual([]);
    });

    it('needs activity_configuration:read-write, activity_record:read-write and an admin member behind the token', async () => {
      await createActivity('acme_guarded', 'activities').expect(200);
      const noConfig = await t.tokenFor(ws.workspaceId, [SCOPES.activityConfigurationRead, SCOPES.activityRecordReadWrite]);
      expect((await del('/v2/activities/acme_guarded', noConfig).expect(403)).body).toMatchObject({ status_code: 403, type: 'auth_error', message: expect.stringContaining('activity_configuration:read-write') });
      const noRecords = await t.tokenFor(ws.workspaceId, [SCOPES.activityConfigurationReadWrite, SCOPES.activityRecordRead]);
      expect((await del('/v2/activities/acme_guarded', noRecords).expect(403)).body.message).toContain('activity_record:read-write');
      const memberId = await t.createMember(ws.workspaceId, 'plain-member@activities.test', 'member');
      const memberToken = await t.tokenFor(ws.workspaceId, ALL_SCOPES, { memberId });
      expect((await del('/v2/activities/acme_guarded', memberToken).expect(403)).body.message).toContain('admin');
      await get('/v2/activities/acme_guarded', memberToken).expect(200);
      const exact = await t.tokenFor(ws.workspaceId, [SCOPES.activityConfigurationReadWrite, SCOPES.activityRecordReadWrite]);
      await del('/v2/activities/acme_guarded', exact).expect(200);
    });
  });

  describe('bad input is a 400 naming the field, never a 500', () => {
    it('refuses null for every PATCH field instead of failing on the column (null is not "unchanged")', async () => {
      await createActivity('acme_nullable', 'activities').expect(200);
      for (const field of ['api_slug', 'singular_noun', 'plural_noun', 'is_archived']) {
        const res = await patch('/v2/activities/acme_nullable', { data: { [field]: null } });
        expect([res.status, res.body.code, res.body.message]).toEqual([400, 'validation_type', expect.stringContaining(`data.${field}`)]);
      }
      const unchanged = await patch('/v2/activities/acme_nullable', { data: {} }).expect(200);
      expect(unchanged.body.data).toMatchObject({ api_slug: 'acme_nullable', singular_noun: 'acme_nullable one', plural_noun: 'acme_nullable many', is_archived: false });
      await patch('/v2/activities/acme_nullable', { data: { api_slug: 'acme_nullable', is_archived: false } }).expect(200);
      const updates: Array<{ n: string }> = await db().query(
        `SELECT count(*) AS n FROM event_outbox WHERE workspace_id = $1 AND event_type = 'activity.updated' AND entity_id->>'activity_id' = $2`,
        [ws.workspaceId, unchanged.body.data.id.activity_id],
      );
      expect(Number(updates[0].n)).toBe(0);
      expect((await patch('/v2/activities/acme_nullable', { data: { colour: 'red' } }).expect(400)).body.message).toContain('data.colour');
      await patch('/v2/activities/acme_nullable', { data: null }).expect(400);
      await patch('/v2/activities/acme_nullable', {}).expect(400);
    });

    it('refuses the NUL character (which PostgreSQL cannot store) in bodies, path and query parameters', async () => {
      const nul = 'Site\u0000visit';
      const created = await post('/v2/activities', { data: { api_slug: 'acme_nul', singular_noun: nul, plural_noun: 'Visits', extends: 'activities' } }).expect(400);
      expect(created.body).toMatchObject({ status_code: 400, code: 'validation_type', message: expect.stringContaining('data.singular_noun') });
      await createActivity('acme_nul', 'activities').expect(200);
      expect((await patch('/v2/activities/acme_nul', { data: { plural_noun: nul } }).expect(400)).body.message).toContain('data.plural_noun');
      for (const path of ['/v2/activities/%00', '/v2/activities/acme%00nul', '/v2/activities/acme_nul%00/attributes', '/v2/activities/%00/records/query']) {
        const res = path.endsWith('query') ? await post(path, {}) : await get(path);
        // The attribute routes are shared with objects and lists, where the path parameter is `identifier`.
        expect([res.status, res.body.message]).toEqual([400, expect.stringMatching(/^(activity|identifier) /)]);
      }
      expect((await get('/v2/activities/acme_nul/attributes/time%00stamp').expect(400)).body.message).toContain('attribute');
      expect((await get('/v2/activities/acme_nul/attributes/timestamp%00/options').expect(400)).body.message).toContain('attribute');
      const attr = await post('/v2/activities/acme_nul/attributes', attribute('flag', 'text', { title: nul })).expect(400);
      expect(attr.body.message).toContain('data.title');
      expect((await get('/v2/activities?show_archived=%00').expect(400)).body.message).toContain('show_archived');
      expect((await get('/v2/activities/acme_nul').expect(200)).body.data.plural_noun).toBe('acme_nul many');
    });

    it('answers 404 for identifiers that cannot be an activity, without asking the database to parse them', async () => {
      for (const key of ['%C3%A9t%C3%A9', 'a'.repeat(64), 'UPPER', '7b0f0bd8-0000-4000-8000-00000000000g', '00000000-0000-0000-0000-000000000000']) {
        expect((await get(`/v2/activities/${key}`).expect(404)).body.code).toBe('not_found');
      }
    });

    it('pages activity attributes with limit 1–1000 and offset ≥ 0; anything else is a 400 naming the parameter', async () => {
      const all = slugs((await get('/v2/activities/phone_calls/attributes').expect(200)).body.data);
      expect(slugs((await get('/v2/activities/phone_calls/attributes?limit=3').expect(200)).body.data)).toEqual(all.slice(0, 3));
      expect(slugs((await get('/v2/activities/phone_calls/attributes?offset=7').expect(200)).body.data)).toEqual(all.slice(7));
      expect((await get('/v2/activities/phone_calls/attributes?offset=1000000').expect(200)).body.data).toEqual([]);
      for (const [query, field] of [
        ['limit=0', 'limit'],
        ['limit=1001', 'limit'],
        ['limit=ten', 'limit'],
        ['offset=-1', 'offset'],
        ['offset=abc', 'offset'],
        ['offset=100000000000000000000', 'offset'],
        ['show_archived=yes', 'show_archived'],
      ]) {
        const res = await get(`/v2/activities/phone_calls/attributes?${query}`);
        expect([query, res.status, res.body.code, res.body.message.includes(field)]).toEqual([query, 400, 'validation_type', true]);
      }
    });

    it('answers 404 for an attribute or option of another workspace, by id', async () => {
      const theirs: Row = (await get('/v2/activities/phone_calls/attributes/direction', other.token).expect(200)).body.data;
      const attributeId = (theirs.id as Row).attribute_id as string;
      await get(`/v2/activities/phone_calls/attributes/${attributeId}`).expect(404);
      await patch(`/v2/activities/phone_calls/attributes/${attributeId}`, { data: { title: 'Mine' } }).expect(404);
      await get(`/v2/activities/phone_calls/attributes/${attributeId}/options`).expect(404);
      const optionId = ((await get('/v2/activities/phone_calls/attributes/direction/options', other.token).expect(200)).body.data[0].id as Row).option_id;
      await createActivity('acme_optioned', 'activities').expect(200);
      await post('/v2/activities/acme_optioned/attributes', attribute('mood', 'select')).expect(200);
      await patch(`/v2/activities/acme_optioned/attributes/mood/options/${optionId}`, { data: { title: 'Stolen' } }).expect(404);
    });

    it('answers concurrent creates of one slug with one 200 and 409 slug_conflict for the rest', async () => {
      const responses = await Promise.all(Array.from({ length: 6 }, () => createActivity('acme_racing', 'calls')));
      expect(responses.map((res) => res.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
      for (const res of responses.filter((r) => r.status === 409)) expect(res.body.code).toBe('slug_conflict');
      const rows: Array<{ n: string }> = await db().query(`SELECT count(*) AS n FROM activities WHERE workspace_id = $1 AND api_slug = 'acme_racing'`, [ws.workspaceId]);
      expect(Number(rows[0].n)).toBe(1);
    });
  });

  describe('archived activities', () => {
    it('stay addressable by slug and UUID with their attributes and records, until deleted', async () => {
      const id = (await createActivity('acme_shelved', 'calls').expect(200)).body.data.id.activity_id;
      const before = (await post('/v2/activities/acme_shelved/records', { data: { values: { timestamp: '2026-04-01T10:00:00Z' } } }).expect(200)).body.data.id.record_id;
      await patch(`/v2/activities/${id}`, { data: { is_archived: true } }).expect(200);
      expect((await get('/v2/activities/acme_shelved/attributes').expect(200)).body.data.length).toBeGreaterThan(0);
      await get(`/v2/activities/acme_shelved/records/${before}`).expect(200);
      await post(`/v2/activities/${id}/records`, { data: { values: { timestamp: '2026-04-02T10:00:00Z' } } }).expect(200);
      expect((await post('/v2/activities/acme_shelved/records/query', {}).expect(200)).body.data).toHaveLength(2);
      await patch('/v2/activities/acme_shelved', { data: { api_slug: 'acme_shelved_2024' } }).expect(200);
      await del('/v2/activities/acme_shelved_2024').expect(200);
      const left: Array<{ n: string }> = await db().query(`SELECT count(*) AS n FROM records WHERE workspace_id = $1 AND container_id = $2`, [ws.workspaceId, id]);
      expect(Number(left[0].n)).toBe(0);
    });

    it('renaming or archiving does not wait for record writes in flight; DELETE waits for them', async () => {
      const id = (await createActivity('acme_busy', 'calls').expect(200)).body.data.id.activity_id;
      const writer = db().createQueryRunner();
      await writer.connect();
      const within = <T>(promise: Promise<T>, ms: number) => Promise.race([promise, new Promise<'pending'>((resolve) => setTimeout(() => resolve('pending'), ms))]);
      let deletion: Promise<{ status: number }> | undefined;
      try {
        await writer.startTransaction();
        // The lock a record write holds on its activity until it commits.
        await writer.query(`SELECT id FROM activities WHERE workspace_id = $1 AND id = $2 FOR KEY SHARE`, [ws.workspaceId, id]);
        const renamed = await within(patch(`/v2/activities/${id}`, { data: { singular_noun: 'Busy call', is_archived: true } }).then((res) => res.status), 5_000);
        expect(renamed).toBe(200);
        deletion = del(`/v2/activities/${id}`).then((res) => res);
        expect(await within(deletion, 500)).toBe('pending');
      } finally {
        await writer.commitTransaction();
        await writer.release();
      }
      expect((await deletion!).status).toBe(200);
      await get(`/v2/activities/${id}`).expect(404);
    });

    it('a DELETE racing record writes leaves no record behind: each write either lands before it or is a 404', async () => {
      const id = (await createActivity('acme_raced', 'activities').expect(200)).body.data.id.activity_id;
      const writes = Array.from({ length: 12 }, (_, i) => post('/v2/activities/acme_raced/records', { data: { values: { timestamp: `2026-05-01T10:${String(i).padStart(2, '0')}:00Z` } } }));
      const deletion = del('/v2/activities/acme_raced');
      const [deleted, ...written] = await Promise.all([deletion, ...writes]);
      expect(deleted.status).toBe(200);
      for (const res of written) expect([200, 404]).toContain(res.status);
      const left: Array<{ n: string }> = await db().query(`SELECT count(*) AS n FROM records WHERE workspace_id = $1 AND container_id = $2`, [ws.workspaceId, id]);
      expect(Number(left[0].n)).toBe(0);
    });
  });

  describe('schemas: inherited attributes', () => {
    const expected: Record<string, string[]> = {
      activities: ['record_id', 'created_at', 'created_by', 'updated_at', 'timestamp', 'linked_records'],
      interactions: ['record_id', 'created_at', 'created_by', 'updated_at', 'timestamp', 'linked_records', 'participants'],
      calls: ['record_id', 'created_at', 'created_by', 'updated_at', 'timestamp', 'linked_records', 'participants', 'direction', 'duration', 'phone_number'],
      emails: ['record_id', 'created_at', 'created_by', 'updated_at', 'timestamp', 'linked_records', 'participants', 'direction', 'subject', 'from_email_address', 'to_email_addresses'],
    };

    it("gives each activity its schema's attributes, listed with custom ones and looking identical", async () => {
      for (const [schema, list] of Object.entries(expected)) {
        expect(slugs((await get(`/v2/activities/acme_${schema}/attributes`).expect(200)).body.data)).toEqual(list);
      }
      expect(slugs((await get('/v2/activities/phone_calls/attributes').expect(200)).body.data)).toEqual(expected.calls);
      const custom = await post('/v2/activities/acme_calls/attributes', attribute('outcome', 'text', { description: 'How it went' })).expect(200);
      const listed: Row[] = (await get('/v2/activities/acme_calls/attributes').expect(200)).body.data;
      expect(slugs(listed)).toEqual([...expected.calls, 'outcome']);
      for (const row of listed) expect(Object.keys(row).sort()).toEqual(Object.keys(custom.body.data).sort());
      const activityId = (await get('/v2/activities/acme_calls').expect(200)).body.data.id.activity_id;
      const bySlug = Object.fromEntries(listed.map((row) => [row.api_slug as string, row]));
      expect(bySlug.timestamp).toMatchObject({ id: { workspace_id: ws.workspaceId, object_id: activityId }, type: 'timestamp', is_required: true, is_writable: true, is_system_attribute: true });
      expect(bySlug.direction).toMatchObject({ type: 'select', is_multiselect: false, is_required: false });
      expect(bySlug.duration).toMatchObject({ type: 'number' });
      expect(bySlug.participants).toMatchObject({ type: 'record-reference', is_multiselect: true });
      expect(bySlug.linked_records).toMatchObject({ type: 'record-reference', is_multiselect: true, config: { record_reference: { allowed_object_ids: null } } });
      const people = await objectId('people');
      expect((bySlug.participants as { config: Row }).config).toEqual({ currency: { default_currency_code: null, display_type: null }, record_reference: { allowed_object_ids: [people] } });
      expect(bySlug.outcome).toMatchObject({ is_system_attribute: false, description: 'How it went' });
      const options = (await get('/v2/activities/acme_calls/attributes/direction/options').expect(200)).body.data;
      expect(options.map((o: Row) => o.title)).toEqual(['Inbound', 'Outbound']);
      expect(options[0].id).toMatchObject({ workspace_id: ws.workspaceId, object_id: activityId, attribute_id: bySlug.direction.id && (bySlug.direction.id as Row).attribute_id });
      expect((await get(`/v2/activities/acme_calls/attributes/${(bySlug.direction.id as Row).attribute_id}`).expect(200)).body.data.api_slug).toBe('direction');
    });

    it('refuses to update an inherited attribute or change its select options (400 "inherited")', async () => {
      for (const [path, body] of [
        ['/v2/activities/acme_calls/attributes/timestamp', { data: { title: 'When' } }],
        ['/v2/activities/acme_calls/attributes/timestamp', { data: { is_required: false } }],
        ['/v2/activities/acme_calls/attributes/direction', { data: { is_archived: true } }],
        ['/v2/activities/phone_calls/attributes/duration', { data: { api_slug: 'length' } }],
        ['/v2/activities/acme_emails/attributes/record_id', { data: { title: 'Id' } }],
      ] as const) {
        const res = await patch(path, body).expect(400);
        expect(res.body).toMatchObject({ status_code: 400, code: 'validation_type', message: expect.stringContaining('inherited') });
      }
      for (const activity of ['acme_calls', 'phone_calls', 'acme_emails']) {
        const added = await post(`/v2/activities/${activity}/attributes/direction/options`, { data: { title: 'Sideways' } }).expect(400);
        expect(added.body.message).toContain('inherited');
        expect((await patch(`/v2/activities/${activity}/attributes/direction/options/Inbound`, { data: { title: 'In' } }).expect(400)).body.message).toContain('inherited');
        await patch(`/v2/activities/${activity}/attributes/direction/options/Outbound`, { data: { is_archived: true } }).expect(400);
      }
      expect((await get('/v2/activities/acme_calls/attributes/timestamp').expect(200)).body.data).toMatchObject({ title: 'Timestamp', is_required: true });
      expect((await get('/v2/activities/acme_calls/attributes/direction/options?show_archived=true').expect(200)).body.data.map((o: Row) => o.title)).toEqual(['Inbound', 'Outbound']);
    });
  });

  describe('activity attributes', () => {
    it('creates, gets, pages, updates and archives custom attributes of every creatable type', async () => {
      const currency = await post('/v2/activities/acme_interactions/attributes', attribute('deal_value', 'currency', { config: { currency: { default_currency_code: 'EUR', display_type: 'code' } } })).expect(200);
      const activityId = (await get('/v2/activities/acme_interactions').expect(200)).body.data.id.activity_id;
      expect(currency.body.data).toMatchObject({
        id: { workspace_id: ws.workspaceId, object_id: activityId, attribute_id: expect.any(String) },
        api_slug: 'deal_value',
        type: 'currency',
        is_system_attribute: false,
        config: { currency: { default_currency_code: 'EUR', display_type: 'code' } },
      });
      for (const [slug, type] of [['note', 'text'], ['count', 'number'], ['done', 'checkbox'], ['due', 'date'], ['seen_at', 'timestamp'], ['score', 'rating'], ['kind', 'select'], ['owner', 'actor-reference'], ['place', 'location'], ['site', 'domain'], ['mail', 'email-address'], ['phone', 'phone-number'], ['company', 'record-reference']] as const) {
        const res = await post('/v2/activities/acme_interactions/attributes', attribute(slug, type));
        expect([res.status, res.body.data?.type]).toEqual([200, type]);
      }
      const dup = await post('/v2/activities/acme_interactions/attributes', attribute('timestamp', 'text')).expect(409);
      expect(dup.body.code).toBe('slug_conflict');
      expect((await post('/v2/activities/acme_interactions/attributes', attribute('bad', 'currency')).expect(400)).body.message).toContain('data.config.currency');
      const all: Row[] = (await get('/v2/activities/acme_interactions/attributes').expect(200)).body.data;
      expect((await get('/v2/activities/acme_interactions/attributes?limit=2&offset=3').expect(200)).body.data.map((a: Row) => a.api_slug)).toEqual(slugs(all).slice(3, 5));
      const patched = await patch(`/v2/activities/${activityId}/attributes/note`, { data: { title: 'Notes', is_required: true } }).expect(200);
      expect(patched.body.data).toMatchObject({ title: 'Notes', is_required: true });
      await patch('/v2/activities/acme_interactions/attributes/note', { data: { is_required: false } }).expect(200);
      await patch('/v2/activities/acme_interactions/attributes/count', { data: { is_archived: true } }).expect(200);
      expect(slugs((await get('/v2/activities/acme_interactions/attributes').expect(200)).body.data)).not.toContain('count');
      expect(slugs((await get('/v2/activities/acme_interactions/attributes?show_archived=true').expect(200)).body.data)).toContain('count');
      await get('/v2/activities/acme_interactions/attributes/nope').expect(404);
      await post('/v2/activities/acme_interactions/attributes/kind/options', { data: { title: 'Warm' } }).expect(200);
      await patch('/v2/activities/acme_interactions/attributes/kind/options/Warm', { data: { title: 'Hot' } }).expect(200);
      expect((await get('/v2/activities/acme_interactions/attributes/kind/options').expect(200)).body.data.map((o: Row) => o.title)).toEqual(['Hot']);
    });

    it("manages the statuses of an activity's status attribute as on objects and lists", async () => {
      await post('/v2/activities/acme_interactions/attributes', attribute('phase', 'status')).expect(200);
      const statuses = '/v2/activities/acme_interactions/attributes/phase/statuses';
      const open = (await post(statuses, { data: { title: 'Open' } }).expect(200)).body.data;
      expect(open).toMatchObject({ title: 'Open', is_archived: false, id: { attribute_id: expect.any(String), status_id: expect.any(String) } });
      expect((await post(statuses, { data: { title: 'Open' } }).expect(409)).body.code).toBe('slug_conflict');
      expect((await patch(`${statuses}/Open`, { data: { title: 'Closed' } }).expect(200)).body.data).toMatchObject({ title: 'Closed', id: open.id });
      expect((await get(statuses).expect(200)).body.data.map((s: Row) => s.title)).toEqual(['Closed']);
      await patch(`${statuses}/Nope`, { data: { title: 'x' } }).expect(404);
      expect((await post(statuses, { data: { title: '' } }).expect(400)).body.message).toContain('data.title');
      // A select attribute is no status attribute, on activities as on objects.
      expect((await get('/v2/activities/phone_calls/attributes/direction/statuses').expect(400)).body.code).toBe('validation_type');
    });
  });

  describe('scopes', () => {
    it('reads need activity_configuration:read, writes activity_configuration:read-write (each missing scope: 403)', async () => {
      const read = await t.tokenFor(ws.workspaceId, [SCOPES.activityConfigurationRead]);
      const readWrite = await t.tokenFor(ws.workspaceId, [SCOPES.activityConfigurationReadWrite]);
      const unrelated = await t.tokenFor(ws.workspaceId, without(SCOPES.activityConfigurationReadWrite));
      const reads = ['/v2/activities', '/v2/activities/phone_calls', '/v2/activities/phone_calls/attributes', '/v2/activities/phone_calls/attributes/direction', '/v2/activities/phone_calls/attributes/direction/options'];
      for (const path of reads) {
        await get(path, read).expect(200);
        await get(path, readWrite).expect(200);
        expect((await get(path, unrelated).expect(403)).body).toMatchObject({ code: 'unauthorized', type: 'auth_error', message: expect.stringContaining('activity_configuration:read') });
      }
      const writes: Array<[string, string, object]> = [
        ['post', '/v2/activities', { data: { api_slug: 'acme_scoped', singular_noun: 'S', plural_noun: 'Ss', extends: 'activities' } }],
        ['patch', '/v2/activities/acme_scoped', { data: { singular_noun: 'Scoped' } }],
        ['post', '/v2/activities/acme_scoped/attributes', attribute('flavour', 'select')],
        ['patch', '/v2/activities/acme_scoped/attributes/flavour', { data: { title: 'Flavour' } }],
        ['post', '/v2/activities/acme_scoped/attributes/flavour/options', { data: { title: 'Mint' } }],
        ['patch', '/v2/activities/acme_scoped/attributes/flavour/options/Mint', { data: { title: 'Lime' } }],
      ];
      for (const [method, path, body] of writes) {
        const denied = await (method === 'post' ? post(path, body, read) : patch(path, body, read)).expect(403);
        expect(denied.body.message).toContain('activity_configuration:read-write');
        await (method === 'post' ? post(path, body, unrelated) : patch(path, body, unrelated)).expect(403);
        await (method === 'post' ? post(path, body, readWrite) : patch(path, body, readWrite)).expect(200);
      }
      await t.http().get('/v2/activities').expect(401);
    });
  });

  describe('events', () => {
    it('records the seven activity event types with actor, activity_id ids and the api_slug', async () => {
      await createActivity('acme_evented', 'calls').expect(200);
      const activityId = (await get('/v2/activities/acme_evented').expect(200)).body.data.id.activity_id;
      await patch('/v2/activities/acme_evented', { data: { plural_noun: 'Evented calls' } }).expect(200);
      const attributeId = (await post('/v2/activities/acme_evented/attributes', attribute('rep', 'text')).expect(200)).body.data.id.attribute_id;
      await patch('/v2/activities/acme_evented/attributes/rep', { data: { title: 'Rep' } }).expect(200);
      const recordId = (await post('/v2/activities/acme_evented/records', { data: { values: { timestamp: '2026-03-01T09:00:00Z', rep: 'Ada' } } }).expect(200)).body.data.id.record_id;
      await patch(`/v2/activities/acme_evented/records/${recordId}`, { data: { values: { rep: 'Grace' } } }).expect(200);
      await t.http().delete(`/v2/activities/acme_evented/records/${recordId}`).set(bearer(ws.token)).expect(200);
      await del('/v2/activities/acme_evented').expect(200);

      const rows: Array<{ event_type: string; entity_id: Row; actor: Row; payload: Row }> = await db().query(
        `SELECT event_type, entity_id, actor, payload FROM event_outbox WHERE workspace_id = $1 AND entity_id->>'activity_id' = $2 ORDER BY id`,
        [ws.workspaceId, activityId],
      );
      expect(rows.map((row) => row.event_type)).toEqual([
        'activity.created',
        'activity.updated',
        'activity-attribute.created',
        'activity-attribute.updated',
        'activity-record.created',
        'activity-record.deleted',
        'activity.deleted',
      ]);
      const tokenId = rows[0].actor.id;
      for (const row of rows) {
        expect(row.actor).toEqual({ type: 'api-token', id: tokenId });
        expect(row.payload).toEqual({ api_slug: 'acme_evented' });
        expect(row.entity_id).toMatchObject({ workspace_id: ws.workspaceId, activity_id: activityId });
        expect(row.entity_id).not.toHaveProperty('object_id');
      }
      expect(rows[2].entity_id).toEqual({ workspace_id: ws.workspaceId, activity_id: activityId, attribute_id: attributeId });
      expect(rows[4].entity_id).toEqual({ workspace_id: ws.workspaceId, activity_id: activityId, record_id: recordId });
      expect(rows[6].entity_id).toEqual({ workspace_id: ws.workspaceId, activity_id: activityId });
      const types: Array<{ event_type: string }> = await db().query(`SELECT DISTINCT event_type FROM event_outbox WHERE event_type LIKE 'activity%' ORDER BY 1`);
      expect(types.map((row) => row.event_type)).toEqual([
        'activity-attribute.created',
        'activity-attribute.updated',
        'activity-record.created',
        'activity-record.deleted',
        'activity.created',
        'activity.deleted',
        'activity.updated',
      ]);
    });
  });
});
