import { AttributeCatalog, type Container } from '@workbase/schema';
// White-box: the engine's use cases themselves, not the front door.
import { CreateRecordUseCase } from '../../libs/records/src/application/create-record.use-case';
import { DeleteRecordUseCase } from '../../libs/records/src/application/delete-record.use-case';
import { writeScope } from '../../libs/records/src/domain/write-scope';
import { ALL_SCOPES } from '@workbase/shared/kernel';
import { DataSource } from 'typeorm';
import { useTestApp, useWorkspace } from '../support/suite';

type Row = Record<string, unknown>;

/**
 * Integrity of the record engine's configuration endpoints: activity events carry `api_slug` from
 * the engine itself, default values are checked when they are set (not at every later record
 * create), concurrent creates of one name have exactly one winner and 409s, and odd input is a
 * 4xx, never a 500.
 */
describe('record engine integrity (e2e)', () => {
  const t = useTestApp();
  const ws = useWorkspace(t, 'integrity');

  const as = (token = ws.token) => ({ Authorization: `Bearer ${token}` });
  const get = (path: string) => t.http().get(path).set(as());
  const post = (path: string, body: object) => t.http().post(path).set(as()).send(body);
  const patch = (path: string, body: object) => t.http().patch(path).set(as()).send(body);
  const db = () => t.app.get(DataSource);
  const attribute = (api_slug: string, type: string, extra: object = {}) => ({
    data: { title: api_slug, description: null, api_slug, type, is_required: false, is_unique: false, is_multiselect: false, config: {}, ...extra },
  });
  const outboxRows = async (key: 'activity_id' | 'object_id' | 'list_id', id: string): Promise<Array<{ event_type: string; entity_id: Row; payload: Row }>> =>
    db().query(`SELECT event_type, entity_id, payload FROM event_outbox WHERE workspace_id = $1 AND entity_id->>'${key}' = $2 ORDER BY id`, [ws.workspaceId, id]);

  describe('api_slug on activity events', () => {
    it('is recorded by the engine itself on activity record and attribute events (no stamping by the caller)', async () => {
      await post('/v2/activities', { data: { api_slug: 'acme_engine', singular_noun: 'Engine', plural_noun: 'Engines', extends: 'activities' } }).expect(200);
      const activityId = (await get('/v2/activities/acme_engine').expect(200)).body.data.id.activity_id as string;
      const container: Container = { kind: 'activity', id: activityId, workspaceId: ws.workspaceId, slug: 'acme_engine' };
      const actor = { type: 'workspace-member' as const, id: ws.adminMemberId };
      const catalog = t.app.get(AttributeCatalog);
      const creates = t.app.get(CreateRecordUseCase);
      const deletes = t.app.get(DeleteRecordUseCase);
      const before = (await outboxRows('activity_id', activityId)).length;

      const created = await catalog.create(
        container,
        { title: 'Rep', description: null, apiSlug: 'rep', type: 'text', isRequired: false, isUnique: false, isMultiselect: false, config: {} },
        actor,
      );
      await catalog.update(container, 'rep', { title: 'Sales rep' }, actor);
      const scope = writeScope({ workspaceId: ws.workspaceId, actor, memberId: ws.adminMemberId }, container);
      const record = await creates.execute(scope, { timestamp: '2026-03-01T09:00:00Z', rep: 'Ada' });
      await deletes.execute(scope, record.id.record_id as string);

      const rows = (await outboxRows('activity_id', activityId)).slice(before);
      expect(rows.map((row) => row.event_type)).toEqual(['activity-attribute.created', 'activity-attribute.updated', 'activity-record.created', 'activity-record.deleted']);
      for (const row of rows) expect(row.payload).toEqual({ api_slug: 'acme_engine' });
      expect(rows[0].entity_id).toEqual({ workspace_id: ws.workspaceId, activity_id: activityId, attribute_id: created.id });
      expect(rows[2].entity_id).toEqual({ workspace_id: ws.workspaceId, activity_id: activityId, record_id: record.id.record_id });
    });

    it('carries the slug the activity had when the event happened, and the HTTP routes record it too', async () => {
      await post('/v2/activities', { data: { api_slug: 'acme_renamed', singular_noun: 'R', plural_noun: 'Rs', extends: 'activities' } }).expect(200);
      const activityId = (await get('/v2/activities/acme_renamed').expect(200)).body.data.id.activity_id as string;
      await post('/v2/activities/acme_renamed/attributes', attribute('rep', 'text')).expect(200);
      await patch('/v2/activities/acme_renamed', { data: { api_slug: 'acme_renamed_2' } }).expect(200);
      const record = await post('/v2/activities/acme_renamed_2/records', { data: { values: { timestamp: '2026-03-01T09:00:00Z' } } }).expect(200);
      await t.http().delete(`/v2/activities/acme_renamed_2/records/${record.body.data.id.record_id}`).set(as()).expect(200);
      const rows = (await outboxRows('activity_id', activityId)).filter((row) => /^activity-(record|attribute)\./.test(row.event_type));
      expect(rows.map((row) => [row.event_type, row.payload.api_slug])).toEqual([
        ['activity-attribute.created', 'acme_renamed'],
        ['activity-record.created', 'acme_renamed_2'],
        ['activity-record.deleted', 'acme_renamed_2'],
      ]);
    });

    it('adds no family field to object and list events (their wire events carry ids only)', async () => {
      const projects = await post('/v2/objects', { data: { api_slug: 'evented_things', singular_noun: 'Thing', plural_noun: 'Things' } }).expect(200);
      const objectId = projects.body.data.id.object_id as string;
      await post('/v2/objects/evented_things/attributes', attribute('label', 'text')).expect(200);
      const record = await post('/v2/objects/evented_things/records', { data: { values: { label: 'a' } } }).expect(200);
      await patch(`/v2/objects/evented_things/records/${record.body.data.id.record_id}`, { data: { values: { label: 'b' } } }).expect(200);
      const rows = await outboxRows('object_id', objectId);
      expect(rows.map((row) => row.event_type)).toEqual(['object-attribute.created', 'record.created', 'record.updated']);
      for (const row of rows) expect(row.payload).toEqual({});
    });
  });

  describe('default values are checked when set', () => {
    const badDefaults: Array<[string, string, object, object]> = [
      ['text with an object template item', 'text', {}, { type: 'static', template: [{ foo: 1 }] }],
      ['number with a word', 'number', {}, { type: 'static', template: ['many'] }],
      ['single-valued number with two values', 'number', {}, { type: 'static', template: [1, 2] }],
      ['currency with five decimals', 'currency', { config: { currency: { default_currency_code: 'EUR', display_type: 'symbol' } } }, { type: 'static', template: [{ currency_value: 1.23456 }] }],
      ['rating out of range', 'rating', {}, { type: 'static', template: [7] }],
      ['select option that does not exist', 'select', {}, { type: 'static', template: [{ option: 'Gold' }] }],
      ['date that is no date', 'date', {}, { type: 'static', template: ['2024-02-30'] }],
      ['actor-reference to an unknown member', 'actor-reference', {}, { type: 'static', template: ['nobody@nowhere.test'] }],
      ['dynamic now on text', 'text', {}, { type: 'dynamic', template: 'now' }],
      ['static template not an array', 'text', {}, { type: 'static', template: 'x' }],
      ['unknown default type', 'text', {}, { type: 'sometimes', template: ['x'] }],
    ];

    beforeAll(async () => {
      await post('/v2/objects', { data: { api_slug: 'projects', singular_noun: 'Project', plural_noun: 'Projects' } }).expect(200);
      await post('/v2/lists', { data: { name: 'Deals', api_slug: 'deals_board', parent_object: 'projects' } }).expect(200);
      await post('/v2/activities', { data: { api_slug: 'acme_defaults', singular_noun: 'D', plural_noun: 'Ds', extends: 'activities' } }).expect(200);
    });

    for (const [target, identifier] of [
      ['objects', 'projects'],
      ['lists', 'deals_board'],
      ['activities', 'acme_defaults'],
    ]) {
      it(`refuses bad defaults at create and PATCH on ${target} with a 400 naming default_value, and creates nothing`, async () => {
        const base = `/v2/${target}/${identifier}/attributes`;
        for (const [label, type, extra, defaultValue] of badDefaults) {
          const slug = `bad_${type.replace('-', '_')}`;
          const res = await post(base, attribute(slug, type, { ...extra, default_value: defaultValue }));
          expect([label, res.status, res.body.code]).toEqual([label, 400, 'validation_type']);
          expect(res.body.message).toContain('default_value');
          await get(`${base}/${slug}`).expect(404);

          await post(base, attribute(slug, type, extra)).expect(200);
          const patched = await patch(`${base}/${slug}`, { data: { default_value: defaultValue } });
          expect([label, patched.status, patched.body.message]).toEqual([label, 400, expect.stringContaining('default_value')]);
          expect((await get(`${base}/${slug}`).expect(200)).body.data.default_value).toBeNull();
          // Archive it so that the slug's next type gets a fresh attribute.
          await patch(`${base}/${slug}`, { data: { api_slug: `${slug}_${Math.random().toString(36).slice(2, 8)}`, is_archived: true } }).expect(200);
        }
      });

      it(`applies valid defaults on ${target} to the next record`, async () => {
        const base = `/v2/${target}/${identifier}/attributes`;
        await post(base, attribute('motto', 'text', { default_value: { type: 'static', template: [{ value: 'Ship it' }] } })).expect(200);
        await post(base, attribute('budget', 'currency', { config: { currency: { default_currency_code: 'EUR', display_type: 'symbol' } }, default_value: { type: 'static', template: [12.5] } })).expect(200);
        await post(base, attribute('tier', 'select')).expect(200);
        await post(`${base}/tier/options`, { data: { title: 'Gold' } }).expect(200);
        await patch(`${base}/tier`, { data: { default_value: { type: 'static', template: ['Gold'] } } }).expect(200);
        await post(base, attribute('owner', 'actor-reference', { default_value: { type: 'dynamic', template: 'current-user' } })).expect(200);
        expect((await get(`${base}/tier`).expect(200)).body.data).toMatchObject({ is_default_value_enabled: true, default_value: { type: 'static', template: ['Gold'] } });

        const memberToken = await t.tokenFor(ws.workspaceId, ALL_SCOPES, { memberId: ws.adminMemberId });
        let values: Record<string, Array<Record<string, unknown>>>;
        if (target === 'lists') {
          const parent = await post('/v2/objects/projects/records', { data: { values: {} } }).expect(200);
          const entry = await t.http().post('/v2/lists/deals_board/entries').set(as(memberToken))
            .send({ data: { parent_record_id: parent.body.data.id.record_id, parent_object: 'projects', entry_values: {} } });
          expect(entry.status).toBe(200);
          values = entry.body.data.entry_values;
        } else {
          const created = await t.http().post(`/v2/${target}/${identifier}/records`).set(as(memberToken))
            .send({ data: { values: target === 'activities' ? { timestamp: '2026-03-01T09:00:00Z' } : {} } });
          expect(created.status).toBe(200);
          values = created.body.data.values;
        }
        expect(values.motto[0].value).toBe('Ship it');
        expect(values.budget[0]).toMatchObject({ currency_value: '12.5', currency_code: 'EUR' });
        expect((values.tier[0].option as Row).title).toBe('Gold');
        expect(values.owner[0]).toMatchObject({ referenced_actor_type: 'workspace-member', referenced_actor_id: ws.adminMemberId });
        await patch(`${base}/motto`, { data: { default_value: null } }).expect(200);
        expect((await get(`${base}/motto`).expect(200)).body.data).toMatchObject({ is_default_value_enabled: false, default_value: null });
      });
    }

    it('re-checks the current default when a config change would break it', async () => {
      const person = await post('/v2/objects/people/records', { data: { values: { email_addresses: ['ada@defaults.test'] } } }).expect(200);
      const personId = person.body.data.id.record_id as string;
      await post('/v2/objects/projects/attributes', attribute('champion', 'record-reference', {
        config: { record_reference: { allowed_objects: ['people'] } },
        default_value: { type: 'static', template: [{ target_object: 'people', target_record_id: personId }] },
      })).expect(200);
      const narrowed = await patch('/v2/objects/projects/attributes/champion', { data: { config: { record_reference: { allowed_objects: ['companies'] } } } }).expect(400);
      expect(narrowed.body.message).toContain('default_value');
      const record = await post('/v2/objects/projects/records', { data: { values: {} } }).expect(200);
      expect(record.body.data.values.champion[0]).toMatchObject({ target_object: 'people', target_record_id: personId });
    });

    it('keeps a select or status default valid: its option cannot be archived or renamed from under it', async () => {
      await post('/v2/objects/projects/attributes', attribute('phase', 'status')).expect(200);
      await post('/v2/objects/projects/attributes/phase/statuses', { data: { title: 'Planned' } }).expect(200);
      await patch('/v2/objects/projects/attributes/phase', { data: { default_value: { type: 'static', template: ['Planned'] } } }).expect(200);
      await post('/v2/objects/projects/attributes', attribute('size', 'select', { is_multiselect: true })).expect(200);
      for (const title of ['S', 'M']) await post('/v2/objects/projects/attributes/size/options', { data: { title } }).expect(200);
      await patch('/v2/objects/projects/attributes/size', { data: { default_value: { type: 'static', template: ['S', 'M'] } } }).expect(200);

      for (const [path, body] of [
        ['/v2/objects/projects/attributes/phase/statuses/Planned', { data: { is_archived: true } }],
        ['/v2/objects/projects/attributes/phase/statuses/Planned', { data: { title: 'Scheduled' } }],
        ['/v2/objects/projects/attributes/size/options/M', { data: { is_archived: true } }],
      ] as const) {
        const res = await patch(path, body).expect(400);
        expect(res.body.message).toContain('default_value');
      }
      await patch('/v2/objects/projects/attributes/phase/statuses/Planned', { data: { celebration_enabled: true } }).expect(200);
      const record = await post('/v2/objects/projects/records', { data: { values: {} } }).expect(200);
      expect(record.body.data.values.phase[0].status.title).toBe('Planned');
      expect(record.body.data.values.size.map((v: { option: Row }) => v.option.title)).toEqual(['S', 'M']);
      await patch('/v2/objects/projects/attributes/size', { data: { default_value: null } }).expect(200);
      await patch('/v2/objects/projects/attributes/size/options/M', { data: { is_archived: true } }).expect(200);
    });

    it('refuses defaults on attributes of people and companies', async () => {
      for (const object of ['people', 'companies']) {
        const res = await post(`/v2/objects/${object}/attributes`, attribute('nickname', 'text', { default_value: { type: 'static', template: ['x'] } })).expect(400);
        expect(res.body.message).toContain('default_value');
      }
    });
  });

  describe('concurrent creates of one name', () => {
    const burst = async (n: number, send: (i: number) => Promise<{ status: number; body: { code?: string } }>) => {
      const results = await Promise.all(Array.from({ length: n }, (_, i) => send(i)));
      return results.map((r) => `${r.status}${r.body.code ? ` ${r.body.code}` : ''}`).sort();
    };
    const oneWinner = (n: number) => ['200', ...Array<string>(n - 1).fill('409 slug_conflict')];

    beforeAll(async () => {
      await post('/v2/objects', { data: { api_slug: 'racers', singular_noun: 'Racer', plural_noun: 'Racers' } }).expect(200);
      await post('/v2/objects/racers/attributes', attribute('kind', 'select')).expect(200);
      await post('/v2/objects/racers/attributes', attribute('stage', 'status')).expect(200);
      await post('/v2/activities', { data: { api_slug: 'acme_racing_attrs', singular_noun: 'R', plural_noun: 'Rs', extends: 'activities' } }).expect(200);
    });

    it('attributes on objects, lists and activities: one 200, the rest 409 slug_conflict, one row', async () => {
      await post('/v2/lists', { data: { name: 'Race list', api_slug: 'race_list', parent_object: 'racers' } }).expect(200);
      for (const base of ['/v2/objects/racers', '/v2/lists/race_list', '/v2/activities/acme_racing_attrs']) {
        expect(await burst(10, () => post(`${base}/attributes`, attribute('same_slug', 'text')))).toEqual(oneWinner(10));
        expect((await get(`${base}/attributes`).expect(200)).body.data.filter((a: Row) => a.api_slug === 'same_slug')).toHaveLength(1);
      }
    });

    it('renames of several attributes to one slug: one 200, the rest 409', async () => {
      for (let i = 0; i < 6; i++) await post('/v2/objects/racers/attributes', attribute(`rename_${i}`, 'text')).expect(200);
      expect(await burst(6, (i) => patch(`/v2/objects/racers/attributes/rename_${i}`, { data: { api_slug: 'renamed_once' } }))).toEqual(oneWinner(6));
    });

    it('select options and statuses with one title: one 200, the rest 409 slug_conflict', async () => {
      expect(await burst(10, () => post('/v2/objects/racers/attributes/kind/options', { data: { title: 'Fast' } }))).toEqual(oneWinner(10));
      expect(await burst(10, () => post('/v2/objects/racers/attributes/stage/statuses', { data: { title: 'Started' } }))).toEqual(oneWinner(10));
      expect((await get('/v2/objects/racers/attributes/kind/options').expect(200)).body.data.map((o: Row) => o.title)).toEqual(['Fast']);
      expect((await get('/v2/objects/racers/attributes/stage/statuses').expect(200)).body.data.map((o: Row) => o.title)).toEqual(['Started']);
      for (const title of ['A', 'B', 'C', 'D']) await post('/v2/objects/racers/attributes/kind/options', { data: { title } }).expect(200);
      expect(await burst(4, (i) => patch(`/v2/objects/racers/attributes/kind/options/${'ABCD'[i]}`, { data: { title: 'Same' } }))).toEqual(oneWinner(4));
    });

    it('objects and lists with one slug: one 200, the rest 409 slug_conflict', async () => {
      expect(await burst(10, () => post('/v2/objects', { data: { api_slug: 'contested', singular_noun: 'C', plural_noun: 'Cs' } }))).toEqual(oneWinner(10));
      expect(await burst(10, () => post('/v2/lists', { data: { name: 'Contested', api_slug: 'contested_list', parent_object: 'racers' } }))).toEqual(oneWinner(10));
      const counts: Array<{ n: string }> = await db().query(
        `SELECT (SELECT count(*) FROM objects WHERE workspace_id = $1 AND api_slug = 'contested') + (SELECT count(*) FROM lists WHERE workspace_id = $1 AND api_slug = 'contested_list') AS n`,
        [ws.workspaceId],
      );
      expect(Number(counts[0].n)).toBe(2);
    });
  });

  describe('odd input is a 4xx naming the field, never a 500', () => {
    beforeAll(async () => {
      await post('/v2/objects', { data: { api_slug: 'oddities', singular_noun: 'Odd', plural_noun: 'Odds' } }).expect(200);
      await post('/v2/objects/oddities/attributes', attribute('label', 'text')).expect(200);
      await post('/v2/objects/oddities/attributes', attribute('kind', 'select')).expect(200);
      await post('/v2/objects/oddities/attributes/kind/options', { data: { title: 'One' } }).expect(200);
      await post('/v2/objects/oddities/attributes', attribute('stage', 'status')).expect(200);
      await post('/v2/objects/oddities/attributes/stage/statuses', { data: { title: 'Open' } }).expect(200);
      await post('/v2/lists', { data: { name: 'Odd list', api_slug: 'odd_list', parent_object: 'oddities' } }).expect(200);
    });

    const huge = 'x'.repeat(5000);
    const wideUnicode = '𝔘'.repeat(1000);
    const cases: Array<[string, 'post' | 'patch', string, object, string]> = [
      ['attribute title null', 'patch', '/v2/objects/oddities/attributes/label', { data: { title: null } }, 'title'],
      ['attribute api_slug null', 'patch', '/v2/objects/oddities/attributes/label', { data: { api_slug: null } }, 'api_slug'],
      ['attribute is_required null', 'patch', '/v2/objects/oddities/attributes/label', { data: { is_required: null } }, 'is_required'],
      ['attribute is_unique null', 'patch', '/v2/objects/oddities/attributes/label', { data: { is_unique: null } }, 'is_unique'],
      ['attribute is_archived null', 'patch', '/v2/objects/oddities/attributes/label', { data: { is_archived: null } }, 'is_archived'],
      ['attribute config null', 'patch', '/v2/objects/oddities/attributes/label', { data: { config: null } }, 'config'],
      ['attribute config array', 'patch', '/v2/objects/oddities/attributes/label', { data: { config: [] } }, 'config'],
      ['attribute config null on create', 'post', '/v2/objects/oddities/attributes', attribute('c_null', 'text', { config: null }), 'config'],
      ['currency config a string', 'post', '/v2/objects/oddities/attributes', attribute('c_str', 'currency', { config: { currency: 'USD' } }), 'currency'],
      ['record_reference allowed_objects a string', 'post', '/v2/objects/oddities/attributes', attribute('r_str', 'record-reference', { config: { record_reference: { allowed_objects: 'people' } } }), 'allowed_objects'],
      ['relationship a string', 'post', '/v2/objects/oddities/attributes', attribute('rel_str', 'record-reference', { relationship: 'people' }), 'relationship'],
      ['type a number', 'post', '/v2/objects/oddities/attributes', attribute('t_num', 'text', { type: 5 }), 'type'],
      ['huge api_slug', 'post', '/v2/objects/oddities/attributes', { data: { ...attribute(huge, 'text').data, title: 'Huge' } }, 'api_slug'],
      ['unicode api_slug', 'post', '/v2/objects/oddities/attributes', attribute('prénom', 'text'), 'api_slug'],
      ['huge attribute title', 'post', '/v2/objects/oddities/attributes', { data: { ...attribute('t_huge', 'text').data, title: 'y'.repeat(100_000) } }, 'title'],
      ['option title null', 'patch', '/v2/objects/oddities/attributes/kind/options/One', { data: { title: null } }, 'title'],
      ['option is_archived null', 'patch', '/v2/objects/oddities/attributes/kind/options/One', { data: { is_archived: null } }, 'is_archived'],
      ['huge option title', 'post', '/v2/objects/oddities/attributes/kind/options', { data: { title: huge } }, 'title'],
      ['wide unicode option title', 'post', '/v2/objects/oddities/attributes/kind/options', { data: { title: wideUnicode } }, 'title'],
      ['option title a number', 'post', '/v2/objects/oddities/attributes/kind/options', { data: { title: 7 } }, 'title'],
      ['status title null', 'patch', '/v2/objects/oddities/attributes/stage/statuses/Open', { data: { title: null } }, 'title'],
      ['status celebration_enabled null', 'patch', '/v2/objects/oddities/attributes/stage/statuses/Open', { data: { celebration_enabled: null } }, 'celebration_enabled'],
      ['status is_archived null', 'patch', '/v2/objects/oddities/attributes/stage/statuses/Open', { data: { is_archived: null } }, 'is_archived'],
      ['huge status title', 'post', '/v2/objects/oddities/attributes/stage/statuses', { data: { title: huge } }, 'title'],
      ['huge target_time_in_status', 'post', '/v2/objects/oddities/attributes/stage/statuses', { data: { title: 'Later', target_time_in_status: `P${'9'.repeat(5000)}D` } }, 'target_time_in_status'],
      ['object singular_noun null', 'patch', '/v2/objects/oddities', { data: { singular_noun: null } }, 'singular_noun'],
      ['object api_slug null', 'patch', '/v2/objects/oddities', { data: { api_slug: null } }, 'api_slug'],
      ['huge object slug', 'post', '/v2/objects', { data: { api_slug: huge, singular_noun: 'H', plural_noun: 'Hs' } }, 'api_slug'],
      ['list name null', 'patch', '/v2/lists/odd_list', { data: { name: null } }, 'name'],
      ['list api_slug null', 'patch', '/v2/lists/odd_list', { data: { api_slug: null } }, 'api_slug'],
      ['list workspace_member_access null', 'patch', '/v2/lists/odd_list', { data: { workspace_member_access: null } }, 'workspace_member_access'],
      ['data null', 'post', '/v2/objects/oddities/attributes', { data: null }, 'data'],
    ];

    for (const [label, method, path, body, field] of cases) {
      it(`${label}: 400 naming ${field}`, async () => {
        const res = await (method === 'post' ? post(path, body) : patch(path, body));
        expect([res.status, res.body.code]).toEqual([400, 'validation_type']);
        expect(res.body.message).toContain(field);
      });
    }

    it('accepts unicode titles and nouns and keeps them byte for byte', async () => {
      const title = 'Ünïcödé 🚀 名前';
      expect((await post('/v2/objects/oddities/attributes', { data: { ...attribute('uni', 'text').data, title } }).expect(200)).body.data.title).toBe(title);
      expect((await post('/v2/objects/oddities/attributes/kind/options', { data: { title } }).expect(200)).body.data.title).toBe(title);
      expect((await patch('/v2/objects/oddities', { data: { plural_noun: title } }).expect(200)).body.data.plural_noun).toBe(title);
      // Nothing above changed the attribute that the null PATCHes targeted.
      expect((await get('/v2/objects/oddities/attributes/label').expect(200)).body.data).toMatchObject({ title: 'label', api_slug: 'label', is_required: false, is_archived: false });
    });
  });
});
