import fc from 'fast-check';
import { createObjectOfEveryType } from '../support/every-type';
import { useTestApp, useWorkspace } from '../support/suite';

/**
 * Every type's accepted write formats and refused ones, over HTTP on a real database. Property
 * runs (fast-check) check that valid inputs round-trip and invalid ones are a 400 that changes nothing.
 */
describe('attribute value formats', () => {
  const t = useTestApp();
  const ws = useWorkspace(t, 'values');
  let recordId: string;
  let companyId: string;

  const as = () => ({ Authorization: `Bearer ${ws.token}` });
  const write = (values: Record<string, unknown>, method: 'patch' | 'put' = 'patch') =>
    t.http()[method](`/v2/objects/specimens/records/${recordId}`).set(as()).send({ data: { values } });
  const current = async (slug: string) =>
    (await t.http().get(`/v2/objects/specimens/records/${recordId}`).set(as()).expect(200)).body.data.values[slug] as Array<Record<string, unknown>>;
  const strip = (values: Array<Record<string, unknown>>) =>
    values.map(({ active_from: _a, active_until: _b, created_by_actor: _c, attribute_type: _d, ...rest }) => rest);

  /** Writes `input` and returns the type fields of the stored value(s). */
  async function accepted(slug: string, input: unknown): Promise<Array<Record<string, unknown>>> {
    const res = await write({ [slug]: input });
    if (res.status !== 200) throw new Error(`${slug} ${JSON.stringify(input)} -> ${res.status} ${JSON.stringify(res.body)}`);
    return strip(res.body.data.values[slug]);
  }

  async function refused(slug: string, input: unknown): Promise<void> {
    const before = await current(slug);
    const res = await write({ [slug]: input });
    expect([res.status, res.body.code, JSON.stringify(input)]).toEqual([400, expect.stringMatching(/validation_type|value_not_found|immutable_value/), JSON.stringify(input)]);
    expect(res.body.message).toContain(slug);
    expect(await current(slug)).toEqual(before);
  }

  beforeAll(async () => {
    await createObjectOfEveryType(t, ws.token, 'specimens');
    recordId = (await t.http().post('/v2/objects/specimens/records').set(as()).send({ data: { values: {} } }).expect(200)).body.data.id.record_id;
    companyId = (await t.http().post('/v2/objects/companies/records').set(as()).send({ data: { values: { name: 'Initech', domains: ['initech.com'] } } }).expect(200)).body.data.id.record_id;
  });

  describe('currency, to the letter of the spec', () => {
    it('accepts a number, an integer, a numeric string and {currency_value}, bare or in a one-element array, all equivalent', async () => {
      for (const input of [42.5, '42.5', { currency_value: 42.5 }, [42.5], ['42.5'], [{ currency_value: '42.50' }]]) {
        expect(await accepted('money', input)).toEqual([{ currency_value: '42.5', currency_code: 'EUR' }]);
      }
      expect(await accepted('money', 4200)).toEqual([{ currency_value: '4200', currency_code: 'EUR' }]);
      expect(await accepted('money', '-0.0001')).toEqual([{ currency_value: '-0.0001', currency_code: 'EUR' }]);
    });

    it('accepts up to 4 decimal places and refuses a 5th', async () => {
      expect(await accepted('money', 1.2345)).toEqual([{ currency_value: '1.2345', currency_code: 'EUR' }]);
      expect(await accepted('money', '99999999999.9999')).toEqual([{ currency_value: '99999999999.9999', currency_code: 'EUR' }]);
      await refused('money', 1.23456);
      await refused('money', '0.00001');
    });

    it('returns the value as a decimal string with the code of the attribute', async () => {
      const [value] = await current('money');
      expect(typeof value.currency_value).toBe('string');
      expect(value.currency_code).toBe('EUR');
      expect(value.attribute_type).toBe('currency');
    });

    it('refuses currency_code, null, several values and non-numbers', async () => {
      await refused('money', { currency_value: 1, currency_code: 'USD' });
      await refused('money', null);
      await refused('money', [1, 2]);
      for (const input of ['abc', true, {}, { value: 1 }, '1,5', 'Infinity', '']) await refused('money', input);
    });

    it('keeps one value: a new write closes the old one', async () => {
      await accepted('money', 10);
      await accepted('money', 20);
      const history = (await t.http().get(`/v2/objects/specimens/records/${recordId}/attributes/money/values?show_historic=true`).set(as()).expect(200)).body.data;
      expect(history.slice(-2).map((v: { currency_value: string }) => v.currency_value)).toEqual(['10', '20']);
      expect(await current('money')).toHaveLength(1);
    });

    it('refuses currency_code even where the attribute config is updated, and follows the new default code', async () => {
      await t.http().patch('/v2/objects/specimens/attributes/money').set(as()).send({ data: { config: { currency: { default_currency_code: 'GBP', display_type: 'code' } } } }).expect(200);
      expect(strip(await current('money'))).toEqual([{ currency_value: '20', currency_code: 'GBP' }]);
    });
  });

  const table: Array<[string, unknown, Array<Record<string, unknown>>]> = [
    ['text', 'hello', [{ value: 'hello' }]],
    ['text', { value: 'wrapped' }, [{ value: 'wrapped' }]],
    ['text', ['in array'], [{ value: 'in array' }]],
    ['number', 12, [{ value: 12 }]],
    ['number', { value: -1.5 }, [{ value: -1.5 }]],
    ['number', '7', [{ value: 7 }]],
    ['checkbox', true, [{ value: true }]],
    ['checkbox', 'false', [{ value: false }]],
    ['checkbox', { value: 'true' }, [{ value: true }]],
    ['date', '2023', [{ value: '2023-01-01' }]],
    ['date', '2023-05', [{ value: '2023-05-01' }]],
    ['date', '2023-05-17T23:30:00-02:00', [{ value: '2023-05-18' }]],
    ['date', { value: '9999-12-31' }, [{ value: '9999-12-31' }]],
    ['timestamp', '2023-01-02T13:00:00Z', [{ value: '2023-01-02T13:00:00.000000000Z' }]],
    ['timestamp', '2023-01-02T13:00:00.123456789+01:00', [{ value: '2023-01-02T12:00:00.123456789Z' }]],
    ['timestamp', '2023-01-02 13:00', [{ value: '2023-01-02T13:00:00.000000000Z' }]],
    ['timestamp', '2023-01-02', [{ value: '2023-01-02T00:00:00.000000000Z' }]],
    ['rating', 0, [{ value: 0 }]],
    ['rating', { value: 5 }, [{ value: 5 }]],
    ['domain', 'https://www.Example.co.uk/path?q=1', [{ domain: 'example.co.uk', root_domain: 'example.co.uk' }]],
    ['domain', { domain: 'app.attio.com' }, [{ domain: 'app.attio.com', root_domain: 'attio.com' }]],
    ['email', 'Alice@App.Attio.com', [{ original_email_address: 'Alice@App.Attio.com', email_address: 'alice@app.attio.com', email_domain: 'app.attio.com', email_root_domain: 'attio.com', email_local_specifier: 'alice' }]],
    ['email', { email_address: 'bob@example.org' }, [{ original_email_address: 'bob@example.org', email_address: 'bob@example.org', email_domain: 'example.org', email_root_domain: 'example.org', email_local_specifier: 'bob' }]],
    ['phone', '+1 (415) 555-2671', [{ original_phone_number: '+1 (415) 555-2671', country_code: 'US', phone_number: '+14155552671' }]],
    ['phone', { original_phone_number: '020 7946 0958', country_code: 'GB' }, [{ original_phone_number: '020 7946 0958', country_code: 'GB', phone_number: '+442079460958' }]],
    [
      'location',
      '1 Infinite Loop, Cupertino, CA, 95014, US',
      [{ line_1: '1 Infinite Loop', line_2: null, line_3: null, line_4: null, locality: 'Cupertino', region: 'CA', postcode: '95014', country_code: 'US', latitude: null, longitude: null }],
    ],
    [
      'location',
      { line_1: 'Rue de Rivoli', line_2: null, line_3: null, line_4: null, locality: 'Paris', region: null, postcode: '75001', country_code: 'fr', latitude: '48.860611', longitude: '2.337644' },
      [{ line_1: 'Rue de Rivoli', line_2: null, line_3: null, line_4: null, locality: 'Paris', region: null, postcode: '75001', country_code: 'FR', latitude: '48.860611', longitude: '2.337644' }],
    ],
  ];

  it.each(table)('%s accepts %j', async (slug, input, expected) => {
    expect(await accepted(slug, input)).toEqual(expected);
  });

  it('select: by title, by id, {option}, and arrays for multiselect', async () => {
    const options = (await t.http().get('/v2/objects/specimens/attributes/select/options').set(as()).expect(200)).body.data;
    const green = options.find((o: { title: string }) => o.title === 'Green');
    expect((await accepted('select', 'Red'))[0].option).toMatchObject({ title: 'Red', is_archived: false });
    expect((await accepted('select', green.id.option_id))[0].option).toEqual({ id: green.id, title: 'Green', is_archived: false });
    expect((await accepted('select', { option: 'Blue' }))[0].option).toMatchObject({ title: 'Blue' });
    expect((await accepted('tags', ['Red', 'Blue'])).map((v) => (v.option as { title: string }).title)).toEqual(['Red', 'Blue']);
    await refused('select', 'Purple');
    await refused('select', ['Red', 'Blue']);
    await refused('tags', 'Mauve');
  });

  it('status: by title or id', async () => {
    expect((await accepted('status', 'Open'))[0].status).toMatchObject({ title: 'Open', celebration_enabled: false, target_time_in_status: null });
    await refused('status', 'Closed');
    await refused('status', 5);
  });

  it('record-reference: by id; refuses unknown targets, records and disallowed objects', async () => {
    expect(await accepted('company', { target_object: 'companies', target_record_id: companyId })).toEqual([{ target_object: 'companies', target_record_id: companyId }]);
    expect(await accepted('company', [{ target_object: 'companies', domains: [{ domain: 'initech.com' }] }])).toEqual([{ target_object: 'companies', target_record_id: companyId }]);
    await refused('company', { target_object: 'companies', target_record_id: '00000000-0000-4000-8000-000000000000' });
    await refused('company', { target_object: 'nothing', target_record_id: companyId });
    await refused('company', { target_object: 'people', target_record_id: companyId });
    await refused('company', { target_record_id: companyId });
    await refused('company', 'Initech');
  });

  it('actor-reference: by email, {workspace_member_email_address} or id; only workspace members', async () => {
    const expected = [{ referenced_actor_type: 'workspace-member', referenced_actor_id: ws.adminMemberId }];
    expect(await accepted('owner', 'admin@values.test')).toEqual(expected);
    expect(await accepted('owner', { workspace_member_email_address: 'ADMIN@values.test' })).toEqual(expected);
    expect(await accepted('owner', { referenced_actor_type: 'workspace-member', referenced_actor_id: ws.adminMemberId })).toEqual(expected);
    await refused('owner', 'stranger@values.test');
    await refused('owner', { referenced_actor_type: 'api-token', referenced_actor_id: ws.adminMemberId });
  });

  it('personal-name on people: object with all three keys, or "Last, First"', async () => {
    const person = (await t.http().post('/v2/objects/people/records').set(as()).send({ data: { values: { name: 'Turing, Alan, M.' } } }).expect(200)).body.data;
    expect(strip(person.values.name)).toEqual([{ first_name: 'Alan, M.', last_name: 'Turing', full_name: 'Alan, M. Turing' }]);
    const single = (await t.http().post('/v2/objects/people/records').set(as()).send({ data: { values: { name: 'Plato' } } }).expect(200)).body.data;
    expect(strip(single.values.name)).toEqual([{ first_name: 'Plato', last_name: '', full_name: 'Plato' }]);
    const missing = await t.http().post('/v2/objects/people/records').set(as()).send({ data: { values: { name: { first_name: 'A', last_name: 'B' } } } }).expect(400);
    expect(missing.body.message).toContain('name');
  });

  const invalid: Array<[string, unknown]> = [
    ['text', 42], ['text', { value: 1 }], ['text', { text: 'x' }], ['text', ['a', 'b']],
    ['number', 'twelve'], ['number', true], ['number', { value: 'x' }],
    ['checkbox', 'yes'], ['checkbox', 1],
    ['date', '2023-02-30'], ['date', 'tomorrow'], ['date', '10000-01-01'], ['date', 20230101],
    ['timestamp', '2023-13-01T00:00:00Z'], ['timestamp', 'noon'], ['timestamp', '2023-01-01T25:00:00Z'],
    ['rating', 6], ['rating', -1], ['rating', 2.5],
    ['domain', 'not a domain'], ['domain', 'localhost'],
    ['email', 'nobody'], ['email', 'a@b'], ['email', { email: 'a@b.com' }],
    ['phone', '12'], ['phone', '555-2671'], ['phone', { original_phone_number: '+14155552671', country_code: 'USA' }],
    ['location', { line_1: 'x' }], ['location', 42],
    ['emails', 'a@@b.com'],
  ];

  it.each(invalid)('%s refuses %j with a 400 naming the attribute, changing nothing', async (slug, input) => {
    await refused(slug, input);
  });

  describe('properties (fast-check)', () => {
    const runs = { numRuns: 25 };

    it('text round-trips any string', async () => {
      await fc.assert(fc.asyncProperty(fc.string({ maxLength: 200 }), async (s) => {
        expect(await accepted('text', s)).toEqual([{ value: s }]);
      }), runs);
    });

    it('number round-trips any finite double', async () => {
      await fc.assert(fc.asyncProperty(fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e15, max: 1e15 }), async (n) => {
        expect(await accepted('number', n)).toEqual([{ value: n === 0 ? 0 : n }]);
      }), runs);
    });

    it('currency round-trips any amount with at most 4 decimals, and refuses 5', async () => {
      await fc.assert(fc.asyncProperty(fc.bigInt({ min: -(10n ** 18n), max: 10n ** 18n }), fc.integer({ min: 0, max: 4 }), async (units, scale) => {
        const negative = units < 0n;
        const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
        const text = `${negative ? '-' : ''}${scale ? `${digits.slice(0, -scale)}.${digits.slice(-scale)}` : digits}`;
        const expected = text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
        const [value] = await accepted('money', text);
        expect(value.currency_value).toBe(expected === '-0' ? '0' : expected.replace(/^(-?)0+(?=\d)/, '$1'));
      }), runs);
      await fc.assert(fc.asyncProperty(fc.integer({ min: 1, max: 9 }), fc.integer({ min: 0, max: 10000 }), async (last, whole) => {
        await refused('money', `${whole}.0000${last}`);
      }), { numRuns: 10 });
    });

    it('date round-trips any calendar date', async () => {
      await fc.assert(fc.asyncProperty(fc.date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T00:00:00Z'), noInvalidDate: true }), async (d) => {
        const iso = d.toISOString().slice(0, 10);
        expect(await accepted('date', iso)).toEqual([{ value: iso }]);
      }), runs);
    });

    it('timestamp normalises any instant to nine-digit UTC', async () => {
      await fc.assert(fc.asyncProperty(fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true }), async (d) => {
        const iso = d.toISOString();
        expect(await accepted('timestamp', iso)).toEqual([{ value: `${iso.slice(0, 23)}000000Z` }]);
      }), runs);
    });

    it('email-address keeps the original and lowercases the address', async () => {
      await fc.assert(fc.asyncProperty(fc.emailAddress(), async (email) => {
        const [value] = await accepted('email', email);
        expect(value.original_email_address).toBe(email);
        expect(value.email_address).toBe(email.toLowerCase());
      }), runs);
    });

    it('refuses arbitrary non-numeric JSON for number, rating and currency, changing nothing', async () => {
      const notNumeric = fc.oneof(fc.boolean(), fc.object({ maxDepth: 1 }), fc.string().filter((s) => Number.isNaN(Number(s)) || s.trim() === ''));
      await fc.assert(fc.asyncProperty(notNumeric, fc.constantFrom('number', 'rating', 'money'), async (input, slug) => {
        if (typeof input === 'object' && input !== null && ('value' in input || 'currency_value' in input)) return;
        await refused(slug, input);
      }), runs);
    });
  });

  it('PUT replaces and PATCH appends a multiselect', async () => {
    await write({ emails: ['a@x.io', 'b@x.io'] }, 'put').expect(200);
    await write({ emails: ['c@x.io', 'a@x.io'] }, 'patch').expect(200);
    expect((await current('emails')).map((v) => v.email_address).sort()).toEqual(['a@x.io', 'b@x.io', 'c@x.io']);
    await write({ emails: ['d@x.io'] }, 'put').expect(200);
    expect((await current('emails')).map((v) => v.email_address)).toEqual(['d@x.io']);
    await write({ emails: [] }, 'put').expect(200);
    expect(await current('emails')).toEqual([]);
  });
});
