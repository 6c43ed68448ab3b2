import fc from 'fast-check';
import { useTestApp, useWorkspace } from '../support/suite';

/**
 * "Bad input is a 400 naming the field, never a 500": random values for every attribute type of an
 * activity, and random filters and sorts, must each be answered with 200 or a 4xx error body.
 * A counterexample is printed by fast-check with its seed, so a failure can be replayed.
 */
describe('activity records: generated input never causes a 500', () => {
  const t = useTestApp();
  const ws = useWorkspace(t, 'activities-fuzz');
  const RUNS = Number(process.env.FUZZ_RUNS ?? 150);
  const slugs = ['timestamp', 'linked_records', 'participants', 'direction', 'subject', 'from_email_address', 'to_email_addresses', 'amount', 'external_id', 'score', 'due', 'done', 'place', 'site', 'owner', 'company', 'kinds'];

  const post = (path: string, body: unknown) => t.http().post(path).set({ Authorization: `Bearer ${ws.token}` }).send(body as object);

  beforeAll(async () => {
    await post('/v2/activities', { data: { api_slug: 'acme_emails', singular_noun: 'Email', plural_noun: 'Emails', extends: 'emails' } }).expect(200);
    const custom: Array<[string, string, object]> = [
      ['amount', 'currency', { config: { currency: { default_currency_code: 'EUR', display_type: 'code' } } }],
      ['external_id', 'text', { is_unique: true }],
      ['score', 'rating', {}],
      ['due', 'date', {}],
      ['done', 'checkbox', {}],
      ['place', 'location', {}],
      ['site', 'domain', {}],
      ['owner', 'actor-reference', {}],
      ['company', 'record-reference', {}],
      ['kinds', 'select', { is_multiselect: true }],
    ];
    for (const [api_slug, type, extra] of custom) {
      await post('/v2/activities/acme_emails/attributes', { data: { title: api_slug, api_slug, type, is_required: false, is_unique: false, is_multiselect: false, config: {}, ...extra } }).expect(200);
    }
    await post('/v2/activities/acme_emails/attributes/kinds/options', { data: { title: 'Cold' } }).expect(200);
    await post('/v2/objects/people/records', { data: { values: { name: 'Lovelace, Ada', email_addresses: ['ada@example.com'], job_title: 'Analyst' } } }).expect(200);
    await post('/v2/activities/acme_emails/records', { data: { values: { timestamp: '2026-01-01T00:00:00Z', subject: 'Hello', kinds: ['Cold'] } } }).expect(200);
  });

  const scalar = fc.oneof(
    fc.string({ maxLength: 12 }),
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.constantFrom('2026-01-01', '2026-01-01T10:00:00+05:00', 'ada@example.com', 'people', 'companies', 'Inbound', 'Cold', '+44 20 7946 0000', 'acme.com', '1e400', '-0', 'NaN', '9999-12-31', '7b0f0bd8-0000-4000-8000-000000000000'),
  );
  const reference = fc.record(
    { target_object: fc.oneof(fc.constantFrom('people', 'companies', 'acme_emails'), fc.string({ maxLength: 8 })), target_record_id: fc.oneof(fc.uuid(), fc.string({ maxLength: 8 }), fc.integer()) },
    { requiredKeys: [] },
  );
  const byReference = fc.record({
    target_object: fc.constantFrom('people', 'companies'),
    target_record_reference: fc.record(
      {
        attribute: fc.constantFrom('name', 'email_addresses', 'job_title', 'record_id', 'created_at', 'primary_location', 'phone_numbers', 'company', 'description', 'created_by', 'nope'),
        value: fc.oneof(scalar, fc.object({ maxDepth: 1 })),
        if_multiple_matches: fc.constantFrom('match_all', 'error', 'x'),
      },
      { requiredKeys: ['attribute'] },
    ),
  });
  const shaped = fc.dictionary(
    fc.constantFrom('value', 'option', 'currency_value', 'currency_code', 'email_address', 'domain', 'line_1', 'original_phone_number', 'referenced_actor_type', 'referenced_actor_id', 'workspace_member_email_address', 'country_code'),
    scalar,
    { maxKeys: 3 },
  );
  const value = fc.oneof(scalar, fc.array(scalar, { maxLength: 3 }), fc.object({ maxDepth: 2 }), reference, byReference, shaped, fc.array(fc.oneof(reference, byReference, shaped), { maxLength: 3 }));

  it('record writes: 200 or a 4xx error body', async () => {
    await fc.assert(
      fc.asyncProperty(fc.dictionary(fc.constantFrom(...slugs), value, { maxKeys: 3 }), async (values) => {
        const res = await post('/v2/activities/acme_emails/records', { data: { values: { timestamp: '2026-01-01T00:00:00Z', ...values } } });
        if (res.status !== 200) expect(res.body).toEqual({ status_code: res.status, type: expect.any(String), code: expect.any(String), message: expect.any(String) });
        return res.status < 500;
      }),
      { numRuns: RUNS },
    );
  }, 120_000);

  it('records/query: 200 or a 4xx error body', async () => {
    const operand = fc.oneof(scalar, fc.array(scalar, { maxLength: 2 }), fc.object({ maxDepth: 1 }));
    const condition = fc.oneof(
      operand,
      fc.dictionary(fc.constantFrom('$eq', '$in', '$gt', '$lt', '$gte', '$lte', '$contains', '$starts_with', '$ends_with', '$not_empty'), operand, { maxKeys: 2 }),
      fc.dictionary(
        fc.constantFrom('value', 'target_object', 'target_record_id', 'currency_value', 'option', 'email_address', 'domain', 'locality', 'referenced_actor_type', 'referenced_actor_id'),
        fc.oneof(operand, fc.dictionary(fc.constantFrom('$eq', '$in', '$gt', '$contains', '$not_empty'), operand, { maxKeys: 1 })),
        { maxKeys: 2 },
      ),
    );
    const filter = fc.dictionary(fc.constantFrom(...slugs, 'record_id', 'created_at', 'created_by', '$and', '$or', '$not', 'path'), condition, { maxKeys: 2 });
    const sorts = fc.array(
      fc.record({ direction: fc.constantFrom('asc', 'desc', 'up'), attribute: fc.constantFrom(...slugs, 'created_at', 'record_id'), field: fc.constantFrom('value', 'currency_value', 'email_address', 'locality', 'x') }, { requiredKeys: ['direction', 'attribute'] }),
      { maxLength: 3 },
    );
    await fc.assert(
      fc.asyncProperty(filter, sorts, fc.nat({ max: 3 }), async (where, order, offset) => {
        const res = await post('/v2/activities/acme_emails/records/query', { filter: where, sorts: order, limit: 5, offset });
        if (res.status !== 200) expect(res.body).toEqual({ status_code: res.status, type: expect.any(String), code: expect.any(String), message: expect.any(String) });
        return res.status < 500;
      }),
      { numRuns: RUNS },
    );
  }, 120_000);
});
