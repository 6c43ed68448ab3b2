import type { AttributeType } from '../attribute-type';
import type { ValueCodec } from './codec';
import {
  domainCodec,
  emailAddressCodec,
  interactionCodec,
  locationCodec,
  personalNameCodec,
  phoneNumberCodec,
} from './contact.codecs';
import { actorReferenceCodec, recordReferenceCodec, selectCodec, statusCodec } from './reference.codecs';
import {
  checkboxCodec,
  currencyCodec,
  dateCodec,
  numberCodec,
  ratingCodec,
  textCodec,
  timestampCodec,
} from './scalar.codecs';

/** One codec per type; the record map makes a missing type a compile error. */
export const CODECS: Record<AttributeType, ValueCodec> = {
  text: textCodec,
  number: numberCodec,
  checkbox: checkboxCodec,
  currency: currencyCodec,
  date: dateCodec,
  timestamp: timestampCodec,
  rating: ratingCodec,
  status: statusCodec,
  select: selectCodec,
  'record-reference': recordReferenceCodec,
  'actor-reference': actorReferenceCodec,
  location: locationCodec,
  domain: domainCodec,
  'email-address': emailAddressCodec,
  'phone-number': phoneNumberCodec,
  interaction: interactionCodec,
  'personal-name': personalNameCodec,
};

export * from './codec';
export { canonicalNumber, stripDecimal, CURRENCY_MAX_DECIMALS } from './scalar.codecs';
export { parseDate, parseTimestamp, toNanoIso } from './time';
export { normaliseDomain } from './contact.codecs';
