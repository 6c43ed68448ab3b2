import { MAX_OFFSET } from '@workbase/shared/http';
import { useTestApp, useWorkspace } from '../support/suite';

/**
 * Limit/offset pagination across every endpoint that has it (spec, Pagination): start at offset 0,
 * next = offset + limit, a short page is the last; each endpoint's own default and range; an
 * out-of-range or non-integer value is a 400 naming the parameter — never clamped, never a 500.
 * The cursor-paginated meetings list takes no `offset`; the cursor-paginated webhook deliveries
 * list reads its `limit` just as strictly.
 */
describe('limit/offset pagination on every endpoint', () => {
  const t = useTestApp();
  const ws = useWorkspace(t, 'paging');
  let personId: string;

  beforeAll(async () => {
    personId = (await post('/v2/objects/people/records', { data: { values: { email_addresses: ['paging@example.com'] } } }).expect(200)).body.data.id.record_id;
    await post('/v2/lists', { data: { name: 'Pipeline', api_slug: 'pipeline', parent_object: 'companies' } }).expect(200);
    await post('/v2/activities', { data: { api_slug: 'paging_calls', singular_noun: 'Call', plural_noun: 'Calls', extends: 'calls' } }).expect(200);
  });

  const as = () => ({ Authorization: `Bearer ${ws.token}` });
  function post(path: string, body: object) {
    return t.http().post(path).set(as()).send(body);
  }
  function get(path: string) {
    return t.http().get(path).set(as());
  }

  interface Endpoint {
    readonly name: string;
    readonly in: 'query' | 'body';
    readonly limit: { readonly min: number; readonly max: number; readonly default?: number };
    readonly call: (params: Record<string, unknown>) => ReturnType<typeof get>;
    /** OpenAPI path and method, to check that the documented range is the enforced one. */
    readonly doc: readonly [string, 'get' | 'post'];
  }

  const query = (path: string) => (params: Record<string, unknown>) => {
    const qs = Object.entries(params).map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`).join('&');
    return get(qs ? `${path}${path.includes('?') ? '&' : '?'}${qs}` : path);
  };
  const endpoints: Endpoint[] = [
    { name: 'GET /v2/notes', in: 'query', limit: { min: 1, max: 50, default: 10 }, call: query('/v2/notes'), doc: ['/v2/notes', 'get'] },
    { name: 'GET /v2/webhooks', in: 'query', limit: { min: 10, max: 100, default: 10 }, call: query('/v2/webhooks'), doc: ['/v2/webhooks', 'get'] },
    {
      name: 'POST /v2/objects/{object}/records/query',
      in: 'body',
      limit: { min: 1, max: 1000, default: 500 },
      call: (params) => post('/v2/objects/people/records/query', params),
      doc: ['/v2/objects/{object}/records/query', 'post'],
    },
    {
      name: 'POST /v2/lists/{list}/entries/query',
      in: 'body',
      limit: { min: 1, max: 1000, default: 500 },
      call: (params) => post('/v2/lists/pipeline/entries/query', params),
      doc: ['/v2/lists/{list}/entries/query', 'post'],
    },
    {
      name: 'POST /v2/activities/{activity}/records/query',
      in: 'body',
      limit: { min: 1, max: 1000, default: 500 },
      call: (params) => post('/v2/activities/paging_calls/records/query', params),
      doc: ['/v2/activities/{activity}/records/query', 'post'],
    },
    {
      name: 'GET /v2/objects/{object}/attributes',
      in: 'query',
      limit: { min: 1, max: 1000 },
      call: query('/v2/objects/people/attributes'),
      doc: ['/v2/objects/{identifier}/attributes', 'get'],
    },
    {
      name: 'GET …/records/{record_id}/attributes/{attribute}/values',
      in: 'query',
      limit: { min: 1, max: 1000 },
      call: (params) => query(`/v2/objects/people/records/${personId}/attributes/email_addresses/values?show_historic=true`)(params),
      doc: ['/v2/objects/{object}/records/{record_id}/attributes/{attribute}/values', 'get'],
    },
  ];

  for (const endpoint of endpoints) {
    describe(endpoint.name, () => {
      it('accepts the bounds of its range and offsets from 0 to the maximum', async () => {
        for (const params of [{}, { limit: endpoint.limit.min }, { limit: endpoint.limit.max }, { offset: 0 }, { limit: endpoint.limit.min, offset: 1 }]) {
          const res = await endpoint.call(endpoint.in === 'query' ? stringify(params) : params);
          expect({ params, status: res.status }).toEqual({ params, status: 200 });
          expect(Array.isArray(res.body.data)).toBe(true);
        }
        const far = await endpoint.call(endpoint.in === 'query' ? { offset: String(MAX_OFFSET) } : { offset: MAX_OFFSET });
        expect({ status: far.status, data: far.body.data }).toEqual({ status: 200, data: [] });
      });

      it('refuses out-of-range and non-integer limit and offset with a 400 naming the parameter', async () => {
        const bad: Array<[string, unknown]> = [
          ['limit', endpoint.limit.min - 1],
          ['limit', endpoint.limit.max + 1],
          ['limit', -1],
          ['limit', 1.5],
          ['offset', -1],
          ['offset', 2.5],
          ['offset', MAX_OFFSET + 1],
          ['offset', 1e20],
          ['offset', 2 ** 53],
        ];
        const wrongTypes: Array<[string, unknown]> =
          endpoint.in === 'query'
            ? [
                ['limit', 'ten'],
                ['limit', ''],
                ['limit', '1e1'],
                ['limit', '0x10'],
                ['offset', 'x'],
                ['offset', '1e21'],
                ['offset', '1e1'],
              ]
            : [
                ['limit', '10'],
                ['limit', [10]],
                ['offset', '0'],
                ['offset', true],
              ];
        for (const [param, value] of [...bad, ...wrongTypes]) {
          const given = endpoint.in === 'query' && typeof value === 'number' ? String(value) : value;
          const res = await endpoint.call({ [param]: given });
          expect({ param, value: given, status: res.status }).toEqual({ param, value: given, status: 400 });
          expect(res.body).toMatchObject({ status_code: 400, type: 'invalid_request_error', code: 'validation_type' });
          expect(res.body.message).toContain(param);
        }
      });

      it('documents the same range in OpenAPI', async () => {
        const doc = (await t.http().get('/openapi.json').expect(200)).body;
        const [path, method] = endpoint.doc;
        const operation = doc.paths[path]?.[method];
        expect({ path, method, found: Boolean(operation) }).toEqual({ path, method, found: true });
        const schemaOf = (name: string) => {
          if (endpoint.in === 'query') return operation.parameters.find((p: { name: string; in: string }) => p.name === name && p.in === 'query')?.schema;
          const ref: string = operation.requestBody.content['application/json'].schema.$ref;
          return doc.components.schemas[ref.split('/').pop() as string].properties[name];
        };
        expect(schemaOf('limit')).toMatchObject({ minimum: endpoint.limit.min, maximum: endpoint.limit.max, ...(endpoint.limit.default !== undefined ? { default: endpoint.limit.default } : {}) });
        expect(schemaOf('offset')).toMatchObject({ minimum: 0, maximum: MAX_OFFSET });
      });
    });
  }

  it('pages notes with next = offset + limit until a short page, the default page being 10', async () => {
    for (let i = 0; i < 12; i++) {
      await post('/v2/notes', {
        data: { parent_object: 'people', parent_record_id: personId, title: `n${i}`, format: 'plaintext', content: '', created_at: new Date(Date.UTC(2025, 0, 1, 0, i)).toISOString() },
      }).expect(200);
    }
    expect((await get('/v2/notes').expect(200)).body.data).toHaveLength(10);
    const titles: string[] = [];
    const sizes: number[] = [];
    for (let offset = 0; ; offset += 5) {
      const page = (await get(`/v2/notes?limit=5&offset=${offset}`).expect(200)).body.data as Array<{ title: string }>;
      titles.push(...page.map((n) => n.title));
      sizes.push(page.length);
      if (page.length < 5) break;
    }
    expect(sizes).toEqual([5, 5, 2]);
    expect(titles).toEqual(Array.from({ length: 12 }, (_, i) => `n${i}`));
  });

  it('reads webhook limits as strict integers, the cursor-paginated deliveries list too (limit=1e1 was once read as 10)', async () => {
    const hook = (await post('/v2/webhooks', { data: { target_url: 'http://127.0.0.1:9/hook', subscriptions: [{ event_type: 'note.created', filter: null }] } }).expect(200)).body.data.id.webhook_id;
    for (const path of ['/v2/webhooks', `/v2/webhooks/${hook}/deliveries`]) {
      for (const limit of ['1e1', '10.0', ' 10', '+10', '0x0a']) {
        const res = await get(`${path}?limit=${encodeURIComponent(limit)}`);
        expect({ path, limit, status: res.status }).toEqual({ path, limit, status: 400 });
        expect(res.body.message).toContain('limit');
      }
    }
    for (const limit of ['0', '101', '-1']) expect((await get(`/v2/webhooks/${hook}/deliveries?limit=${limit}`).expect(400)).body.message).toContain('limit');
    for (const limit of ['1', '100']) expect((await get(`/v2/webhooks/${hook}/deliveries?limit=${limit}`).expect(200)).body.data).toEqual([]);
    const doc = (await t.http().get('/openapi.json').expect(200)).body;
    const deliveriesLimit = doc.paths['/v2/webhooks/{webhook_id}/deliveries'].get.parameters.find((p: { name: string }) => p.name === 'limit').schema;
    expect(deliveriesLimit).toMatchObject({ type: 'integer', minimum: 1, maximum: 100, default: 20 });
  });

  it('does not take offset on the cursor-paginated meetings list', async () => {
    expect((await get('/v2/meetings?offset=0').expect(400)).body.message).toContain('offset');
  });
});

function stringify(params: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)]));
}
