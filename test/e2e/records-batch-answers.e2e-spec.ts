import { createObjectOfEveryType } from '../support/every-type';
import { useTestApp, useWorkspace } from '../support/suite';

/**
 * A batch answers each record it writes set-based from what the write produced, without reading
 * it back. The answer must be the record as a read gives it, for every attribute type and for the
 * edge forms of each (numbers PostgreSQL could spell otherwise, sub-second timestamps, dates given
 * with an offset, composite types whose JSON PostgreSQL reorders), and for people (names, emails,
 * the company link) as an import writes them.
 */
describe('batch answers are the records as a read gives them (e2e)', () => {
  const t = useTestApp();
  const ws = useWorkspace(t, 'batch-answers');
  let companyId: string;

  const as = () => ({ Authorization: `Bearer ${ws.token}` });
  /** Each batch item's answer must be what GET answers for its record, to the byte. */
  const expectAnswersAsRead = async (object: string, items: ReadonlyArray<{ status: number; error?: unknown; data: { id: { record_id: string } } }>, count: number) => {
    expect(items.map((item) => item.error ?? item.status)).toEqual(Array.from({ length: count }, () => 200));
    for (const item of items) {
      const read = await t.http().get(`/v2/objects/${object}/records/${item.data.id.record_id}`).set(as()).expect(200);
      expect(item.data).toEqual(read.body.data);
      // The wire form too, key order included (jsonb's, in the composite values and the actors).
      expect(JSON.stringify(item.data)).toBe(JSON.stringify(read.body.data));
    }
  };

  beforeAll(async () => {
    await createObjectOfEveryType(t, ws.token, 'gadgets');
    await t.http().post('/v2/objects/gadgets/attributes').set(as())
      .send({ data: { title: 'Serial', api_slug: 'serial', type: 'text', is_required: false, is_unique: true, is_multiselect: false, config: {} } })
      .expect(200);
    companyId = (await t.http().post('/v2/objects/companies/records').set(as()).send({ data: { values: { name: 'Initech', domains: ['initech.com'] } } }).expect(200)).body.data.id.record_id;
  });

  it('answers every attribute type, in its edge forms, as GET answers the record', async () => {
    const gadgets: Array<Record<string, unknown>> = [
      {
        text: 'plain', serial: 'SN-1', number: 0.1, checkbox: true, money: '42.50', date: '2026-02-28T23:30:00-02:00', timestamp: '2026-11-28T10:00:00.123456789+01:00',
        rating: 5, status: 'Open', select: 'Red', tags: ['Blue', 'Red'], company: [{ target_object: 'companies', target_record_id: companyId }],
        owner: [{ referenced_actor_type: 'workspace-member', referenced_actor_id: ws.adminMemberId }],
        location: { line_1: '1 Main St', line_2: null, line_3: null, line_4: null, locality: 'Springfield', region: 'IL', postcode: '62701', country_code: 'US', latitude: '39.7817', longitude: '-89.6501' },
        domain: 'Sub.Example.CO.UK', email: 'Ada@Mail.Example.CO.UK', phone: '+44 20 7946 0958', emails: ['b@example.com', 'a@example.com'],
      },
      { serial: 'SN-2', number: 1e21, money: -0.0001, timestamp: '2026-11-28T10:00:00Z', date: '2024-02-29', rating: 0, checkbox: false },
      { serial: 'SN-3', number: -0, money: 4200, timestamp: '0050-03-01T10:00:00Z', date: '0050-03-01T23:00:00-02:00', text: 'ünïcödé \u2028 "quoted"' },
      { serial: 'SN-4', number: 123456789.123456, company: [{ target_object: 'companies', domains: [{ domain: 'initech.com' }] }], tags: [] },
      { serial: 'SN-5' },
      // Ids in capitals: PostgreSQL stores and prints them in lower case.
      {
        serial: 'SN-6',
        company: [{ target_object: 'companies', target_record_id: companyId.toUpperCase() }],
        owner: [{ referenced_actor_type: 'workspace-member', referenced_actor_id: ws.adminMemberId.toUpperCase() }],
      },
    ];
    const res = await t.http().post('/v2/objects/gadgets/records/batch').set(as())
      .send({ operations: gadgets.map((values, i) => (i % 2 === 0 ? { op: 'create', data: { values } } : { op: 'assert', matching_attribute: 'serial', data: { values } })) })
      .expect(200);
    await expectAnswersAsRead('gadgets', res.body.data, gadgets.length);
  });

  it('answers people, names given as text or parts, as GET answers them', async () => {
    const people = [
      { email_addresses: ['Ada@Example.com'], name: { first_name: 'Ada', last_name: 'Lovelace', full_name: 'Ada Lovelace' }, company: [{ target_object: 'companies', target_record_id: companyId }] },
      { email_addresses: ['grace@example.com', 'hopper@example.com'], name: 'Hopper, Grace', job_title: 'Rear admiral' },
      { email_addresses: ['lin@example.com'], name: [{ full_name: 'Lin', first_name: 'Lin', last_name: '' }] },
    ];
    const res = await t.http().post('/v2/objects/people/records/batch').set(as())
      .send({ operations: people.map((values) => ({ op: 'assert', matching_attribute: 'email_addresses', data: { values } })) })
      .expect(200);
    await expectAnswersAsRead('people', res.body.data, people.length);
  });
});
