import { invalidValue } from '../value-error';
import type { ValueCodec } from './codec';
import { isPlainObject, unwrap } from './codec';
import { parseDate, parseTimestamp } from './time';

/** Scalars accept the bare value or `{<key>: value}`. */
function scalar(slug: string, raw: unknown, key: string, expectation: string): unknown {
  const { value, wrapped, extraKeys } = unwrap(raw, key);
  if (isPlainObject(raw) && (!wrapped || extraKeys.length > 0)) throw invalidValue(slug, expectation, raw);
  return value;
}

export const textCodec: ValueCodec = {
  type: 'text',
  async parse(raw, attribute) {
    const value = scalar(attribute.slug, raw, 'value', 'expected a string or {"value": string}');
    if (typeof value !== 'string') throw invalidValue(attribute.slug, 'expected a string or {"value": string}', raw);
    if (Buffer.byteLength(value, 'utf8') > 10 * 1024 * 1024) throw invalidValue(attribute.slug, 'text values are limited to 10 MB');
    return [{ key: value, text: value }];
  },
  read: (row) => ({ value: row.text }),
};

/** A finite number, or a string holding one; returned in canonical decimal form. */
export function canonicalNumber(value: unknown): string | null {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return null;
    return numberToPlainString(value);
  }
  if (typeof value === 'string' && /^\s*[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?\s*$/.test(value)) {
    const parsed = Number(value);
    if (!Number.isFinite(parsed)) return null;
    return /[eE]/.test(value) ? expandExponent(value.trim().replace(/^\+/, '')) : stripDecimal(value.trim().replace(/^\+/, ''));
  }
  return null;
}

/** The shortest decimal that reads back as the same double, without an exponent. */
function numberToPlainString(value: number): string {
  const text = String(value);
  return /e/i.test(text) ? expandExponent(text) : stripDecimal(text);
}

/** "1.5e-7" → "0.00000015", "2e21" → "2000000000000000000000": exact, by moving the point. */
function expandExponent(text: string): string {
  const [mantissa, exponentText] = text.toLowerCase().split('e');
  const negative = mantissa.startsWith('-');
  const [whole, fraction = ''] = mantissa.replace(/^[-+]/, '').split('.');
  const digits = `${whole}${fraction}`;
  const point = whole.length + Number(exponentText);
  const expanded =
    point <= 0 ? `0.${'0'.repeat(-point)}${digits}` : point >= digits.length ? digits + '0'.repeat(point - digits.length) : `${digits.slice(0, point)}.${digits.slice(point)}`;
  return stripDecimal(`${negative ? '-' : ''}${expanded}`);
}

/** "004.2500" → "4.25", "-0" → "0", ".5" → "0.5". */
export function stripDecimal(text: string): string {
  let [whole, fraction = ''] = text.split('.');
  const negative = whole.startsWith('-');
  whole = whole.replace(/^-/, '').replace(/^0+(?=\d)/, '') || '0';
  fraction = fraction.replace(/0+$/, '');
  const result = fraction ? `${whole}.${fraction}` : whole;
  return negative && result !== '0' ? `-${result}` : result;
}

export const numberCodec: ValueCodec = {
  type: 'number',
  async parse(raw, attribute) {
    const value = scalar(attribute.slug, raw, 'value', 'expected a number or {"value": number}');
    const canonical = canonicalNumber(value);
    if (canonical === null) throw invalidValue(attribute.slug, 'expected a number or {"value": number}', raw);
    return [{ key: canonical, number: canonical }];
  },
  read: (row) => ({ value: Number(row.number) }),
};

export const checkboxCodec: ValueCodec = {
  type: 'checkbox',
  async parse(raw, attribute) {
    const value = scalar(attribute.slug, raw, 'value', 'expected true or false');
    const parsed = value === true || value === 'true' ? true : value === false || value === 'false' ? false : null;
    if (parsed === null) throw invalidValue(attribute.slug, 'expected true, false, "true" or "false"', raw);
    return [{ key: String(parsed), bool: parsed }];
  },
  read: (row) => ({ value: row.bool }),
};

export const ratingCodec: ValueCodec = {
  type: 'rating',
  async parse(raw, attribute) {
    const value = scalar(attribute.slug, raw, 'value', 'expected an integer from 0 to 5');
    const canonical = canonicalNumber(value);
    const n = canonical === null ? NaN : Number(canonical);
    if (!Number.isInteger(n) || n < 0 || n > 5) throw invalidValue(attribute.slug, 'expected an integer from 0 to 5', raw);
    return [{ key: String(n), number: String(n) }];
  },
  read: (row) => ({ value: Number(row.number) }),
};

export const CURRENCY_MAX_DECIMALS = 4;

/**
 * Money, to the letter of the spec: a number, an integer, a numeric string or
 * `{currency_value}` — bare or in a one-element array — with at most 4 decimal places (trailing
 * zeros do not count). The currency code is the attribute's and cannot be written.
 */
export const currencyCodec: ValueCodec = {
  type: 'currency',
  async parse(raw, attribute) {
    if (raw === null) throw invalidValue(attribute.slug, 'currency attributes do not accept null');
    if (isPlainObject(raw) && 'currency_code' in raw) {
      throw invalidValue(attribute.slug, 'currency_code cannot be written; it is set by the attribute\'s config');
    }
    const value = scalar(attribute.slug, raw, 'currency_value', 'expected a number, a numeric string or {"currency_value": number}');
    const canonical = canonicalNumber(value);
    if (canonical === null) throw invalidValue(attribute.slug, 'expected a number, a numeric string or {"currency_value": number}', raw);
    const decimals = canonical.split('.')[1]?.length ?? 0;
    if (decimals > CURRENCY_MAX_DECIMALS) {
      throw invalidValue(attribute.slug, `currency values have at most ${CURRENCY_MAX_DECIMALS} decimal places`, raw);
    }
    if (canonical.replace(/[-.]/g, '').length > 28) throw invalidValue(attribute.slug, 'currency value is too large', raw);
    return [{ key: canonical, number: canonical }];
  },
  read: (row, attribute) => ({
    currency_value: row.number === null || row.number === undefined ? null : stripDecimal(String(row.number)),
    currency_code: attribute.config.currency?.default_currency_code ?? null,
  }),
};

export const dateCodec: ValueCodec = {
  type: 'date',
  async parse(raw, attribute) {
    const value = scalar(attribute.slug, raw, 'value', 'expected a date string such as "2024-05-17"');
    const date = typeof value === 'string' ? parseDate(value) : null;
    if (!date) throw invalidValue(attribute.slug, 'expected a date string such as "2024-05-17" (up to 9999-12-31)', raw);
    return [{ key: date, date }];
  },
  read: (row) => ({ value: row.date }),
};

export const timestampCodec: ValueCodec = {
  type: 'timestamp',
  async parse(raw, attribute) {
    const value = scalar(attribute.slug, raw, 'value', 'expected an ISO 8601 timestamp');
    const parsed = typeof value === 'string' ? parseTimestamp(value) : null;
    if (!parsed) throw invalidValue(attribute.slug, 'expected an ISO 8601 timestamp such as "2024-05-17T13:00:00Z" (up to 9999-12-31T23:59:59.999999999Z)', raw);
    return [{ key: parsed.nanos, timestamp: parsed.micros, json: { value: parsed.nanos } }];
  },
  read: (row) => ({ value: (row.json as { value?: string } | null)?.value ?? null }),
};
