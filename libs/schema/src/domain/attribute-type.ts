/** The 17 attribute types of the reference API. */
export const ATTRIBUTE_TYPES = [
  'text',
  'number',
  'checkbox',
  'currency',
  'date',
  'timestamp',
  'rating',
  'status',
  'select',
  'record-reference',
  'actor-reference',
  'location',
  'domain',
  'email-address',
  'phone-number',
  'interaction',
  'personal-name',
] as const;

export type AttributeType = (typeof ATTRIBUTE_TYPES)[number];

export function isAttributeType(value: unknown): value is AttributeType {
  return typeof value === 'string' && (ATTRIBUTE_TYPES as readonly string[]).includes(value);
}

/** Types an integrator may create; interaction and personal-name are system-managed. */
export const CREATABLE_TYPES: ReadonlySet<AttributeType> = new Set(
  ATTRIBUTE_TYPES.filter((type) => type !== 'interaction' && type !== 'personal-name'),
);

/** Types that may hold several values at once. */
export const MULTISELECT_TYPES: ReadonlySet<AttributeType> = new Set<AttributeType>([
  'text',
  'select',
  'record-reference',
  'actor-reference',
  'domain',
  'email-address',
  'phone-number',
  'location',
  'number',
  'date',
  'timestamp',
]);

/** Types whose values can be unique across a container's records. */
export const UNIQUE_TYPES: ReadonlySet<AttributeType> = new Set<AttributeType>([
  'text',
  'number',
  'domain',
  'email-address',
  'phone-number',
]);

export const CURRENCY_CODES = [
  'ARS', 'AUD', 'BRL', 'BGN', 'CAD', 'CLP', 'CNY', 'COP', 'CZK', 'DKK', 'EUR', 'FJD', 'HKD', 'HUF', 'ISK',
  'INR', 'IDR', 'ILS', 'JPY', 'KES', 'KRW', 'MYR', 'MXN', 'NTD', 'NZD', 'NGN', 'NOK', 'XPF', 'PEN', 'PHP',
  'PLN', 'GBP', 'RWF', 'SAR', 'SGD', 'ZAR', 'SEK', 'CHF', 'THB', 'TRY', 'AED', 'UYU', 'USD',
] as const;

export const CURRENCY_DISPLAY_TYPES = ['code', 'name', 'narrowSymbol', 'symbol'] as const;

export interface AttributeConfig {
  currency?: { default_currency_code: string | null; display_type: string | null };
  record_reference?: { allowed_object_ids: string[] | null };
}
