import { SCOPES } from '@workbase/shared/kernel';
import { DataSource } from 'typeorm';
import { bearerRequests } from '../support/requests';
import { useTestApp, useWorkspace } from '../support/suite';

/**
 * The write side of the record engine, requirement by requirement (issues 4 and 5 against the
 * spec's currency section and the reference facts §3–§4): what is stored, what is refused, what
 * events are recorded, and that a refused write leaves no trace.
 */
describe('record writes (e2e)', () => {
  const BASE_URL = 'https://crm.example.test';
  const t = useTestApp({ env: { BASE_URL } });
  const ws = useWorkspace(t, 'writes');
  const other = useWorkspace(t, 'writes-other');

  const { get, post, put, patch, del, createRecord } = bearerRequests(() => t, () => ws.token);
  const sql = <T = Record<string, unknown>>(text: string, params: unknown[] = []): Promise<T[]> => t.app.get(DataSource).query(text, params);
  /** Everything a write can leave behind in this workspace: records, value rows, outbox events. */
  const footprint = async () => {
    const [row] = await sql<{ records: string; values: string; events: string }>(
      `SELECT (SELECT count(*) FROM records WHERE workspace_id = $1) AS records,
              (SELECT count(*) FROM record_values WHERE workspace_id = $1) AS values,
              (SELECT count(*) FROM event_outbox WHERE workspace_id = $1) AS events`,
      [ws.workspaceId],
    );
    return row;
  };
  const eventsSince = async (sequence: number, type?: string) =>
    sql<{ event_type: string; entity_id: Record<string, string>; actor: Record<string, unknown> }>(
      `SELECT event_type, entity_id, actor FROM event_outbox WHERE workspace_id = $1 AND id > $2 ${type ? 'AND event_type = $3' : ''} ORDER BY id`,
      type ? [ws.workspaceId, sequence, type] : [ws.workspaceId, sequence],
    );
  const lastEvent = async () => Number((await sql<{ n: string }>(`SELECT coalesce(max(id), 0) AS n FROM event_outbox`))[0].n);
  const attributeId = async (object: string, slug: string, token = ws.token) => (await get(`/v2/objects/${object}/attributes/${slug}`, token).expect(200)).body.data.id.attribute_id as string;
  const attribute = (slug: string, type: string, extra: Record<string, unknown> = {}) =>
    post('/v2/objects/ledgers/attributes', { data: { title: slug, api_slug: slug, type, is_required: false, is_unique: false, is_multiselect: false, config: {}, ...extra } }).expect(200);
  const ledger = async (values: Record<string, unknown> = {}) => {
    const res = await post('/v2/objects/ledgers/records', { data: { values } });
    if (res.status !== 200) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
    return res.body.data.id.record_id as string;
  };
  const values = async (object: string, recordId: string) => (await get(`/v2/objects/${object}/records/${recordId}`).expect(200)).body.data.values;

  beforeAll(async () => {
    await post('/v2/objects', { data: { api_slug: 'ledgers', singular_noun: 'Ledger', plural_noun: 'Ledgers' } }).expect(200);
    await attribute('amount', 'currency', { config: { currency: { default_currency_code: 'JPY', display_type: 'code' } } });
    await attribute('code', 'text', { is_unique: true });
    await attribute('title', 'text', { is_required: true, default_value: { type: 'static', template: ['Untitled'] } });
    await attribute('memo', 'text');
    await attribute('tags', 'select', { is_multiselect: true });
    await attribute('phase', 'status');
    await attribute('stamped_at', 'timestamp');
    for (const title of ['a', 'b', 'c']) await post('/v2/objects/ledgers/attributes/tags/options', { data: { title } }).expect(200);
    for (const title of ['Open', 'Closed']) await post('/v2/objects/ledgers/attributes/phase/statuses', { data: { title } }).expect(200);
  });

  describe('record response', () => {
    it('builds web_url from BASE_URL, the workspace slug, the object slug and the record id', async () => {
      const res = await post('/v2/objects/people/records', { data: { values: { name: 'Noether, Emmy' } } }).expect(200);
      const id = res.body.data.id.record_id;
      expect(res.body.data.web_url).toBe(`${BASE_URL}/writes/people/${id}`);
      expect((await get(`/v2/objects/people/records/${id}`).expect(200)).body.data.web_url).toBe(`${BASE_URL}/writes/people/${id}`);
    });

    it('sets created_at and created_by itself and refuses to have them (or record_id) written, by slug or id, on create and update', async () => {
      const id = await ledger({ title: 'System' });
      const record = (await get(`/v2/objects/ledgers/records/${id}`).expect(200)).body.data;
      expect(record.values.created_by).toEqual([expect.objectContaining({ referenced_actor_type: 'api-token', referenced_actor_id: expect.any(String), attribute_type: 'actor-reference' })]);
      expect(record.values.created_at[0].value).toBe(record.created_at);
      const before = await footprint();
      for (const slug of ['record_id', 'created_at', 'created_by']) {
        const byId = await attributeId('ledgers', slug);
        const inputs: Record<string, unknown> = { record_id: '00000000-0000-4000-8000-000000000000', created_at: '2020-01-01T00:00:00Z', created_by: 'admin@writes.test' };
        for (const key of [slug, byId]) {
          const created = await post('/v2/objects/ledgers/records', { data: { values: { title: 'x', [key]: inputs[slug] } } }).expect(400);
          expect([created.body.code, created.body.message]).toEqual(['immutable_value', expect.stringContaining(slug)]);
          expect((await patch(`/v2/objects/ledgers/records/${id}`, { data: { values: { memo: 'y', [key]: inputs[slug] } } }).expect(400)).body.code).toBe('immutable_value');
          expect((await put(`/v2/objects/ledgers/records/${id}`, { data: { values: { [key]: inputs[slug] } } }).expect(400)).body.code).toBe('immutable_value');
        }
      }
      expect(await footprint()).toEqual(before);
      expect((await get(`/v2/objects/ledgers/records/${id}`).expect(200)).body.data).toEqual(record);
    });
  });

  describe('currency, to the letter of the spec', () => {
    it('stores every write form (number, integer, numeric string, {currency_value}; bare or in a one-element array) as one value, on create and update', async () => {
      const forms = [1500, 1500.0, '1500', '1500.0000', { currency_value: 1500 }, { currency_value: '1500' }, [1500], ['1500'], [{ currency_value: 1500 }], [{ currency_value: '1500.00' }]];
      const ids: string[] = [];
      for (const form of forms) {
        const created = await post('/v2/objects/ledgers/records', { data: { values: { title: 'form', amount: form } } }).expect(200);
        expect(created.body.data.values.amount).toEqual([expect.objectContaining({ currency_value: '1500', currency_code: 'JPY', attribute_type: 'currency' })]);
        ids.push(created.body.data.id.record_id);
      }
      // Writing an equivalent form again is the same value: no new history row, no event.
      const since = await lastEvent();
      for (const form of forms) await patch(`/v2/objects/ledgers/records/${ids[0]}`, { data: { values: { amount: form } } }).expect(200);
      for (const form of forms) await put(`/v2/objects/ledgers/records/${ids[0]}`, { data: { values: { amount: form } } }).expect(200);
      expect(await eventsSince(since)).toEqual([]);
      const history = (await get(`/v2/objects/ledgers/records/${ids[0]}/attributes/amount/values?show_historic=true`).expect(200)).body.data;
      expect(history).toHaveLength(1);
    });

    it('keeps exact decimals up to 4 places as a decimal string, and refuses a 5th on create, PATCH and PUT without a trace', async () => {
      const id = await ledger({ title: 'decimals', amount: '0.1234' });
      expect((await values('ledgers', id)).amount[0].currency_value).toBe('0.1234');
      for (const [input, expected] of [['12345678901234.5678', '12345678901234.5678'], [0.5, '0.5'], ['-7.0100', '-7.01'], ['+3', '3'], [1e3, '1000']] as const) {
        const res = await patch(`/v2/objects/ledgers/records/${id}`, { data: { values: { amount: input } } }).expect(200);
        expect(res.body.data.values.amount[0].currency_value).toBe(expected);
      }
      const before = await footprint();
      const current = await values('ledgers', id);
      for (const bad of [0.12345, '0.00001', [{ currency_value: '1.00001' }], 0.1 + 0.2, '1e-5']) {
        const created = await post('/v2/objects/ledgers/records', { data: { values: { title: 'five', amount: bad } } }).expect(400);
        expect([created.body.code, created.body.message]).toEqual(['validation_type', expect.stringContaining('amount')]);
        await patch(`/v2/objects/ledgers/records/${id}`, { data: { values: { memo: 'changed', amount: bad } } }).expect(400);
        await put(`/v2/objects/ledgers/records/${id}`, { data: { values: { amount: bad } } }).expect(400);
      }
      expect(await footprint()).toEqual(before);
      expect(await values('ledgers', id)).toEqual(current);
    });

    it('takes currency_code from the config and never from a write, holds one value, and takes no null or empty list', async () => {
      const id = await ledger({ title: 'code', amount: 10 });
      const before = await footprint();
      const refusals: Array<[unknown, string]> = [
        [{ currency_value: 10, currency_code: 'USD' }, 'currency_code'],
        [[{ currency_value: 10, currency_code: 'JPY' }], 'currency_code'],
        [null, 'null'],
        [[null], 'null'],
        [[], 'null'],
        [[10, 20], 'single value'],
        [{ value: 10 }, 'amount'],
      ];
      for (const [input, words] of refusals) {
        for (const method of [patch, put]) {
          const res = await method(`/v2/objects/ledgers/records/${id}`, { data: { values: { amount: input } } }).expect(400);
          expect([res.body.code, res.body.message]).toEqual(['validation_type', expect.stringContaining(words)]);
          expect(res.body.message).toContain('amount');
        }
      }
      expect(await footprint()).toEqual(before);
      expect((await values('ledgers', id)).amount).toEqual([expect.objectContaining({ currency_value: '10', currency_code: 'JPY' })]);
      const deal = await post('/v2/objects/deals/records', { data: { values: { name: 'Big', stage: 'Lead', value: '99.99' } } }).expect(200);
      expect(deal.body.data.values.value).toEqual([expect.objectContaining({ currency_value: '99.99', currency_code: 'USD' })]);
      const company = await post('/v2/objects/companies/records', { data: { values: { name: 'Funded', funding_raised_usd: [{ currency_value: 2500000 }] } } }).expect(200);
      expect(company.body.data.values.funding_raised_usd).toEqual([expect.objectContaining({ currency_value: '2500000', currency_code: 'USD' })]);
    });

    it('keeps the history of two overwrites, oldest first, each closed when the next opened', async () => {
      const id = await ledger({ title: 'history', amount: 1 });
      await patch(`/v2/objects/ledgers/records/${id}`, { data: { values: { amount: '2.5' } } }).expect(200);
      await put(`/v2/objects/ledgers/records/${id}`, { data: { values: { amount: [{ currency_value: 3.75 }] } } }).expect(200);
      const history = (await get(`/v2/objects/ledgers/records/${id}/attributes/amount/values?show_historic=true`).expect(200)).body.data;
      expect(history.map((v: { currency_value: string }) => v.currency_value)).toEqual(['1', '2.5', '3.75']);
      for (const value of history) {
        expect(value).toEqual({
          active_from: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{9}Z$/),
          active_until: value === history[2] ? null : expect.stringMatching(/Z$/),
          created_by_actor: { type: 'api-token', id: expect.any(String) },
          attribute_type: 'currency',
          currency_value: expect.any(String),
          currency_code: 'JPY',
        });
      }
      expect(history[0].active_until).toBe(history[1].active_from);
      expect(history[1].active_until).toBe(history[2].active_from);
      expect((await get(`/v2/objects/ledgers/records/${id}/attributes/amount/values`).expect(200)).body.data.map((v: { currency_value: string }) => v.currency_value)).toEqual(['3.75']);
    });
  });

  describe('value types over HTTP', () => {
    it('keeps timestamps before the year 100 and nanoseconds exactly', async () => {
      const id = await ledger({ title: 'ancient', stamped_at: '0050-03-01T10:00:00.123456789+02:00' });
      expect((await values('ledgers', id)).stamped_at[0].value).toBe('0050-03-01T08:00:00.123456789Z');
      await patch(`/v2/objects/ledgers/records/${id}`, { data: { values: { stamped_at: '2023-01-01' } } }).expect(200);
      expect((await values('ledgers', id)).stamped_at[0].value).toBe('2023-01-01T00:00:00.000000000Z');
    });

    it('select multiselect: PATCH appends, PUT makes the list exact, by title or id; status history', async () => {
      const options = (await get('/v2/objects/ledgers/attributes/tags/options').expect(200)).body.data;
      const idOf = (title: string) => options.find((o: { title: string }) => o.title === title).id.option_id;
      const id = await ledger({ title: 'tags', tags: ['a'], phase: 'Open' });
      const titles = async () => (await values('ledgers', id)).tags.map((v: { option: { title: string } }) => v.option.title);
      await patch(`/v2/objects/ledgers/records/${id}`, { data: { values: { tags: [idOf('b'), 'a'] } } }).expect(200);
      expect(await titles()).toEqual(['a', 'b']);
      await put(`/v2/objects/ledgers/records/${id}`, { data: { values: { tags: [{ option: 'c' }] } } }).expect(200);
      expect(await titles()).toEqual(['c']);
      await patch(`/v2/objects/ledgers/records/${id}`, { data: { values: { phase: 'Closed' } } }).expect(200);
      const phases = (await get(`/v2/objects/ledgers/records/${id}/attributes/phase/values?show_historic=true`).expect(200)).body.data;
      expect(phases.map((v: { status: { title: string }; active_until: string | null }) => [v.status.title, v.active_until === null])).toEqual([['Open', false], ['Closed', true]]);
    });
  });

  describe('events', () => {
    it('records one record.updated per changed attribute, with its attribute_id and the actor, and none for unchanged values', async () => {
      const id = await ledger({ title: 'events', memo: 'same', amount: 5, tags: ['a'] });
      const since = await lastEvent();
      await patch(`/v2/objects/ledgers/records/${id}`, { data: { values: { memo: 'same', amount: '5.0', tags: ['a'], title: 'renamed', phase: 'Open' } } }).expect(200);
      const events = await eventsSince(since);
      expect(events.map((e) => e.event_type)).toEqual(['record.updated', 'record.updated']);
      expect(new Set(events.map((e) => e.entity_id.attribute_id))).toEqual(new Set([await attributeId('ledgers', 'title'), await attributeId('ledgers', 'phase')]));
      for (const event of events) {
        expect(event.entity_id).toEqual({ workspace_id: ws.workspaceId, object_id: expect.any(String), record_id: id, attribute_id: expect.any(String) });
        expect(event.actor).toEqual({ type: 'api-token', id: expect.any(String) });
      }
      const unchanged = await lastEvent();
      await put(`/v2/objects/ledgers/records/${id}`, { data: { values: { memo: 'same', tags: ['a'], title: 'renamed' } } }).expect(200);
      expect(await eventsSince(unchanged)).toEqual([]);
    });

    it('records record.created for an assert that creates and record.updated for one that updates, matching by attribute id', async () => {
      const code = await attributeId('ledgers', 'code');
      const since = await lastEvent();
      const created = await put(`/v2/objects/ledgers/records?matching_attribute=${code}`, { data: { values: { code: 'L-1', title: 'asserted' } } }).expect(200);
      const updated = await put(`/v2/objects/ledgers/records?matching_attribute=${code}`, { data: { values: { code: 'L-1', memo: 'updated' } } }).expect(200);
      expect(updated.body.data.id.record_id).toBe(created.body.data.id.record_id);
      expect(updated.body.data.values.title[0].value).toBe('asserted');
      const events = await eventsSince(since);
      expect(events.map((e) => [e.event_type, e.entity_id.attribute_id ?? null])).toEqual([['record.created', null], ['record.updated', await attributeId('ledgers', 'memo')]]);
    });
  });

  describe('refused writes leave no trace', () => {
    it('a PATCH or PUT with one valid and one invalid attribute changes nothing and records nothing', async () => {
      const id = await ledger({ title: 'atomic', memo: 'kept' });
      const record = (await get(`/v2/objects/ledgers/records/${id}`).expect(200)).body.data;
      const before = await footprint();
      for (const method of [patch, put]) {
        await method(`/v2/objects/ledgers/records/${id}`, { data: { values: { memo: 'lost', tags: ['a'], phase: 'Nope' } } }).expect(400);
        await method(`/v2/objects/ledgers/records/${id}`, { data: { values: { memo: 'lost', amount: 'lots' } } }).expect(400);
        await method(`/v2/objects/ledgers/records/${id}`, { data: { values: { memo: 'lost', title: null } } }).expect(400);
        await method(`/v2/objects/ledgers/records/${id}`, { data: { values: { memo: 'lost', unknown_attribute: 1 } } }).expect(400);
      }
      expect(await footprint()).toEqual(before);
      expect((await get(`/v2/objects/ledgers/records/${id}`).expect(200)).body.data).toEqual(record);
    });

    it('a unique value held by another record is a 409 on create, PATCH and PUT; released values can be claimed', async () => {
      const first = await ledger({ title: 'unique 1', code: 'U-1' });
      const second = await ledger({ title: 'unique 2', code: 'U-2' });
      const before = await footprint();
      const created = await post('/v2/objects/ledgers/records', { data: { values: { title: 'dup', memo: 'x', code: 'U-1' } } }).expect(409);
      expect([created.body.code, created.body.message]).toEqual(['uniqueness_conflict', expect.stringContaining('code')]);
      await patch(`/v2/objects/ledgers/records/${second}`, { data: { values: { memo: 'x', code: 'U-1' } } }).expect(409);
      await put(`/v2/objects/ledgers/records/${second}`, { data: { values: { memo: 'x', code: ['U-1'] } } }).expect(409);
      expect(await footprint()).toEqual(before);
      expect((await values('ledgers', second)).code[0].value).toBe('U-2');
      await patch(`/v2/objects/ledgers/records/${first}`, { data: { values: { code: 'U-9' } } }).expect(200);
      await patch(`/v2/objects/ledgers/records/${second}`, { data: { values: { code: 'U-1' } } }).expect(200);
      await del(`/v2/objects/ledgers/records/${second}`).expect(200);
      expect((await post('/v2/objects/ledgers/records', { data: { values: { title: 'reuse', code: 'U-1' } } }).expect(200)).body.data.values.code[0].value).toBe('U-1');
    });

    it('required values: a create without one takes the default or is refused; an update cannot empty one', async () => {
      const defaulted = await post('/v2/objects/ledgers/records', { data: { values: { memo: 'no title' } } }).expect(200);
      expect(defaulted.body.data.values.title[0].value).toBe('Untitled');
      await patch('/v2/objects/ledgers/attributes/title', { data: { default_value: null } }).expect(200);
      const before = await footprint();
      const missing = await post('/v2/objects/ledgers/records', { data: { values: { memo: 'no title', code: 'R-1' } } }).expect(400);
      expect([missing.body.code, missing.body.message]).toEqual(['missing_value', expect.stringContaining('title')]);
      const id = defaulted.body.data.id.record_id;
      for (const empty of [null, []]) {
        expect((await put(`/v2/objects/ledgers/records/${id}`, { data: { values: { title: empty } } }).expect(400)).body.code).toBe('missing_value');
      }
      expect(await footprint()).toEqual(before);
      // The unique value of the refused create was never claimed.
      await ledger({ title: 'claims', code: 'R-1' });
    });
  });

  describe('record references', () => {
    it('if_no_matches: "skip" links nothing, "error" (the default) is a 400 naming the value; bad options are 400s', async () => {
      const reference = (extra: Record<string, unknown>) => ({ target_object: 'companies', target_record_reference: { attribute: 'name', value: 'Nobody Inc', ...extra } });
      const skipped = await post('/v2/objects/people/records', { data: { values: { name: 'Skip', company: reference({ if_no_matches: 'skip' }) } } }).expect(200);
      expect(skipped.body.data.values.company).toEqual([]);
      const before = await footprint();
      for (const extra of [{}, { if_no_matches: 'error' }]) {
        const res = await post('/v2/objects/people/records', { data: { values: { name: 'Error', company: reference(extra) } } }).expect(400);
        expect([res.body.code, res.body.message]).toEqual(['value_not_found', expect.stringContaining('Nobody Inc')]);
      }
      for (const [extra, field] of [[{ if_no_matches: 'create' }, 'if_no_matches'], [{ if_multiple_matches: 'first' }, 'if_multiple_matches'], [{ colour: 'red' }, 'colour']] as const) {
        const res = await post('/v2/objects/people/records', { data: { values: { name: 'Bad', company: reference(extra) } } }).expect(400);
        expect([res.body.code, res.body.message]).toEqual(['validation_type', expect.stringContaining(field)]);
      }
      expect(await footprint()).toEqual(before);
    });
  });

  describe("another workspace's ids", () => {
    it('are 404 in paths and 400 value_not_found inside values', async () => {
      const theirObject = (await get('/v2/objects/people', other.token).expect(200)).body.data.id.object_id;
      const theirPerson = await createRecord('people', { name: 'Theirs' }, other.token);
      const mine = await createRecord('people', { name: 'Mine' });
      const before = await footprint();
      await post(`/v2/objects/${theirObject}/records`, { data: { values: {} } }).expect(404);
      await put(`/v2/objects/${theirObject}/records?matching_attribute=email_addresses`, { data: { values: { email_addresses: ['x@y.com'] } } }).expect(404);
      await put(`/v2/objects/people/records/${theirPerson}`, { data: { values: { job_title: 'x' } } }).expect(404);
      await get(`/v2/objects/people/records/${theirPerson}/attributes/name/values?show_historic=true`).expect(404);
      const ref = await patch(`/v2/objects/people/records/${mine}`, { data: { values: { associated_deals: [], company: { target_object: 'companies', target_record_id: theirPerson } } } }).expect(400);
      expect([ref.body.code, ref.body.message]).toEqual(['value_not_found', expect.stringContaining(theirPerson)]);
      const viaTheirObject = await patch(`/v2/objects/people/records/${mine}`, { data: { values: { company: { target_object: theirObject, target_record_id: theirPerson } } } }).expect(400);
      expect(viaTheirObject.body.code).toBe('value_not_found');
      const theirAttribute = await attributeId('people', 'job_title', other.token);
      expect((await patch(`/v2/objects/people/records/${mine}`, { data: { values: { [theirAttribute]: 'x' } } }).expect(400)).body.message).toContain(theirAttribute);
      const theirCategory = (await get('/v2/objects/companies/attributes/categories/options', other.token).expect(200)).body.data[0].id.option_id;
      const option = await post('/v2/objects/companies/records', { data: { values: { name: 'Opt', categories: [theirCategory] } } }).expect(400);
      expect([option.body.code, option.body.message]).toEqual(['value_not_found', expect.stringContaining(theirCategory)]);
      expect(await footprint()).toEqual(before);
      await patch(`/v2/objects/${theirObject}/attributes/job_title`, { data: { title: 'x' } }).expect(404);
      await post(`/v2/objects/companies/attributes/${await attributeId('companies', 'categories', other.token)}/options`, { data: { title: 'x' } }).expect(404);
    });
  });

  describe('scopes', () => {
    it('every write route refuses a token without its write scope with 403 naming the scope, and changes nothing', async () => {
      const id = await ledger({ title: 'scoped' });
      await post('/v2/lists', { data: { name: 'Scoped', api_slug: 'scoped', parent_object: 'ledgers' } }).expect(200);
      const entry = (await post('/v2/lists/scoped/entries', { data: { parent_record_id: id, parent_object: 'ledgers' } }).expect(200)).body.data.id.entry_id;
      const readAll = await t.tokenFor(ws.workspaceId, [SCOPES.recordPermissionRead, SCOPES.objectConfigurationRead, SCOPES.listConfigurationRead, SCOPES.listEntryRead]);
      const before = await footprint();
      const routes: Array<[string, () => ReturnType<typeof post>]> = [
        ['record_permission:read-write', () => post('/v2/objects/ledgers/records', { data: { values: { title: 'x' } } }, readAll)],
        ['record_permission:read-write', () => put('/v2/objects/ledgers/records?matching_attribute=code', { data: { values: { code: 'S-1', title: 'x' } } }, readAll)],
        ['record_permission:read-write', () => patch(`/v2/objects/ledgers/records/${id}`, { data: { values: { memo: 'x' } } }, readAll)],
        ['record_permission:read-write', () => put(`/v2/objects/ledgers/records/${id}`, { data: { values: { memo: 'x' } } }, readAll)],
        ['record_permission:read-write', () => del(`/v2/objects/ledgers/records/${id}`, readAll)],
        ['object_configuration:read-write', () => post('/v2/objects', { data: { api_slug: 'x', singular_noun: 'X', plural_noun: 'Xs' } }, readAll)],
        ['object_configuration:read-write', () => patch('/v2/objects/ledgers', { data: { plural_noun: 'X' } }, readAll)],
        ['object_configuration:read-write', () => post('/v2/objects/ledgers/attributes', { data: { title: 'x', api_slug: 'x', type: 'text', is_required: false, is_unique: false, is_multiselect: false, config: {} } }, readAll)],
        ['object_configuration:read-write', () => patch('/v2/objects/ledgers/attributes/memo', { data: { title: 'x' } }, readAll)],
        ['object_configuration:read-write', () => post('/v2/objects/ledgers/attributes/tags/options', { data: { title: 'x' } }, readAll)],
        ['object_configuration:read-write', () => patch('/v2/objects/ledgers/attributes/tags/options/a', { data: { title: 'x' } }, readAll)],
        ['object_configuration:read-write', () => post('/v2/objects/ledgers/attributes/phase/statuses', { data: { title: 'x' } }, readAll)],
        ['object_configuration:read-write', () => patch('/v2/objects/ledgers/attributes/phase/statuses/Open', { data: { title: 'x' } }, readAll)],
        ['list_configuration:read-write', () => post('/v2/lists', { data: { name: 'X', api_slug: 'x', parent_object: 'ledgers' } }, readAll)],
        ['list_configuration:read-write', () => patch('/v2/lists/scoped', { data: { name: 'X' } }, readAll)],
        ['list_configuration:read-write', () => post('/v2/lists/scoped/attributes', { data: { title: 'x', api_slug: 'x', type: 'text', is_required: false, is_unique: false, is_multiselect: false, config: {} } }, readAll)],
        ['list_entry:read-write', () => post('/v2/lists/scoped/entries', { data: { parent_record_id: id, parent_object: 'ledgers' } }, readAll)],
        ['list_entry:read-write', () => put('/v2/lists/scoped/entries', { data: { parent_record_id: id, parent_object: 'ledgers' } }, readAll)],
        ['list_entry:read-write', () => patch(`/v2/lists/scoped/entries/${entry}`, { data: { entry_values: {} } }, readAll)],
        ['list_entry:read-write', () => put(`/v2/lists/scoped/entries/${entry}`, { data: { entry_values: {} } }, readAll)],
        ['list_entry:read-write', () => del(`/v2/lists/scoped/entries/${entry}`, readAll)],
      ];
      for (const [scope, call] of routes) {
        const res = await call();
        expect([res.status, res.body.type, res.body.message.includes(scope)]).toEqual([403, 'auth_error', true]);
      }
      expect(await footprint()).toEqual(before);
    });
  });

  describe('lists and entries', () => {
    it('records list.*, list-attribute.* and one list-entry.updated per changed entry attribute; refuses entries of other workspaces', async () => {
      const since = await lastEvent();
      const list = (await post('/v2/lists', { data: { name: 'Audit', api_slug: 'audit', parent_object: 'ledgers' } }).expect(200)).body.data.id.list_id;
      await patch('/v2/lists/audit', { data: { name: 'Audit list' } }).expect(200);
      const score = (await post('/v2/lists/audit/attributes', { data: { title: 'Score', api_slug: 'score', type: 'number', is_required: false, is_unique: false, is_multiselect: false, config: {} } }).expect(200)).body.data.id.attribute_id;
      await post('/v2/lists/audit/attributes', { data: { title: 'Budget', api_slug: 'budget', type: 'currency', is_required: false, is_unique: false, is_multiselect: false, config: { currency: { default_currency_code: 'EUR', display_type: 'symbol' } } } }).expect(200);
      await patch('/v2/lists/audit/attributes/score', { data: { title: 'Points' } }).expect(200);
      const parent = await ledger({ title: 'entry parent' });
      const entry = (await post('/v2/lists/audit/entries', { data: { parent_record_id: parent, parent_object: 'ledgers', entry_values: { score: 1, budget: ['12.5'] } } }).expect(200)).body.data;
      expect(entry.entry_values.budget).toEqual([expect.objectContaining({ currency_value: '12.5', currency_code: 'EUR' })]);
      const entryId = entry.id.entry_id;
      await patch(`/v2/lists/audit/entries/${entryId}`, { data: { entry_values: { score: 2, budget: 12.5 } } }).expect(200);
      expect((await patch(`/v2/lists/audit/entries/${entryId}`, { data: { entry_values: { budget: 1.00001 } } }).expect(400)).body.message).toContain('budget');
      await del(`/v2/lists/audit/entries/${entryId}`).expect(200);
      const events = await eventsSince(since);
      expect(events.filter((e) => !e.event_type.startsWith('record.')).map((e) => e.event_type)).toEqual([
        'list.created', 'list.updated', 'list-attribute.created', 'list-attribute.created', 'list-attribute.updated',
        'list-entry.created', 'list-entry.updated', 'list-entry.deleted',
      ]);
      const entryUpdated = events.find((e) => e.event_type === 'list-entry.updated')!;
      expect(entryUpdated.entity_id).toEqual({ workspace_id: ws.workspaceId, list_id: list, entry_id: entryId, attribute_id: score });
      const theirParent = await createRecord('companies', { name: 'Theirs' }, other.token);
      await post('/v2/lists', { data: { name: 'Theirs', api_slug: 'theirs', parent_object: 'companies' } }, other.token).expect(200);
      const theirEntry = (await post('/v2/lists/theirs/entries', { data: { parent_record_id: theirParent, parent_object: 'companies' } }, other.token).expect(200)).body.data.id.entry_id;
      const theirList = (await get('/v2/lists/theirs', other.token).expect(200)).body.data.id.list_id;
      await patch(`/v2/lists/${theirList}`, { data: { name: 'x' } }).expect(404);
      await post(`/v2/lists/${theirList}/entries`, { data: { parent_record_id: theirParent, parent_object: 'companies' } }).expect(404);
      await patch(`/v2/lists/audit/entries/${theirEntry}`, { data: { entry_values: {} } }).expect(404);
      await put(`/v2/lists/audit/entries/${theirEntry}`, { data: { entry_values: {} } }).expect(404);
      await del(`/v2/lists/audit/entries/${theirEntry}`).expect(404);
      expect((await post('/v2/lists/audit/entries', { data: { parent_record_id: theirParent, parent_object: 'ledgers' } }).expect(400)).body.code).toBe('value_not_found');
    });
  });
});
