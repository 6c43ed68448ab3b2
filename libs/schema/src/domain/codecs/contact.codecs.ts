import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';
import { getDomain } from 'tldts';
import { invalidValue } from '../value-error';
import type { ValueCodec } from './codec';
import { isPlainObject, unwrap } from './codec';

const EMAIL = /^[^\s@]+@([^\s@]+\.[^\s@]+)$/;

export const emailAddressCodec: ValueCodec = {
  type: 'email-address',
  async parse(raw, attribute) {
    const { value, wrapped, extraKeys } = unwrap(raw, 'email_address');
    if ((isPlainObject(raw) && (!wrapped || extraKeys.some((k) => !EMAIL_READ_KEYS.has(k)))) || typeof value !== 'string') {
      throw invalidValue(attribute.slug, 'expected an email address or {"email_address": string}', raw);
    }
    const original = value.trim();
    const match = EMAIL.exec(original);
    if (!match || original.length > 320) throw invalidValue(attribute.slug, `"${value}" is not a valid email address`);
    const normalised = original.toLowerCase();
    const [local, domain] = normalised.split('@');
    const json = {
      original_email_address: original,
      email_address: normalised,
      email_domain: domain,
      email_root_domain: getDomain(domain) ?? domain,
      email_local_specifier: local,
    };
    return [{ key: normalised, text: normalised, json }];
  },
  read: (row) => ({ ...row.json }),
};
const EMAIL_READ_KEYS = new Set(['original_email_address', 'email_domain', 'email_root_domain', 'email_local_specifier']);

export function normaliseDomain(input: string): string | null {
  let text = input.trim().toLowerCase();
  text = text.replace(/^[a-z][a-z0-9+.-]*:\/\//, '').replace(/[/?#].*$/, '').replace(/:\d+$/, '').replace(/^www\./, '').replace(/\.$/, '');
  if (!/^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/.test(text)) return null;
  return text;
}

export const domainCodec: ValueCodec = {
  type: 'domain',
  async parse(raw, attribute) {
    const { value, wrapped, extraKeys } = unwrap(raw, 'domain');
    if ((isPlainObject(raw) && (!wrapped || extraKeys.some((k) => k !== 'root_domain'))) || typeof value !== 'string') {
      throw invalidValue(attribute.slug, 'expected a domain or {"domain": string}', raw);
    }
    const domain = normaliseDomain(value);
    if (!domain) throw invalidValue(attribute.slug, `"${value}" is not a valid domain`);
    return [{ key: domain, text: domain, json: { domain, root_domain: getDomain(domain) ?? domain } }];
  },
  read: (row) => ({ ...row.json }),
};

export const phoneNumberCodec: ValueCodec = {
  type: 'phone-number',
  async parse(raw, attribute) {
    let original: unknown = raw;
    let country: unknown = null;
    if (isPlainObject(raw)) {
      const extra = Object.keys(raw).filter((k) => !['original_phone_number', 'country_code', 'phone_number', 'active_from', 'active_until', 'created_by_actor', 'attribute_type'].includes(k));
      if (extra.length > 0 || typeof raw.original_phone_number !== 'string') {
        throw invalidValue(attribute.slug, 'expected a phone number or {"original_phone_number": string, "country_code"?: ISO 3166 alpha-2}', raw);
      }
      original = raw.original_phone_number;
      country = raw.country_code ?? null;
    }
    if (typeof original !== 'string') throw invalidValue(attribute.slug, 'expected a phone number string', raw);
    if (country !== null && (typeof country !== 'string' || !/^[A-Za-z]{2}$/.test(country))) {
      throw invalidValue(attribute.slug, 'country_code must be an ISO 3166-1 alpha-2 code', raw);
    }
    const parsed = parsePhoneNumberFromString(original, country ? (country.toUpperCase() as CountryCode) : undefined);
    if (!parsed || !parsed.isPossible()) {
      throw invalidValue(attribute.slug, `"${original}" is not a valid phone number${country ? '' : ' (add a +country prefix or a country_code)'}`);
    }
    const e164 = parsed.number;
    return [{ key: e164, text: e164, json: { original_phone_number: original, country_code: parsed.country ?? (country as string | null)?.toUpperCase() ?? null, phone_number: e164 } }];
  },
  read: (row) => ({ ...row.json }),
};

const LOCATION_KEYS = ['line_1', 'line_2', 'line_3', 'line_4', 'locality', 'region', 'postcode', 'country_code', 'latitude', 'longitude'] as const;

/** A location: all ten keys (nulls allowed, the write is atomic), or a comma-separated address. */
export const locationCodec: ValueCodec = {
  type: 'location',
  async parse(raw, attribute) {
    let location: Record<string, string | null>;
    if (typeof raw === 'string') {
      location = fromAddressLine(raw);
    } else if (isPlainObject(raw)) {
      const missing = LOCATION_KEYS.filter((key) => !(key in raw));
      if (missing.length > 0) throw invalidValue(attribute.slug, `a location object needs all ten keys; missing ${missing.join(', ')}`);
      const extra = Object.keys(raw).filter((k) => !(LOCATION_KEYS as readonly string[]).includes(k) && !['active_from', 'active_until', 'created_by_actor', 'attribute_type'].includes(k));
      if (extra.length > 0) throw invalidValue(attribute.slug, `unknown location keys: ${extra.join(', ')}`);
      location = {};
      for (const key of LOCATION_KEYS) {
        const value = raw[key];
        if (value !== null && typeof value !== 'string' && !(typeof value === 'number' && (key === 'latitude' || key === 'longitude'))) {
          throw invalidValue(attribute.slug, `location.${key} must be a string or null`, raw);
        }
        location[key] = value === null || value === undefined ? null : String(value).trim() || null;
      }
    } else {
      throw invalidValue(attribute.slug, 'expected a location object with line_1..line_4, locality, region, postcode, country_code, latitude, longitude, or an address string', raw);
    }
    if (location.country_code !== null) {
      if (!/^[A-Za-z]{2}$/.test(location.country_code)) throw invalidValue(attribute.slug, 'location.country_code must be an ISO 3166-1 alpha-2 code', raw);
      location.country_code = location.country_code.toUpperCase();
    }
    for (const [key, limit] of [['latitude', 90], ['longitude', 180]] as const) {
      const value = location[key];
      if (value === null) continue;
      if (!/^-?\d{1,3}(\.\d{1,9})?$/.test(value) || Math.abs(Number(value)) > limit) {
        throw invalidValue(attribute.slug, `location.${key} must be a decimal string within ±${limit} with at most 9 decimal places`, raw);
      }
    }
    const text = LOCATION_KEYS.slice(0, 8).map((key) => location[key]).filter(Boolean).join(', ');
    return [{ key: JSON.stringify(LOCATION_KEYS.map((key) => location[key])), text: text || null, json: location }];
  },
  read: (row) => ({ ...row.json }),
};

/** "1 Infinite Loop, Cupertino, CA, 95014, US": read from the end (country, postcode, region, locality). */
function fromAddressLine(address: string): Record<string, string | null> {
  const parts = address.split(',').map((part) => part.trim()).filter(Boolean);
  const location: Record<string, string | null> = Object.fromEntries(LOCATION_KEYS.map((key) => [key, null]));
  if (parts.length > 1 && /^[A-Za-z]{2}$/.test(parts[parts.length - 1])) location.country_code = parts.pop()!.toUpperCase();
  if (parts.length > 1 && /\d/.test(parts[parts.length - 1])) location.postcode = parts.pop()!;
  if (parts.length > 2) location.region = parts.pop()!;
  if (parts.length > 1) location.locality = parts.pop()!;
  parts.slice(0, 4).forEach((line, i) => (location[`line_${i + 1}`] = line));
  if (parts.length > 4) location.line_4 = parts.slice(3).join(', ');
  return location;
}

/** `{first_name, last_name, full_name}` (all three), or "Last, First". */
export const personalNameCodec: ValueCodec = {
  type: 'personal-name',
  async parse(raw, attribute) {
    let first: string;
    let last: string;
    let full: string;
    if (typeof raw === 'string') {
      const comma = raw.indexOf(',');
      last = comma === -1 ? '' : raw.slice(0, comma).trim();
      first = (comma === -1 ? raw : raw.slice(comma + 1)).trim();
      full = [first, last].filter(Boolean).join(' ');
    } else if (isPlainObject(raw) && ['first_name', 'last_name', 'full_name'].every((key) => typeof raw[key] === 'string')) {
      const extra = Object.keys(raw).filter((k) => !['first_name', 'last_name', 'full_name', 'active_from', 'active_until', 'created_by_actor', 'attribute_type'].includes(k));
      if (extra.length > 0) throw invalidValue(attribute.slug, `unknown personal-name keys: ${extra.join(', ')}`);
      first = (raw.first_name as string).trim();
      last = (raw.last_name as string).trim();
      full = (raw.full_name as string).trim();
    } else {
      throw invalidValue(attribute.slug, 'expected {"first_name", "last_name", "full_name"} (all three strings) or "Last, First"', raw);
    }
    const json = { first_name: first, last_name: last, full_name: full };
    return [{ key: JSON.stringify([first, last, full]), text: full, json }];
  },
  read: (row) => ({ ...row.json }),
};

export const interactionCodec: ValueCodec = {
  type: 'interaction',
  async parse(_raw, attribute) {
    throw invalidValue(attribute.slug, 'interaction values are set by the system and cannot be written');
  },
  read: (row) => ({ ...row.json }),
};
