import { useTestApp, useWorkspace } from '../support/suite';

describe('record queries, references and assert', () => {
  const t = useTestApp();
  const ws = useWorkspace(t, 'queries');
  const people: Record<string, string> = {};
  const companies: Record<string, string> = {};

  const as = () => ({ Authorization: `Bearer ${ws.token}` });
  const create = async (object: string, values: Record<string, unknown>) => {
    const res = await t.http().post(`/v2/objects/${object}/records`).set(as()).send({ data: { values } });
    if (res.status !== 200) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
    return res.body.data.id.record_id as string;
  };
  const query = (object: string, body: Record<string, unknown>) => t.http().post(`/v2/objects/${object}/records/query`).set(as()).send(body);
  const ids = async (object: string, body: Record<string, unknown>) => {
    const res = await query(object, body);
    if (res.status !== 200) throw new Error(`${res.status} ${JSON.stringify(res.body)}`);
    return res.body.data.map((r: { id: { record_id: string } }) => r.id.record_id) as string[];
  };
  const namesOf = (object: 'people' | 'companies', list: string[]) => {
    const index = object === 'people' ? people : companies;
    return list.map((id) => Object.keys(index).find((k) => index[k] === id));
  };

  beforeAll(async () => {
    await t.http().post('/v2/objects/companies/attributes').set(as())
      .send({ data: { title: 'Employees', api_slug: 'employees', type: 'number', is_required: false, is_unique: false, is_multiselect: false, config: {} } }).expect(200);
    await t.http().post('/v2/objects/companies/attributes').set(as())
      .send({ data: { title: 'Founded', api_slug: 'founded', type: 'date', is_required: false, is_unique: false, is_multiselect: false, config: {} } }).expect(200);
    await t.http().post('/v2/objects/companies/attributes').set(as())
      .send({ data: { title: 'Public', api_slug: 'public', type: 'checkbox', is_required: false, is_unique: false, is_multiselect: false, config: {} } }).expect(200);
    await t.http().post('/v2/objects/companies/attributes').set(as())
      .send({ data: { title: 'Rating', api_slug: 'stars', type: 'rating', is_required: false, is_unique: false, is_multiselect: false, config: {} } }).expect(200);
    await t.http().post('/v2/objects/people/attributes').set(as())
      .send({ data: { title: 'Nickname', api_slug: 'nickname', type: 'text', is_required: false, is_unique: false, is_multiselect: false, config: {} } }).expect(200);
    companies.apple = await create('companies', { name: 'Apple', domains: ['apple.com'], employees: 160000, founded: '1976-04-01', public: true, stars: 5, categories: ['Technology', 'B2C'], funding_raised_usd: 1000, primary_location: '1 Infinite Loop, Cupertino, CA, 95014, US' });
    companies.acme = await create('companies', { name: 'Acme', domains: ['acme.com', 'acme.org'], employees: 50, founded: '1949-01-01', public: false, stars: 2, categories: ['B2B'], funding_raised_usd: 250.5 });
    companies.globex = await create('companies', { name: 'Globex', domains: ['globex.com'], employees: 50, founded: '1990-06-15', stars: 3 });
    people.ada = await create('people', { name: 'Lovelace, Ada', email_addresses: ['ada@apple.com'], job_title: 'Engineer', company: { target_object: 'companies', target_record_id: companies.apple }, phone_numbers: ['+14155550101'], nickname: 'Countess' });
    people.alan = await create('people', { name: 'Turing, Alan', email_addresses: ['alan@acme.com'], job_title: 'Engineer', company: { target_object: 'companies', domains: [{ domain: 'acme.com' }] }, nickname: 'Prof' });
    people.grace = await create('people', { name: 'Hopper, Grace', email_addresses: ['grace@globex.com', 'gh@navy.mil'], job_title: 'Admiral', company: [{ target_object: 'companies', target_record_reference: { attribute: 'name', value: 'Globex' } }] });
    people.linus = await create('people', { name: 'Torvalds, Linus', email_addresses: ['linus@kernel.org'], job_title: 'Maintainer' });
  });

  describe('operators per type', () => {
    it('text: shorthand, $eq, $in, $contains, $starts_with, $ends_with (case-insensitive matching)', async () => {
      expect(namesOf('people', await ids('people', { filter: { job_title: 'Engineer' } }))).toEqual(['ada', 'alan']);
      expect(namesOf('people', await ids('people', { filter: { job_title: { $eq: 'Admiral' } } }))).toEqual(['grace']);
      expect(namesOf('people', await ids('people', { filter: { job_title: { value: { $in: ['Admiral', 'Maintainer'] } } } }))).toEqual(['grace', 'linus']);
      expect(namesOf('people', await ids('people', { filter: { nickname: { $contains: 'OUNT' } } }))).toEqual(['ada']);
      expect(namesOf('people', await ids('people', { filter: { job_title: { $starts_with: 'eng' } } }))).toEqual(['ada', 'alan']);
      expect(namesOf('people', await ids('people', { filter: { job_title: { $ends_with: 'tainer' } } }))).toEqual(['linus']);
      expect(await ids('people', { filter: { job_title: { $contains: '%' } } })).toEqual([]);
    });

    it('number, rating, currency and date: $eq, $lt, $lte, $gt, $gte', async () => {
      expect(namesOf('companies', await ids('companies', { filter: { employees: 50 } }))).toEqual(['acme', 'globex']);
      expect(namesOf('companies', await ids('companies', { filter: { employees: { $gt: 50 } } }))).toEqual(['apple']);
      expect(namesOf('companies', await ids('companies', { filter: { employees: { $gte: 50, $lt: 1000 } } }))).toEqual(['acme', 'globex']);
      expect(namesOf('companies', await ids('companies', { filter: { employees: { $lte: 49 } } }))).toEqual([]);
      expect(namesOf('companies', await ids('companies', { filter: { stars: { $gte: 3 } } }))).toEqual(['apple', 'globex']);
      expect(namesOf('companies', await ids('companies', { filter: { funding_raised_usd: 250.5 } }))).toEqual(['acme']);
      expect(namesOf('companies', await ids('companies', { filter: { funding_raised_usd: { currency_value: { $gt: 300 } } } }))).toEqual(['apple']);
      expect(namesOf('companies', await ids('companies', { filter: { founded: { $lt: '1980-01-01' } } }))).toEqual(['apple', 'acme']);
      expect(namesOf('companies', await ids('companies', { filter: { founded: { value: { $eq: '1990-06-15' } } } }))).toEqual(['globex']);
    });

    it('timestamp via created_at, and record_id with $in', async () => {
      const all = await ids('people', { filter: { created_at: { $gte: '2000-01-01T00:00:00Z' } } });
      expect(all).toHaveLength(4);
      expect(await ids('people', { filter: { created_at: { $lt: '2000-01-01T00:00:00Z' } } })).toEqual([]);
      expect(namesOf('people', await ids('people', { filter: { record_id: { $in: [people.grace, people.ada] } } }))).toEqual(['ada', 'grace']);
      expect(namesOf('people', await ids('people', { filter: { record_id: people.linus } }))).toEqual(['linus']);
    });

    it('checkbox, select and status: $eq by title or id', async () => {
      expect(namesOf('companies', await ids('companies', { filter: { public: true } }))).toEqual(['apple']);
      expect(namesOf('companies', await ids('companies', { filter: { public: { $eq: false } } }))).toEqual(['acme']);
      expect(namesOf('companies', await ids('companies', { filter: { categories: 'B2B' } }))).toEqual(['acme']);
      const options = (await t.http().get('/v2/objects/companies/attributes/categories/options').set(as()).expect(200)).body.data;
      const tech = options.find((o: { title: string }) => o.title === 'Technology').id.option_id;
      expect(namesOf('companies', await ids('companies', { filter: { categories: { option: { $eq: tech } } } }))).toEqual(['apple']);
      const deal = await create('deals', { name: 'D1', stage: 'Won 🎉' });
      await create('deals', { name: 'D2', stage: 'Lead' });
      expect(await ids('deals', { filter: { stage: 'Won 🎉' } })).toEqual([deal]);
    });

    it('email-address, domain, phone-number, personal-name and location properties', async () => {
      expect(namesOf('people', await ids('people', { filter: { email_addresses: 'ADA@apple.com' } }))).toEqual(['ada']);
      expect(namesOf('people', await ids('people', { filter: { email_addresses: { email_domain: 'navy.mil' } } }))).toEqual(['grace']);
      expect(namesOf('people', await ids('people', { filter: { email_addresses: { email_address: { $ends_with: '.com' } } } }))).toEqual(['ada', 'alan', 'grace']);
      expect(namesOf('companies', await ids('companies', { filter: { domains: { domain: { $starts_with: 'acme' } } } }))).toEqual(['acme']);
      expect(namesOf('companies', await ids('companies', { filter: { domains: { $not_empty: true } } }))).toEqual(['apple', 'acme', 'globex']);
      expect(namesOf('people', await ids('people', { filter: { phone_numbers: { $not_empty: true } } }))).toEqual(['ada']);
      expect(namesOf('people', await ids('people', { filter: { phone_numbers: { $not_empty: false } } }))).toEqual(['alan', 'grace', 'linus']);
      expect(namesOf('people', await ids('people', { filter: { phone_numbers: { phone_number: { $starts_with: '+1415' } } } }))).toEqual(['ada']);
      expect(namesOf('people', await ids('people', { filter: { name: { last_name: 'Hopper' } } }))).toEqual(['grace']);
      expect(namesOf('people', await ids('people', { filter: { name: { $contains: 'ALAN' } } }))).toEqual(['alan']);
      expect(namesOf('companies', await ids('companies', { filter: { primary_location: { locality: 'cupertino' } } }))).toEqual(['apple']);
      expect(namesOf('companies', await ids('companies', { filter: { primary_location: { country_code: { $eq: 'US' } } } }))).toEqual(['apple']);
    });

    it('record-reference: {target_object, target_record_id}, $in, and actor references', async () => {
      expect(namesOf('people', await ids('people', { filter: { company: { target_object: 'companies', target_record_id: companies.acme } } }))).toEqual(['alan']);
      expect(namesOf('people', await ids('people', { filter: { company: { target_record_id: { $in: [companies.acme, companies.globex] } } } }))).toEqual(['alan', 'grace']);
      expect((await ids('people', { filter: { created_by: { referenced_actor_type: 'api-token' } } })).length).toBe(4);
      expect(await ids('people', { filter: { created_by: { referenced_actor_type: 'workspace-member' } } })).toEqual([]);
    });
  });

  it('combines $and, $or and $not', async () => {
    expect(namesOf('people', await ids('people', { filter: { $or: [{ job_title: 'Admiral' }, { nickname: 'Prof' }] } }))).toEqual(['alan', 'grace']);
    expect(namesOf('people', await ids('people', { filter: { $and: [{ job_title: 'Engineer' }, { $not: { nickname: 'Prof' } }] } }))).toEqual(['ada']);
    expect(namesOf('people', await ids('people', { filter: { job_title: 'Engineer', $not: { email_addresses: { email_domain: 'apple.com' } } } }))).toEqual(['alan']);
    expect(namesOf('people', await ids('people', { filter: { $not: { $or: [{ job_title: 'Engineer' }, { job_title: 'Admiral' }] } } }))).toEqual(['linus']);
  });

  it('follows record references with path filters', async () => {
    const byDomain = await ids('people', { filter: { path: [['people', 'company'], ['companies', 'domains']], constraints: { domain: 'apple.com' } } });
    expect(namesOf('people', byDomain)).toEqual(['ada']);
    const bySize = await ids('people', { filter: { path: [['people', 'company'], ['companies', 'employees']], constraints: { value: { $lte: 50 } } } });
    expect(namesOf('people', bySize)).toEqual(['alan', 'grace']);
    // companies.team is the mirrored side of people.company.
    const teams = await ids('companies', { filter: { path: [['companies', 'team'], ['people', 'email_addresses']], constraints: { email_domain: 'navy.mil' } } });
    expect(namesOf('companies', teams)).toEqual(['globex']);
  });

  it('sorts by attribute, field and path, with a stable tie-break', async () => {
    expect(namesOf('people', await ids('people', { sorts: [{ direction: 'asc', attribute: 'name', field: 'last_name' }] }))).toEqual(['grace', 'ada', 'linus', 'alan']);
    expect(namesOf('people', await ids('people', { sorts: [{ direction: 'desc', attribute: 'name', field: 'first_name' }] }))).toEqual(['linus', 'grace', 'alan', 'ada']);
    expect(namesOf('companies', await ids('companies', { sorts: [{ direction: 'desc', attribute: 'employees' }] }))).toEqual(['apple', 'acme', 'globex']);
    expect(namesOf('companies', await ids('companies', { sorts: [{ direction: 'asc', attribute: 'employees' }, { direction: 'desc', attribute: 'name' }] }))).toEqual(['globex', 'acme', 'apple']);
    const byCompanySize = await ids('people', { sorts: [{ direction: 'desc', path: [['people', 'company'], ['companies', 'employees']] }] });
    expect(namesOf('people', byCompanySize)).toEqual(['ada', 'alan', 'grace', 'linus']);
  });

  it('pages through a result set with limit/offset without duplicates or gaps', async () => {
    for (let i = 0; i < 23; i++) await create('companies', { name: `Same ${i % 3}`, employees: 7 });
    const all = await ids('companies', { filter: { employees: 7 }, sorts: [{ direction: 'asc', attribute: 'name' }] });
    expect(all).toHaveLength(23);
    const seen: string[] = [];
    for (let offset = 0; ; offset += 5) {
      const page = await ids('companies', { filter: { employees: 7 }, sorts: [{ direction: 'asc', attribute: 'name' }], limit: 5, offset });
      seen.push(...page);
      if (page.length < 5) break;
    }
    expect(seen).toEqual(all);
    expect(new Set(seen).size).toBe(23);
    expect((await ids('companies', { limit: 2 })).length).toBe(2);
  });

  it('refuses malformed filters and sorts with 400 filter_error naming the problem', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ filter: { shoe_size: 3 } }, 'shoe_size'],
      [{ filter: { job_title: { $gt: 'a' } } }, '$gt'],
      [{ filter: { company: { $contains: '5' } } }, '$contains'],
      [{ filter: { job_title: { $regex: 'x' } } }, '$regex'],
      [{ filter: { $xor: [] } }, '$xor'],
      [{ filter: { $or: {} } }, '$or'],
      [{ filter: { email_addresses: { email_colour: 'x' } } }, 'email_colour'],
      [{ filter: { created_at: 'yesterday' } }, 'created_at'],
      [{ filter: { company: { target_record_id: 'nope' } } }, 'target_record_id'],
      [{ filter: { record_id: 'not-a-uuid' } }, 'record_id'],
      [{ filter: { job_title: ['a', 'b'] } }, 'job_title'],
      [{ filter: { path: [['companies', 'team']], constraints: {} } }, 'path must start'],
      [{ filter: { path: [['people', 'job_title'], ['companies', 'name']], constraints: { value: 'x' } } }, 'record-reference'],
      [{ sorts: [{ direction: 'up', attribute: 'name' }] }, 'direction'],
      [{ sorts: [{ direction: 'asc', attribute: 'nope' }] }, 'nope'],
      [{ sorts: [{ direction: 'asc' }] }, 'attribute'],
      [{ sorts: [{ direction: 'asc', attribute: 'name', field: 'middle_name' }] }, 'middle_name'],
    ];
    for (const [body, needle] of cases) {
      const res = await query('people', body);
      expect([res.status, res.body.code, res.body.message.includes(needle), JSON.stringify(body)]).toEqual([400, 'filter_error', true, JSON.stringify(body)]);
    }
    expect((await query('people', { filter: 'x' })).status).toBe(400);
    expect((await query('people', { limit: 0 })).body.message).toContain('limit');
    expect((await query('people', { limit: 1001 })).body.message).toContain('limit');
    expect((await query('people', { offset: -1 })).body.message).toContain('offset');
    expect((await query('people', { filter_view_id: 'x' })).status).toBe(400);
    await query('nothing', {}).expect(404);
  });

  describe('record references on writes', () => {
    it('links by id, by a unique matching value, and by target_record_reference', async () => {
      const rec = (await t.http().get(`/v2/objects/people/records/${people.grace}`).set(as()).expect(200)).body.data;
      expect(rec.values.company[0]).toMatchObject({ target_object: 'companies', target_record_id: companies.globex, attribute_type: 'record-reference' });
      const alan = (await t.http().get(`/v2/objects/people/records/${people.alan}`).set(as()).expect(200)).body.data;
      expect(alan.values.company[0].target_record_id).toBe(companies.acme);
    });

    it('refuses several matches without match_all, the same record twice, and values matching nothing', async () => {
      const many = await t.http().post('/v2/objects/people/records').set(as())
        .send({ data: { values: { name: 'X', company: { target_object: 'companies', target_record_reference: { attribute: 'employees', value: 50 } } } } }).expect(400);
      expect(many.body.message).toMatch(/several|match_all/);
      const twice = await t.http().post('/v2/objects/deals/records').set(as())
        .send({ data: { values: { name: 'Twice', stage: 'Lead', associated_people: [{ target_object: 'people', target_record_id: people.ada }, { target_object: 'people', email_addresses: [{ email_address: 'ada@apple.com' }] }] } } }).expect(400);
      expect(twice.body.message).toContain('more than once');
      const none = await t.http().post('/v2/objects/people/records').set(as())
        .send({ data: { values: { name: 'Y', company: { target_object: 'companies', domains: [{ domain: 'nowhere.example' }] } } } }).expect(400);
      expect(none.body).toMatchObject({ code: 'value_not_found', message: expect.stringContaining('nowhere.example') });
      const count = (await ids('people', {})).length;
      expect(count).toBe(4);
    });

    it('links up to 50 records with match_all and refuses 51', async () => {
      for (let i = 0; i < 51; i++) await create('people', { name: `Bulk ${i}`, job_title: i < 50 ? 'Fifty' : 'FiftyOne', nickname: 'bulk' });
      const fifty = await t.http().post('/v2/objects/deals/records').set(as())
        .send({ data: { values: { name: 'Fifty', stage: 'Lead', associated_people: [{ target_object: 'people', target_record_reference: { attribute: 'job_title', value: 'Fifty', if_multiple_matches: 'match_all' } }] } } }).expect(200);
      expect(fifty.body.data.values.associated_people).toHaveLength(50);
      const fiftyOne = await t.http().post('/v2/objects/deals/records').set(as())
        .send({ data: { values: { name: 'FiftyOne', stage: 'Lead', associated_people: [{ target_object: 'people', target_record_reference: { attribute: 'nickname', value: 'bulk', if_multiple_matches: 'match_all' } }] } } }).expect(400);
      expect(fiftyOne.body.message).toContain('50');
    });
  });

  describe('assert', () => {
    const assertPerson = (values: Record<string, unknown>, attribute = 'email_addresses') =>
      t.http().put(`/v2/objects/people/records?matching_attribute=${attribute}`).set(as()).send({ data: { values } });

    it('creates when nothing matches, then updates the one match (matching values added, other multiselects replaced)', async () => {
      const created = await assertPerson({ email_addresses: ['kay@parc.com'], name: 'Kay, Alan', phone_numbers: ['+14155550111'] }).expect(200);
      const id = created.body.data.id.record_id;
      const updated = await assertPerson({ email_addresses: ['alan.kay@parc.com', 'kay@parc.com'], job_title: 'Fellow', phone_numbers: ['+14155550122'] }).expect(200);
      expect(updated.body.data.id.record_id).toBe(id);
      expect(updated.body.data.values.email_addresses.map((v: { email_address: string }) => v.email_address).sort()).toEqual(['alan.kay@parc.com', 'kay@parc.com']);
      expect(updated.body.data.values.phone_numbers.map((v: { phone_number: string }) => v.phone_number)).toEqual(['+14155550122']);
      expect(updated.body.data.values.job_title[0].value).toBe('Fellow');
    });

    it('refuses an ambiguous assert, a non-unique or unknown matching attribute, and a missing value', async () => {
      const ambiguous = await assertPerson({ email_addresses: ['ada@apple.com', 'alan@acme.com'] }).expect(400);
      expect(ambiguous.body.code).toBe('multiple_match_results');
      expect((await assertPerson({ job_title: 'x' }, 'job_title').expect(400)).body.message).toContain('unique');
      expect((await assertPerson({ job_title: 'x' }, 'nope').expect(400)).body.code).toBe('value_not_found');
      expect((await assertPerson({ job_title: 'x' }).expect(400)).body.message).toContain('email_addresses');
      await t.http().put('/v2/objects/people/records').set(as()).send({ data: { values: {} } }).expect(400);
    });

    it('creates exactly one record under 50 parallel asserts of one value', async () => {
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) => assertPerson({ email_addresses: ['race@example.com'], job_title: `Runner ${i}` })),
      );
      expect(results.map((r) => r.status)).toEqual(Array(50).fill(200));
      const matches = await ids('people', { filter: { email_addresses: 'race@example.com' } });
      expect(matches).toHaveLength(1);
      expect(new Set(results.map((r) => r.body.data.id.record_id))).toEqual(new Set(matches));
    });
  });
});
