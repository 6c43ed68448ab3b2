import { DomainError } from '@workbase/shared/kernel';
import fc from 'fast-check';
import { getDomain } from 'tldts';
import type { AttributeType } from '../attribute-type';
import { parseAttributeValues } from '../parse-values';
import type { StoredValue, StoredValueRow } from '../stored-value';
import { valueKey } from '../value-key';
import { CODECS, NO_WRITE_LOOKUPS, type AttributeDescriptor, type ReadContext } from '.';

/**
 * The codecs that need no lookups, property by property: accepted write forms are equivalent,
 * normalisation is idempotent (what is read back parses to the same value), and anything else is
 * a 400 naming the attribute. Lookup codecs (select, status, references, actors) are proven over
 * HTTP in test/e2e/record-values and records-writes.
 */
const NO_CONTEXT: ReadContext = { option: () => undefined, status: () => undefined, objectSlug: () => undefined };

const attribute = (type: AttributeType, isMultiselect = false): AttributeDescriptor => ({
  id: '00000000-0000-4000-8000-000000000001',
  workspaceId: '00000000-0000-4000-8000-000000000002',
  containerId: '00000000-0000-4000-8000-000000000003',
  slug: `my_${type.replace('-', '_')}`,
  type,
  isMultiselect,
  config: type === 'currency' ? { currency: { default_currency_code: 'EUR', display_type: 'symbol' } } : {},
});

const parse = (type: AttributeType, raw: unknown, multi = false) => parseAttributeValues(attribute(type, multi), raw, NO_WRITE_LOOKUPS);
const read = (type: AttributeType, value: StoredValue) =>
  CODECS[type].read({ ...value, id: 'v', attributeId: 'a', activeFrom: new Date(), activeUntil: null, createdBy: { type: 'system', id: null } } as StoredValueRow, attribute(type), NO_CONTEXT);

/** The 400 of a refused write: a validation error whose message names the attribute. */
async function refused(type: AttributeType, raw: unknown, multi = false): Promise<DomainError> {
  const error = await parse(type, raw, multi).then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof DomainError)) throw new Error(`${type} accepted ${JSON.stringify(raw)}`);
  expect([error.code, error.message.includes(attribute(type).slug)]).toEqual(['validation_type', true]);
  return error;
}

/** Valid amounts as decimal strings with 0 to 4 decimals, and their canonical form. */
const amount = fc.tuple(fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }), fc.integer({ min: 0, max: 4 })).map(([units, scale]) => {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(scale + 1, '0');
  const text = `${negative ? '-' : ''}${scale ? `${digits.slice(0, -scale)}.${digits.slice(-scale)}` : digits}`;
  let [whole, fraction = ''] = text.replace('-', '').split('.');
  whole = whole.replace(/^0+(?=\d)/, '');
  fraction = fraction.replace(/0+$/, '');
  const canonical = `${fraction ? `${whole}.${fraction}` : whole}`;
  return { text, canonical: negative && canonical !== '0' ? `-${canonical}` : canonical };
});

describe('codecs', () => {
  describe('currency, to the letter of the spec', () => {
    it('reads every accepted form the same: string, {currency_value}, bare or in a one-element array, and the number where it is exact', async () => {
      await fc.assert(
        fc.asyncProperty(amount, async ({ text, canonical }) => {
          const forms: unknown[] = [text, { currency_value: text }, [text], [{ currency_value: text }]];
          const asNumber = Number(text);
          if (String(asNumber) === canonical) forms.push(asNumber, [asNumber], { currency_value: asNumber }, [{ currency_value: asNumber }]);
          for (const form of forms) {
            const values = await parse('currency', form);
            expect(values.map((v) => read('currency', v))).toEqual([{ currency_value: canonical, currency_code: 'EUR' }]);
            expect(values[0].key).toBe(canonical);
          }
        }),
        { numRuns: 200 },
      );
    });

    it('converts an integer like a float: 4200 and 4200.0 and "4200.0000" are one value', async () => {
      const keys = await Promise.all([4200, 4200.0, '4200.0000', { currency_value: '4200.00' }].map(async (v) => (await parse('currency', v))[0].key));
      expect(new Set(keys)).toEqual(new Set(['4200']));
    });

    it('refuses a 5th decimal place in any form (trailing zeros do not count)', async () => {
      await fc.assert(
        fc.asyncProperty(amount, fc.integer({ min: 1, max: 9 }), async ({ canonical }, digit) => {
          const [whole, fraction = ''] = canonical.split('.');
          const five = `${whole}.${fraction.padEnd(4, '0')}${digit}`;
          for (const form of [five, { currency_value: five }, [five], Number(five)]) {
            if (typeof form === 'number' && String(form).split('.')[1]?.length !== 5) continue;
            expect((await refused('currency', form)).message).toContain('4 decimal places');
          }
        }),
        { numRuns: 100 },
      );
      expect((await parse('currency', '1.23450'))[0].key).toBe('1.2345');
      await refused('currency', 0.1 + 0.2);
    });

    it('refuses currency_code, null, an empty list, several values and anything not a number', async () => {
      expect((await refused('currency', { currency_value: 1, currency_code: 'EUR' })).message).toContain('currency_code');
      expect((await refused('currency', [{ currency_value: 1, currency_code: 'USD' }])).message).toContain('currency_code');
      expect((await refused('currency', null)).message).toContain('null');
      expect((await refused('currency', [null])).message).toContain('null');
      expect((await refused('currency', [])).message).toContain('null');
      await refused('currency', [1, 2]);
      for (const bad of ['', ' ', 'abc', '1,5', '1.2.3', 'Infinity', 'NaN', '0x10', true, {}, { value: 1 }, { currency_value: null }, [[1]], Number.NaN]) {
        await refused('currency', bad);
      }
    });
  });

  describe('timestamps and dates', () => {
    const instant = fc.record({
      year: fc.integer({ min: 1, max: 9999 }),
      month: fc.integer({ min: 1, max: 12 }),
      day: fc.integer({ min: 1, max: 28 }),
      hour: fc.integer({ min: 0, max: 23 }),
      minute: fc.integer({ min: 0, max: 59 }),
      second: fc.integer({ min: 0, max: 59 }),
      fraction: fc.stringMatching(/^\d{0,9}$/),
      offset: fc.integer({ min: -14 * 60, max: 14 * 60 }),
    });
    const pad = (n: number, width = 2) => String(n).padStart(width, '0');

    it('normalises any instant of years 1 to 9999, in any zone, to nine-digit UTC (or refuses it outside that range)', async () => {
      await fc.assert(
        fc.asyncProperty(instant, async ({ year, month, day, hour, minute, second, fraction, offset }) => {
          const zone = offset === 0 ? 'Z' : `${offset < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`;
          const input = `${pad(year, 4)}-${pad(month)}-${pad(day)}T${pad(hour)}:${pad(minute)}:${pad(second)}${fraction ? `.${fraction}` : ''}${zone}`;
          const utc = new Date(0);
          utc.setUTCFullYear(year, month - 1, day);
          utc.setUTCHours(hour, minute - offset, second, 0);
          const expected = `${pad(utc.getUTCFullYear(), 4)}-${pad(utc.getUTCMonth() + 1)}-${pad(utc.getUTCDate())}T${pad(utc.getUTCHours())}:${pad(utc.getUTCMinutes())}:${pad(utc.getUTCSeconds())}.${fraction.padEnd(9, '0')}Z`;
          if (utc.getUTCFullYear() < 1 || utc.getUTCFullYear() > 9999) {
            await refused('timestamp', input);
            return;
          }
          const [value] = await parse('timestamp', input);
          expect(read('timestamp', value)).toEqual({ value: expected });
          expect(value.timestamp).toBe(`${expected.slice(0, 26)}Z`);
          expect((await parse('timestamp', { value: expected }))[0].key).toBe(value.key);
          const [date] = await parse('date', input);
          expect(read('date', date)).toEqual({ value: expected.slice(0, 10) });
        }),
        { numRuns: 300 },
      );
    });

    it('keeps years before 100 as written (not 19xx)', async () => {
      expect(read('timestamp', (await parse('timestamp', '0050-03-01T10:00:00Z'))[0])).toEqual({ value: '0050-03-01T10:00:00.000000000Z' });
      expect(read('date', (await parse('date', '0050-03-01T23:00:00-02:00'))[0])).toEqual({ value: '0050-03-02' });
      expect(read('timestamp', (await parse('timestamp', '9999-12-31T23:59:59.999999999Z'))[0])).toEqual({ value: '9999-12-31T23:59:59.999999999Z' });
      await refused('timestamp', '0001-01-01T00:30:00+01:00');
      await refused('timestamp', '9999-12-31T23:30:00-01:00');
      await refused('date', '2024-02-30');
      expect(read('date', (await parse('date', '2024-02-29'))[0])).toEqual({ value: '2024-02-29' });
      await refused('date', '2023-02-29');
    });
  });

  describe('contact types', () => {
    it('email-address: lower-cased address, domain, root domain via the public suffix list, local part; all forms equivalent', async () => {
      await fc.assert(
        fc.asyncProperty(fc.emailAddress(), async (email) => {
          const forms = [email, { email_address: email }, [email], [{ email_address: email }]];
          const reads = await Promise.all(forms.map(async (form) => read('email-address', (await parse('email-address', form))[0])));
          const [local, domain] = [email.slice(0, email.lastIndexOf('@')).toLowerCase(), email.slice(email.lastIndexOf('@') + 1).toLowerCase()];
          for (const value of reads) {
            expect(value).toEqual({
              original_email_address: email,
              email_address: email.toLowerCase(),
              email_domain: domain,
              email_root_domain: getDomain(domain) ?? domain,
              email_local_specifier: local,
            });
          }
          // Idempotent: the read shape written back is the same value.
          expect((await parse('email-address', reads[0]))[0].key).toBe(email.toLowerCase());
        }),
        { numRuns: 200 },
      );
      expect(read('email-address', (await parse('email-address', 'Ada@Mail.Example.CO.UK'))[0])).toMatchObject({ email_domain: 'mail.example.co.uk', email_root_domain: 'example.co.uk', email_local_specifier: 'ada' });
    });

    it('domain: bare, {domain}, URLs and www are one domain with its root domain', async () => {
      const forms = ['Sub.Example.co.uk', { domain: 'sub.example.co.uk' }, ['https://www.sub.example.co.uk/x?y'], 'http://sub.example.co.uk:8080/'];
      for (const form of forms) {
        expect(read('domain', (await parse('domain', form))[0])).toEqual({ domain: 'sub.example.co.uk', root_domain: 'example.co.uk' });
      }
      for (const bad of ['', 'no spaces.com x', 'localhost', 42, { domain: 1 }, { domain: 'a.com', x: 1 }]) await refused('domain', bad);
    });

    it('phone-number: any example number of any region, national with its country or international, normalises to the same E.164', async () => {
      const examples = (await import('libphonenumber-js/examples.mobile.json')).default as Record<string, string>;
      const { parsePhoneNumberFromString } = await import('libphonenumber-js/max');
      const regions = Object.keys(examples);
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...regions), async (region) => {
          const e164 = parsePhoneNumberFromString(examples[region], region as never)!.number;
          const international = parsePhoneNumberFromString(e164)!.formatInternational();
          const national = { original_phone_number: examples[region], country_code: region.toLowerCase() };
          for (const form of [e164, international, [international], { original_phone_number: international }, national]) {
            const value = read('phone-number', (await parse('phone-number', form))[0]);
            expect(value.phone_number).toBe(e164);
            expect(value.original_phone_number).toBe(typeof form === 'string' ? form : Array.isArray(form) ? form[0] : form.original_phone_number);
          }
        }),
        { numRuns: 100 },
      );
      for (const bad of ['12', '555-2671', 'call me', 14155552671, { phone_number: '+14155552671' }, { original_phone_number: '+14155552671', country_code: 'USA' }]) {
        await refused('phone-number', bad);
      }
    });

    it('location: the ten keys, nulls allowed, or an address line; a partial object is refused', async () => {
      const full = { line_1: '1 Main St', line_2: null, line_3: null, line_4: null, locality: 'Springfield', region: 'IL', postcode: '62701', country_code: 'us', latitude: '39.78', longitude: -89.65 };
      const value = read('location', (await parse('location', [full]))[0]);
      expect(value).toEqual({ ...full, country_code: 'US', longitude: '-89.65' });
      expect((await parse('location', value))[0].key).toBe((await parse('location', full))[0].key);
      await refused('location', { line_1: '1 Main St' });
      await refused('location', { ...full, latitude: '91' });
      await refused('location', { ...full, planet: 'Earth' });
    });

    it('personal-name: "Last, First" or all three keys; the read shape parses back to the same value', async () => {
      await fc.assert(
        fc.asyncProperty(fc.string({ minLength: 1 }).filter((s) => !s.includes(',') && s.trim() === s && s !== ''), fc.string().filter((s) => !s.includes(',') && s.trim() === s), async (first, last) => {
          const [value] = await parse('personal-name', last ? `${last}, ${first}` : first);
          const shape = read('personal-name', value);
          expect(shape).toEqual({ first_name: first, last_name: last, full_name: [first, last].filter(Boolean).join(' ') });
          expect((await parse('personal-name', shape))[0].key).toBe(value.key);
        }),
        { numRuns: 100 },
      );
      await refused('personal-name', { first_name: 'A', last_name: 'B' });
      await refused('interaction', { interaction_type: 'email' });
    });
  });

  describe('scalars', () => {
    it('text, number, checkbox and rating: bare, {value} and a one-element array are one value; the read shape parses back to it', async () => {
      const cases: Array<[AttributeType, fc.Arbitrary<unknown>]> = [
        ['text', fc.string()],
        ['number', fc.double({ noNaN: true, noDefaultInfinity: true })],
        ['checkbox', fc.boolean()],
        ['rating', fc.integer({ min: 0, max: 5 })],
      ];
      for (const [type, arbitrary] of cases) {
        await fc.assert(
          fc.asyncProperty(arbitrary, async (raw) => {
            const keys = await Promise.all([raw, { value: raw }, [raw], [{ value: raw }], String(raw)].map(async (form) => (await parse(type, form))[0].key));
            expect(new Set(keys).size).toBe(1);
            const [value] = await parse(type, raw);
            expect(read(type, value)).toEqual({ value: type === 'number' && Object.is(raw, -0) ? 0 : raw });
            expect(valueKey(type, value)).toBe(value.key);
          }),
          { numRuns: 100 },
        );
      }
    });

    it('refuses anything that is not the type, naming the attribute', async () => {
      const wrong: Array<[AttributeType, unknown]> = [
        ['text', 1], ['text', { value: 1 }], ['text', { text: 'x' }], ['text', ['a', 'b']],
        ['number', 'x'], ['number', true], ['number', '1e400'], ['number', { value: 1, extra: 2 }],
        ['checkbox', 'yes'], ['checkbox', 0], ['checkbox', 'TRUE '],
        ['rating', 6], ['rating', 1.5], ['rating', -1], ['rating', '6'],
        ['date', 20240101], ['date', '2024-13-01'], ['date', 'soon'], ['timestamp', '2024-01-01T24:00:00Z'], ['timestamp', 1700000000],
      ];
      for (const [type, raw] of wrong) await refused(type, raw);
    });

    it('a single-valued attribute refuses several values; a multiselect one takes them', async () => {
      expect((await refused('text', ['a', 'b'])).message).toContain('single value');
      expect((await parse('text', ['a', 'b'], true)).map((v) => v.key)).toEqual(['a', 'b']);
      expect(await parse('text', null)).toEqual([]);
      expect(await parse('text', [])).toEqual([]);
    });
  });
});
